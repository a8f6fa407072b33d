/**
 * A flight as the form edits it and as the device stores it offline. Clock
 * fields are `HH:MM` in the flight zone (what the server takes); the instants,
 * block and flight time are computed here with the shared rule so the list,
 * sorting and the local overlap check are right before the server recomputes
 * them. Pure.
 */
import type { FlightDoc } from '@ops/shared';
import { computeFlightTimes, findOverlaps, flightStatusOnRead } from '@ops/shared/rules/flights/flight-times';
import { type FlightButtons, type FlightPolicyActor, flightButtons } from '@ops/shared/rules/flights/policy';
import { validateFlightDraft } from '@ops/shared/rules/flights/validation';
import { type Translate, translator } from '@ops/shared/i18n/index';
import { zonedToUnix } from '../../format.ts';

/** English unless a screen passes its `t` (useT): the helpers stay pure and their tests read English. */
const english = translator('en');

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

/**
 * The document to save for a form: a new flight (`base` null, with its new id)
 * or an edit of `base`. Validates with the server's rule (`validateFlightDraft`,
 * then the clock rule), so the person reads the same sentence beside the field
 * now rather than a rejection after the next sync. `today` is in the flight zone.
 */
export function flightDocFrom(
  form: FlightForm,
  base: FlightDoc | null,
  ids: { id: string; me: string },
  zone: string,
  nowSec: number,
  today: string,
  /** The reader's language for the field sentences; English (the server's words) without it. */
  t?: Translate,
): FlightResult {
  const landings = blank(form.landings) ? 0 : Number(form.landings);
  const errors: Record<string, string> = {
    ...validateFlightDraft(
      {
        date: form.date,
        aircraft_id: orNull(form.aircraft_id),
        departure_airport: orNull(form.departure_airport),
        landing_airport: orNull(form.landing_airport),
        offblocks_time: orNull(form.offblocks_time),
        takeoff_time: orNull(form.takeoff_time),
        landing_time: orNull(form.landing_time),
        onblocks_time: orNull(form.onblocks_time),
        landings,
        callsign: form.callsign,
        remarks: form.remarks,
      },
      { today, t },
    ),
  };
  const dateMatch = errors.date ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(form.date);
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
    // The draft rule's sentence wins where both speak of one field.
    if (!t.ok) for (const [k, m] of Object.entries(t.errors)) errors[k] ??= m;
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

/**
 * What the screen offers for a flight: the shared policy's answer for this
 * person (the server's rule), so a student never sees Edit on an instructor's
 * lesson. The server still decides each action.
 */
export const flightActions = (actor: FlightPolicyActor, f: FlightDoc, now: number): FlightButtons =>
  flightButtons(actor, { ...f, status: shownStatus(f, now) });

/** What cancelling does, in a sentence for the confirmation (a LANDED flight leaves the logbook and the books). */
export function cancelEffect(
  f: FlightDoc,
  registration: string | null,
  duration: (s: number) => string,
  t: Translate = english,
): string {
  if (f.status !== 'LANDED') return t('flights.cancelKeeps');
  return t('flights.cancelRemoves', {
    duration: duration(f.flight_time),
    aircraft: registration ?? t('flights.theAircraft'),
    landings: f.landings || 0,
  });
}

/** What confirming would lack, in the server's words (so the person can fix it offline). */
export function confirmProblem(f: FlightDoc, t: Translate = english): string | null {
  if (f.offblocks === null || f.onblocks === null || !(f.block_time > 0)) return t('flights.needsBlocks');
  if (!f.aircraft_id) return t('flights.needsAircraft');
  if (!f.pic_id) return t('flights.needsPic');
  return null;
}

/** Confirmed flights on this device that the flight's block would overlap (the server checks all of them). */
export function localOverlaps(f: FlightDoc, all: readonly FlightDoc[]): FlightDoc[] {
  return findOverlaps(
    f,
    all.filter((o) => o.status === 'LANDED'),
  ).overlaps;
}

/** One row of GET /flights/load as the office list reads it (Part B 4.6 item 1). */
export interface FlightListRow {
  Flight: {
    id: string;
    date: string;
    status: string;
    callsign: string | null;
    departure_airport: string | null;
    landing_airport: string | null;
    offblocks_time: string | null;
    onblocks_time: string | null;
    block_time: number;
    flight_time: number;
    landings: number;
  };
  Aircraft: { registration: string } | null;
  FlightType: { name: string } | null;
  Pic: { UserDetail: { name: string; surname: string } } | null;
  Sic: { UserDetail: { name: string; surname: string } } | null;
}

export interface FlightListFilters {
  from: string;
  to: string;
  aircraft: string;
  pilot: string;
  status: string;
}

export const NO_FILTERS: FlightListFilters = { from: '', to: '', aircraft: '', pilot: '', status: '' };

/**
 * The spec's list path with named parameters (Part B 4.6 item 1): empty
 * filters are left out, so the server pages and filters in SQL.
 */
export function flightsLoadPath(f: FlightListFilters, page: number, limit: number): string {
  const named: string[] = [`page:${page}`, `limit:${limit}`];
  for (const k of ['from', 'to', 'aircraft', 'pilot', 'status'] as const) {
    const v = f[k].trim();
    if (v) named.push(`${k}:${encodeURIComponent(v)}`);
  }
  return `/flights/load/${named.join('/')}.json`;
}

/** A date range that reads backwards, said before the server is asked. */
export function filtersProblem(f: FlightListFilters, t: Translate = english): string | null {
  if (f.from && f.to && f.from > f.to) return t('flights.datesBackwards');
  return null;
}

const personName = (p: FlightListRow['Pic']) => (p ? `${p.UserDetail.name} ${p.UserDetail.surname}`.trim() : '');

/** A cell as text: quoted when needed, and a leading = + - @ defused so a spreadsheet never runs it. */
function csvCell(v: string | number | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV of the office list (the export of the current filter; times as listed, in the flight zone). */
export function flightsCsv(
  rows: readonly FlightListRow[],
  duration: (s: number) => string,
  t: Translate = english,
): string {
  // Headers in the reader's language (issue 33); the cells stay data (codes, registrations).
  const head = [
    t('flights.date'),
    t('flights.callsign'),
    t('flights.aircraft'),
    t('flights.from'),
    t('flights.to'),
    t('flights.csvOffBlocks'),
    t('flights.csvOnBlocks'),
    t('flights.csvBlockTime'),
    t('flights.csvFlightTime'),
    t('flights.landings'),
    t('flights.pic'),
    t('flights.sic'),
    t('flights.flightType'),
    t('flights.statusLabel'),
  ];
  const lines = rows.map((r) =>
    [
      r.Flight.date,
      r.Flight.callsign,
      r.Aircraft?.registration ?? '',
      r.Flight.departure_airport,
      r.Flight.landing_airport,
      r.Flight.offblocks_time,
      r.Flight.onblocks_time,
      duration(r.Flight.block_time),
      duration(r.Flight.flight_time),
      r.Flight.landings,
      personName(r.Pic),
      personName(r.Sic),
      r.FlightType?.name ?? '',
      r.Flight.status,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[head.join(','), ...lines].join('\r\n')}\r\n`;
}
