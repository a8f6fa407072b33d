/**
 * Flight readiness (issue 31): one pure rule that looks at a booking or a
 * flight before it goes and answers one line per check the company cares
 * about. The server runs it at booking, dispatch and for offline commands;
 * devices run it over the collections they hold, so the panel is the same
 * answer offline. A fact a caller does not have is `undefined`, and its line
 * says so (amber) instead of guessing.
 */
import { DateTime } from 'luxon';
import { checkDuty, type DutyCheckInput } from '../duty/duty.ts';
import { type HeldCertificate, seatCompliance } from '../flight-types/compliance.ts';
import type { RequiredCertificatePair } from '../flight-types/required-certificates.ts';
import { nextJobStart } from '../maintenance-plans/schedule.ts';
import { type CurrencyFlight, flightsInWindow } from '../pilots/currency.ts';
import { isStudentPilot } from './policy.ts';
import { minimumsFor, READINESS_CHECKS, type ReadinessCheck, type ReadinessSettings } from './settings.ts';
import { belowMinimums, type Conditions, parseMetar, tafConditions } from './weather.ts';

export type ReadinessLevel = 'ok' | 'warn' | 'block';

export interface ReadinessLine {
  code: ReadinessCheck;
  level: ReadinessLevel;
  message: string;
  /** What was looked at, for the curious. */
  detail: string | null;
  /** What would make the line green; null when it is. */
  fix: string | null;
}

/** What is being checked: a booking not yet made, a booking, or a flight. */
export interface ReadinessSubject {
  start: number;
  end: number;
  aircraft_id: string | null;
  flight_type_id: string | null;
  /** The pilot of a booking, the PIC of a flight. */
  pic_id: string | null;
  /** The pilot's role (student minimums). */
  pic_role: number | null;
  sic_id: string | null;
  /** The instructor of a booking, the supervisor of a flight. */
  supervisor_id: string | null;
  /** Whose balance pays: the pilot. */
  billed_id: string | null;
  pax: number;
  /** Planned at night (night landings then count for currency). */
  night: boolean;
  departure_airport: string | null;
}

export interface MaintenanceFacts {
  /** Open (CRS not signed) jobs of the aircraft: due from their start. */
  open_jobs: readonly { name: string; start: number | null }[];
  /** Programme items linked to the aircraft with their last signed job. */
  plans: readonly {
    name: string;
    hours_interval: number | null;
    repeat: string;
    /** Finish of the last signed job of this item; null: never done here. */
    last_done: number | null;
    crs_expiration: number | null;
    /** Hours flown since that job; null when the caller cannot know. */
    hours_since: number | null;
  }[];
}

export interface WeatherFacts {
  icao: string;
  metar: { raw: string; time: number } | null;
  taf: { raw: string; time: number } | null;
  /** When the device last fetched them (offline age); null on the server. */
  fetched: number | null;
}

export interface ReadinessFacts {
  now: number;
  zone: string;
  settings: ReadinessSettings;
  /** Display names by user id. */
  names?: Readonly<Record<string, string>>;
  /** The billed person's balance in cents; null: no account yet (zero). */
  balance?: { balance: number; currency: string } | null;
  certificates?: {
    required: readonly RequiredCertificatePair[];
    held: Readonly<Record<string, readonly HeldCertificate[]>>;
  };
  /** The PIC's LANDED flights of the currency window. */
  currency?: { flights: readonly CurrencyFlight[] };
  maintenance?: MaintenanceFacts;
  mel?: {
    items: readonly { label: string; expired: boolean; limitations: readonly string[] }[];
    /** Sentences of open reports that ground the aircraft (aircraftBlockers, Part B 2.2); absent = none known. */
    grounded?: readonly string[];
  };
  /** Duty inputs for each person aboard (the duty rule of CONTRACT 7). */
  duty?: { people: readonly DutyCheckInput[] };
  /** null: the weather provider did not answer. */
  weather?: WeatherFacts | null;
  /** The pilot groups of the PIC (for group minimums); absent: none known. */
  pic_groups?: readonly string[];
}

