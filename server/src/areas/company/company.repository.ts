import { type CompanyFormats, companyFormatsOf } from '@ops/shared/i18n/index';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** The company's date, time and duration formats and zone (Part A 2.2), for documents and mails. */
export async function companyFormats(db: Kysely<DB>, companyId: string): Promise<CompanyFormats> {
  const row = await db
    .selectFrom('companies')
    .select(['timezone', 'date_format', 'time_format', 'duration_format'])
    .where('id', '=', companyId)
    .executeTakeFirst();
  return companyFormatsOf(row ?? {});
}
