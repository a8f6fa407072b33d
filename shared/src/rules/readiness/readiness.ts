/**
 * Flight readiness (issue 31): one pure rule that looks at a booking or a
 * flight before it goes and answers one line per check the company cares
 * about. The server runs it at booking, dispatch and for offline commands;
 * devices run it over the collections they hold, so the panel is the same
 * answer offline. A fact a caller does not have is `undefined`, and its line
 * says so (amber) instead of guessing.
 */
import { checkDuty, type DutyCheckInput } from '../duty/duty.ts';
import { type HeldCertificate, seatCompliance } from '../flight-types/compliance.ts';
import type { RequiredCertificatePair } from '../flight-types/required-certificates.ts';
import { nextJobStart } from '../maintenance-plans/schedule.ts';
import { type CurrencyFlight, flightsInWindow } from '../pilots/currency.ts';
import { isStudentPilot } from './policy.ts';
import { minimumsFor, READINESS_CHECKS, type ReadinessCheck, type ReadinessSettings } from './settings.ts';
import { type RuleText, ruleDate, ruleHours, ruleMoney, type TextPart } from './text.ts';
import { belowMinimums, breaches, type Conditions, parseMetar, tafConditions } from './weather.ts';

export type ReadinessLevel = 'ok' | 'warn' | 'block';

export interface ReadinessLine {
  code: ReadinessCheck;
  level: ReadinessLevel;
  message: string;
  /** What was looked at, for the curious. */
  detail: string | null;
  /** What would make the line green; null when it is. */
  fix: string | null;
  /** `message` and `fix` as message ids and values, for readers of other languages (issue 33); null: English only. */
  text?: RuleText | null;
  fix_text?: RuleText | null;
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
    /** Open reports that ground the aircraft (aircraftBlockers, Part B 2.2): the English sentence and its message; absent = none known. */
    grounded?: readonly { sentence: string; text?: RuleText }[];
  };
  /** Duty inputs for each person aboard (the duty rule of CONTRACT 7). */
  duty?: { people: readonly DutyCheckInput[] };
  /** null: the weather provider did not answer. */
  weather?: WeatherFacts | null;
  /** The pilot groups of the PIC (for group minimums); absent: none known. */
  pic_groups?: readonly string[];
}

/** A sentence in English (what the API and the history keep) with its message for other languages. */
type Say = { en: string; text: RuleText | null };
const say = (en: string, id: RuleText['id'], more: Omit<RuleText, 'id'> = {}): Say => ({ en, text: { id, ...more } });

type Finding = {
  kind: 'ok' | 'caution' | 'fail';
  message: Say;
  detail?: string | null;
  fix?: Say | null;
};

const ok = (message: Say, detail: string | null = null): Finding => ({ kind: 'ok', message, detail });
const caution = (message: Say, fix: Say | null = null, detail: string | null = null): Finding => ({
  kind: 'caution',
  message,
  fix,
  detail,
});
const fail = (message: Say, fix: Say, detail: string | null = null): Finding => ({
  kind: 'fail',
  message,
  fix,
  detail,
});
const goOnline = () => say('Go online to check.', 'readiness.goOnline');
const notHeld = (what: string, id: RuleText['id']): Finding =>
  caution(say(`This device does not hold ${what}; the server checks again when it syncs.`, id), goOnline());

const money = ruleMoney;
const day = (at: number, zone: string) => ruleDate(at, zone);
const hours = ruleHours;

function balanceCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  const min = f.settings.balance_minimum;
  if (min === null) return ok(say('No minimum balance is set.', 'readiness.noMinimum'));
  if (!s.billed_id) return ok(say('Nobody is billed yet.', 'readiness.nobodyBilled'));
  if (f.balance === undefined) return notHeld('the balance of the person billed', 'readiness.notHeldBalance');
  const balance = f.balance?.balance ?? 0;
  const currency = f.balance?.currency ?? '';
  if (balance < min)
    return fail(
      say(
        `The balance is ${money(balance, currency)}, below the company minimum of ${money(min, currency)}.`,
        'readiness.balanceLow',
        { money: { balance: { cents: balance, currency }, minimum: { cents: min, currency } } },
      ),
      say('Top up the account or ask the office.', 'readiness.topUp'),
    );
  return ok(
    say(`Balance ${money(balance, currency)}.`, 'readiness.balanceOk', {
      money: { balance: { cents: balance, currency } },
    }),
  );
}

function certificatesCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.flight_type_id) return ok(say('No flight type: nothing required.', 'readiness.noFlightType'));
  if (!f.certificates) return notHeld('the required certificates', 'readiness.notHeldCertificates');
  const seats = { pic: s.pic_id, sic: s.sic_id, supervisor: s.supervisor_id } as const;
  const missing: TextPart[] = [];
  for (const seat of ['pic', 'sic', 'supervisor'] as const) {
    const required = f.certificates.required.filter((r) => seat === r.role).map((r) => r.certificate_type);
    const who = seats[seat];
    if (!required.length || !who) continue;
    const c = seatCompliance(required, f.certificates.held[who] ?? [], s.start, f.zone);
    if (c.compliant) continue;
    const name = f.names?.[who] ?? seat.toUpperCase();
    missing.push({
      id: 'readiness.certMissingItem',
      values: { name, types: required.filter((t) => !c.ok.includes(t)).join(', ') },
    });
  }
  if (missing.length) {
    const list = missing.map((m) => `${m.values?.name}: ${m.values?.types}`).join('; ');
    return fail(
      say(`Required certificates missing or expired on ${day(s.start, f.zone)} (${list}).`, 'readiness.certsMissing', {
        dates: { date: s.start },
        zone: f.zone,
        lists: { missing },
      }),
      say('Upload a valid certificate or change the flight type.', 'readiness.certsFix'),
    );
  }
  return ok(say('Required certificates valid on the flight date.', 'readiness.certsOk'));
}

function currencyCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (s.pax <= 0) return ok(say('No passengers aboard: recency not required.', 'readiness.noPax'));
  if (!s.pic_id) return ok(say('No pilot in command yet.', 'readiness.noPic'));
  if (!f.currency) return notHeld("the pilot's recent flights", 'readiness.notHeldFlights');
  const c = f.settings.currency;
  const recent = flightsInWindow(f.currency.flights, s.start, c.days);
  const landings = recent.reduce((n, x) => n + Math.max(0, Math.trunc(x.landings)), 0);
  const night = recent.reduce((n, x) => n + Math.max(0, Math.trunc(x.night_landings ?? 0)), 0);
  const short: string[] = [];
  const dayShort = landings < c.landings;
  const nightShort = s.night && night < c.night_landings;
  if (dayShort) short.push(`${landings} of ${c.landings} landings`);
  if (nightShort) short.push(`${night} of ${c.night_landings} night landings`);
  if (short.length)
    return fail(
      say(
        `The pilot in command has ${short.join(' and ')} in the last ${c.days} days and would carry passengers.`,
        dayShort && nightShort ? 'readiness.shortBoth' : dayShort ? 'readiness.shortDay' : 'readiness.shortNight',
        {
          values: {
            landings: String(landings),
            required: String(c.landings),
            night: String(night),
            requiredNight: String(c.night_landings),
            days: String(c.days),
          },
        },
      ),
      say('Fly the landings first, or fly without passengers.', 'readiness.currencyFix'),
    );
  return ok(
    say(`${landings} landings in the last ${c.days} days.`, 'readiness.currencyOk', {
      values: { landings, days: String(c.days) },
    }),
  );
}

/** The maintenance projection: each item due by date before the flight ends or by hours with the booked time flown. */
export function maintenanceDue(
  m: MaintenanceFacts,
  start: number,
  end: number,
  zone: string,
): { due: string[]; unknown: string[]; parts: TextPart[] } {
  const due: string[] = [];
  const parts: TextPart[] = [];
  const unknown: string[] = [];
  const booked = Math.max(0, end - start) / 3600;
  const byDate = (name: string, at: number) => {
    due.push(`${name} (due ${day(at, zone)})`);
    parts.push({ id: 'readiness.dueByDate', values: { name }, dates: { date: at } });
  };
  for (const j of m.open_jobs) if (j.start !== null && j.start < end) byDate(j.name, j.start);
  for (const p of m.plans) {
    if (p.last_done === null) continue; // never done on this aircraft: its first job is planned by hand
    const next = nextJobStart(p.repeat, p.last_done, p.crs_expiration, zone);
    if (next !== null && next < end) {
      byDate(p.name, next);
      continue;
    }
    if (p.hours_interval !== null && p.hours_interval > 0) {
      if (p.hours_since === null) unknown.push(p.name);
      else if (p.hours_since + booked >= p.hours_interval) {
        const used = p.hours_since + booked;
        due.push(`${p.name} (${hours(used)} of ${hours(p.hours_interval)} with this flight)`);
        parts.push({
          id: 'readiness.dueByHours',
          values: { name: p.name },
          hours: { used, interval: p.hours_interval },
        });
      }
    }
  }
  return { due, unknown, parts };
}

function maintenanceCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.aircraft_id) return ok(say('No aircraft yet.', 'readiness.noAircraft'));
  if (!f.maintenance) return notHeld("the aircraft's maintenance programme", 'readiness.notHeldMaintenance');
  const { due, unknown, parts } = maintenanceDue(f.maintenance, s.start, s.end, f.zone);
  if (due.length)
    return fail(
      say(`Maintenance due before the flight ends: ${due.join('; ')}.`, 'readiness.maintDue', {
        lists: { due: parts },
        zone: f.zone,
      }),
      say('Choose another aircraft or sign the job off first.', 'readiness.maintFix'),
    );
  if (unknown.length)
    return caution(
      say(`Hours since the last ${unknown.join(', ')} are not known on this device.`, 'readiness.maintUnknown', {
        values: { items: unknown.join(', ') },
      }),
      goOnline(),
    );
  return ok(say('No maintenance due.', 'readiness.maintOk'));
}

/** The grounding sentences as one message: each report's own, joined by a space as the English is; null when one has none. */
function groundedText(grounded: readonly { sentence: string; text?: RuleText }[]): RuleText | null {
  const texts = grounded.map((g) => g.text);
  if (!texts.every((t): t is RuleText => !!t)) return null;
  return texts.length === 1 ? texts[0] : { id: 'refusals.asIs', lists: { text: texts }, joins: { text: ' ' } };
}

function melCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!s.aircraft_id) return ok(say('No aircraft yet.', 'readiness.noAircraft'));
  if (!f.mel) return notHeld("the aircraft's open MEL items", 'readiness.notHeldMel');
  // A grounded aircraft is refused at dispatch and booking whatever the policy; the panel says so first.
  // Its sentences come from the aircraft reports' own rule, each with its message (aircraft-reports.grounding…).
  if (f.mel.grounded?.length)
    return fail(
      { en: f.mel.grounded.map((g) => g.sentence).join(' '), text: groundedText(f.mel.grounded) },
      say('Rectify and close the report before flying.', 'readiness.groundedFix'),
    );
  const expired = f.mel.items.filter((i) => i.expired);
  if (expired.length) {
    const items = expired.map((i) => i.label).join('; ');
    return fail(
      say(`Expired MEL/CDL item: ${items}.`, 'readiness.melExpired', { values: { items } }),
      say('Rectify or extend the item before flying.', 'readiness.melExpiredFix'),
    );
  }
  if (f.mel.items.length) {
    const items = f.mel.items.map((i) => i.label).join('; ');
    const limits = [...new Set(f.mel.items.flatMap((i) => i.limitations))].join(', ');
    return caution(
      say(`Open MEL/CDL items: ${items}.`, 'readiness.melOpen', { values: { items } }),
      limits
        ? say(`Fly within the limitations: ${limits}.`, 'readiness.melLimits', { values: { limits } })
        : say('Read the items before flying.', 'readiness.melRead'),
    );
  }
  return ok(say('No open MEL items.', 'readiness.melOk'));
}

function dutyCheck(_s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!f.duty) return notHeld('the crew duty', 'readiness.notHeldDuty');
  for (const p of f.duty.people) {
    const r = checkDuty(p);
    if (r)
      return fail(
        { en: r.message, text: r.text },
        say('Choose other crew or a shorter or later slot.', 'readiness.dutyFix'),
      );
  }
  return ok(say('Within duty limits.', 'readiness.dutyOk'));
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

const BREACH_ID = {
  ceiling: 'readiness.belowCeiling',
  visibility: 'readiness.belowVisibility',
  wind: 'readiness.aboveWind',
  crosswind: 'readiness.aboveCrosswind',
} as const;

