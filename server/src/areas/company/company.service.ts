import type { Updateable } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { CompaniesTable } from '../../db/core-tables.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { companyFlags, presentCompanySettings } from './company.presenter.ts';
import { stampReference } from './reference.sync.ts';
import { liveBases } from './operating-hours.repository.ts';
import type { TCompanyEdit } from './company.schema.ts';
import './company.tables.ts';

/** Pilots a free company may hold (Part A 5.8). */
export const FREE_PLAN_PILOT_LIMIT = 100;

async function companyRow(ctx: AppContext, companyId: string) {
  const row = await ctx.db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
  if (!row) throw notFound('Company not found');
  return row;
}

export async function publicSettings(ctx: AppContext, actor: Actor) {
  return presentCompanySettings(await companyRow(ctx, actor.companyId));
}

/**
 * GET /manager/companies/settings.json: the public payload plus `Admin`, the
 * figures a manager needs to run the account (counts against the plan limit,
 * customised operating-hours scopes, live API keys, record dates).
 */
export async function managerSettings(ctx: AppContext, actor: Actor) {
  const row = await companyRow(ctx, actor.companyId);
  const users = await ctx.db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('active', '=', 1).then(1).else(0).end()).as('active'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('active', '=', 1), eb('pilot', '=', 1)]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('pilots'),
    ])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  const bases = await ctx.db
    .selectFrom('bases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  const keys = await ctx.db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', actor.companyId)
    .where('revoked', '=', 0)
    .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', nowSeconds())]))
    .executeTakeFirstOrThrow();
  const scopes = await ctx.db
    .selectFrom('operating_hours')
    .select('base_id')
    .distinct()
    .where('company_id', '=', actor.companyId)
    .where((eb) => eb.or([eb('base_id', 'is', null), eb('base_id', 'in', liveBases(ctx.db, actor.companyId))]))
    .execute();
  return {
    ...presentCompanySettings(row),
    Admin: {
      created: Number(row.created),
      modified: Number(row.modified),
      user_count: Number(users.total),
      active_user_count: Number(users.active ?? 0),
      pilot_count: Number(users.pilots ?? 0),
      pilot_limit: row.plan === 'free' ? FREE_PLAN_PILOT_LIMIT : null,
      base_count: Number(bases.n),
      active_api_keys: Number(keys.n),
      operating_hours: {
        company: scopes.some((s) => s.base_id === null),
        bases: scopes.filter((s) => s.base_id !== null).length,
      },
    },
  };
}

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** POST /manager/companies/edit.json: partial update of profile, theme, formats, zones, flags and billing. */
export async function editCompany(ctx: AppContext, actor: Actor, input: TCompanyEdit) {
  const row = await companyRow(ctx, actor.companyId);
  const b = input.CompanyBillingSetting;
  if (b?.enabled === true && row.plan === 'free') {
    throw badRequest('Billing needs a paid plan', {
      errors: { 'CompanyBillingSetting.enabled': ['Billing is not available on the free plan'] },
    });
  }
  const s = input.CompanySetting;
  const set: Updateable<CompaniesTable> = {
    name: input.Company?.name,
    logo: input.CompanyTheme?.logo,
    color: input.CompanyTheme?.color?.toLowerCase() ?? input.CompanyTheme?.color,
    currency: input.CompanyDetail?.currency,
    icao: input.CompanyDetail?.icao,
    timezone: input.CompanyDetail?.timezone_id,
    country_iso: input.CompanyDetail?.country_id,
    zip: input.CompanyDetail?.zip,
    flight_timezone: s?.flight_timezone_id,
    date_format: s?.date_format,
    time_format: s?.time_format,
    duration_format: s?.duration_format,
    aoc: bool(s?.aoc),
    extracrew: bool(s?.extracrew),
    cabincrew: bool(s?.cabincrew),
    max_duty_hours: s?.max_duty_hours,
    max_flight_hours_year: s?.max_flight_hours_year,
    booking_horizon_days: s?.booking_horizon_days,
    billing_enabled: bool(b?.enabled),
    billing_billed_person: b?.billed_person,
    billing_tax: b?.tax,
    billing_send_notification: bool(b?.send_notification),
    billing_public_key: b?.public_key,
    billing_basis: b?.basis,
  };
  const flags = companyFlags(row);
  let flagsChanged = false;
  for (const k of Object.keys(flags) as (keyof typeof flags)[]) {
    const v = s?.[k];
    if (v !== undefined && v !== flags[k]) {
      flags[k] = v;
      flagsChanged = true;
    }
  }
  if (flagsChanged) set.flags = JSON.stringify(flags);
  for (const k of Object.keys(set) as (keyof typeof set)[]) if (set[k] === undefined) delete set[k];
  if (Object.keys(set).length) {
    await ctx.tx(async (uow) => {
      // The company row replicates as the `company` reference document.
      const changeNo = await uow.changeNo(actor.companyId, 'companies');
      await uow.trx
        .updateTable('companies')
        .set({ ...set, change_no: changeNo, modified: nowSeconds() })
        .where('id', '=', actor.companyId)
        .execute();
      // The operating-hours document carries the zone its minutes are read in.
      if (set.timezone !== undefined && set.timezone !== row.timezone)
        await stampReference(uow, actor.companyId, 'operating_hours');
    });
  }
  return {
    result: true,
    message: Object.keys(set).length ? 'Company settings saved' : 'Nothing to change',
    ...(await managerSettings(ctx, actor)),
  };
}
