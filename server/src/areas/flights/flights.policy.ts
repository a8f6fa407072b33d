import { FLIGHT_INVOLVED_FIELDS, type PermissionKey } from '@ops/shared';
import { UNCONFIRMED } from './flights.repository.ts';

/** Who acts: role, id and the company permission keys of the role. */
export interface FlightActor {
  userId: string;
  role: number;
  perms: Record<PermissionKey, boolean>;
}

export interface FlightPeople {
  status: string;
  pic_id: string | null;
  sic_id: string | null;
  supervisor_id: string | null;
  user_id: string | null;
}

const STAFF_MAX_ROLE = 170;
export const isStaff = (a: FlightActor) => a.role <= STAFF_MAX_ROLE;
export const isCrew = (a: FlightActor, f: FlightPeople) => a.userId === f.pic_id || a.userId === f.sic_id || a.userId === f.supervisor_id;
/** The `involved` row scope of the flights collection: crew or creator. */
export const isInvolved = (a: FlightActor, f: FlightPeople) => FLIGHT_INVOLVED_FIELDS.some((k) => f[k] === a.userId);
const isClosed = (f: FlightPeople) => f.status === 'CANCELED' || f.status === 'DELETED';

/** Part B 4.6 item 2: roles above 170 see flights they are involved in, or of the aircraft they own. */
export const canView = (a: FlightActor, f: FlightPeople, aircraftOwnerId: string | null) =>
  isStaff(a) || isInvolved(a, f) || (aircraftOwnerId !== null && aircraftOwnerId === a.userId);

/** Roles above 170 act only on flights they can list (the collection's rows); staff on any. */
const reaches = (a: FlightActor, f: FlightPeople) => isStaff(a) || isInvolved(a, f);

export const canCreate = (a: FlightActor) => a.perms['Flight.create'];

/**
 * Edit: never a canceled or deleted flight; a LANDED one only with Flight.edit
 * (CONTRACT 4); an unconfirmed one with Flight.edit, or with Flight.create by
 * its crew or creator.
 */
export function canEdit(a: FlightActor, f: FlightPeople): boolean {
  if (isClosed(f) || !reaches(a, f)) return false;
  if (f.status === 'LANDED') return a.perms['Flight.edit'];
  return a.perms['Flight.edit'] || (a.perms['Flight.create'] && isInvolved(a, f));
}

export const canConfirm = (a: FlightActor, f: FlightPeople) => UNCONFIRMED.includes(f.status) && a.perms['Flight.confirm'] && reaches(a, f);

/** Part B 4.6 item 3: any of the three keys, or crew, or creator (within what the caller can see). */
export const canCancel = (a: FlightActor, f: FlightPeople) =>
  reaches(a, f) && (a.perms['Flight.create'] || a.perms['Flight.edit'] || a.perms['Flight.confirm'] || isInvolved(a, f));

/** Part B 4.6 item 5: Flight.create or Flight.edit, or creator, PIC, SIC, supervisor. */
export const canDispatch = (a: FlightActor, f: FlightPeople) => reaches(a, f) && (a.perms['Flight.create'] || a.perms['Flight.edit'] || isInvolved(a, f));

export const canDelete = (a: FlightActor, f: FlightPeople) => !isClosed(f) && canCancel(a, f);
