import { mayChangeAccount } from '@ops/shared/rules/users/policy';
import { uuidv7 } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { FREE_PLAN_PILOT_LIMIT } from '../company/company.service.ts';
import { activationPending, issueToken } from '../users/identities.repository.ts';
import type { TPilotGroupWrite } from './pilot-groups.schema.ts';
import './pilot-groups.tables.ts';
import { touchReadiness } from '../readiness/readiness.repository.ts';
import { said } from '../../http/messages.ts';

/** Colours handed to new groups in turn (the directory shows a group as its colour). */
export const GROUP_PALETTE = [
  '#3788d8',
  '#e74c3c',
  '#2ecc71',
  '#f39c12',
  '#9b59b6',
  '#1abc9c',
  '#e67e22',
  '#34495e',
  '#d35400',
  '#16a085',
  '#c0392b',
  '#8e44ad',
] as const;

type GroupRow = { id: string; company_id: string; name: string; color: string };
const presentGroup = (g: GroupRow, pilotCount?: number) => ({
  id: g.id,
  company_id: g.company_id,
  name: g.name,
  color: g.color,
  ...(pilotCount === undefined ? {} : { pilot_count: pilotCount }),
});

async function findGroup(db: Kysely<DB>, companyId: string, id: string): Promise<GroupRow> {
  const g = await db
    .selectFrom('pilot_groups')
    .select(['id', 'company_id', 'name', 'color'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!g) throw notFound('Pilot group not found');
  return g;
}

/** Live company users of a group, in one join (deleted users are not members any more). */
const membersQuery = (db: Kysely<DB>, companyId: string, groupId: string) =>
  db
    .selectFrom('pilot_group_members as m')
    .innerJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'm.user_id').on('u.company_id', '=', companyId).on('u.deleted', '=', 0),
    )
    .where('m.company_id', '=', companyId)
    .where('m.pilot_group_id', '=', groupId);

/** GET /pilot_groups/manager_index.json: groups by name with their live member count (one grouped query). */
export async function listGroups(ctx: AppContext, actor: Actor) {
  const rows = await ctx.db
    .selectFrom('pilot_groups as g')
    .leftJoin('pilot_group_members as m', (j) =>
      j.onRef('m.pilot_group_id', '=', 'g.id').on('m.company_id', '=', actor.companyId),
    )
    .leftJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'm.user_id').on('u.company_id', '=', actor.companyId).on('u.deleted', '=', 0),
    )
    .select(['g.id', 'g.company_id', 'g.name', 'g.color', (eb) => eb.fn.count<number>('u.id').as('pilot_count')])
    .where('g.company_id', '=', actor.companyId)
    .groupBy(['g.id', 'g.company_id', 'g.name', 'g.color'])
    .orderBy('g.name')
    .orderBy('g.id')
    .execute();
  return { pilotGroups: rows.map((g) => ({ PilotGroup: presentGroup(g, Number(g.pilot_count)) })) };
}

/** GET /pilot_groups/manager_view/{id}.json: the group and its members, each with its other groups (two queries). */
export async function viewGroup(ctx: AppContext, actor: Actor, id: string) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  const members = await membersQuery(ctx.db, actor.companyId, group.id)
    .select([
      'u.id',
      'u.active',
      'u.pilot',
      'u.email',
      'u.email_status',
      'u.user_group_id',
      'u.name',
      'u.surname',
      'u.photo',
    ])
    .orderBy('u.name')
    .orderBy('u.surname')
    .orderBy('u.id')
    .execute();
  const groups = await groupsOfUsers(
    ctx.db,
    actor.companyId,
    members.map((m) => m.id),
  );
  return {
    PilotGroup: presentGroup(group, members.length),
    User: members.map((m) => ({
      User: {
        id: m.id,
        active: !!m.active,
        pilot: !!m.pilot,
        email: m.email,
        email_status: m.email_status,
        user_group_id: m.user_group_id,
      },
      UserDetail: { name: m.name, surname: m.surname, photo: m.photo },
      PilotGroup: (groups.get(m.id) ?? [])
        .filter((o) => o.id !== group.id)
        .map((o) => ({ id: o.id, name: o.name, color: o.color })),
    })),
  };
}

