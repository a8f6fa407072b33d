import {
  type DutyCheckInput,
  dateOf,
  dayStart,
  dutySpanOf,
  limitSeconds,
  type Span,
} from '@ops/shared/rules/duty/duty';
import { reachesFlight } from '@ops/shared/rules/flights/policy';
import {
  blocking,
  type ReadinessFacts,
  type ReadinessLine,
  type ReadinessSubject,
  readiness,
  refusalMessage,
  refusalText,
  warnings,
  type WeatherFacts,
} from '@ops/shared/rules/readiness/readiness';
import { isStudentPilot } from '@ops/shared/rules/readiness/policy';
import type { RuleText } from '@ops/shared/rules/readiness/text';
import { allIgnored, type ReadinessSettings, readSettings } from '@ops/shared/rules/readiness/settings';
import { reportTime } from '@ops/shared/rules/readiness/weather';
import { isWeatherIcao, NIL } from '@ops/shared/rules/reports/index';
import { seatsFor } from '@ops/shared/rules/schedules/booking';
import { isSelfBooker } from '@ops/shared/rules/schedules/policy';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { weatherReports } from '../../weather/weather.service.ts';
import { blockersOf, blockStateOf } from '../aircraft-reports/aircraft-block.service.ts';
import { recordNote } from '../flights/history.repository.ts';
import {
  type DutyReads,
  flightWithContext,
  loadSettings,
  peopleOf,
  type ReadinessContext,
  type ReadinessReads,
  readinessContext,
  readinessReads,
  type SubjectFlight,
  storeSettings,
  unknownGroups,
} from './readiness.repository.ts';
import type { TReadinessPlan } from './readiness.schema.ts';

const DAY = 86_400;

/** Where the weather comes from: the provider (the read endpoints) or only what the server holds (inside a booking's transaction). */
type WeatherSource = 'provider' | 'held';

interface Gather {
  source: WeatherSource;
  /** The booking or flight itself, left out of the crew's other duty. */
  except: { bookingId?: string; flightId?: string };
  ctx?: AppContext;
}

/**
 * The crew and windows the duty rule needs read (the same as the duty area's
 * own booking check); null when no one sits or the company sets no limit.
 */
function dutyWindow(
  s: ReadinessSubject,
  limits: ReadinessContext['limits'],
  except: Gather['except'],
): DutyReads | null {
  const people = [...new Set([s.pic_id, s.sic_id, s.supervisor_id].filter((x): x is string => !!x))];
  if (
    !people.length ||
    (limitSeconds(limits.max_duty_hours) === null && limitSeconds(limits.max_flight_hours_year) === null)
  )
    return null;
  const zone = limits.timezone;
  const padded = dutySpanOf(s.start, s.end);
  const year = DateTime.fromSeconds(s.start, { zone }).startOf('year');
  return {
    people,
    from: dayStart(dateOf(padded.start, zone), zone),
    to: DateTime.fromSeconds(padded.end - 1, { zone })
      .plus({ days: 1 })
      .startOf('day')
      .toUnixInteger(),
    yearFrom: year.toUnixInteger(),
    yearTo: year.plus({ years: 1 }).toUnixInteger(),
    except,
  };
}

/** The duty rule's input for each person aboard, from the duty reads of the combined statement. */
function dutyPeople(
  s: ReadinessSubject,
  w: DutyReads,
  read: ReadinessReads['duty'],
  names: Record<string, string>,
  simulator: boolean,
  limits: ReadinessContext['limits'],
): DutyCheckInput[] {
  return w.people.map((id) => {
    const duty: Span[] = [
      ...read.entries.filter((e) => e.user_id === id),
      ...read.flights.filter((f) => f.user_id === id).map((f) => dutySpanOf(f.offblocks, f.onblocks)),
      ...read.bookings.filter((b) => b.user_id === id).map((b) => dutySpanOf(b.start, b.end)),
    ];
    return {
      name: names[id] ?? 'This person',
      planned: { start: s.start, end: s.end },
      plannedFlightSeconds: simulator ? 0 : s.end - s.start,
      duty,
      yearFlightSeconds: read.yearSeconds.get(id) ?? 0,
      zone: limits.timezone,
      limits,
    };
  });
}

/** A cached report row (the body is the provider's JSON list) as the raw report and its times; null when unreadable. */
function heldReport(rows: ReadinessReads['weather'], key: string) {
  const r = rows.find((x) => x.key === key);
  if (!r) return null;
  try {
    const body = JSON.parse(r.body) as unknown;
    return Array.isArray(body) && typeof body[0] === 'string'
      ? { raw: body[0], fetched: Number(r.fetched), expires: Number(r.expires) }
      : null;
  } catch {
    return null;
  }
}

