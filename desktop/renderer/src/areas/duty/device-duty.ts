/**
 * Duty on the device (issue 30): the same shared rule as the server, fed from
 * the replicated flights, the person's own base schedule entries and bookings,
 * so "My duty" and the booking refusal work offline. The server re-decides
 * every booking when its command arrives.
 */
import type { AircraftDoc, BookingDoc, FlightDoc, PersonalDoc, ReferenceDoc, UserDoc } from '@ops/shared';
import {
  checkDuty,
  type DutyFlight,
  type DutyLimits,
  type DutyRefusal,
  dutySpanOf,
  type Span,
} from '@ops/shared/rules/duty/duty';
import { DateTime } from 'luxon';
import { useMemo } from 'react';
import { fullName, useCompany, useDocs, useUsers } from '../../hooks.ts';

export interface DeviceDuty {
  zone: string;
  limits: DutyLimits;
  /** DUTY entries per user (only the signed-in person's are on the device). */
  entries: (Span & { user_id: string })[];
  /** LANDED flights per crew member (any seat). */
  flights: (DutyFlight & { id: string; user_id: string; status: string })[];
  /** Planned duty of live bookings and dispatched flights per person. */
  planned: (Span & { user_id: string; booking_id?: string; flight_id?: string | null })[];
  simulators: Set<string>;
  users: Map<string, UserDoc>;
}

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;

/** The company's limits from the replicated company document (null: no limit). */
export function limitsOf(data: Record<string, unknown> | null): DutyLimits {
  const setting = (data?.CompanySetting ?? {}) as Record<string, unknown>;
  return { max_duty_hours: num(setting.max_duty_hours), max_flight_hours_year: num(setting.max_flight_hours_year) };
}

/** Builds the duty inputs from local documents (pure, so the unit test and the hook share it). */
export function deviceDutyOf(input: {
  flights: readonly FlightDoc[];
  personal: readonly PersonalDoc[];
  bookings: readonly BookingDoc[];
  aircraft: readonly AircraftDoc[];
  company: Record<string, unknown> | null;
  zone: string;
  users: Map<string, UserDoc>;
}): DeviceDuty {
  const simulators = new Set(input.aircraft.filter((a) => a.simulator).map((a) => a.id));
  const flights: DeviceDuty['flights'] = [];
  const planned: DeviceDuty['planned'] = [];
  for (const f of input.flights) {
    if (f.offblocks == null || f.onblocks == null) continue;
    const crew = [...new Set([f.pic_id, f.sic_id, f.supervisor_id].filter((x): x is string => !!x))];
    for (const user_id of crew) {
      if (f.status === 'LANDED')
        flights.push({
          id: f.id,
          user_id,
          status: f.status,
          offblocks: f.offblocks,
          onblocks: f.onblocks,
          flight_time: Number(f.flight_time ?? 0),
          simulator: !!f.aircraft_id && simulators.has(f.aircraft_id),
        });
      else if (f.status === 'DISPATCHED')
        planned.push({ user_id, start: f.offblocks, end: f.onblocks, flight_id: f.id });
    }
  }
  const flightStatus = new Map(input.flights.map((f) => [f.id, f.status]));
  for (const b of input.bookings) {
    if (b.status !== 'BOOKED') continue;
    const s = b.flight_id ? flightStatus.get(b.flight_id) : undefined;
    if (s && ['LANDED', 'CANCELED', 'DELETED', 'DISPATCHED'].includes(s)) continue;
    for (const user_id of [b.pilot_id, b.instructor_id].filter((x): x is string => !!x))
      planned.push({ user_id, start: b.start, end: b.end, booking_id: b.id, flight_id: b.flight_id });
  }
  const entries: DeviceDuty['entries'] = [];
  for (const p of input.personal) {
    if (p.type !== 'schedule') continue;
    const e = (p.data?.BaseSchedule ?? p.data ?? {}) as Record<string, unknown>;
    const start = num(e.start);
    const end = num(e.end);
    if (e.type !== 'DUTY' || e.always === true || start === null || end === null) continue;
    entries.push({ user_id: p.user_id, start, end });
  }
  return {
    zone: input.zone,
    limits: limitsOf(input.company),
    entries,
    flights,
    planned,
    simulators,
    users: input.users,
  };
}