function weatherCheck(s: ReadinessSubject, f: ReadinessFacts): Finding {
  if (!isStudentPilot(s.pic_role)) return ok(say('Student minimums do not apply.', 'readiness.notStudent'));
  if (!s.departure_airport)
    return caution(
      say('No departure airport: no current report.', 'readiness.noAirport'),
      say('Set the departure airport.', 'readiness.setAirport'),
    );
  const w = f.weather;
  if (w === undefined) return notHeld('a weather report', 'readiness.notHeldWeather');
  if (w === null)
    return caution(
      say(`No current report for ${s.departure_airport}: the weather service did not answer.`, 'readiness.noAnswer', {
        values: { icao: s.departure_airport },
      }),
      say('Check the weather yourself before flying.', 'readiness.checkYourself'),
    );
  const chosen = minimumsFor(f.settings.weather, s.flight_type_id, f.pic_groups ?? []);
  const min = chosen.minimums;
  const whose = chosen.from.length ? ` (minimums of the ${chosen.from.join(' and ')})` : '';
  const runways = f.settings.weather.runways[w.icao] ?? [];
  const old = w.fetched !== null && f.now - w.fetched > 600 ? (f.now - w.fetched) / 3600 : null;
  const age = old !== null ? ` (held on this device, ${hours(old)} old)` : '';
  // The age is a list of at most one piece: empty when the report is fresh.
  const held: TextPart[] = old !== null ? [{ id: 'readiness.heldAge', hours: { age: old } }] : [];
  // Whose minimums applied (flight type, pilot group or both), as a list of at most one piece.
  const whoseId =
    chosen.from.length === 2
      ? 'readiness.whoseBoth'
      : chosen.from[0] === 'pilot group'
        ? 'readiness.whoseGroup'
        : 'readiness.whoseType';
  const whoseParts: TextPart[] = chosen.from.length ? [{ id: whoseId }] : [];
  // Without runway headings the crosswind cannot be computed: say so rather than stay silent.
  const noCrosswind = runways.length
    ? ''
    : ` Crosswind not checked: no runway headings for ${w.icao} in the readiness settings.`;
  const crosswindParts: TextPart[] = runways.length ? [] : [{ id: 'readiness.noCrosswind', values: { icao: w.icao } }];
  const used: { name: string; c: Conditions }[] = [];
  if (w.metar && s.start - f.now <= METAR_AHEAD && f.now - w.metar.time <= METAR_MAX_AGE)
    used.push({ name: 'METAR', c: parseMetar(w.metar.raw) });
  if (w.taf) {
    const c = tafConditions(w.taf.raw, w.taf.time, Math.max(s.start, Math.min(f.now, s.end)), s.end);
    if (c) used.push({ name: 'TAF', c });
  }
  if (!used.length)
    return caution(
      say(`No current report for ${w.icao} covering the flight${age}.`, 'readiness.noCovering', {
        values: { icao: w.icao },
        lists: { held },
      }),
      say('Check the forecast closer to the flight.', 'readiness.checkForecast'),
    );
  const problems = used.flatMap((u) => belowMinimums(u.c, min, runways).map((p) => `${u.name} ${p}`));
  const parts = used.flatMap((u) =>
    breaches(u.c, min, runways).map(
      (b): TextPart => ({
        id: BREACH_ID[b.kind],
        values: { report: u.name, value: String(b.value), min: String(b.min) },
      }),
    ),
  );
  const detail = used.map((u) => `${u.name}: ${describe(u.c)}`).join('; ');
  if (problems.length)
    return fail(
      say(
        `Below student minimums at ${w.icao}${whose}: ${problems.join('; ')}${age}.${noCrosswind}`,
        'readiness.below',
        {
          values: { icao: w.icao },
          lists: { problems: parts, held, whose: whoseParts, crosswind: crosswindParts },
        },
      ),
      say('Fly dual or choose another time.', 'readiness.flyDual'),
      detail,
    );
  if (noCrosswind)
    return caution(
      say(
        `Within student minimums at ${w.icao}${whose}${age}, but crosswind not checked: no runway headings for ${w.icao}.`,
        'readiness.weatherNoCrosswind',
        { values: { icao: w.icao }, lists: { held, whose: whoseParts } },
      ),
      say('A manager adds the runway headings in the readiness settings.', 'readiness.addRunways'),
      detail,
    );
  return ok(
    say(`Within student minimums at ${w.icao}${whose}${age}.`, 'readiness.weatherOk', {
      values: { icao: w.icao },
      lists: { held, whose: whoseParts },
    }),
    detail,
  );
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
      found = caution(
        say('This check could not be computed.', 'readiness.notComputed'),
        say('Ask the office.', 'readiness.askOffice'),
      );
    }
    const level: ReadinessLevel =
      found.kind === 'ok' ? 'ok' : found.kind === 'caution' ? 'warn' : action === 'block' ? 'block' : 'warn';
    out.push({
      code,
      level,
      message: found.message.en,
      detail: found.detail ?? null,
      fix: found.fix?.en ?? null,
      text: found.message.text,
      fix_text: found.fix?.text ?? null,
    });
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

/** `refusalMessage` as a message with its values; a line without a message id goes in as the server wrote it. */
export const refusalText = (lines: readonly ReadinessLine[]): RuleText => ({
  id: 'readiness.notReady',
  lists: {
    lines: blocking(lines).map((l): RuleText => l.text ?? { id: 'refusals.asIs', values: { text: l.message } }),
  },
  joins: { lines: ' ' },
  zone: blocking(lines).find((l) => l.text?.zone)?.text?.zone,
});
