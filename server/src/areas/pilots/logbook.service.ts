import { english } from '../../http/messages.ts';
import { isStaff } from '@ops/shared';
import {
  checkCurrency,
  computeLogbookTotals,
  type CurrencyRequirements,
  DEFAULT_CURRENCY_REQUIREMENTS,
  type LogbookFlight,
  parseCurrencyParams,
} from '@ops/shared/rules/index';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { ZCurrencyRequirements } from './pilots.schema.ts';
import './pilots.tables.ts';

/** Only confirmed flights count toward logbooks (Part B 3.1). */
const LANDED = 'LANDED';

async function companyUser(db: Kysely<DB>, companyId: string, id: string) {
  const u = await db
    .selectFrom('users')
    .select(['id', 'identity_id', 'email', 'flight_hours', 'supervisor_id'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('Pilot not found');
  return u;
}

/**
 * LANDED flights where one of `userIds` holds a seat, with the flight type's
 * seat classes and the aircraft's multipilot and simulator flags. A flight
 * without a type logs its PIC as `pic` and its SIC as `sic` (the defaults).
 * The seat filters use the (company, pic|sic|supervisor, starts) indexes.
 */
async function logbookFlights(db: Kysely<DB>, companyIds: readonly string[], userIds: readonly string[]) {
  if (!userIds.length) return [];
  const rows = await db
    .selectFrom('flights as f')
    .leftJoin('flight_types as t', (j) =>
      j.onRef('t.id', '=', 'f.flight_type_id').onRef('t.company_id', '=', 'f.company_id'),
    )
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').onRef('a.company_id', '=', 'f.company_id'))
    .select([
      'f.id',
      'f.company_id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.block_time',
      'f.flight_time',
      'f.night_flight_time',
      'f.ifr_flight_time',
      'f.rules',
      'f.crosscountry',
      'f.multiengine',
      'a.multipilot',
      'a.simulator',
      't.name as type_name',
      't.pic_flight_time',
      't.sic_flight_time',
      't.supervisor_flight_time',
    ])
    .where('f.company_id', 'in', [...companyIds])
    .where('f.status', '=', LANDED)
    .where('f.deleted', '=', 0)
    .where((eb) =>
      eb.or([
        eb('f.pic_id', 'in', [...userIds]),
        eb('f.sic_id', 'in', [...userIds]),
        eb('f.supervisor_id', 'in', [...userIds]),
      ]),
    )
    .execute();
  return rows.map((r) => ({
    companyId: r.company_id,
    flight: {
      id: r.id,
      pic_id: r.pic_id,
      sic_id: r.sic_id,
      supervisor_id: r.supervisor_id,
      block_time: Number(r.block_time),
      flight_time: Number(r.flight_time),
      night_flight_time: Number(r.night_flight_time),
      ifr_flight_time: Number(r.ifr_flight_time),
      rules: r.rules,
      crosscountry: !!r.crosscountry,
      multiengine: !!r.multiengine,
      aircraft: { multipilot: !!r.multipilot, simulator: !!r.simulator },
      flight_type: {
        name: r.type_name ?? 'No flight type',
        pic_flight_time: r.pic_flight_time ?? 'pic',
        sic_flight_time: r.sic_flight_time ?? 'sic',
        supervisor_flight_time: r.supervisor_flight_time ?? 'none',
      },
    } satisfies LogbookFlight,
  }));
}

/**
 * GET /pilots/totals/{userId}.json (Part A 4.8 item 6). Staff (role <= 170)
 * see anyone of the company, others themselves and the students they
 * supervise (403 otherwise). `other_companies` is the total time of the
 * accounts of the same login (or the same email) in other companies, rolled up
 * with the same rules.
 */
export async function pilotTotals(ctx: AppContext, actor: Actor, userId: string | undefined) {
  const target = await companyUser(ctx.db, actor.companyId, userId ?? actor.userId);
  if (!isStaff(actor.role) && target.id !== actor.userId && target.supervisor_id !== actor.userId)
    throw forbidden(english('pilots.errOwnTotals'));
  const own = await logbookFlights(ctx.db, [actor.companyId], [target.id]);
  let other = 0;
  if (target.identity_id || target.email) {
    const accounts = await ctx.db
      .selectFrom('users')
      .select(['id', 'company_id'])
      .where('company_id', '!=', actor.companyId)
      .where('deleted', '=', 0)
      .where((eb) => {
        const same = [];
        if (target.identity_id) same.push(eb('identity_id', '=', target.identity_id));
        if (target.email) same.push(eb('email', '=', target.email));
        return eb.or(same);
      })
      .execute();
    const flights = await logbookFlights(
      ctx.db,
      [...new Set(accounts.map((a) => a.company_id))],
      accounts.map((a) => a.id),
    );
    for (const a of accounts) {
      const theirs = flights.filter((f) => f.companyId === a.company_id).map((f) => f.flight);
      other += computeLogbookTotals({
        userId: a.id,
        flights: theirs,
        previousHours: 0,
        otherCompaniesSeconds: 0,
      }).total_time;
    }
  }
  return computeLogbookTotals({
    userId: target.id,
    flights: own.map((f) => f.flight),
    previousHours: target.flight_hours,
    otherCompaniesSeconds: other,
  });
}

/** The company's currency requirements (Part A 4.8 item 7); unset or unreadable JSON gives the defaults. */
export async function currencyRequirements(db: Kysely<DB>, companyId: string): Promise<CurrencyRequirements> {
  const row = await db
    .selectFrom('companies')
    .select('currency_requirements')
    .where('id', '=', companyId)
    .executeTakeFirst();
  if (!row?.currency_requirements) return { ...DEFAULT_CURRENCY_REQUIREMENTS };
  try {
    const parsed = JSON.parse(row.currency_requirements) as Partial<CurrencyRequirements>;
    return { ...DEFAULT_CURRENCY_REQUIREMENTS, ...parsed };
  } catch {
    return { ...DEFAULT_CURRENCY_REQUIREMENTS };
  }
}

/** POST /pilots/currency_requirements.json: stored on the company row, which replicates as the `company` reference document. */
export async function saveCurrencyRequirements(
  ctx: AppContext,
  actor: Actor,
  input: z.output<typeof ZCurrencyRequirements>,
) {
  const value: CurrencyRequirements = {
    landings: input.landings,
    night_landings: input.night_landings,
    hours: input.hours,
  };
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('companies')
      .set({
        currency_requirements: JSON.stringify(value),
        change_no: await uow.changeNo(actor.companyId, 'companies'),
        modified: nowSeconds(),
      })
      .where('id', '=', actor.companyId)
      .execute();
  });
  return { result: true, requirements: value };
}