/** GET /pilot_groups/manager_pilots/{id}.json: members as flat objects. */
export async function groupPilots(ctx: AppContext, actor: Actor, id: string) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  const rows = await membersQuery(ctx.db, actor.companyId, group.id)
    .select([
      'u.id',
      'u.name',
      'u.surname',
      'u.email',
      'u.email_status',
      'u.active',
      'u.pilot',
      'u.user_group_id',
      'u.base_id',
      'u.photo',
    ])
    .orderBy('u.name')
    .orderBy('u.surname')
    .orderBy('u.id')
    .execute();
  return rows.map((u) => ({ ...u, active: !!u.active, pilot: !!u.pilot }));
}

/** GET /pilot_groups/manager_edit/{id}.json: the group and its members for a form. */
export async function groupForEdit(ctx: AppContext, actor: Actor, id: string) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  const members = await membersQuery(ctx.db, actor.companyId, group.id)
    .select(['u.id', 'u.name', 'u.surname'])
    .orderBy('u.name')
    .orderBy('u.surname')
    .orderBy('u.id')
    .execute();
  return { PilotGroup: { ...presentGroup(group, members.length), User: members } };
}

async function nameTaken(db: Kysely<DB>, companyId: string, name: string, exceptId?: string) {
  // Compared in JavaScript: SQLite's lower() folds ASCII only, so "Ópera" and "ópera" would differ there
  // but not on PostgreSQL. A company has few of these rows.
  let q = db.selectFrom('pilot_groups').select(['id', 'name']).where('company_id', '=', companyId);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const wanted = name.toLocaleLowerCase();
  return (await q.execute()).some((r) => r.name.toLocaleLowerCase() === wanted);
}

/** Members must be live users of the company; another company's id answers 404 like any foreign record. */
async function checkMembers(db: Kysely<DB>, companyId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  let found = 0;
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', companyId)
      .where('deleted', '=', 0)
      .where('id', 'in', unique.slice(i, i + 1000))
      .execute();
    found += rows.length;
  }
  if (found !== unique.length) throw notFound('User not found');
  return unique;
}

async function replaceMembers(uow: UnitOfWork, companyId: string, groupId: string, ids: readonly string[]) {
  await uow.trx
    .deleteFrom('pilot_group_members')
    .where('company_id', '=', companyId)
    .where('pilot_group_id', '=', groupId)
    .execute();
  const now = nowSeconds();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await uow.trx
      .insertInto('pilot_group_members')
      .values(
        chunk.map((userId) => ({
          id: uuidv7(),
          company_id: companyId,
          pilot_group_id: groupId,
          user_id: userId,
          created: now,
        })),
      )
      .execute();
  }
  // Devices hold the members of groups with their own weather minimums (readiness).
  await touchReadiness(uow, companyId);
}

/** POST /pilot_groups/manager_add.json: a new group gets the next palette colour unless one is given. */
export async function createGroup(ctx: AppContext, actor: Actor, input: TPilotGroupWrite) {
  if (await nameTaken(ctx.db, actor.companyId, input.name))
    throw validationFailed({ name: ['A group with this name already exists'] });
  const members = await checkMembers(ctx.db, actor.companyId, input.User ?? []);
  const id = uuidv7();
  await ctx.tx(async (uow) => {
    const { n } = await uow.trx
      .selectFrom('pilot_groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', actor.companyId)
      .executeTakeFirstOrThrow();
    const now = nowSeconds();
    const color = input.color ?? GROUP_PALETTE[Number(n) % GROUP_PALETTE.length];
    await uow.trx
      .insertInto('pilot_groups')
      .values({ id, company_id: actor.companyId, name: input.name, color, created: now, modified: now })
      .execute();
    if (members.length) await replaceMembers(uow, actor.companyId, id, members);
  });
  return {
    result: true,
    id,
    message: 'Pilot group created',
    PilotGroup: presentGroup(await findGroup(ctx.db, actor.companyId, id), members.length),
  };
}

