import { mayReadFullDirectory, pilotGates } from '@ops/shared/rules/pilots/policy';
import { mayReadPersonalFields, mayReadRestrictedFields } from '@ops/shared/rules/users/policy';
import { AUDITOR_MASKED_FIELDS, isRole, RESTRICTED_VIEWER_FIELDS, ROLE_NAMES, ROLES } from '@ops/shared';
import { fromCents, secondsToHours } from '@ops/shared/rules/billing/money';
import { accountTotals } from '../billing/billing.repository.ts';
import { COUNTRIES } from '@ops/shared/reference/index';
import type { Response } from 'express';
import ExcelJS from 'exceljs';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { validationFailed, zodFieldErrors } from '../../http/errors.ts';
import { parseNamed } from '../../http/named-params.ts';
import { groupsOfUsers } from '../pilot-groups/pilot-groups.service.ts';
import { INDEX_MAX_LIMIT, type TPilotIndex, ZPilotIndex, ZPilotList } from './pilots.schema.ts';
import './pilots.tables.ts';
import { paginate } from '../../http/paging.ts';

function parse<S extends z.ZodType>(schema: S, named: Record<string, string>): z.output<S> {
  const r = schema.safeParse(named);
  if (!r.success) throw validationFailed(zodFieldErrors(r.error));
  return r.data;
}

/**
 * GET /pilots/list[/active:..][/pilot:..].json: every live account of the
 * company, minimal fields, by role then name. Viewers above 150 get others'
 * `user_group_id` as null, the rule of the replicated directory.
 */
