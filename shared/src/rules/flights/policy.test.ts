import { describe, expect, it } from 'vitest';
import { PERMISSION_KEYS, type PermissionKey } from '../../permissions.ts';
import { ROLES } from '../../roles.ts';
import {
  createFlightRefusal,
  flightButtons,
  type FlightPeople,
  mayCancelFlight,
  mayConfirmFlight,
  mayDeleteFlight,
  mayDispatchFlight,
  mayEditFlight,
  mayViewFlight,
  seesAllFlights,
} from './policy.ts';

const perms = (...keys: PermissionKey[]) =>
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, keys.includes(k)])) as Record<PermissionKey, boolean>;
const flight = (status: string, people: Partial<FlightPeople> = {}): FlightPeople => ({
  status,
  pic_id: 'pic',
  sic_id: null,
  supervisor_id: null,
  user_id: 'maker',
  ...people,
});

describe('flights policy', () => {
  const office = {
    userId: 'office',
    role: ROLES.DISPATCHER,
    perms: perms('Flight.create', 'Flight.edit', 'Flight.confirm'),
  };
  const pic = { userId: 'pic', role: ROLES.PILOT, perms: perms('Flight.create') };
  const stranger = { userId: 'x', role: ROLES.PILOT, perms: perms('Flight.create', 'Flight.edit', 'Flight.confirm') };

  it('staff see and act on every flight; others only on the ones they are involved in', () => {
    expect(seesAllFlights(office)).toBe(true);
    expect(seesAllFlights(pic)).toBe(false);
    expect(mayViewFlight(stranger, flight('SCHEDULED'), null)).toBe(false);
    expect(mayViewFlight(stranger, flight('SCHEDULED'), 'x')).toBe(true);
    expect(mayDispatchFlight(stranger, flight('SCHEDULED'))).toBe(false);
  });

  it('the crew dispatches and cancels without keys; a LANDED flight is edited only with Flight.edit', () => {
    expect(mayDispatchFlight({ ...pic, perms: perms() }, flight('SCHEDULED'))).toBe(true);
    expect(mayCancelFlight({ ...pic, perms: perms() }, flight('SCHEDULED'))).toBe(true);
    expect(mayEditFlight(pic, flight('SCHEDULED'))).toBe(true);
    expect(mayEditFlight(pic, flight('LANDED'))).toBe(false);
    expect(mayEditFlight(office, flight('LANDED'))).toBe(true);
  });

  it('never edits or deletes a canceled flight; confirms only unconfirmed ones with the key', () => {
    expect(mayEditFlight(office, flight('CANCELED'))).toBe(false);
    expect(mayDeleteFlight(office, flight('CANCELED'))).toBe(false);
    expect(mayConfirmFlight(office, flight('DISPATCHED'))).toBe(true);
    expect(mayConfirmFlight(office, flight('LANDED'))).toBe(false);
    expect(mayConfirmFlight(pic, flight('DISPATCHED'))).toBe(false);
  });

  const student = { userId: 'stu', role: ROLES.STUDENT, perms: perms() };
  const lesson = (status: string) => flight(status, { pic_id: 'fi', sic_id: 'stu', user_id: 'office' });

  it('a student under instruction (instructor PIC) may not edit, dispatch, confirm or cancel the lesson', () => {
    expect(mayDispatchFlight(student, lesson('SCHEDULED'))).toBe(false);
    expect(mayCancelFlight(student, lesson('SCHEDULED'))).toBe(false);
    expect(flightButtons(student, lesson('SCHEDULED'))).toEqual({
      edit: false,
      dispatch: false,
      confirm: false,
      cancel: false,
      delete: false,
    });
    // As PIC (supervised solo) or creator the student acts as crew, as Part B 4.6 says.
    const solo = flight('SCHEDULED', { pic_id: 'stu', supervisor_id: 'fi', user_id: 'office' });
    expect(flightButtons(student, solo)).toMatchObject({ dispatch: true, cancel: true, edit: false });
    expect(mayCancelFlight(student, flight('DRAFT', { pic_id: 'fi', sic_id: 'stu', user_id: 'stu' }))).toBe(true);
    // A pilot as SIC keeps the spec's crew rights.
    const sicPilot = { userId: 'p2', role: ROLES.PILOT, perms: perms() };
    expect(mayDispatchFlight(sicPilot, flight('DRAFT', { sic_id: 'p2' }))).toBe(true);
  });

  it('buttons follow the status: a LANDED flight offers delete (not cancel) and only Flight.edit-free actions', () => {
    expect(flightButtons(pic, flight('LANDED'))).toEqual({
      edit: false,
      dispatch: false,
      confirm: false,
      cancel: false,
      delete: true,
    });
    expect(flightButtons(office, flight('DELAYED'))).toEqual({
      edit: true,
      dispatch: true,
      confirm: true,
      cancel: true,
      delete: false,
    });
    expect(flightButtons(office, flight('CANCELED'))).toMatchObject({ cancel: false, delete: false, edit: false });
    expect(flightButtons(pic, flight('DISPATCHED'))).toMatchObject({ dispatch: false, confirm: false, edit: true });
  });

  it('who may not create flights is told why', () => {
    expect(createFlightRefusal(office)).toBeNull();
    expect(createFlightRefusal({ userId: 'm', role: ROLES.MECHANIC, perms: perms() })).toMatch(/does not log flights/);
  });
});
