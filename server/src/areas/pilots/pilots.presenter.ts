import { COUNTRIES } from '@ops/shared/reference/index';
import { fromCents, secondsToHours } from '@ops/shared/rules/billing/money';
import { accountTotals } from '../billing/billing.repository.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { certificatesOf } from '../certificates/certificates.service.ts';
import { groupsOfUsers } from '../pilot-groups/pilot-groups.service.ts';
import { NO_PREFERENCES, presentUser, presentUserGroup } from '../users/users.presenter.ts';
import { preferencesOf } from '../users/users.service.ts';
import { mayViewPilotInFull } from '@ops/shared/rules/pilots/policy';
import './pilots.tables.ts';

const country = (id: string | null) => (id ? { id, name: COUNTRIES[id] ?? null } : null);

/**
 * Part A 4.8 item 4 visibility, for a viewer who is not the pilot and has a
 * role above 150: these keys are removed (the spec: "loses"). The UserDetail
 * list is the shared one of the replicated directory, so REST and offline
 * data agree; `UserGroup` goes with `user_group_id`.
 */
const HIDDEN_USER_FIELDS = [
  'email',
  'user_group_id',
  'user_login_count',
  'email_status',
  'expiration',
  'alerts',
  'message_alerts',
  'newsletter',
  'whatsapp',
] as const;
const HIDDEN_DETAIL_FIELDS = ['phone', 'phone2', 'address', 'city', 'pc', 'passport', 'emergency_contact'] as const;

/**
 * GET /pilots/view.json (the caller) and /pilots/view/{id}.json. Visibility:
 * - role <= 150: everything, with notes, the latest login, preferences and,
 *   when the plan is paid and billing is on, the balances;
 * - role > 150 looking at someone else: no email, role, login count, email
 *   status, expiration, phones, address, city, postcode, passport, emergency
 *   contact, preferences, logins or certificates;
 * - role > 150 never gets notes or balances, not even their own.
 * A fixed number of queries, whatever the pilot holds.
 */
export async function viewPilot(ctx: AppContext, actor: Actor, id: string | undefined) {
  const targetId = id ?? actor.userId;
  const u = await ctx.db
    .selectFrom('users')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', targetId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('Pilot not found');
  const full = mayViewPilotInFull(actor);
  const own = u.id === actor.userId;
  const seesPrivate = full || own;

  const company = await ctx.db
    .selectFrom('companies')
    .select(['id', 'name', 'plan', 'billing_enabled'])
    .where('id', '=', actor.companyId)
    .executeTakeFirstOrThrow();
  const base = u.base_id
    ? await ctx.db
        .selectFrom('bases')
        .select(['id', 'name', 'airport_id', 'is_default'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', u.base_id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  const supervisor = u.supervisor_id
    ? await ctx.db
        .selectFrom('users')
        .select(['id', 'name', 'surname'])
        .where('company_id', '=', actor.companyId)
        .where('id', '=', u.supervisor_id)
        .where('deleted', '=', 0)
        .executeTakeFirst()
    : undefined;
  const aircraft = await ctx.db
    .selectFrom('pilot_aircraft as pa')
    .innerJoin('aircraft as a', (j) =>
      j.onRef('a.id', '=', 'pa.aircraft_id').on('a.company_id', '=', actor.companyId).on('a.deleted', '=', 0),
    )
    .select(['a.id', 'a.registration'])
    .where('pa.company_id', '=', actor.companyId)
    .where('pa.user_id', '=', u.id)
    .orderBy('a.registration')
    .execute();
  const flightTypes = await ctx.db
    .selectFrom('pilot_flight_types as pt')
    .innerJoin('flight_types as t', (j) =>
      j.onRef('t.id', '=', 'pt.flight_type_id').on('t.company_id', '=', actor.companyId).on('t.deleted', '=', 0),
    )
    .select(['t.id', 't.name', 't.color'])
    .where('pt.company_id', '=', actor.companyId)
    .where('pt.user_id', '=', u.id)
    .orderBy('t.sort_order')
    .orderBy('t.name')
    .execute();
  const groups = (await groupsOfUsers(ctx.db, actor.companyId, [u.id])).get(u.id) ?? [];
  const logins = await ctx.db
    .selectFrom('user_logins')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created').as('last')])
    .where('company_id', '=', actor.companyId)
    .where('user_id', '=', u.id)
    .executeTakeFirstOrThrow();
  const latest = logins.last
    ? await ctx.db
        .selectFrom('user_logins')
        .select(['id', 'created'])
        .where('company_id', '=', actor.companyId)
        .where('user_id', '=', u.id)
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .execute()
    : [];
  const prefs = seesPrivate ? await preferencesOf(ctx.db, u.identity_id) : null;
  const billing = full && company.plan !== 'free' && !!company.billing_enabled;

  // The 2.6 shapes of user administration, then this view's additions and removals.
  const shaped = presentUser(u, prefs ?? NO_PREFERENCES);
  const User: Record<string, unknown> = { ...shaped.User, user_login_count: Number(logins.n) };
  if (!prefs) for (const f of ['alerts', 'message_alerts', 'newsletter', 'whatsapp'] as const) delete User[f];
  const { notes: _notes, ...detail } = shaped.UserDetail;
  const UserDetail: Record<string, unknown> = {
    ...detail,
    Country: country(u.country_id),
    Timezone: u.timezone_id ? { id: u.timezone_id, name: u.timezone_id } : null,
    CountryOfBirth: country(u.birthcountry_id),
  };
  if (full) UserDetail.notes = u.notes;
  if (billing) {
    // The billing account's totals (CONTRACT 6); no account yet is 0.
    const a = (await accountTotals(ctx.db, actor.companyId, [u.id])).get(u.id);
    UserDetail.billing_balance = fromCents(a?.balance ?? 0);
    UserDetail.package_balance = secondsToHours(a?.packageSeconds ?? 0);
  }
  if (!seesPrivate) {
    for (const f of HIDDEN_USER_FIELDS) delete User[f];
    for (const f of HIDDEN_DETAIL_FIELDS) delete UserDetail[f];
  }

  const user: Record<string, unknown> = {
    User,
    UserDetail,
    ...(seesPrivate ? { UserGroup: presentUserGroup(u.user_group_id) } : {}),
    Company: { id: company.id, name: company.name, plan: company.plan },
    Base: base ? { id: base.id, name: base.name, airport_id: base.airport_id, default: !!base.is_default } : null,
    Supervisor: supervisor
      ? { id: supervisor.id, UserDetail: { name: supervisor.name, surname: supervisor.surname } }
      : null,
    ...(seesPrivate ? { UserCertificate: await certificatesOf(ctx.db, actor.companyId, u.id) } : {}),
    PilotGroup: groups.map((g) => ({ id: g.id, name: g.name, color: g.color })),
    AttributedAircraft: Object.fromEntries(aircraft.map((a) => [a.id, a.registration])),
    FlightType: flightTypes,
    ...(seesPrivate ? { UserLogin: latest.map((l) => ({ id: l.id, modified: Number(l.created) })) } : {}),
  };
  return { user };
}