/** `null`, `0` or an empty segment mean "the caller" (Part A 4.8 item 7). */
const NO_USER = new Set(['', 'null', 'undefined', '0']);

/**
 * GET /pilots/get_currency/{userId}/{d1}/{d2}/{d3}.json. The user is forced to
 * the caller when null or when the caller's role is above 170; staff may ask
 * for anyone of the company (404 outside it). Counts the LANDED flights where
 * the person sat as PIC or SIC (a supervisor seat flies no landing) with the
 * pure rule `checkCurrency`: d1 days for landings, d2 for night landings, d3
 * for block hours.
 */
export async function pilotCurrency(
  ctx: AppContext,
  actor: Actor,
  p: { userId?: string; d1?: string; d2?: string; d3?: string },
) {
  const asked = p.userId && !NO_USER.has(p.userId.trim().toLowerCase()) ? p.userId : actor.userId;
  const targetId = isStaff(actor.role) ? asked : actor.userId;
  const target = await companyUser(ctx.db, actor.companyId, targetId);
  const params = parseCurrencyParams(p.d1, p.d2, p.d3);
  const requirements = await currencyRequirements(ctx.db, actor.companyId);
  const now = nowSeconds();
  // Flights start before they end: a margin of two days keeps a flight whose on-blocks falls inside the widest window.
  const from = now - (Math.max(params.landingsDays, params.nightLandingsDays, params.hoursDays) + 2) * 86_400;
  const rows = await ctx.db
    .selectFrom('flights')
    .select(['onblocks', 'landing', 'starts', 'landings', 'night_landings', 'block_time'])
    .where('company_id', '=', actor.companyId)
    .where('status', '=', LANDED)
    .where('deleted', '=', 0)
    .where('starts', '>=', from)
    .where((eb) => eb.or([eb('pic_id', '=', target.id), eb('sic_id', '=', target.id)]))
    .execute();
  const flights = rows.map((r) => ({
    onblocks: Number(r.onblocks ?? r.landing ?? r.starts),
    landings: Number(r.landings),
    night_landings: Number(r.night_landings),
    block_time: Number(r.block_time),
  }));
  const result = checkCurrency({ flights, now, params, requirements });
  return {
    user_id: target.id,
    now,
    d1: params.landingsDays,
    d2: params.nightLandingsDays,
    d3: params.hoursDays,
    requirements,
    ...result,
  };
}
