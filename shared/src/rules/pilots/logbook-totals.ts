/**
 * Logbook rollup for GET /pilots/totals/{userId}.json (spec Part A 4.8 item 6, Part B 2.6).
 * Pure: the server and an offline logbook must show the same totals from the same flights.
 */
import { z } from 'zod';

/** Seat classifications of a flight type (Part B 2.6). */
export const CLASSIFICATIONS = [
  'pic',
  'picus',
  'sic',
  'fi',
  'dual',
  'cri',
  'iri',
  'fifi',
  'sfi',
  'tri',
  'exa',
  'sup',
  'none',
] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];
export const ZClassification = z.enum(CLASSIFICATIONS);

/** Values older data may hold that are no longer accepted; they log nothing in the rollup. */
export const REMOVED_CLASSIFICATIONS = ['copic', 'tre'] as const;

export function isClassification(value: unknown): value is Classification {
  return typeof value === 'string' && (CLASSIFICATIONS as readonly string[]).includes(value);
}

export const FUNCTION_KEYS = [
  'FI',
  'PIC',
  'SIC',
  'DUAL',
  'PICUS',
  'CRI',
  'IRI',
  'FIFI',
  'SFI',
  'TRI',
  'EXA',
  'SUPERVISOR',
] as const;
export type FunctionKey = (typeof FUNCTION_KEYS)[number];

export const RULE_KEYS = ['VFR', 'IFR', 'SIM', 'Cross Country', 'Night', 'Multi Engine'] as const;
export type RuleKey = (typeof RULE_KEYS)[number];

/** Icon CSS classes (Font Awesome) shown beside each line. */
export const FUNCTION_ICONS: Readonly<Record<FunctionKey, string>> = {
  FI: 'fas fa-chalkboard-teacher',
  PIC: 'fas fa-user-tie',
  SIC: 'fas fa-user-friends',
  DUAL: 'fas fa-user-graduate',
  PICUS: 'fas fa-user-check',
  CRI: 'fas fa-certificate',
  IRI: 'fas fa-cloud',
  FIFI: 'fas fa-users',
  SFI: 'fas fa-desktop',
  TRI: 'fas fa-plane',
  EXA: 'fas fa-clipboard-check',
  SUPERVISOR: 'fas fa-binoculars',
};

export const RULE_ICONS: Readonly<Record<RuleKey, string>> = {
  VFR: 'fas fa-sun',
  IFR: 'fas fa-cloud',
  SIM: 'fas fa-desktop',
  'Cross Country': 'fas fa-route',
  Night: 'fas fa-moon',
  'Multi Engine': 'fas fa-fan',
};

/**
 * Function lines one seat credits (Part B 2.6): every instructor class is PIC and FI and its own
 * line; PICUS is PIC but not FI; SIC needs a multipilot aircraft; SUPERVISOR is on its own.
 * Unknown or removed values (copic, tre) credit nothing, like `none`.
 */
export function creditedFunctions(classification: string, multipilot: boolean): FunctionKey[] {
  switch (classification) {
    case 'pic':
      return ['PIC'];
    case 'picus':
      return ['PIC', 'PICUS'];
    case 'sic':
      return multipilot ? ['SIC'] : [];
    case 'fi':
      return ['PIC', 'FI'];
    case 'dual':
      return ['DUAL'];
    case 'cri':
    case 'iri':
    case 'fifi':
    case 'sfi':
    case 'tri':
    case 'exa':
      return ['PIC', 'FI', classification.toUpperCase() as FunctionKey];
    case 'sup':
      return ['SUPERVISOR'];
    default:
      return [];
  }
}

type Id = string | number;

export interface LogbookFlight {
  id: Id;
  pic_id: Id | null;
  sic_id: Id | null;
  supervisor_id: Id | null;
  /** Seconds. */
  block_time: number;
  flight_time: number;
  night_flight_time: number;
  ifr_flight_time: number;
  rules: string | null;
  crosscountry: boolean;
  multiengine: boolean;
  aircraft: { multipilot: boolean; simulator: boolean };
  flight_type: { name: string; pic_flight_time: string; sic_flight_time: string; supervisor_flight_time: string };
}

export interface LogbookTotalsInput {
  userId: Id;
  /** LANDED flights only: the caller filters, since only those count toward logbooks (Part B 3.1). */
  flights: readonly LogbookFlight[];
  /** UserDetail.flight_hours: decimal hours before joining (databases may return decimals as text). */
  previousHours: number | string | null;
  /** Seconds flown in other companies by accounts of the same email. */
  otherCompaniesSeconds: number;
}

export interface TimeLine {
  icon: string;
  time: number;
}