async function weatherFacts(
  icao: string,
  cached: ReadinessReads['weather'],
  g: Gather,
  now: number,
): Promise<WeatherFacts | null> {
  const withTime = (raw: string | undefined, ref: number) => {
    if (!raw || raw === NIL) return null;
    const time = reportTime(raw, ref);
    return time === null ? null : { raw, time };
  };
  // The cached METAR and TAF came with the other reads; the provider only when the read endpoints find them stale.
  const held = { metar: heldReport(cached, `metar:${icao}`), taf: heldReport(cached, `taf:${icao}`) };
  const fresh = !!held.metar && !!held.taf && held.metar.expires > now && held.taf.expires > now;
  if (g.source === 'held' || !g.ctx || fresh) {
    if (!held.metar && !held.taf) return null;
    return {
      icao,
      metar: held.metar ? withTime(held.metar.raw, held.metar.fetched) : null,
      taf: held.taf ? withTime(held.taf.raw, held.taf.fetched) : null,
      fetched: null,
    };
  }
  // weatherReports uses the pool (ctx.db), never the connection this answer holds. Both are awaited
  // even when one fails, so no cache write is left running after the answer.
  const [m, t] = await Promise.allSettled([
    weatherReports(g.ctx, 'metar', icao, null),
    weatherReports(g.ctx, 'taf', icao, null),
  ]);
  // The provider is down or answered garbage: the line says "no current report", never a 500.
  if (m.status === 'rejected' || t.status === 'rejected') return null;
  return { icao, metar: withTime(m.value[0], now), taf: withTime(t.value[0], now), fetched: null };
}

/**
 * Everything the rule needs for this subject, only for the checks the
 * company does not ignore, in one statement (`readinessReads`): readiness's
 * own tables and the MEL and duty reads of their areas (their own query
 * builders). What may follow reads one after another on the same connection
 * (the hook's transaction, or the pinned one of the read endpoints): MEL
 * counters when an item counts flights, the provider when the weather is stale.
 */
async function gatherFacts(
  db: Kysely<DB>,
  actor: Actor,
  s: ReadinessSubject,
  rc: ReadinessContext,
  now: number,
  g: Gather,
): Promise<ReadinessFacts> {
  const c = actor.companyId;
  const settings = rc.settings;
  const on = (k: keyof ReadinessSettings['checks']) => settings.checks[k] !== 'ignore';
  const ids = [...new Set([s.pic_id, s.sic_id, s.supervisor_id, s.billed_id].filter((x): x is string => !!x))];
  const seated = [s.pic_id, s.sic_id, s.supervisor_id].filter((x): x is string => !!x);
  // The PIC's role is only known after the read, so the weather inputs are read whenever WEATHER could apply.
  const weatherAt =
    on('WEATHER') && s.departure_airport && isWeatherIcao(s.departure_airport) ? s.departure_airport : null;
  const duty = on('DUTY') ? dutyWindow(s, rc.limits, g.except) : null;
  const read = await readinessReads(db, c, {
    people: ids,
    balanceOf: on('BALANCE') && settings.balance_minimum !== null ? s.billed_id : null,
    certificates: on('CERTIFICATES') && s.flight_type_id ? { flightTypeId: s.flight_type_id, seated } : null,
    currency:
      on('CURRENCY') && s.pic_id && s.pax > 0
        ? { picId: s.pic_id, from: s.start - (settings.currency.days + 1) * DAY, to: s.start }
        : null,
    maintenanceOf: on('MAINTENANCE') ? s.aircraft_id : null,
    groupsOf: weatherAt && Object.keys(settings.weather.pilot_groups).length ? s.pic_id : null,
    weatherAt,
    melOf: on('MEL') ? s.aircraft_id : null,
    duty,
  });
  const names: Record<string, string> = {};
  for (const p of read.people) names[p.id] = `${p.name} ${p.surname}`.trim();
  const picRole = read.people.find((p) => p.id === s.pic_id)?.user_group_id;
  s.pic_role = picRole === undefined ? null : picRole;
  const facts: ReadinessFacts = { now, zone: actor.company.timezone, settings, names };
  if (on('BALANCE') && s.billed_id && settings.balance_minimum !== null) facts.balance = read.balance;
  if (on('CERTIFICATES') && s.flight_type_id) facts.certificates = read.certificates;
  if (on('CURRENCY') && s.pic_id && s.pax > 0) facts.currency = { flights: read.recent };
  if (on('MAINTENANCE') && s.aircraft_id) facts.maintenance = read.maintenance;
  if (on('MEL') && s.aircraft_id) {
    const at = Math.max(now, s.start);
    // The open items, their limitations and the grounding reports came with the other reads; deriving the
    // items' status reads flights only for items counted in flights, cycles or days.
    const b = await blockStateOf(db, c, read.mel.items, at, rc.limits.timezone);
    const grounding = blockersOf(read.mel.grounding, b, at).filter((x) => x.kind === 'GROUNDED');
    const limits = read.mel.limitations;
    facts.mel = {
      items: b.items.map((i) => ({
        label: `${i.type} ${i.ata_chapter ?? ''}${i.category ? ` (${i.category})` : ''} ${i.title}`.replace(
          /\s+/g,
          ' ',
        ),
        expired: i.status === 'EXPIRED',
        limitations: limits.get(i.mel_item_id) ?? [],
      })),
      grounded: grounding.map((x) => ({ sentence: x.sentence, text: x.text })),
    };
  }
  if (on('DUTY')) facts.duty = { people: duty ? dutyPeople(s, duty, read.duty, names, rc.simulator, rc.limits) : [] };
  if (weatherAt && isStudentPilot(s.pic_role)) {
    facts.weather = await weatherFacts(weatherAt, read.weather, g, now);
    if (s.pic_id && Object.keys(settings.weather.pilot_groups).length) facts.pic_groups = read.groups;
  }
  if (on('WEATHER') && facts.weather === undefined) facts.weather = null;
  return facts;
}

