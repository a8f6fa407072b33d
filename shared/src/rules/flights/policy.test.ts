import { describe, expect, it } from 'vitest';
import { PERMISSION_KEYS, type PermissionKey } from '../../permissions.ts';
import { ROLES } from '../../roles.ts';
import {
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
});
