import { FLIGHT_INVOLVED_FIELDS } from '../../collections/flights.ts';
import type { PermissionKey } from '../../permissions.ts';
import { isStaff, type PolicyActor, ROLES } from '../../roles.ts';

/**
 * Who may do what to a flight (Part B 4.6, CONTRACT 4). The server's services and
 * sync commands ask these, and a device decides dispatch, edit and cancel rights
 * offline with the same rule (the company permission keys of the actor's role come
 * with the session).
 */

/** Who acts, with the company permission keys of their role. */
export type FlightPolicyActor = PolicyActor & { perms: Record<PermissionKey, boolean> };

export interface FlightPeople {
  status: string;
  pic_id: string | null;
  sic_id: string | null;
  supervisor_id: string | null;
  user_id: string | null;
}

/** Stored states a flight can be confirmed from. */
export const UNCONFIRMED: readonly string[] = ['DRAFT', 'SCHEDULED', 'DISPATCHED'];

/** Staff (<= 170) list and act on every flight of the company; others on the ones they are involved in. */
export const seesAllFlights = (a: Pick<PolicyActor, 'role'>): boolean => isStaff(a.role);
export const isCrew = (a: PolicyActor, f: Omit<FlightPeople, 'status' | 'user_id'>) =>
  a.userId === f.pic_id || a.userId === f.sic_id || a.userId === f.supervisor_id;
/** The `involved` row scope of the flights collection: crew or creator. */
export const isInvolved = (a: PolicyActor, f: Omit<FlightPeople, 'status'>) =>
  FLIGHT_INVOLVED_FIELDS.some((k) => f[k] === a.userId);
const isClosed = (f: FlightPeople) => f.status === 'CANCELED' || f.status === 'DELETED';

/** Part B 4.6 item 2: roles above 170 see flights they are involved in, or of the aircraft they own. */
export const mayViewFlight = (a: PolicyActor, f: FlightPeople, aircraftOwnerId: string | null) =>
  seesAllFlights(a) || isInvolved(a, f) || (aircraftOwnerId !== null && aircraftOwnerId === a.userId);

/** Roles above 170 act only on flights they can list (the collection's rows); staff on any. */
export const reachesFlight = (a: PolicyActor, f: Omit<FlightPeople, 'status'>) => seesAllFlights(a) || isInvolved(a, f);

export const mayCreateFlight = (a: FlightPolicyActor) => a.perms['Flight.create'];

/** Log a flight with these people: staff any, others only one they are PIC, SIC or supervisor of. */
export const mayLogFlightWith = (a: PolicyActor, f: Omit<FlightPeople, 'status' | 'user_id'>) =>
  seesAllFlights(a) || isCrew(a, f);

/**
 * Edit: never a canceled or deleted flight; a LANDED one only with Flight.edit
 * (CONTRACT 4); an unconfirmed one with Flight.edit, or with Flight.create by
 * its crew or creator.
 */
export function mayEditFlight(a: FlightPolicyActor, f: FlightPeople): boolean {
  if (isClosed(f) || !reachesFlight(a, f)) return false;
  if (f.status === 'LANDED') return a.perms['Flight.edit'];
  return a.perms['Flight.edit'] || (a.perms['Flight.create'] && isInvolved(a, f));
}

export const mayConfirmFlight = (a: FlightPolicyActor, f: FlightPeople) =>
  UNCONFIRMED.includes(f.status) && a.perms['Flight.confirm'] && reachesFlight(a, f);

/**
 * Acting for a flight without a permission key: its PIC, SIC, supervisor or
 * creator (Part B 4.6 items 3 and 5). Decided (issue 28 item 8): a student pilot
 * flying under instruction (the instructor PIC, the student SIC) does not
 * dispatch or cancel the lesson: a student acts so only as PIC (solo,
 * supervised solo) or creator.
 */
export const actsForFlight = (a: PolicyActor, f: Omit<FlightPeople, 'status'>) =>
  a.role === ROLES.STUDENT ? a.userId === f.pic_id || a.userId === f.user_id : isInvolved(a, f);

/** Part B 4.6 item 3: any of the three keys, or crew, or creator (within what the caller can see). */
export const mayCancelFlight = (a: FlightPolicyActor, f: FlightPeople) =>
  reachesFlight(a, f) &&
  (a.perms['Flight.create'] || a.perms['Flight.edit'] || a.perms['Flight.confirm'] || actsForFlight(a, f));

/**
 * Part B 4.6 item 5: Flight.create or Flight.edit, or creator, PIC, SIC, supervisor.
 * An aircraft with an EXPIRED MEL or CDL item is not dispatched by anyone
 * (`aircraftBlock` in rules/aircraft-reports/mel.ts, asked after this).
 */
export const mayDispatchFlight = (a: FlightPolicyActor, f: FlightPeople) =>
  reachesFlight(a, f) && (a.perms['Flight.create'] || a.perms['Flight.edit'] || actsForFlight(a, f));

export const mayDeleteFlight = (a: FlightPolicyActor, f: FlightPeople) => !isClosed(f) && mayCancelFlight(a, f);

/** FRAT: the crew or staff assess a flight before dispatch. */
export const mayAssessFlight = (a: PolicyActor, f: Omit<FlightPeople, 'status' | 'user_id'>) =>
  seesAllFlights(a) || isCrew(a, f);

/** The screen a role starts on: flight instructors, dispatchers, pilots and students on their flights; the others on the fleet. */
export const startsOnFlights = (role: number): boolean => role >= ROLES.FLIGHT_INSTRUCTOR && role <= ROLES.STUDENT;

/** Why a person cannot log a flight here, or null when they can (the screen says it instead of a grey button). */
export const createFlightRefusal = (a: FlightPolicyActor): string | null =>
  mayCreateFlight(a)
    ? null
    : 'Your role does not log flights in this company (it needs the permission to create flights); flights you are crew of still show here.';

/** The actions a screen offers on one flight: exactly the ones the server would take from this person. */
export interface FlightButtons {
  edit: boolean;
  dispatch: boolean;
  confirm: boolean;
  /** Cancel an unconfirmed flight (CANCELED). */
  cancel: boolean;
  /** Cancel a LANDED flight: it becomes DELETED, leaves the logbook and the aircraft's books. */
  delete: boolean;
}

export function flightButtons(a: FlightPolicyActor, f: FlightPeople): FlightButtons {
  const open = UNCONFIRMED.includes(f.status) || f.status === 'DELAYED';
  const removable = mayDeleteFlight(a, f);
  return {
    edit: open && mayEditFlight(a, f),
    dispatch: (f.status === 'DRAFT' || f.status === 'SCHEDULED' || f.status === 'DELAYED') && mayDispatchFlight(a, f),
    confirm: open && mayConfirmFlight(a, { ...f, status: f.status === 'DELAYED' ? 'SCHEDULED' : f.status }),
    cancel: open && removable,
    delete: f.status === 'LANDED' && removable,
  };
}