type Finding = { kind: 'ok' | 'caution' | 'fail'; message: string; detail?: string | null; fix?: string | null };

const ok = (message: string, detail: string | null = null): Finding => ({ kind: 'ok', message, detail });
const caution = (message: string, fix: string | null = null, detail: string | null = null): Finding => ({
  kind: 'caution',
  message,
  fix,
  detail,
});
const fail = (message: string, fix: string, detail: string | null = null): Finding => ({
  kind: 'fail',
  message,
  fix,
  detail,
});
const notHeld = (what: string): Finding =>
  caution(`This device does not hold ${what}; the server checks again when it syncs.`, 'Go online to check.');

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
const day = (at: number, zone: string) => DateTime.fromSeconds(at, { zone }).toFormat('d LLL yyyy');
const hours = (h: number) => `${Math.round(h * 10) / 10} h`;

function balanceCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  const min = f.settings.balance_minimum;
  if (min === null) return ok('No minimum balance is set.');
  if (!s.billed_id) return ok('Nobody is billed yet.');
  if (f.balance === undefined) return notHeld('the balance of the person billed');
  const balance = f.balance?.balance ?? 0;
  const currency = f.balance?.currency ?? '';
  if (balance < min)
    return fail(
      `The balance is ${money(balance, currency)}, below the company minimum of ${money(min, currency)}.`,
      'Top up the account or ask the office.',
    );
  return ok(`Balance ${money(balance, currency)}.`);
}

function certificatesCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.flight_type_id) return ok('No flight type: nothing required.');
  if (!f.certificates) return notHeld('the required certificates');
  const seats = { pic: s.pic_id, sic: s.sic_id, supervisor: s.supervisor_id } as const;
  const missing: string[] = [];
  for (const seat of ['pic', 'sic', 'supervisor'] as const) {
    const required = f.certificates.required.filter((r) => seat === r.role).map((r) => r.certificate_type);
    const who = seats[seat];
    if (!required.length || !who) continue;
    const c = seatCompliance(required, f.certificates.held[who] ?? [], s.start, f.zone);
    if (c.compliant) continue;
    const name = f.names?.[who] ?? seat.toUpperCase();
    missing.push(`${name}: ${required.filter((t) => !c.ok.includes(t)).join(', ')}`);
  }
  if (missing.length)
    return fail(
      `Required certificates missing or expired on ${day(s.start, f.zone)} (${missing.join('; ')}).`,
      'Upload a valid certificate or change the flight type.',
    );
  return ok('Required certificates valid on the flight date.');
}

function currencyCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (s.pax <= 0) return ok('No passengers aboard: recency not required.');
  if (!s.pic_id) return ok('No pilot in command yet.');
  if (!f.currency) return notHeld("the pilot's recent flights");
  const c = f.settings.currency;
  const recent = flightsInWindow(f.currency.flights, s.start, c.days);
  const landings = recent.reduce((n, x) => n + Math.max(0, Math.trunc(x.landings)), 0);
  const night = recent.reduce((n, x) => n + Math.max(0, Math.trunc(x.night_landings ?? 0)), 0);
  const short: string[] = [];
  if (landings < c.landings) short.push(`${landings} of ${c.landings} landings`);
  if (s.night && night < c.night_landings) short.push(`${night} of ${c.night_landings} night landings`);
  if (short.length)
    return fail(
      `The pilot in command has ${short.join(' and ')} in the last ${c.days} days and would carry passengers.`,
      'Fly the landings first, or fly without passengers.',
    );
  return ok(`${landings} landings in the last ${c.days} days.`);
}

