import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Company-scoped flight type queries: the company id comes first in every call. */
const typeQuery = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('flight_types')
    .select([
      'id',
      'name',
      'color',
      'booking',
      'pic_flight_time',
      'sic_flight_time',
      'supervisor_flight_time',
      'sort_order',
      'deleted',
      'created',
      'modified',
    ])
    .where('company_id', '=', companyId);

export type FlightTypeRow = Awaited<ReturnType<ReturnType<typeof typeQuery>['execute']>>[number];
export interface CertificateRequirement {
  flight_type_id: string;
  role: string;
  certificate_type: string;
}

export const flightTypesRepository = {
  list(db: Kysely<DB>, companyId: string, opts: { includeDeleted: boolean; bookingOnly: boolean }) {
    let q = typeQuery(db, companyId);
    if (!opts.includeDeleted) q = q.where('deleted', '=', 0);
    if (opts.bookingOnly) q = q.where('booking', '=', 1);
    return q.orderBy('sort_order').orderBy('name').orderBy('id').execute();
  },
  find: (db: Kysely<DB>, companyId: string, id: string) =>
    typeQuery(db, companyId).where('id', '=', id).executeTakeFirst(),
  /** Requirements of several types in one query (no query per type). */
  async requirements(
    db: Kysely<DB>,
    companyId: string,
    typeIds: readonly string[],
  ): Promise<Map<string, CertificateRequirement[]>> {
    const out = new Map<string, CertificateRequirement[]>();
    if (!typeIds.length) return out;
    const rows = await db
      .selectFrom('flight_type_certificates')
      .select(['flight_type_id', 'role', 'certificate_type'])
      .where('company_id', '=', companyId)
      .where('flight_type_id', 'in', [...typeIds])
      .orderBy('role')
      .orderBy('certificate_type')
      .execute();
    for (const r of rows) {
      const list = out.get(r.flight_type_id) ?? [];
      list.push(r);
      out.set(r.flight_type_id, list);
    }
    return out;
  },
  async usage(db: Kysely<DB>, companyId: string, id: string): Promise<number> {
    const row = await db
      .selectFrom('flights')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', companyId)
      .where('flight_type_id', '=', id)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
};