/** POST or PUT /pilot_groups/manager_edit/{id}.json: name (and colour); `User` given replaces the membership. */
export async function editGroup(ctx: AppContext, actor: Actor, id: string, input: TPilotGroupWrite) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  if (await nameTaken(ctx.db, actor.companyId, input.name, group.id))
    throw validationFailed({ name: ['A group with this name already exists'] });
  const members = input.User === undefined ? null : await checkMembers(ctx.db, actor.companyId, input.User);
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('pilot_groups')
      .set({ name: input.name, ...(input.color ? { color: input.color } : {}), modified: nowSeconds() })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', group.id)
      .execute();
    if (members) await replaceMembers(uow, actor.companyId, group.id, members);
  });
  return { result: true, id: group.id, message: 'Pilot group saved', ...(await groupForEdit(ctx, actor, group.id)) };
}

/** POST or DELETE /pilot_groups/manager_delete/{id}.json: the group and its memberships; users stay. */
export async function deleteGroup(ctx: AppContext, actor: Actor, id: string) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  await ctx.tx(async (uow) => {
    await uow.trx
      .deleteFrom('pilot_group_members')
      .where('company_id', '=', actor.companyId)
      .where('pilot_group_id', '=', group.id)
      .execute();
    await uow.trx
      .deleteFrom('pilot_groups')
      .where('company_id', '=', actor.companyId)
      .where('id', '=', group.id)
      .execute();
    await touchReadiness(uow, actor.companyId);
  });
  return { result: true, id: group.id, message: 'Pilot group deleted' };
}

/**
 * GET /pilot_groups/manager_do/{id}/{action}.json: activates (1) or
 * deactivates (0) the members whose state differs. Never the caller
 * (deactivating yourself locks you out) and never an account above the
 * caller's role (role 1 excepted). Activating pilots on the free plan must stay
 * within its 100 pilots, else nothing changes (400). Each changed account gets
 * an `edit` row in its history.
 */
export async function bulkActivate(ctx: AppContext, actor: Actor, id: string, active: boolean) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  const members = await membersQuery(ctx.db, actor.companyId, group.id)
    .select(['u.id', 'u.active', 'u.pilot', 'u.user_group_id'])
    .execute();
  const differing = members.filter((m) => !!m.active !== active);
  const skipped = differing.filter((m) => m.id === actor.userId || !mayChangeAccount(actor, m));
  const changing = differing.filter((m) => !skipped.includes(m));
  const ids = changing.map((m) => m.id);
  await ctx.tx(async (uow) => {
    if (active && actor.plan === 'free') {
      const newPilots = changing.filter((m) => m.pilot).length;
      const { n } = await uow.trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', actor.companyId)
        .where('deleted', '=', 0)
        .where('pilot', '=', 1)
        .where('active', '=', 1)
        .executeTakeFirstOrThrow();
      if (newPilots > 0 && Number(n) + newPilots > FREE_PLAN_PILOT_LIMIT) {
        throw validationFailed(
          { action: [`The free plan holds at most ${FREE_PLAN_PILOT_LIMIT} pilots; ${Number(n)} are active`] },
          'errors',
          'Pilot limit of the free plan reached',
        );
      }
    }
    if (!ids.length) return;
    const changeNo = await uow.changeNo(actor.companyId, 'users');
    for (let i = 0; i < ids.length; i += 500) {
      await uow.trx
        .updateTable('users')
        .set({ active: active ? 1 : 0, change_no: changeNo, modified: nowSeconds() })
        .where('company_id', '=', actor.companyId)
        .where('id', 'in', ids.slice(i, i + 500))
        .where('active', '=', active ? 0 : 1)
        .execute();
      // The account history (GET /pilots/changes) records the change like an edit of `active`.
      const now = nowSeconds();
      const fields = JSON.stringify([{ field: 'active', from: active ? 0 : 1, to: active ? 1 : 0 }]);
      await uow.trx
        .insertInto('user_changes')
        .values(
          ids.slice(i, i + 500).map((userId) => ({
            id: uuidv7(),
            company_id: actor.companyId,
            user_id: userId,
            changed_by: actor.userId,
            action: 'edit',
            fields,
            created: now,
          })),
        )
        .execute();
    }
  });
  return {
    result: true,
    action: active ? 1 : 0,
    changed: ids,
    skipped: skipped.map((m) => m.id),
    ...said(active ? 'errors.membersActivated' : 'errors.membersDeactivated', { count: ids.length }),
  };
}

