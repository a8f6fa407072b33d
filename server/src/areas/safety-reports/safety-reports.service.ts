import { english } from '../../http/messages.ts';
import { uuidv7 } from '@ops/shared';
import {
  AIR_SPACES,
  DAMAGES,
  deriveSeverity,
  FLIGHT_PHASES,
  formatIdn,
  childIdn,
  PERSONAL_DAMAGES,
  RISK_PROBABILITIES,
  RISK_SEVERITIES,
  SAFETY_SEVERITIES,
  SAFETY_STATUSES,
  type SafetyType,
  trailDiff,
  type TrailEntry,
} from '@ops/shared/rules/safety-reports/safety';
import {
  mayEditSafetyReport,
  mayManageSafetyReports,
  mayReviewSafetyReport,
  maySeeSafetyReport,
} from '@ops/shared/rules/safety-reports/policy';
import { sql } from 'kysely';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { invalid } from '../../http/errors.ts';
import { moveStats } from './safety-stats.repository.ts';
import { notifySubmitted, notifyEdited } from './safety-reports.notify.ts';
import { parseCreate, parseEdit, type TEdit } from './safety-reports.schema.ts';
import type { SafetyReportsTable } from './safety-reports.tables.ts';
import { emitSubmittedWebhook } from './safety-reports.webhooks.ts';

type Row = SafetyReportsTable;

export const notAuthorized = () =>
  new HttpError(403, { result: false, message: english('safety-reports.errNotAuthorized') });

/** A report of the actor's company the actor may see (drafts: the author only); 404 otherwise. */
export async function loadVisible(
  uow: UnitOfWork | { trx: UnitOfWork['trx'] },
  actor: Actor,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<Row> {
  let q = uow.trx
    .selectFrom('safety_reports')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id);
  if (!opts.includeDeleted) q = q.where('deleted', '=', 0);
  const row = (await q.executeTakeFirst()) as Row | undefined;
  if (!row || !maySeeSafetyReport(actor, row)) throw notFound(english('safety-reports.errNotFound'));
  return row;
}

const ids = (json: string): string[] => {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
};

/** The report as the trail compares it: columns plus the two sets. */
export const trailView = (r: Row): Record<string, unknown> => ({
  ...r,
  aircraft: ids(r.aircraft_ids),
  involved_users: ids(r.involved_user_ids),
});

type Refs = {
  category?: { id: string; department_id: string };
  flight?: {
    pic_id: string | null;
    sic_id: string | null;
    supervisor_id: string | null;
    flight_type_id: string | null;
    aircraft_id: string | null;
  } | null;
};

