import type { Updateable } from 'kysely';
import type { UsersTable } from '../../db/core-tables.ts';
import type { TUserDetailFields } from './users.schema.ts';

/** A boolean of a body as a column flag; undefined means "leave alone". */
export const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** The object without its undefined entries, so an update touches only what the body named. */
export const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * `UserDetail` fields of a body (own profile, user administration, pilots) as
 * the `users` columns it sets; omitted fields are left out. `notes` and
 * `flight_hours` only come from managers' bodies.
 */
export function detailColumns(
  d: TUserDetailFields & { notes?: string | null; flight_hours?: number },
): Updateable<UsersTable> {
  return defined({
    name: d.name,
    surname: d.surname,
    passport: d.passport,
    companyid: d.companyid,
    dob: d.dob,
    phonecode: d.phonecode,
    phone: d.phone,
    phonecode2: d.phonecode2,
    phone2: d.phone2,
    emergency_contact: d.emergency_contact,
    public_phone: flag(d.public_phone),
    address: d.address,
    pc: d.pc,
    city: d.city,
    country_id: d.country_id,
    timezone_id: d.timezone_id,
    nationality: d.nationality,
    birthcountry_id: d.birthcountry_id,
    color: d.color,
    notes: d.notes,
    flight_hours: d.flight_hours,
  });
}