export interface LogbookTotals {
  user: { id: Id; previous_time: number; other_companies: number };
  average: number;
  total_time: number;
  flight_time: number;
  flight_types: Record<string, number>;
  functions: Record<FunctionKey, TimeLine>;
  rules: Record<RuleKey, TimeLine>;
}

const seconds = (v: number): number => (Number.isFinite(v) && v > 0 ? Math.round(v) : 0);
const sameId = (a: Id | null, b: Id): boolean => a !== null && a !== undefined && String(a) === String(b);

/** Function lines the user earns on one flight; a pilot in two seats gets each line once. */
function functionsOnFlight(flight: LogbookFlight, userId: Id): Set<FunctionKey> {
  const seats: Array<[Id | null, string]> = [
    [flight.pic_id, flight.flight_type.pic_flight_time],
    [flight.sic_id, flight.flight_type.sic_flight_time],
    [flight.supervisor_id, flight.flight_type.supervisor_flight_time],
  ];
  const out = new Set<FunctionKey>();
  for (const [seatUser, classification] of seats) {
    if (!sameId(seatUser, userId)) continue;
    for (const key of creditedFunctions(classification, flight.aircraft.multipilot)) out.add(key);
  }
  return out;
}

/** Rule lines of a flight. IFR prefers the recorded instrument time (it also covers mixed Y/Z
 * flights) and falls back to block time for an IFR flight with none recorded. Night is the
 * flight's night time; every other line credits block time. */
function ruleTimes(flight: LogbookFlight, block: number): Record<RuleKey, number> {
  const ifrRecorded = seconds(flight.ifr_flight_time);
  return {
    VFR: flight.rules === 'VFR' ? block : 0,
    IFR: ifrRecorded > 0 ? ifrRecorded : flight.rules === 'IFR' ? block : 0,
    SIM: flight.aircraft.simulator ? block : 0,
    'Cross Country': flight.crosscountry ? block : 0,
    Night: seconds(flight.night_flight_time),
    'Multi Engine': flight.multiengine ? block : 0,
  };
}

/**
 * Totals of one pilot. Decisions:
 * - Time credited is the flight's block time, once per flight however many seats the pilot holds.
 * - A flight counts toward total_time, flight_types, rules and average only when the pilot earns
 *   a flying line on it (anything but SUPERVISOR). A `sup` seat is "separate only": a supervisor
 *   of a solo is usually on the ground, so that time shows in SUPERVISOR alone. A seat of class
 *   `none`, or `sic` on a single-pilot aircraft, logs nothing.
 * - total_time is this company's flights only; previous_time and other_companies are reported
 *   beside it for the client to add, as the response keeps them apart.
 * - average is the mean block seconds per counted flight, rounded; 0 with no flights.
 */
export function computeLogbookTotals(input: LogbookTotalsInput): LogbookTotals {
  const functionTimes = Object.fromEntries(FUNCTION_KEYS.map((k) => [k, 0])) as Record<FunctionKey, number>;
  const ruleTotals = Object.fromEntries(RULE_KEYS.map((k) => [k, 0])) as Record<RuleKey, number>;
  const flightTypes: Record<string, number> = {};
  let total = 0;
  let counted = 0;

  for (const flight of input.flights) {
    const earned = functionsOnFlight(flight, input.userId);
    if (earned.size === 0) continue;
    const block = seconds(flight.block_time);
    for (const key of earned) functionTimes[key] += block;
    if (earned.size === 1 && earned.has('SUPERVISOR')) continue;
    counted++;
    total += block;
    flightTypes[flight.flight_type.name] = (flightTypes[flight.flight_type.name] ?? 0) + block;
    const rules = ruleTimes(flight, block);
    for (const key of RULE_KEYS) ruleTotals[key] += rules[key];
  }

  const hours =
    typeof input.previousHours === 'string' ? Number.parseFloat(input.previousHours) : (input.previousHours ?? 0);
  return {
    user: {
      id: input.userId,
      previous_time: seconds(hours * 3600),
      other_companies: seconds(input.otherCompaniesSeconds),
    },
    average: counted === 0 ? 0 : Math.round(total / counted),
    total_time: total,
    flight_time: total - ruleTotals.SIM,
    flight_types: flightTypes,
    functions: Object.fromEntries(
      FUNCTION_KEYS.map((k) => [k, { icon: FUNCTION_ICONS[k], time: functionTimes[k] }]),
    ) as Record<FunctionKey, TimeLine>,
    rules: Object.fromEntries(RULE_KEYS.map((k) => [k, { icon: RULE_ICONS[k], time: ruleTotals[k] }])) as Record<
      RuleKey,
      TimeLine
    >,
  };
}