/** Company-scoped checks of every posted reference; field errors in one 400, nothing written. */
async function checkRefs(uow: UnitOfWork, actor: Actor, input: Partial<TEdit>, selfId: string | null): Promise<Refs> {
  const errors: Record<string, string[]> = {};
  const c = actor.companyId;
  const out: Refs = {};
  if (input.safety_report_category_id !== undefined) {
    const cat = await uow.trx
      .selectFrom('safety_report_categories')
      .select(['id', 'safety_report_department_id as department_id'])
      .where('company_id', '=', c)
      .where('id', '=', input.safety_report_category_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!cat) errors.safety_report_category_id = ['Unknown category'];
    else out.category = cat;
  }
  if (input.flight_id) {
    const f = await uow.trx
      .selectFrom('flights')
      .select(['pic_id', 'sic_id', 'supervisor_id', 'flight_type_id', 'aircraft_id'])
      .where('company_id', '=', c)
      .where('id', '=', input.flight_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!f) errors.flight_id = ['Unknown flight'];
    else out.flight = f;
  } else if (input.flight_id === null) out.flight = null;
  if (input.flight_type_id) {
    const ft = await uow.trx
      .selectFrom('flight_types')
      .select('id')
      .where('company_id', '=', c)
      .where('id', '=', input.flight_type_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!ft) errors.flight_type_id = ['Unknown flight type'];
  }
  if (input.parent_id) {
    const p = (await uow.trx
      .selectFrom('safety_reports')
      .selectAll()
      .where('company_id', '=', c)
      .where('id', '=', input.parent_id)
      .where('deleted', '=', 0)
      .executeTakeFirst()) as Row | undefined;
    if (!p || !maySeeSafetyReport(actor, p)) errors.parent_id = ['Unknown report'];
    else if (p.parent_id) errors.parent_id = ['A child report cannot have children'];
    else if (p.status === 'draft' || !p.idn) errors.parent_id = ['The parent report is still a draft'];
    else if (p.id === selfId) errors.parent_id = ['A report cannot be its own parent'];
  }
  const userRefs = [...(input.crew ?? []), ...(input.reviewer_id ? [input.reviewer_id] : [])];
  if (userRefs.length) {
    const found = await uow.trx
      .selectFrom('users')
      .select('id')
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .where('id', 'in', [...new Set(userRefs)])
      .execute();
    const known = new Set(found.map((r) => r.id));
    if (input.crew?.some((u) => !known.has(u))) errors.crew = ['Unknown user'];
    if (input.reviewer_id && !known.has(input.reviewer_id)) errors.reviewer_id = ['Unknown user'];
  }
  if (input.Aircraft?.length) {
    const found = await uow.trx
      .selectFrom('aircraft')
      .select('id')
      .where('company_id', '=', c)
      .where('deleted', '=', 0)
      .where('id', 'in', [...new Set(input.Aircraft)])
      .execute();
    const known = new Set(found.map((r) => r.id));
    if (input.Aircraft.some((a) => !known.has(a))) errors.Aircraft = ['Unknown aircraft'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return out;
}

/** The next `YYYY/NNNNN` of the company, in the caller's transaction: a rolled-back submission frees nothing, so there are no gaps. */
async function nextNumber(uow: UnitOfWork, companyId: string, year: number): Promise<number> {
  const row = await sql<{
    value: number;
  }>`insert into safety_report_counters (company_id, year, value) values (${companyId}, ${year}, 1)
    on conflict (company_id, year) do update set value = safety_report_counters.value + 1 returning value`.execute(
    uow.trx,
  );
  return Number(row.rows[0].value);
}

/** Assigns the number at submission: `YYYY/NNNNN` for a top-level report, `parentIdn-N` for a child. */
async function assignIdn(
  uow: UnitOfWork,
  companyId: string,
  parentId: string | null,
  now: number,
): Promise<Pick<Row, 'idn' | 'idn_year' | 'idn_seq' | 'child_no'>> {
  if (parentId) {
    // Touching the parent row locks it (PostgreSQL row lock; SQLite serialises writers), so two children never share N.
    await uow.trx
      .updateTable('safety_reports')
      .set({ reported: sql`reported` })
      .where('company_id', '=', companyId)
      .where('id', '=', parentId)
      .execute();
    const parent = await uow.trx
      .selectFrom('safety_reports')
      .select('idn')
      .where('company_id', '=', companyId)
      .where('id', '=', parentId)
      .executeTakeFirstOrThrow();
    const max = await uow.trx
      .selectFrom('safety_reports')
      .select((eb) => eb.fn.max('child_no').as('m'))
      .where('company_id', '=', companyId)
      .where('parent_id', '=', parentId)
      .executeTakeFirst();
    const n = Number(max?.m ?? 0) + 1;
    return { idn: childIdn(parent.idn ?? '', n), idn_year: null, idn_seq: null, child_no: n };
  }
  const year = new Date(now * 1000).getUTCFullYear();
  const seq = await nextNumber(uow, companyId, year);
  return { idn: formatIdn(year, seq), idn_year: year, idn_seq: seq, child_no: null };
}

/** Labels stored with a trail row, resolved now (never re-resolved). */
async function labelResolver(
  uow: UnitOfWork,
  companyId: string,
  entries: TrailEntry[],
): Promise<(field: string, value: unknown) => string | null> {
  const want = (f: string) =>
    entries
      .filter((e) => e.field === f)
      .flatMap((e) => [e.from, e.to])
      .filter((v): v is string => typeof v === 'string' && v !== '');
  const userIds = [...want('user_id'), ...want('reviewer_id')];
  const [users, cats, deps, fts, flights, parents] = await Promise.all([
    userIds.length
      ? uow.trx
          .selectFrom('users')
          .select(['id', 'name', 'surname'])
          .where('company_id', '=', companyId)
          .where('id', 'in', userIds)
          .execute()
      : [],
    want('safety_report_category_id').length
      ? uow.trx
          .selectFrom('safety_report_categories')
          .select(['id', 'name'])
          .where('company_id', '=', companyId)
          .where('id', 'in', want('safety_report_category_id'))
          .execute()
      : [],
    want('safety_report_department_id').length
      ? uow.trx
          .selectFrom('safety_report_departments')
          .select(['id', 'name'])
          .where('company_id', '=', companyId)
          .where('id', 'in', want('safety_report_department_id'))
          .execute()
      : [],
    want('flight_type_id').length
      ? uow.trx
          .selectFrom('flight_types')
          .select(['id', 'name'])
          .where('company_id', '=', companyId)
          .where('id', 'in', want('flight_type_id'))
          .execute()
      : [],
    want('flight_id').length
      ? uow.trx
          .selectFrom('flights as f')
          .leftJoin('aircraft as a', 'a.id', 'f.aircraft_id')
          .select(['f.id', 'f.date', 'a.registration'])
          .where('f.company_id', '=', companyId)
          .where('f.id', 'in', want('flight_id'))
          .execute()
      : [],
    want('parent_id').length
      ? uow.trx
          .selectFrom('safety_reports')
          .select(['id', 'idn'])
          .where('company_id', '=', companyId)
          .where('id', 'in', want('parent_id'))
          .execute()
      : [],
  ]);
  const m = new Map<string, string>();
  for (const u of users) m.set(`user:${u.id}`, `${u.name} ${u.surname}`);
  for (const c of cats) m.set(`cat:${c.id}`, c.name);
  for (const d of deps) m.set(`dep:${d.id}`, d.name);
  for (const t of fts) m.set(`ft:${t.id}`, t.name);
  for (const f of flights) m.set(`fl:${f.id}`, `${f.date}${f.registration ? ` ${f.registration}` : ''}`);
  for (const p of parents) m.set(`par:${p.id}`, p.idn ?? '');
  const status = Object.fromEntries(SAFETY_STATUSES.map((s) => [s.key, s.label]));
  const severity = Object.fromEntries(SAFETY_SEVERITIES.map((s) => [s.key, s.label]));
  return (field, value) => {
    const v = String(value);
    switch (field) {
      case 'user_id':
      case 'reviewer_id':
        return m.get(`user:${v}`) ?? null;
      case 'safety_report_category_id':
        return m.get(`cat:${v}`) ?? null;
      case 'safety_report_department_id':
        return m.get(`dep:${v}`) ?? null;
      case 'flight_type_id':
        return m.get(`ft:${v}`) ?? null;
      case 'flight_id':
        return m.get(`fl:${v}`) ?? null;
      case 'parent_id':
        return m.get(`par:${v}`) ?? null;
      case 'status':
        return status[v] ?? null;
      case 'severity':
        return severity[v] ?? null;
      case 'type':
        return v === 'INFORMATION' ? 'Information' : 'Occurrence';
      case 'flight_phase':
        return (FLIGHT_PHASES as Record<string, string>)[v] ?? null;
      case 'damages':
        return (DAMAGES as Record<string, string>)[v] ?? null;
      case 'personal_damages':
        return (PERSONAL_DAMAGES as Record<string, string>)[v] ?? null;
      case 'air_space':
        return (AIR_SPACES as Record<string, string>)[v] ?? null;
      case 'risk_probability':
      case 'mitigated_risk_probability': {
        const p = (RISK_PROBABILITIES as Record<string, { value: number; label: string }>)[v];
        return p ? `${p.value} ${p.label}` : null;
      }
      case 'risk_severity':
      case 'mitigated_risk_severity': {
        const s = (RISK_SEVERITIES as Record<string, { letter: string; label: string }>)[v];
        return s ? `${s.letter} ${s.label}` : null;
      }
      default:
        return null;
    }
  };
}

/**
 * Appends one trail row when tracked fields moved (or always for `delete`).
 * The actor is recorded, except the anonymous reporter acting on their own
 * report, who stays unresolved (null) so the trail does not undo anonymity.
 */
export async function writeTrail(
  uow: UnitOfWork,
  actor: Actor,
  action: string,
  before: Row | null,
  after: Row,
  opts: { always?: boolean; comments?: string | null } = {},
): Promise<boolean> {
  const raw = trailDiff(before ? trailView(before) : null, trailView(after));
  if (!raw.length && !opts.always) return false;
  const resolve = await labelResolver(uow, actor.companyId, raw);
  const entries = raw.map((e) =>
    e.kind
      ? e
      : {
          ...e,
          from_label: e.from === null ? null : resolve(e.field, e.from),
          to_label: e.to === null ? null : resolve(e.field, e.to),
        },
  );
  const anonymousAuthor = after.user_id === null && after.author_id === actor.userId;
  await uow.trx
    .insertInto('safety_report_changes')
    .values({
      id: uuidv7(),
      company_id: actor.companyId,
      safety_report_id: after.id,
      action,
      user_id: anonymousAuthor ? null : actor.userId,
      user_name: anonymousAuthor ? null : `${actor.name} ${actor.surname}`,
      comments: opts.comments ?? null,
      fields: JSON.stringify(entries),
      created: nowSeconds(),
    })
    .execute();
  return true;
}

function crewOf(refs: Refs): Pick<Row, 'crew_pic_id' | 'crew_sic_id' | 'crew_supervisor_id'> {
  const f = refs.flight;
  return {
    crew_pic_id: f?.pic_id ?? null,
    crew_sic_id: f?.sic_id ?? null,
    crew_supervisor_id: f?.supervisor_id ?? null,
  };
}

/** The report this author already filed from the same form (its `client_id`), deleted or not. */
export async function filedBefore(
  db: UnitOfWork['trx'] | AppContext['db'],
  actor: Actor,
  clientId: string,
): Promise<Row | undefined> {
  return (await db
    .selectFrom('safety_reports')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('author_id', '=', actor.userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()) as Row | undefined;
}

/** The unique index of migration 0072 refused a second row for one form (two presses raced). */
export const isClientIdClash = (err: unknown): boolean => {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e?.constraint === 'safety_reports_client_id') return true;
  return typeof e?.message === 'string' && /UNIQUE constraint failed: .*client_id/.test(e.message);
};

/**
 * Files a report once per form: a repeat (same author, same `client_id`)
 * answers the report the first press filed, never a second number. Two
 * presses racing meet at the unique index; the loser reads the winner's row.
 */
export async function fileSafetyReport(ctx: AppContext, actor: Actor, raw: unknown, flightId?: string): Promise<Row> {
  try {
    return await ctx.tx((uow) => createSafetyReport(uow, actor, raw, flightId));
  } catch (err) {
    const clientId = isClientIdClash(err) ? parseCreate(raw).client_id : undefined;
    const first = clientId ? await filedBefore(ctx.db, actor, clientId) : undefined;
    if (first) return first;
    throw err;
  }
}

/**
 * POST create (Part B 4.4 item 4); `flightId` from the path wins over the body.
 * With a `client_id` already used by this author, nothing is written and the
 * first report is the answer.
 */
export async function createSafetyReport(
  uow: UnitOfWork,
  actor: Actor,
  raw: unknown,
  flightId?: string,
  opts: { id?: string } = {},
): Promise<Row> {
  const input = parseCreate(raw);
  if (flightId) input.flight_id = flightId;
  const clientId = input.client_id ?? null;
  if (clientId) {
    const first = await filedBefore(uow.trx, actor, clientId);
    if (first) return first;
  }
  const refs = await checkRefs(uow, actor, input, null);
  const now = nowSeconds();
  const type = (input.type ?? 'OCCURRENCE') as SafetyType;
  const status = input.status ?? 'open';
  const isManager = mayManageSafetyReports(actor);
  const row: Row = {
    id: opts.id ?? uuidv7(),
    company_id: actor.companyId,
    change_no: await uow.changeNo(actor.companyId, 'safety_reports'),
    deleted: 0,
    created: now,
    modified: now,
    idn: null,
    idn_year: null,
    idn_seq: null,
    child_no: null,
    name: input.name,
    status,
    type,
    severity: deriveSeverity(type, input.severity, input.damages, input.personal_damages),
    datetime: input.datetime,
    location: input.location,
    events: input.events,
    actions: input.actions ?? null,
    result: input.result ?? null,
    corrective_measures: input.corrective_measures ?? null,
    met_conditions: input.met_conditions ?? null,
    immediate_consequences: input.immediate_consequences ?? null,
    flight_phase: input.flight_phase,
    safety_report_category_id: input.safety_report_category_id,
    safety_report_department_id: refs.category?.department_id ?? null,
    flight_id: input.flight_id ?? null,
    flight_type_id: input.flight_type_id ?? refs.flight?.flight_type_id ?? null,
    parent_id: input.parent_id ?? null,
    user_id: input.user_id === '' ? null : actor.userId,
    author_id: actor.userId,
    reviewer_id: isManager ? (input.reviewer_id ?? null) : null,
    reviewer_outcome: isManager ? (input.reviewer_outcome ?? null) : null,
    damages: input.damages ?? null,
    personal_damages: input.personal_damages ?? null,
    air_space: input.air_space ?? null,
    risk_probability: input.risk_probability ?? null,
    risk_severity: input.risk_severity ?? null,
    mitigated_risk_probability: input.mitigated_risk_probability ?? null,
    mitigated_risk_severity: input.mitigated_risk_severity ?? null,
    ...crewOf(refs),
    aircraft_ids: JSON.stringify(input.Aircraft ?? (refs.flight?.aircraft_id ? [refs.flight.aircraft_id] : [])),
    involved_user_ids: JSON.stringify(input.crew ?? []),
    reported: null,
    client_id: clientId,
  };
  if (status === 'open')
    Object.assign(row, await assignIdn(uow, actor.companyId, row.parent_id, now), { reported: now });
  await uow.trx.insertInto('safety_reports').values(row).execute();
  await moveStats(uow, null, row);
  await writeTrail(uow, actor, 'create', null, row, { always: true });
  if (status === 'open') await notifySubmitted(uow, actor, row);
  if (status === 'open') await emitSubmittedWebhook(uow, actor, row);
  return row;
}

/** POST or PUT edit (Part B 4.4 item 5, 3.3). */
export async function editSafetyReport(uow: UnitOfWork, actor: Actor, id: string, raw: unknown): Promise<Row> {
  const before = await loadVisible(uow, actor, id);
  if (!mayEditSafetyReport(actor, before)) throw notAuthorized();
  const input = parseEdit(raw);
  const isManager = mayManageSafetyReports(actor);
  const isCreator = before.author_id === actor.userId;
  const isReviewer = before.reviewer_id === actor.userId;
  // A non-creator editor cannot change the narrative of what happened and what was done.
  if (!isCreator) {
    delete input.events;
    delete input.actions;
  }
  if (!isManager) {
    delete input.reviewer_id;
    if (!isReviewer) delete input.reviewer_outcome;
  }
  if (input.status !== undefined && input.status !== null && input.status !== before.status) {
    if (input.status === 'draft') throw invalid({ status: ['A submitted report cannot return to draft'] });
    if (before.status === 'draft' && input.status !== 'open')
      throw invalid({ status: ['A draft is submitted as open'] });
    if (before.status === 'draft' && !isCreator && !isManager) throw notAuthorized();
    // Review, classify and close: the same policy the screen asks before offering the buttons.
    if (before.status !== 'draft' && !mayReviewSafetyReport(actor, before)) throw notAuthorized();
  }
  const refs = await checkRefs(uow, actor, input, before.id);
  const now = nowSeconds();
  const next: Row = { ...before, modified: now, change_no: await uow.changeNo(actor.companyId, 'safety_reports') };
  const plain = [
    'name',
    'datetime',
    'location',
    'events',
    'actions',
    'result',
    'corrective_measures',
    'met_conditions',
    'immediate_consequences',
    'flight_phase',
    'flight_type_id',
    'parent_id',
    'reviewer_id',
    'reviewer_outcome',
    'damages',
    'personal_damages',
    'air_space',
    'risk_probability',
    'risk_severity',
    'mitigated_risk_probability',
    'mitigated_risk_severity',
    'type',
  ] as const;
  for (const k of plain) if (input[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = input[k];
  if (input.type === null) next.type = 'OCCURRENCE';
  if (next.parent_id !== before.parent_id && before.idn)
    throw invalid({ parent_id: ['The parent of a submitted report cannot change'] });
  if (input.safety_report_category_id !== undefined && refs.category) {
    next.safety_report_category_id = refs.category.id;
    next.safety_report_department_id = refs.category.department_id;
  }
  if (input.flight_id !== undefined) {
    next.flight_id = input.flight_id ?? null;
    Object.assign(next, crewOf(refs));
    if (input.flight_type_id === undefined && refs.flight?.flight_type_id && !before.flight_type_id)
      next.flight_type_id = refs.flight.flight_type_id;
  }
  if (input.Aircraft !== undefined) next.aircraft_ids = JSON.stringify(input.Aircraft);
  if (input.crew !== undefined) next.involved_user_ids = JSON.stringify(input.crew);
  const postedSeverity = input.severity !== undefined ? input.severity : before.severity;
  next.severity = deriveSeverity(next.type as SafetyType, postedSeverity, next.damages, next.personal_damages);
  const submitting = before.status === 'draft' && input.status === 'open';
  if (input.status) next.status = input.status;
  if (submitting) Object.assign(next, await assignIdn(uow, actor.companyId, next.parent_id, now), { reported: now });
  const { id: _id, company_id: _c, ...set } = next;
  await uow.trx
    .updateTable('safety_reports')
    .set(set)
    .where('company_id', '=', actor.companyId)
    .where('id', '=', id)
    .execute();
  await moveStats(uow, before, next);
  await writeTrail(uow, actor, submitting ? 'submit' : 'edit', before, next, { always: submitting });
  if (submitting) await notifySubmitted(uow, actor, next);
  if (submitting) await emitSubmittedWebhook(uow, actor, next);
  else if (before.status !== 'draft') await notifyEdited(uow, actor, before, next);
  return next;
}

/** GET delete (roles <= 110): the report and its children, soft, one trail row each. */
export async function deleteSafetyReport(uow: UnitOfWork, actor: Actor, id: string): Promise<number> {
  const report = await loadVisible(uow, actor, id);
  const children = (await uow.trx
    .selectFrom('safety_reports')
    .selectAll()
    .where('company_id', '=', actor.companyId)
    .where('parent_id', '=', report.id)
    .where('deleted', '=', 0)
    .execute()) as Row[];
  const changeNo = await uow.changeNo(actor.companyId, 'safety_reports');
  const now = nowSeconds();
  const all = [report, ...children];
  await uow.trx
    .updateTable('safety_reports')
    .set({ deleted: 1, modified: now, change_no: changeNo })
    .where('company_id', '=', actor.companyId)
    .where(
      'id',
      'in',
      all.map((r) => r.id),
    )
    .execute();
  for (const r of all) {
    await moveStats(uow, r, { ...r, deleted: 1 });
    await writeTrail(uow, actor, 'delete', r, { ...r, deleted: 1 }, { always: true });
  }
  return all.length;
}