export async function listPilots(ctx: AppContext, actor: Actor, segments: string[] | undefined) {
  const p = parse(ZPilotList, parseNamed(segments, ['active', 'pilot']));
  let q = ctx.db
    .selectFrom('users')
    .select(['id', 'name', 'surname', 'user_group_id', 'active', 'pilot'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0);
  if (p.active !== null) q = q.where('active', '=', p.active ? 1 : 0);
  if (p.pilot !== null) q = q.where('pilot', '=', p.pilot ? 1 : 0);
  const rows = await q.orderBy('user_group_id').orderBy('name').orderBy('surname').orderBy('id').execute();
  const hideRoles = !mayReadRestrictedFields(actor);
  return {
    pilots: rows.map((r) => ({
      id: r.id,
      name: r.name,
      surname: r.surname,
      user_group_id: hideRoles && r.id !== actor.userId ? null : r.user_group_id,
      active: !!r.active,
      pilot: !!r.pilot,
    })),
  };
}

const INDEX_KEYS = [
  'page',
  'search',
  'user_group_id',
  'pilot_group',
  'base_id',
  'active',
  'pilot',
  'limit',
  'excel',
] as const;

/** `%`, `_` and the escape character itself match literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Part A 4.8 item 2 search: name, surname, "name surname" or "surname name"
 * (substring, any case), the company id or passport (exact, any case), an
 * email prefix, or the exact user id. Viewers with the reduced view search by
 * name only, so they cannot probe passports or emails.
 */
function searchFilter(search: string, reduced: boolean): Expression<SqlBool> {
  const term = search.toLowerCase();
  const contains = `%${likeEscape(term)}%`;
  // SQLite's lower() folds ASCII only, so "ángel" misses "Ángel" there; names start their words with
  // capitals, so the term with capital initials is matched as well (LIKE itself ignores ASCII case).
  const initials = `%${likeEscape(term.replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toLocaleUpperCase()))}%`;
  const names = [
    sql<SqlBool>`lower(u.name) like ${contains} escape '\\'`,
    sql<SqlBool>`lower(u.surname) like ${contains} escape '\\'`,
    sql<SqlBool>`lower(u.name || ' ' || u.surname) like ${contains} escape '\\'`,
    sql<SqlBool>`lower(u.surname || ' ' || u.name) like ${contains} escape '\\'`,
    sql<SqlBool>`(u.name || ' ' || u.surname) like ${initials} escape '\\'`,
    sql<SqlBool>`(u.surname || ' ' || u.name) like ${initials} escape '\\'`,
    sql<SqlBool>`u.id = ${search}`,
  ];
  if (reduced) return sql<SqlBool>`(${sql.join(names, sql` or `)})`;
  const more = [
    sql<SqlBool>`lower(u.companyid) = ${term}`,
    sql<SqlBool>`lower(u.passport) = ${term}`,
    sql<SqlBool>`lower(u.email) like ${`${likeEscape(term)}%`} escape '\\'`,
  ];
  return sql<SqlBool>`(${sql.join([...names, ...more], sql` or `)})`;
}

function directoryQuery(db: Kysely<DB>, actor: Actor, p: TPilotIndex, reduced: boolean) {
  let q = db.selectFrom('users as u').where('u.company_id', '=', actor.companyId).where('u.deleted', '=', 0);
  // The reduced view lists staff rows only: the accounts the directory gate itself admits.
  if (reduced) q = q.where('u.user_group_id', '<=', pilotGates.directory.maxRole);
  if (p.search) q = q.where(searchFilter(p.search, reduced));
  if (p.user_group_id !== undefined)
    q =
      p.user_group_id === ROLES.FLIGHT_INSTRUCTOR
        ? q.where('u.user_group_id', '<=', ROLES.FLIGHT_INSTRUCTOR)
        : q.where('u.user_group_id', '=', p.user_group_id);
  if (p.base_id) q = q.where('u.base_id', '=', p.base_id);
  if (p.active !== undefined) q = q.where('u.active', '=', p.active ? 1 : 0);
  if (p.pilot !== undefined) q = q.where('u.pilot', '=', p.pilot ? 1 : 0);
  if (p.pilot_group) {
    const group = p.pilot_group;
    q = q.where('u.id', 'in', (eb) =>
      eb
        .selectFrom('pilot_group_members as m')
        .select('m.user_id')
        .where('m.company_id', '=', actor.companyId)
        .where('m.pilot_group_id', '=', group),
    );
  }
  return q;
}

const roleName = (role: number) => (isRole(role) ? ROLE_NAMES[role] : `Role ${role}`);

export interface DirectoryPage {
  pilots: Array<Record<string, unknown>>;
  paginate: {
    page: number;
    current: number;
    count: number;
    prevPage: boolean;
    nextPage: boolean;
    pageCount: number;
    limit: number;
  };
  billing: boolean;
  reduced: boolean;
}

/**
 * One page of the directory, filtered, counted and paginated in SQL (index
 * `users_company_role` serves the order), with base and groups joined: two
 * queries for the page plus one per 1000 rows for the groups.
 */
export async function directoryPage(ctx: AppContext, actor: Actor, p: TPilotIndex): Promise<DirectoryPage> {
  const reduced = !mayReadFullDirectory(actor);
  const full = mayReadRestrictedFields(actor);
  const billing = full && actor.plan !== 'free' && actor.company.billingEnabled;
  const { n } = await directoryQuery(ctx.db, actor, p, reduced)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await directoryQuery(ctx.db, actor, p, reduced)
    .leftJoin('bases as b', (j) =>
      j.onRef('b.id', '=', 'u.base_id').on('b.company_id', '=', actor.companyId).on('b.deleted', '=', 0),
    )
    .select([
      'u.id',
      'u.active',
      'u.pilot',
      'u.email',
      'u.email_status',
      'u.user_group_id',
      'u.created',
      'u.billing',
      'u.name',
      'u.surname',
      'u.photo',
      'u.phone',
      'u.phone2',
      'u.passport',
      'u.city',
      'u.address',
      'u.pc',
      'u.companyid',
      'u.country_id',
      'b.id as base_id',
      'b.name as base_name',
      'b.airport_id as base_airport_id',
    ])
    .orderBy('u.user_group_id')
    .orderBy('u.name')
    .orderBy('u.surname')
    .orderBy('u.id')
    .limit(p.limit)
    .offset((p.page - 1) * p.limit)
    .execute();
  const groups = reduced
    ? new Map()
    : await groupsOfUsers(
        ctx.db,
        actor.companyId,
        rows.map((r) => r.id),
      );
  const accounts = billing
    ? await accountTotals(
        ctx.db,
        actor.companyId,
        rows.map((r) => r.id),
      )
    : new Map();
  const pilots = rows.map((r) => {
    const Base = r.base_id ? { id: r.base_id, name: r.base_name, airport_id: r.base_airport_id } : null;
    if (reduced)
      return {
        User: { id: r.id, active: !!r.active, pilot: !!r.pilot },
        UserDetail: { name: r.name, surname: r.surname, photo: r.photo },
        Base,
      };
    const own = r.id === actor.userId;
    const User: Record<string, unknown> = {
      id: r.id,
      active: !!r.active,
      pilot: !!r.pilot,
      email: r.email,
      email_status: r.email_status,
      user_group_id: r.user_group_id,
      created: Number(r.created),
      billing: !!r.billing,
    };
    const UserDetail: Record<string, unknown> = {
      name: r.name,
      surname: r.surname,
      photo: r.photo,
      phone: r.phone,
      passport: r.passport,
      city: r.city,
      address: r.address,
      pc: r.pc,
      companyid: r.companyid,
      Country: { name: r.country_id ? (COUNTRIES[r.country_id] ?? null) : null },
    };
    if (billing) {
      // The billing account's totals (CONTRACT 6); no account yet is 0.
      const a = accounts.get(r.id);
      UserDetail.billing_balance = fromCents(a?.balance ?? 0);
      UserDetail.package_balance = secondsToHours(a?.packageSeconds ?? 0);
    }
    const UserGroup: Record<string, unknown> = { name: roleName(r.user_group_id) };
    if (!own) {
      // Same masks as the replicated directory (shared/collections/users.ts): nulls keep the row shape.
      const hidden = new Set<string>([
        ...(mayReadPersonalFields(actor, r.id) ? [] : AUDITOR_MASKED_FIELDS),
        ...(full ? [] : RESTRICTED_VIEWER_FIELDS),
      ]);
      for (const section of [User, UserDetail])
        for (const f of Object.keys(section)) if (hidden.has(f)) section[f] = null;
      if (!full) UserGroup.name = null;
    }
    const PilotGroup: Record<string, string> = {};
    for (const g of groups.get(r.id) ?? [])
      PilotGroup[g.color] = PilotGroup[g.color] ? `${PilotGroup[g.color]}, ${g.name}` : g.name;
    return { User, UserDetail, UserGroup, Base, PilotGroup };
  });
  const count = Number(n);
  return {
    pilots,
    paginate: paginate(p.page, p.limit, count, pilots.length),
    billing,
    reduced,
  };
}

export function parseIndexParams(segments: string[] | undefined): TPilotIndex {
  const p = parse(ZPilotIndex, parseNamed(segments, INDEX_KEYS));
  // Part A 4.8 item 2: the export holds every matching row.
  return p.excel ? { ...p, limit: INDEX_MAX_LIMIT } : p;
}

/** GET /pilots/index/...json: the page as JSON, or with `excel:1` an .xlsx file of the same rows and visibility. */
export async function pilotIndex(ctx: AppContext, actor: Actor, segments: string[] | undefined, res: Response) {
  const p = parseIndexParams(segments);
  const page = await directoryPage(ctx, actor, p);
  if (!p.excel) return { pilots: page.pilots, paginate: page.paginate };
  const buffer = await directoryWorkbook(page);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', 'attachment; filename="pilots.xlsx"');
  res.setHeader('X-Total-Posts', String(page.paginate.count));
  res.end(Buffer.from(buffer));
  return undefined;
}

type Row = {
  User: Record<string, unknown>;
  UserDetail: Record<string, unknown>;
  UserGroup?: Record<string, unknown>;
  Base: { name: unknown } | null;
  PilotGroup?: Record<string, string>;
};

/** The export: one sheet, a header row, then the rows exactly as the JSON page shows them to this viewer. */
export async function directoryWorkbook(page: DirectoryPage): Promise<ArrayBuffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Operations Platform';
  const ws = wb.addWorksheet('Pilots');
  const yes = (v: unknown) => (v ? 'Yes' : 'No');
  const columns: Array<{ header: string; width: number; value: (r: Row) => unknown }> = [
    { header: 'Name', width: 18, value: (r) => r.UserDetail.name },
    { header: 'Surname', width: 22, value: (r) => r.UserDetail.surname },
  ];
  if (!page.reduced) {
    columns.push(
      { header: 'Email', width: 30, value: (r) => r.User.email },
      { header: 'Role', width: 24, value: (r) => r.UserGroup?.name },
    );
  }
  columns.push(
    { header: 'Active', width: 8, value: (r) => yes(r.User.active) },
    { header: 'Pilot', width: 8, value: (r) => yes(r.User.pilot) },
    { header: 'Base', width: 18, value: (r) => r.Base?.name },
  );
  if (!page.reduced) {
    columns.push(
      { header: 'Phone', width: 16, value: (r) => r.UserDetail.phone },
      { header: 'City', width: 16, value: (r) => r.UserDetail.city },
      { header: 'Country', width: 16, value: (r) => (r.UserDetail.Country as { name: unknown } | undefined)?.name },
      { header: 'Company id', width: 14, value: (r) => r.UserDetail.companyid },
      { header: 'Passport', width: 14, value: (r) => r.UserDetail.passport },
      { header: 'Groups', width: 24, value: (r) => Object.values(r.PilotGroup ?? {}).join(', ') },
    );
  }
  if (page.billing) {
    columns.push(
      { header: 'Billing balance', width: 14, value: (r) => r.UserDetail.billing_balance },
      { header: 'Package balance', width: 14, value: (r) => r.UserDetail.package_balance },
    );
  }
  ws.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  ws.getRow(1).font = { bold: true };
  for (const r of page.pilots as unknown as Row[]) ws.addRow(columns.map((c) => c.value(r) ?? null));
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}
