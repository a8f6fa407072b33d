import { type AircraftDoc, aircraftCollection, FLEET_TYPES, fleetCollection } from '@ops/shared';
import type { Kysely } from 'kysely';
import { updateAircraft } from './aircraft.service.ts';
import type { DB } from '../../db/schema.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';

const query = (db: Kysely<DB>, companyId: string) =>
  db
    .selectFrom('aircraft as a')
    .leftJoin('aircraft_models as m', 'm.id', 'a.model_id')
    .leftJoin('aircraft_manufacturers as f', 'f.id', 'm.manufacturer_id')
    .selectAll('a')
    .select(['m.name as model_name', 'm.icao as model_icao', 'f.name as manufacturer_name'])
    .where('a.company_id', '=', companyId);

type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];

const toDoc = (a: Row): AircraftDoc => ({
  id: a.id,
  registration: a.registration,
  model_name: a.model_name,
  model_icao: a.model_icao,
  manufacturer_name: a.manufacturer_name,
  multiengine: !!a.multiengine,
  multipilot: !!a.multipilot,
  simulator: !!a.simulator,
  active: !!a.active,
  hours: a.hours,
  landings: a.landings,
  flights: a.flights,
  user_id: a.user_id,
  base_id: a.base_id,
});

/** Aircraft, the `aircraft` record type of the `fleet` collection. */
export const aircraftRecords = recordType<AircraftDoc>(fleetCollection, {
  types: [FLEET_TYPES.aircraft],
  sources: [tableSource({ tables: ['aircraft'], alias: 'a', rows: aircraftCollection.rows, query, toDoc })],
  async load(db, companyId, id) {
    const row = await query(db, companyId).where('a.id', '=', id).executeTakeFirst();
    return row ? { ...toDoc(row), _deleted: !!row.deleted } : null;
  },
  async write(ctx, actor, next, master) {
    if (!master) return { ok: false, reason: 'Aircraft are created by managers online, not from a device' };
    await ctx.tx((uow) =>
      updateAircraft(uow, actor, next.id, {
        registration: next.registration,
        active: next.active,
        base_id: next.base_id,
        user_id: next.user_id,
      }),
    );
    return { ok: true };
  },
});