/** The maintenance projection: each item due by date before the flight ends or by hours with the booked time flown. */
export function maintenanceDue(
  m: MaintenanceFacts,
  start: number,
  end: number,
  zone: string,
): { due: string[]; unknown: string[] } {
  const due: string[] = [];
  const unknown: string[] = [];
  const booked = Math.max(0, end - start) / 3600;
  for (const j of m.open_jobs) if (j.start !== null && j.start < end) due.push(`${j.name} (due ${day(j.start, zone)})`);
  for (const p of m.plans) {
    if (p.last_done === null) continue; // never done on this aircraft: its first job is planned by hand
    const next = nextJobStart(p.repeat, p.last_done, p.crs_expiration, zone);
    if (next !== null && next < end) {
      due.push(`${p.name} (due ${day(next, zone)})`);
      continue;
    }
    if (p.hours_interval !== null && p.hours_interval > 0) {
      if (p.hours_since === null) unknown.push(p.name);
      else if (p.hours_since + booked >= p.hours_interval)
        due.push(`${p.name} (${hours(p.hours_since + booked)} of ${hours(p.hours_interval)} with this flight)`);
    }
  }
  return { due, unknown };
}

function maintenanceCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.aircraft_id) return ok('No aircraft yet.');
  if (!f.maintenance) return notHeld("the aircraft's maintenance programme");
  const { due, unknown } = maintenanceDue(f.maintenance, s.start, s.end, f.zone);
  if (due.length)
    return fail(
      `Maintenance due before the flight ends: ${due.join('; ')}.`,
      'Choose another aircraft or sign the job off first.',
    );
  if (unknown.length)
    return caution(`Hours since the last ${unknown.join(', ')} are not known on this device.`, 'Go online to check.');
  return ok('No maintenance due.');
}

function melCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.aircraft_id) return ok('No aircraft yet.');
  if (!f.mel) return notHeld("the aircraft's open MEL items");
  // A grounded aircraft is refused at dispatch and booking whatever the policy; the panel says so first.
  if (f.mel.grounded?.length) return fail(f.mel.grounded.join(' '), 'Rectify and close the report before flying.');
  const expired = f.mel.items.filter((i) => i.expired);
  if (expired.length)
    return fail(
      `Expired MEL/CDL item: ${expired.map((i) => i.label).join('; ')}.`,
      'Rectify or extend the item before flying.',
    );
  if (f.mel.items.length) {
    const limits = [...new Set(f.mel.items.flatMap((i) => i.limitations))];
    return caution(
      `Open MEL/CDL items: ${f.mel.items.map((i) => i.label).join('; ')}.`,
      limits.length ? `Fly within the limitations: ${limits.join(', ')}.` : 'Read the items before flying.',
    );
  }
  return ok('No open MEL items.');
}

function dutyCheck(_s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!f.duty) return notHeld('the crew duty');
  for (const p of f.duty.people) {
    const r = checkDuty(p);
    if (r) return fail(r.message, 'Choose other crew or a shorter or later slot.');
  }
  return ok('Within duty limits.');
}

const METAR_AHEAD = 2 * 3600;
const METAR_MAX_AGE = 3 * 3600;

const describe = (c: Conditions): string =>
  [
    c.wind_kt === null ? null : `wind ${c.wind_dir ?? 'VRB'}/${c.wind_kt}${c.gust_kt ? `G${c.gust_kt}` : ''} kt`,
    c.visibility_m === null ? null : `visibility ${c.visibility_m} m`,
    c.ceiling_ft === null ? 'no ceiling' : `ceiling ${c.ceiling_ft} ft`,
  ]
    .filter(Boolean)
    .join(', ');

function weatherCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!isStudentPilot(s.pic_role)) return ok('Student minimums do not apply.');
  if (!s.departure_airport) return caution('No departure airport: no current report.', 'Set the departure airport.');
  const w = f.weather;
  if (w === undefined) return notHeld('a weather report');
  if (w === null)
    return caution(
      `No current report for ${s.departure_airport}: the weather service did not answer.`,
      'Check the weather yourself before flying.',
    );
  const chosen = minimumsFor(f.settings.weather, s.flight_type_id, f.pic_groups ?? []);
  const min = chosen.minimums;
  const whose = chosen.from.length ? ` (minimums of the ${chosen.from.join(' and ')})` : '';
  const runways = f.settings.weather.runways[w.icao] ?? [];
  // Without runway headings the crosswind cannot be computed: say so rather than stay silent.
  const noCrosswind = runways.length
    ? ''
    : ` Crosswind not checked: no runway headings for ${w.icao} in the readiness settings.`;
  const age =
    w.fetched !== null && f.now - w.fetched > 600
      ? ` (held on this device, ${hours((f.now - w.fetched) / 3600)} old)`
      : '';
  const used: { name: string; c: Conditions }[] = [];
  if (w.metar && s.start - f.now <= METAR_AHEAD && f.now - w.metar.time <= METAR_MAX_AGE)
    used.push({ name: 'METAR', c: parseMetar(w.metar.raw) });
  if (w.taf) {
    const c = tafConditions(w.taf.raw, w.taf.time, Math.max(s.start, Math.min(f.now, s.end)), s.end);
    if (c) used.push({ name: 'TAF', c });
  }
  if (!used.length)
    return caution(
      `No current report for ${w.icao} covering the flight${age}.`,
      'Check the forecast closer to the flight.',
    );
  const problems = used.flatMap((u) => belowMinimums(u.c, min, runways).map((p) => `${u.name} ${p}`));
  const detail = used.map((u) => `${u.name}: ${describe(u.c)}`).join('; ');
  if (problems.length)
    return fail(
      `Below student minimums at ${w.icao}${whose}: ${problems.join('; ')}${age}.${noCrosswind}`,
      'Fly dual or choose another time.',
      detail,
    );
  if (noCrosswind)
    return caution(
      `Within student minimums at ${w.icao}${whose}${age}, but crosswind not checked: no runway headings for ${w.icao}.`,
      'A manager adds the runway headings in the readiness settings.',
      detail,
    );
  return ok(`Within student minimums at ${w.icao}${whose}${age}.`, detail);
}

const CHECKS: Record<ReadinessCheck, (s: ReadinessSubject, f: ReadinessFacts) => Finding> = {
  BALANCE: balanceCheck,
  CERTIFICATES: certificatesCheck,
  CURRENCY: currencyCheck,
  MAINTENANCE: maintenanceCheck,
  MEL: melCheck,
  DUTY: dutyCheck,
  WEATHER: weatherCheck,
};

/**
 * One line per check the company does not ignore, in a fixed order. A
 * problem found is amber when the company warns and red when it blocks; a
 * doubt (no data, open MEL items within limits) is amber either way.
 */
export function readiness(subject: ReadinessSubject, facts: ReadinessFacts): ReadinessLine[] {
  const out: ReadinessLine[] = [];
  for (const code of READINESS_CHECKS) {
    const action = facts.settings.checks[code];
    if (action === 'ignore') continue;
    let found: Finding;
    try {
      found = CHECKS[code](subject, facts);
    } catch {
      // A malformed fact is a doubt, never a crash of the booking.
      found = caution('This check could not be computed.', 'Ask the office.');
    }
    const level: ReadinessLevel =
      found.kind === 'ok' ? 'ok' : found.kind === 'caution' ? 'warn' : action === 'block' ? 'block' : 'warn';
    out.push({ code, level, message: found.message, detail: found.detail ?? null, fix: found.fix ?? null });
  }
  return out;
}

export const blocking = (lines: readonly ReadinessLine[]) => lines.filter((l) => l.level === 'block');
export const warnings = (lines: readonly ReadinessLine[]) => lines.filter((l) => l.level === 'warn');

/** The refusal sentence of a blocked booking or dispatch. */
export const refusalMessage = (lines: readonly ReadinessLine[]): string =>
  `Not ready: ${blocking(lines)
    .map((l) => l.message)
    .join(' ')}`;
