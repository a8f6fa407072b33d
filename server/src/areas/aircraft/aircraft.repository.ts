import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import './aircraft.tables.ts';

/** Company-scoped aircraft queries: the company id comes first in every call. */
function baseQuery(db: Kysely<DB>, companyId: string) {
  return db
    .selectFrom('aircraft as a')
    .leftJoin('aircraft_models as m', 'm.id', 'a.model_id')
    .leftJoin('aircraft_manufacturers as f', 'f.id', 'm.manufacturer_id')
    .select([
      'a.id',
      'a.registration',
      'a.multiengine',
      'a.multipilot',
      'a.simulator',
      'a.active',
      'a.hours',
      'a.landings',
      'a.user_id',
      'a.base_id',
      'a.model_id',
      'a.serial_number',
      'a.adsb',
      'a.insurance_expiration',
      'a.airworthiness_expiration',
      'a.registration_expiration',
      'a.weight_balance_expiration',
      'a.radio_expiration',
      'a.avionics_expiration',
      'm.name as model_name',
      'm.icao as model_icao',
      'f.name as manufacturer_name',
    ])
    .where('a.company_id', '=', companyId)
    .where('a.deleted', '=', 0);
}

export const aircraftRepository = {
  list: (db: Kysely<DB>, companyId: string) => baseQuery(db, companyId).orderBy('a.registration').execute(),
  find: (db: Kysely<DB>, companyId: string, id: string) =>
    baseQuery(db, companyId).where('a.id', '=', id).executeTakeFirst(),
};
