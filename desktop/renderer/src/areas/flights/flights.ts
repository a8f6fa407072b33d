/**
 * A flight as the form edits it and as the device stores it offline. Clock
 * fields are `HH:MM` in the flight zone (what the server takes); the instants,
 * block and flight time are computed here with the shared rule so the list,
 * sorting and the local overlap check are right before the server recomputes
 * them. Pure.
 */
import type { FlightDoc } from '@ops/shared';
import {
  computeFlightTimes,
  findOverlaps,
  flightStatusOnRead,
  UNCONFIRMED_STATUSES,
} from '@ops/shared/rules/flights/flight-times';
import { zonedToUnix } from '../../format.ts';

export interface FlightForm {
  date: string;
  status: 'DRAFT' | 'SCHEDULED';
  callsign: string;
  aircraft_id: string;
  flight_type_id: string;
  pic_id: string;
  sic_id: string;
  departure_airport: string;
  landing_airport: string;
  offblocks_time: string;
  takeoff_time: string;
  landing_time: string;
  onblocks_time: string;
  landings: string;
  rules: string;
  remarks: string;
}

export const FLIGHT_RULES = ['VFR', 'IFR', 'Y', 'Z'] as const;

export function emptyForm(me: string, today: string): FlightForm {
  return {
    date: today,
    status: 'DRAFT',
    callsign: '',
    aircraft_id: '',
    flight_type_id: '',
    pic_id: me,
    sic_id: '',
    departure_airport: '',
    landing_airport: '',
    offblocks_time: '',
    takeoff_time: '',
    landing_time: '',
    onblocks_time: '',
    landings: '1',
    rules: 'VFR',
    remarks: '',
  };
}

export function formOf(f: FlightDoc): FlightForm {
  return {
    date: f.date,
    status: f.status === 'SCHEDULED' ? 'SCHEDULED' : 'DRAFT',
    callsign: f.callsign ?? '',
    aircraft_id: f.aircraft_id ?? '',
    flight_type_id: f.flight_type_id ?? '',
    pic_id: f.pic_id ?? '',
    sic_id: f.sic_id ?? '',
    departure_airport: f.departure_airport ?? '',
    landing_airport: f.landing_airport ?? '',
    offblocks_time: f.offblocks_time ?? '',
    takeoff_time: f.takeoff_time ?? '',
    landing_time: f.landing_time ?? '',
    onblocks_time: f.onblocks_time ?? '',
    landings: String(f.landings ?? 0),
    rules: f.rules ?? '',
    remarks: f.remarks ?? '',
  };
}

export type FlightResult = { ok: true; doc: FlightDoc } | { ok: false; errors: Record<string, string> };

const blank = (v: string) => v.trim() === '';
const orNull = (v: string) => (blank(v) ? null : v.trim());
const ICAO = /^[A-Z0-9]{3,4}$/;

/**
 * The document to save for a form: a new flight (`base` null, with its new id)
 * or an edit of `base`. Validates what the server would refuse outright, so the
 * person fixes it now rather than after the next sync.
 */
