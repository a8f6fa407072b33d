/**
 * What a saved flight must hold, and the bounds of its fields (issue 28 item 5).
 * One rule for the server (REST create and edit, flights pushed by devices) and
 * the form, so a person reads the same sentence beside the field offline that
 * the server would answer. Pure; the caller passes "today" in the flight zone.
 *
 * Decided (the spec shows no creation rules, Part B 4.6 item 6; CONTRACT 4
 * lists the request fields without `?` as the ones a flight carries): every
 * flight saved directly, DRAFT included, names its date, aircraft, departure
 * and landing airports and its off- and on-blocks times (planned ones for a
 * draft). Take-off and landing times stay optional (flight time is then the
 * block time); PIC and flight type are asked at confirm (Part B 3.1).
 */
import type { MessageId, MessageValues, Translate } from '../../i18n/index.ts';

export const FLIGHT_LIMITS = {
  /** No logbook entry predates this (older paper logbooks are not migrated by hand). */
  earliestDate: '1950-01-01',
  /** A flight is planned at most this many days ahead of today. */
  daysAhead: 366,
  /** Circuits included, a single flight does not make more landings than this. */
  landings: 99,
  callsign: 20,
  remarks: 2000,
  route: 500,
} as const;

export interface FlightDraftInput {
  date: string | null;
  aircraft_id: string | null;
  departure_airport: string | null;
  landing_airport: string | null;
  offblocks_time: string | null;
  takeoff_time?: string | null;
  landing_time?: string | null;
  onblocks_time: string | null;
  landings?: number | null;
  night_landings?: number | null;
  callsign?: string | null;
  remarks?: string | null;
  route?: string | null;
}

/** Field → one sentence; empty when the flight may be saved. */
export type FlightDraftErrors = Partial<Record<keyof FlightDraftInput, string>>;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ICAO = /^[A-Z0-9]{3,4}$/;
const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

/** A real calendar date `YYYY-MM-DD` (no 2024-02-30), as days since 1970-01-01. */
function epochDay(date: string): number | null {
  const m = ISO_DATE.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return t / 86_400_000;
}

const isoOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/** The last date a flight may be planned on, counted from `today` (YYYY-MM-DD). */
export function latestFlightDate(today: string): string {
  const day = epochDay(today);
  return day === null ? today : isoOf(day + FLIGHT_LIMITS.daysAhead);
}

/** `subject` with its verb: "A callsign has", "Remarks have". */
const tooLong = (subject: string, max: number, length: number) =>
  `${subject} at most ${max} characters; this text has ${length}.`;

/**
 * The problems of a flight about to be saved, per field, in sentences. The
 * clock order (next-day rule, DST, 24-hour block) is the shared
 * `computeFlightTimes`; here only what that rule leaves open: a zero block.
 */
export function validateFlightDraft(
  f: FlightDraftInput,
  /** `t`: the reader's language (screens); without it, the server's English, unchanged. */
  opts: { today: string; t?: Translate },
): FlightDraftErrors {
  const errors: FlightDraftErrors = {};
  // Numbers go in as text so a translated sentence keeps them as the English one writes them.
  const say = (id: MessageId, english: string, values?: MessageValues) => (opts.t ? opts.t(id, values) : english);
  if (blank(f.date)) errors.date = say('flights.vDatePick', 'Pick the date of the flight.');
  else {
    const day = epochDay((f.date as string).trim());
    const earliest = epochDay(FLIGHT_LIMITS.earliestDate) as number;
    const today = epochDay(opts.today);
    if (day === null) errors.date = say('flights.vDateReal', 'The date must be a real date written YYYY-MM-DD.');
    else if (day < earliest) errors.date = say('flights.vDateEarliest', 'The date cannot be before 1 January 1950.');
    else if (today !== null && day > today + FLIGHT_LIMITS.daysAhead)
      errors.date = say(
        'flights.vDateAhead',
        `The date cannot be more than ${FLIGHT_LIMITS.daysAhead} days ahead (after ${latestFlightDate(opts.today)}).`,
        { days: String(FLIGHT_LIMITS.daysAhead), date: latestFlightDate(opts.today) },
      );
  }
  if (blank(f.aircraft_id)) errors.aircraft_id = say('flights.vAircraft', 'Choose the aircraft.');
  for (const [k, label] of [
    ['departure_airport', 'departure'],
    ['landing_airport', 'landing'],
  ] as const) {
    const v = f[k];
    if (blank(v))
      errors[k] = say(
        label === 'departure' ? 'flights.vDeparture' : 'flights.vLanding',
        `Give the ${label} airport (ICAO code such as LECU).`,
      );
    else if (!ICAO.test((v as string).trim().toUpperCase()))
      errors[k] = say('flights.vIcao', 'An ICAO code is 3 or 4 letters or digits, such as LECU.');
  }
  if (blank(f.offblocks_time)) errors.offblocks_time = say('flights.vOffBlocks', 'Give the off-blocks time (HH:MM).');
  if (blank(f.onblocks_time)) errors.onblocks_time = say('flights.vOnBlocks', 'Give the on-blocks time (HH:MM).');
  else if (!blank(f.offblocks_time) && f.offblocks_time?.trim().slice(0, 5) === f.onblocks_time?.trim().slice(0, 5))
    errors.onblocks_time = say('flights.vOnAfterOff', 'On-blocks must be later than off-blocks.');
  const landings = f.landings ?? 0;
  if (!Number.isInteger(landings) || landings < 0)
    errors.landings = say('flights.vLandingsWhole', 'Landings are a whole number, 0 or more.');
  else if (landings > FLIGHT_LIMITS.landings)
    errors.landings = say('flights.vLandingsMax', `At most ${FLIGHT_LIMITS.landings} landings on one flight.`, {
      max: String(FLIGHT_LIMITS.landings),
    });
  const night = f.night_landings ?? 0;
  if (!Number.isInteger(night) || night < 0)
    errors.night_landings = say('flights.vNightWhole', 'Night landings are a whole number, 0 or more.');
  else if (!errors.landings && night > landings)
    errors.night_landings = say('flights.vNightMax', 'Night landings cannot be more than the landings.');
  const long = (id: MessageId, subject: string, max: number, length: number) =>
    say(id, tooLong(subject, max, length), { max: String(max), length: String(length) });
  const callsign = f.callsign?.trim() ?? '';
  if (callsign.length > FLIGHT_LIMITS.callsign)
    errors.callsign = long('flights.vCallsignLong', 'A callsign has', FLIGHT_LIMITS.callsign, callsign.length);
  const remarks = f.remarks?.trim() ?? '';
  if (remarks.length > FLIGHT_LIMITS.remarks)
    errors.remarks = long('flights.vRemarksLong', 'Remarks have', FLIGHT_LIMITS.remarks, remarks.length);
  const route = f.route?.trim() ?? '';
  if (route.length > FLIGHT_LIMITS.route)
    errors.route = long('flights.vRouteLong', 'A route has', FLIGHT_LIMITS.route, route.length);
  return errors;
}