/**
 * POST /pilot_groups/manager_welcomize/{id}.json: one mail per active member
 * with an email: `activation` (a fresh link) while the login has no password
 * yet, `confirm` while the address is not confirmed, `welcome` otherwise.
 */
export async function welcomize(ctx: AppContext, actor: Actor, id: string) {
  const group = await findGroup(ctx.db, actor.companyId, id);
  const members = await membersQuery(ctx.db, actor.companyId, group.id)
    .select(['u.id', 'u.name', 'u.email', 'u.email_status', 'u.identity_id'])
    .where('u.active', '=', 1)
    .where('u.email', 'is not', null)
    .where('u.email', '!=', '')
    .where('u.identity_id', 'is not', null)
    .orderBy('u.id')
    .execute();
  const mails: OutgoingMail[] = await ctx.tx(async (uow) => {
    const out: OutgoingMail[] = [];
    for (const m of members) {
      const email = m.email as string;
      const identityId = m.identity_id as string;
      if (await activationPending(uow.trx, identityId)) {
        const token = await issueToken(uow.trx, {
          purpose: 'activate',
          identityId,
          userId: null,
          companyId: actor.companyId,
          email,
        });
        out.push({
          to: email,
          template: 'activation',
          data: { name: m.name, company: actor.company.name, token },
          companyId: actor.companyId,
        });
      } else if (m.email_status !== 'confirmed') {
        const token = await issueToken(uow.trx, {
          purpose: 'confirm',
          identityId,
          userId: m.id,
          companyId: actor.companyId,
          email,
        });
        out.push({ to: email, template: 'confirm', data: { name: m.name, email, token }, companyId: actor.companyId });
      } else {
        out.push({
          to: email,
          template: 'welcome',
          data: { name: m.name, company: actor.company.name, email },
          companyId: actor.companyId,
        });
      }
    }
    return out;
  });
  for (const m of mails) await ctx.mailer.send(m);
  const count = (t: string) => mails.filter((m) => m.template === t).length;
  return {
    result: true,
    sent: mails.length,
    mails: { activation: count('activation'), confirm: count('confirm'), welcome: count('welcome') },
    ...said('errors.mailsSent', { count: mails.length }),
  };
}

/** Groups of many users at once (directory rows, pilot view): one query per 1000 users (bound-parameter limits). */
export async function groupsOfUsers(db: Kysely<DB>, companyId: string, userIds: readonly string[]) {
  const out = new Map<string, GroupRow[]>();
  for (let i = 0; i < userIds.length; i += 1000) {
    const rows = await db
      .selectFrom('pilot_group_members as m')
      .innerJoin('pilot_groups as g', 'g.id', 'm.pilot_group_id')
      .select(['m.user_id', 'g.id', 'g.company_id', 'g.name', 'g.color'])
      .where('m.company_id', '=', companyId)
      .where('g.company_id', '=', companyId)
      .where('m.user_id', 'in', userIds.slice(i, i + 1000))
      .orderBy('g.name')
      .orderBy('g.id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.user_id) ?? [];
      list.push({ id: r.id, company_id: r.company_id, name: r.name, color: r.color });
      out.set(r.user_id, list);
    }
  }
  return out;
}