export function flightDocFrom(
  form: FlightForm,
  base: FlightDoc | null,
  ids: { id: string; me: string },
  zone: string,
  nowSec: number,
): FlightResult {
  const errors: Record<string, string> = {};
  const dateMatch = /^(\d{4})-(\d{2})-(\d{2})$/.exec(form.date);
  if (!dateMatch) errors.date = 'Pick a date';
  for (const k of ['departure_airport', 'landing_airport'] as const) {
    if (!blank(form[k]) && !ICAO.test(form[k].trim().toUpperCase())) errors[k] = 'An ICAO code such as LECU';
  }
  const landings = blank(form.landings) ? 0 : Number(form.landings);
  if (!Number.isInteger(landings) || landings < 0 || landings > 999) errors.landings = 'A whole number from 0 to 999';
  const clocks = [form.offblocks_time, form.takeoff_time, form.landing_time, form.onblocks_time];
  let times: {
    offblocks: number | null;
    takeoff: number | null;
    landing: number | null;
    onblocks: number | null;
    block_time: number;
    flight_time: number;
  } = {
    offblocks: null,
    takeoff: null,
    landing: null,
    onblocks: null,
    block_time: 0,
    flight_time: 0,
  };
  if (clocks.some((c) => !blank(c)) && dateMatch) {
    // Off- and on-blocks make a flight timed; a draft may have neither yet, never just one.
    const t = computeFlightTimes({
      date: form.date,
      offblocks: form.offblocks_time,
      takeoff: orNull(form.takeoff_time),
      landing: orNull(form.landing_time),
      onblocks: form.onblocks_time,
      timeZone: zone,
    });
    if (!t.ok) Object.assign(errors, t.errors);
    else times = t;
  }
  if (Object.keys(errors).length || !dateMatch) return { ok: false, errors };
  const midnight = zonedToUnix(
    { year: Number(dateMatch[1]), month: Number(dateMatch[2]), day: Number(dateMatch[3]), hour: 0, minute: 0 },
    zone,
  );
  const doc: FlightDoc = {
    ...(base ?? blankFlight(ids.id, ids.me)),
    date: form.date,
    status: base && base.status !== 'DRAFT' && base.status !== 'SCHEDULED' ? base.status : form.status,
    callsign: orNull(form.callsign),
    aircraft_id: orNull(form.aircraft_id),
    flight_type_id: orNull(form.flight_type_id),
    pic_id: orNull(form.pic_id),
    sic_id: orNull(form.sic_id),
    departure_airport: orNull(form.departure_airport.toUpperCase()),
    landing_airport: orNull(form.landing_airport.toUpperCase()),
    offblocks_time: orNull(form.offblocks_time),
    takeoff_time: orNull(form.takeoff_time),
    landing_time: orNull(form.landing_time),
    onblocks_time: orNull(form.onblocks_time),
    ...times,
    starts: Math.max(0, times.offblocks ?? times.takeoff ?? midnight),
    landings,
    rules: orNull(form.rules),
    remarks: orNull(form.remarks),
    modified: nowSec,
  };
  return { ok: true, doc };
}

/** A new flight's fields the form does not set; the server derives the rest (night time, crosscountry, multiengine). */
function blankFlight(id: string, me: string): FlightDoc {
  return {
    id,
    date: '',
    status: 'DRAFT',
    callsign: null,
    aircraft_id: null,
    flight_type_id: null,
    base_id: null,
    pic_id: null,
    sic_id: null,
    supervisor_id: null,
    user_id: me,
    departure_airport: null,
    landing_airport: null,
    offblocks_time: null,
    takeoff_time: null,
    landing_time: null,
    onblocks_time: null,
    offblocks: null,
    takeoff: null,
    landing: null,
    onblocks: null,
    starts: 0,
    block_time: 0,
    flight_time: 0,
    // Null: let the server compute night time from the airports.
    night_flight_time: null,
    ifr_flight_time: 0,
    rules: null,
    crosscountry: false,
    multiengine: false,
    landings: 0,
    night_landings: 0,
    pax: 0,
    route: null,
    remarks: null,
    confirmed_at: null,
    dispatched_at: null,
    modified: 0,
  };
}

/** Status as read now (a SCHEDULED flight an hour late reads DELAYED). */
export const shownStatus = (f: FlightDoc, now: number) => flightStatusOnRead(f.status, f.offblocks, now);

export interface FlightActions {
  edit: boolean;
  confirm: boolean;
  dispatch: boolean;
  cancel: boolean;
}

/** What the device offers for a flight; the server still decides each action. */
export function flightActions(f: FlightDoc): FlightActions {
  const open = (UNCONFIRMED_STATUSES as readonly string[]).includes(f.status);
  return {
    edit: open,
    confirm: open,
    dispatch: f.status === 'DRAFT' || f.status === 'SCHEDULED',
    cancel: f.status !== 'CANCELED' && f.status !== 'DELETED',
  };
}

/** What confirming would lack, in the server's words (so the person can fix it offline). */
export function confirmProblem(f: FlightDoc): string | null {
  if (f.offblocks === null || f.onblocks === null || !(f.block_time > 0))
    return 'A confirmed flight needs its block times';
  if (!f.aircraft_id) return 'A confirmed flight needs an aircraft';
  if (!f.pic_id) return 'A confirmed flight needs a PIC';
  return null;
}

/** Confirmed flights on this device that the flight's block would overlap (the server checks all of them). */
export function localOverlaps(f: FlightDoc, all: readonly FlightDoc[]): FlightDoc[] {
  return findOverlaps(
    f,
    all.filter((o) => o.status === 'LANDED'),
  ).overlaps;
}
