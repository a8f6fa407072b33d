import { english } from '../../http/messages.ts';
import { maySeeAccountHistory } from '@ops/shared/rules/pilots/policy';
import { uuidv7 } from '@ops/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './pilots.tables.ts';
import { paginate } from '../../http/paging.ts';

export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** Fields whose values never go into the history (secrets). */
const SECRET = new Set(['totp_secret', 'password_hash']);

/** Compares stored and posted values whatever their spelling (1 and true, numbers as text). */
const norm = (v: unknown): string | null =>
  v === undefined || v === null
    ? null
    : Array.isArray(v)
      ? JSON.stringify(v)
      : typeof v === 'boolean'
        ? v
          ? '1'
          : '0'
        : String(v);

/** The changed fields between a stored row and the values about to be written. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined || SECRET.has(field)) continue;
    const from = before[field] ?? null;
    if (norm(from) !== norm(to)) out.push({ field: prefix + field, from, to });
  }
  return out;
}

/** One history row per save that changed something (`create`, `edit`). */
export async function recordUserChange(
  uow: UnitOfWork,
  companyId: string,
  userId: string,
  changedBy: string | null,
  action: string,
  fields: FieldChange[],
): Promise<void> {
  if (!fields.length && action !== 'create') return;
  await uow.trx
    .insertInto('user_changes')
    .values({
      id: uuidv7(),
      company_id: companyId,
      user_id: userId,
      changed_by: changedBy,
      action,
      fields: JSON.stringify(fields),
      created: nowSeconds(),
    })
    .execute();
}

async function companyUser(db: Kysely<DB>, companyId: string, id: string) {
  const u = await db
    .selectFrom('users')
    .select(['id'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!u) throw notFound('User not found');
  return u;
}

/**
 * GET /pilots/changes/{userId}.json: the account's change history, newest
 * first, paginated. Roles <= 150 (who see the full pilot record) read anyone's;
 * others only their own. Deleted accounts keep their history.
 */
export async function userChanges(
  ctx: AppContext,
  actor: Actor,
  userId: string,
  page: { page: number; limit: number },
) {
  const target = await companyUser(ctx.db, actor.companyId, userId);
  if (!maySeeAccountHistory(actor, target)) throw forbidden(english('pilots.errOwnHistory'));
  const scoped = () =>
    ctx.db
      .selectFrom('user_changes as c')
      .where('c.company_id', '=', actor.companyId)
      .where('c.user_id', '=', target.id);
  const { n } = await scoped()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await scoped()
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'c.changed_by').on('u.company_id', '=', actor.companyId))
    .select(['c.id', 'c.user_id', 'c.changed_by', 'c.action', 'c.fields', 'c.created', 'u.name', 'u.surname'])
    .orderBy('c.created', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit)
    .offset((page.page - 1) * page.limit)
    .execute();
  const count = Number(n);
  return {
    changes: rows.map((r) => ({
      UserChange: {
        id: r.id,
        user_id: r.user_id,
        action: r.action,
        fields: JSON.parse(r.fields) as FieldChange[],
        created: Number(r.created),
      },
      ChangedBy: r.changed_by ? { id: r.changed_by, name: r.name, surname: r.surname } : null,
    })),
    paginate: paginate(page.page, page.limit, count, rows.length),
  };
}