/** The read endpoints' reads on one PostgreSQL connection (SQLite has only one anyway). */
const onOneConnection = <T>(ctx: AppContext, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> =>
  ctx.database.dialect === 'postgres' ? ctx.db.connection().execute(fn) : fn(ctx.db);

/** A flight as the rule sees it: its block times (or its planned start and an hour), its crew, its passengers. */
export function subjectOfFlight(f: SubjectFlight): ReadinessSubject {
  const start = Number(f.offblocks ?? f.starts);
  const end = f.onblocks !== null ? Number(f.onblocks) : start + Math.max(Number(f.block_time), 3600);
  return {
    start,
    end: Math.max(end, start + 60),
    aircraft_id: f.aircraft_id,
    flight_type_id: f.flight_type_id,
    pic_id: f.pic_id,
    pic_role: null,
    sic_id: f.sic_id,
    supervisor_id: f.supervisor_id,
    billed_id: f.pic_id,
    pax: Number(f.pax),
    night: Number(f.night_flight_time) > 0,
    departure_airport: f.departure_airport,
  };
}

export interface ReadinessAnswer {
  result: true;
  ready: boolean;
  lines: ReadinessLine[];
  /** The reports the WEATHER line used, so a device keeps them for offline answers without asking the provider again. */
  weather?: { icao: string; metar: string | null; taf: string | null };
}

const answer = (lines: ReadinessLine[], facts?: ReadinessFacts): ReadinessAnswer => ({
  result: true,
  ready: blocking(lines).length === 0,
  lines,
  ...(facts?.weather
    ? {
        weather: {
          icao: facts.weather.icao,
          metar: facts.weather.metar?.raw ?? null,
          taf: facts.weather.taf?.raw ?? null,
        },
      }
    : {}),
});

/** GET /flights/readiness/{id}.json: another company's flight is 404, one the caller cannot reach 403. */
export async function flightReadiness(ctx: AppContext, actor: Actor, id: string): Promise<ReadinessAnswer> {
  return onOneConnection(ctx, async (db) => {
    const found = await flightWithContext(db, actor.companyId, id);
    if (!found) throw notFound('Flight not found');
    const { flight: f, context: rc } = found;
    // Reaching a flight is a question of role and seat only: no permission keys to read.
    if (!reachesFlight(actor, f)) throw forbidden('You can only see flights you are involved in');
    if (allIgnored(rc.settings)) return answer([]);
    const s = subjectOfFlight(f);
    const facts = await gatherFacts(db, actor, s, rc, nowSeconds(), {
      source: 'provider',
      ctx,
      except: { flightId: f.id, bookingId: rc.bookingId ?? undefined },
    });
    return answer(readiness(s, facts), facts);
  });
}

/** POST /schedules/readiness.json: a booking not made yet, with the refs resolved inside the company (unknown: 400). */
export async function planReadiness(ctx: AppContext, actor: Actor, p: TReadinessPlan): Promise<ReadinessAnswer> {
  const c = actor.companyId;
  // A self-booker may only ask about their own flying (the answer names balances and certificates).
  if (isSelfBooker(actor.role) && p.pilot_id !== actor.userId) throw forbidden('You can only check your own bookings');
  const [aircraft, type, pilot] = await Promise.all([
    ctx.db
      .selectFrom('aircraft')
      .select(['id', 'base_id'])
      .where('company_id', '=', c)
      .where('id', '=', p.aircraft_id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),
    ctx.db
      .selectFrom('flight_types')
      .select(['id', 'pic_flight_time', 'sic_flight_time', 'supervisor_flight_time'])
      .where('company_id', '=', c)
      .where('id', '=', p.flight_type_id)
      .where('deleted', '=', 0)
      .executeTakeFirst(),
    peopleOf(ctx.db, c, [p.pilot_id, ...(p.instructor_id ? [p.instructor_id] : [])]),
  ]);
  const errors: Record<string, string[]> = {};
  if (!aircraft) errors.aircraft_id = ['Unknown aircraft in your company'];
  if (!type) errors.flight_type_id = ['Unknown flight type in your company'];
  if (!pilot.some((u) => u.id === p.pilot_id)) errors.pilot_id = ['Unknown user in your company'];
  if (p.instructor_id && !pilot.some((u) => u.id === p.instructor_id))
    errors.instructor_id = ['Unknown user in your company'];
  if (p.end <= p.start) errors.end = ['Must be after start'];
  if (Object.keys(errors).length || !aircraft || !type) throw validationFailed(errors);
  const rc = await readinessContext(ctx.db, c, { flightId: null, aircraftId: aircraft.id });
  if (allIgnored(rc.settings)) return answer([]);
  let airport = p.departure_airport ?? null;
  const baseId = p.base_id ?? aircraft.base_id;
  if (!airport && baseId) {
    const b = await ctx.db
      .selectFrom('bases')
      .select('airport_id')
      .where('company_id', '=', c)
      .where('id', '=', baseId)
      .executeTakeFirst();
    airport = b?.airport_id ?? null;
  }
  const seats = seatsFor(type, p.pilot_id, p.instructor_id ?? null);
  const s: ReadinessSubject = {
    start: p.start,
    end: p.end,
    aircraft_id: aircraft.id,
    flight_type_id: type.id,
    ...seats,
    pic_role: null,
    billed_id: p.pilot_id,
    pax: p.pax ?? 0,
    night: p.night ?? false,
    departure_airport: airport,
  };
  const facts = await onOneConnection(ctx, (db) =>
    gatherFacts(db, actor, s, rc, nowSeconds(), { source: 'provider', ctx, except: { bookingId: p.id } }),
  );
  return answer(readiness(s, facts), facts);
}

export type ReadinessDecision =
  | { blocked: false; lines: ReadinessLine[] }
  | { blocked: true; lines: ReadinessLine[]; message: string; text: RuleText };

/**
 * The one call of booking (schedules), dispatch (flights) and their offline
 * commands, inside their transaction after their own rules passed: the
 * flight's readiness by the company policy. A block is answered by the
 * caller as `READINESS` and nothing is written (the transaction rolls back
 * or nothing was changed yet); warnings go into the flight's history and
 * come back with the answer. Weather here is what the server already holds:
 * a booking never waits on the provider while it holds the company's lock.
 */
export async function decideReadiness(
  uow: UnitOfWork,
  actor: Actor,
  flightId: string,
  opts: { bookingId?: string; now?: number } = {},
): Promise<ReadinessDecision> {
  const db = uow.trx;
  // The flight, the policy and the small context in one read; nothing more when every check is ignored.
  const found = await flightWithContext(db, actor.companyId, flightId);
  if (!found || allIgnored(found.context.settings)) return { blocked: false, lines: [] };
  const s = subjectOfFlight(found.flight);
  const facts = await gatherFacts(db, actor, s, found.context, opts.now ?? nowSeconds(), {
    source: 'held',
    except: { flightId, bookingId: opts.bookingId },
  });
  const lines = readiness(s, facts);
  if (blocking(lines).length) return { blocked: true, lines, message: refusalMessage(lines), text: refusalText(lines) };
  const amber = warnings(lines);
  if (amber.length)
    await recordNote(uow, {
      companyId: actor.companyId,
      flightId,
      userId: actor.userId,
      comments: `Readiness warnings: ${amber.map((l) => `${l.code}: ${l.message}`).join(' ')}`,
    });
  return { blocked: false, lines: amber };
}

export async function getSettings(ctx: AppContext, actor: Actor) {
  return { result: true as const, settings: await loadSettings(ctx.db, actor.companyId) };
}

/** POST /readiness/settings.json: the posted document replaces the stored one (validated whole: a bad value is a 400, nothing saved). */
export async function saveSettings(ctx: AppContext, actor: Actor, input: ReadinessSettings) {
  const settings = readSettings(input);
  const unknown = await unknownGroups(ctx.db, actor.companyId, Object.keys(settings.weather.pilot_groups));
  if (unknown.length) throw validationFailed({ 'weather.pilot_groups': ['Unknown pilot group in your company'] });
  await ctx.tx((uow) => storeSettings(uow, actor.companyId, settings, actor.userId, nowSeconds()));
  return { result: true as const, settings };
}
