import { PEOPLE_TYPES, type PersonalDoc, peopleCollection, personalCollection } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import { presentCertificate } from './certificates.service.ts';

const certificateQuery = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('user_certificates as c').selectAll('c').where('c.company_id', '=', companyId);
const certificateDoc = (
  c: Awaited<ReturnType<ReturnType<typeof certificateQuery>['execute']>>[number],
): PersonalDoc => ({
  id: c.id,
  type: 'certificate',
  user_id: c.user_id,
  data: { UserCertificate: presentCertificate(c) },
  updated: Number(c.modified),
});

/**
 * Own certificates, the `certificate` record type of `people`: the REST
 * `UserCertificate` under `data`. Read-only on devices (written through REST,
 * where the certificate rules run); `load` lets a device's edit be answered
 * with the master as a conflict.
 */
export const certificateRecords = recordType<PersonalDoc>(peopleCollection, {
  types: [PEOPLE_TYPES.certificate],
  sources: [
    tableSource({
      tables: ['user_certificates'],
      alias: 'c',
      rows: personalCollection.rows,
      query: certificateQuery,
      toDoc: certificateDoc,
    }),
  ],
  async load(db, companyId, id) {
    const c = await certificateQuery(db, companyId).where('c.id', '=', id).executeTakeFirst();
    return c ? { ...certificateDoc(c), _deleted: !!c.deleted } : null;
  },
});

/** A deleted row is only a tombstone here: purged after the retention horizon. */
