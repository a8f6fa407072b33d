import { type PersonalDoc, personalCollection } from '@ops/shared';
import '../../areas/bases/bases.tables.ts';
import { presentSchedule } from '../../areas/bases/schedules.service.ts';
import { presentCertificate } from '../../areas/certificates/certificates.service.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { ServerCollection } from '../registry.ts';
import { tableSource } from '../table-source.ts';

const certificateQuery = (db: Kysely<DB>, companyId: string) => db.selectFrom('user_certificates as c').selectAll('c').where('c.company_id', '=', companyId);
const certificateDoc = (c: Awaited<ReturnType<ReturnType<typeof certificateQuery>['execute']>>[number]): PersonalDoc => ({
  id: c.id,
  type: 'certificate',
  user_id: c.user_id,
  data: { UserCertificate: presentCertificate(c) },
  updated: Number(c.modified),
});

/** Own certificates: the REST `UserCertificate` under `data`. */
const certificateSource = tableSource({ tables: ['user_certificates'], alias: 'c', rows: personalCollection.rows, query: certificateQuery, toDoc: certificateDoc });

const scheduleQuery = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('base_schedules as s').leftJoin('bases as b', 'b.id', 's.base_id').selectAll('s').select('b.name as base_name').where('s.company_id', '=', companyId);
const scheduleDoc = (s: Awaited<ReturnType<ReturnType<typeof scheduleQuery>['execute']>>[number]): PersonalDoc => ({
  id: s.id,
  type: 'schedule',
  user_id: s.user_id,
  data: { BaseSchedule: presentSchedule(s), Base: { id: s.base_id, name: s.base_name } },
  updated: Number(s.modified),
});

/** Own base schedule entries: the REST `BaseSchedule` under `data`, with the base name for offline display. */
const scheduleSource = tableSource({ tables: ['base_schedules'], alias: 's', rows: personalCollection.rows, query: scheduleQuery, toDoc: scheduleDoc });

/** Read-only on devices: certificates and schedules are written through REST, where their rules run. */
export const personalServerCollection: ServerCollection<PersonalDoc> = {
  def: personalCollection,
  sources: [certificateSource, scheduleSource],
  /** The master of a pushed document, so a device's edit is answered with it as a conflict. */
  async load(db, companyId, id) {
    const c = await certificateQuery(db, companyId).where('c.id', '=', id).executeTakeFirst();
    if (c) return { ...certificateDoc(c), _deleted: !!c.deleted };
    const s = await scheduleQuery(db, companyId).where('s.id', '=', id).executeTakeFirst();
    return s ? { ...scheduleDoc(s), _deleted: !!s.deleted } : null;
  },
};