/** Every local document duty needs, live. */
export function useDeviceDuty(): DeviceDuty {
  const { docs: flights } = useDocs<FlightDoc>('flights');
  const { docs: personal } = useDocs<PersonalDoc>('personal', { selector: { type: 'schedule' } });
  const { docs: bookings } = useDocs<BookingDoc>('bookings', { selector: { status: 'BOOKED' } });
  const { docs: aircraft } = useDocs<AircraftDoc>('aircraft');
  const { docs: companyDocs } = useDocs<ReferenceDoc>('reference', { selector: { type: 'company' } });
  const { display } = useCompany();
  const users = useUsers();
  const company = companyDocs[0]?.data ?? null;
  return useMemo(
    () => deviceDutyOf({ flights, personal, bookings, aircraft, company, zone: display.companyZone, users }),
    [flights, personal, bookings, aircraft, company, display.companyZone, users],
  );
}

/** One person's duty spans on the device, the plan being changed left out. */
export function spansOf(
  d: DeviceDuty,
  userId: string,
  except: { bookingId?: string; flightId?: string | null } = {},
): Span[] {
  return [
    ...d.entries.filter((e) => e.user_id === userId),
    ...d.flights
      .filter((f) => f.user_id === userId && f.id !== except.flightId)
      .map((f) => dutySpanOf(f.offblocks, f.onblocks)),
    ...d.planned
      .filter(
        (p) =>
          p.user_id === userId &&
          (!except.bookingId || p.booking_id !== except.bookingId) &&
          (!except.flightId || p.flight_id !== except.flightId),
      )
      .map((p) => dutySpanOf(p.start, p.end)),
  ];
}

/** Flight seconds flown by a person in the calendar year of `at` (simulators left out). */
export function yearFlightSeconds(d: DeviceDuty, userId: string, at: number): number {
  const y = DateTime.fromSeconds(at, { zone: d.zone }).startOf('year');
  const from = y.toUnixInteger();
  const to = y.plus({ years: 1 }).toUnixInteger();
  return d.flights
    .filter((f) => f.user_id === userId && !f.simulator && f.offblocks >= from && f.offblocks < to)
    .reduce((s, f) => s + f.flight_time, 0);
}

/**
 * The booking hook of the schedule screen: the shared `checkDuty` for the
 * pilot and the instructor with what the device knows, or null.
 */
export function deviceBookingRefusal(
  d: DeviceDuty,
  b: { id?: string; aircraft_id: string; pilot_id: string; instructor_id: string | null; start: number; end: number },
): DutyRefusal | null {
  const simulator = d.simulators.has(b.aircraft_id);
  for (const userId of [b.pilot_id, b.instructor_id].filter((x): x is string => !!x)) {
    const u = d.users.get(userId);
    const r = checkDuty({
      name: u ? fullName(u) : 'This person',
      planned: { start: b.start, end: b.end },
      plannedFlightSeconds: simulator ? 0 : b.end - b.start,
      duty: spansOf(d, userId, { bookingId: b.id }),
      yearFlightSeconds: yearFlightSeconds(d, userId, b.start),
      zone: d.zone,
      limits: d.limits,
    });
    if (r) return r;
  }
  return null;
}

/** The dispatch hook of the flights screen: the crew of a flight against both limits, in the server's words. */
export function deviceDispatchRefusal(
  d: DeviceDuty,
  f: Pick<FlightDoc, 'id' | 'aircraft_id' | 'pic_id' | 'sic_id' | 'supervisor_id' | 'offblocks' | 'onblocks'>,
): DutyRefusal | null {
  if (f.offblocks == null || f.onblocks == null) return null;
  const simulator = !!f.aircraft_id && d.simulators.has(f.aircraft_id);
  for (const userId of [...new Set([f.pic_id, f.sic_id, f.supervisor_id].filter((x): x is string => !!x))]) {
    const u = d.users.get(userId);
    const r = checkDuty({
      name: u ? fullName(u) : 'This person',
      planned: { start: f.offblocks, end: f.onblocks },
      plannedFlightSeconds: simulator ? 0 : f.onblocks - f.offblocks,
      duty: spansOf(d, userId, { flightId: f.id }),
      yearFlightSeconds: yearFlightSeconds(d, userId, f.offblocks),
      zone: d.zone,
      limits: d.limits,
    });
    if (r)
      return {
        ...r,
        message: `Dispatch refused: ${r.message}`,
        // The refusal's own sentence is the one piece of the `reason` list.
        text: { id: 'duty.dispatchRefused', lists: { reason: [r.text] } },
      };
  }
  return null;
}
