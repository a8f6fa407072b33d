import {
  PEOPLE_TYPES,
  type PersonalDoc,
  peopleCollection,
  personalCollection,
  type ReferenceDoc,
  referenceCollection,
} from '@ops/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { defineCollection, recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import './bases.tables.ts';
import { presentSchedule } from './duty-entries.service.ts';

const scheduleQuery = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('base_schedules as s')
    .leftJoin('bases as b', 'b.id', 's.base_id')
    .selectAll('s')
    .select('b.name as base_name')
    .where('s.company_id', '=', companyId);
const scheduleDoc = (s: Awaited<ReturnType<ReturnType<typeof scheduleQuery>['execute']>>[number]): PersonalDoc => ({
  id: s.id,
  type: 'schedule',
  user_id: s.user_id,
  data: { BaseSchedule: presentSchedule(s), Base: { id: s.base_id, name: s.base_name } },
  updated: Number(s.modified),
});

/**
 * Own base schedule entries, the `schedule` record type of `people`: the REST
 * `BaseSchedule` under `data`, with the base name for offline display.
 * Read-only on devices.
 */
export const dutyEntryRecords = recordType<PersonalDoc>(peopleCollection, {
  types: [PEOPLE_TYPES.schedule],
  sources: [
    tableSource({
      tables: ['base_schedules'],
      alias: 's',
      rows: personalCollection.rows,
      query: scheduleQuery,
      toDoc: scheduleDoc,
    }),
  ],
  async load(db, companyId, id) {
    const s = await scheduleQuery(db, companyId).where('s.id', '=', id).executeTakeFirst();
    return s ? { ...scheduleDoc(s), _deleted: !!s.deleted } : null;
  },
});

/** Bases as `base` reference documents. */
export const basesReference = defineCollection<ReferenceDoc>({
  def: referenceCollection,
  sources: [
    tableSource({
      tables: ['bases'],
      alias: 'b',
      rows: { kind: 'company' },
      query: (db, companyId) => db.selectFrom('bases as b').selectAll('b').where('b.company_id', '=', companyId),
      toDoc: (b): ReferenceDoc => ({
        id: b.id,
        type: 'base',
        name: b.name,
        data: {
          Base: { id: b.id, name: b.name, default: !!b.is_default, airport_id: b.airport_id, company_id: b.company_id },
        },
        updated: b.modified,
      }),
    }),
  ],
});

/** A deleted row is only a tombstone here: purged after the retention horizon. */
