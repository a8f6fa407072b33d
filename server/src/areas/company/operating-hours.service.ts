import { uuidv7 } from '@ops/shared';
import { type Locale, translator } from '@ops/shared/i18n/index';
import {
  type HoursRow,
  isValidDate,
  resolveRange,
  sayRows,
  validateHoursRows,
} from '@ops/shared/rules/company/operating-hours';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { stampReference } from './reference.sync.ts';
import { loadHoursRows, overridesWindow, rowsForResolution } from './operating-hours.repository.ts';

/** A save may hold at most this many rows (a week of 15-minute windows is 672). */
export const MAX_HOURS_ROWS = 1000;
/** The resolved-hours endpoint answers at most this many days at once. */
export const MAX_RESOLVE_DAYS = 366;

async function requireBase(db: Kysely<DB>, companyId: string, baseId: string) {
  const base = await db
    .selectFrom('bases')
    .select(['id', 'name'])
    .where('company_id', '=', companyId)
    .where('id', '=', baseId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!base) throw notFound('Base not found');
  return base;
}

/** GET /manager/companies/operating_hours.json: weekly rows of every scope, overrides of the window. */
export async function listOperatingHours(ctx: AppContext, actor: Actor) {
  const window = overridesWindow(actor.company.timezone);
  const rows = await loadHoursRows(ctx.db, actor.companyId, { overridesFrom: window.from, overridesTo: window.to });
  const bases = await ctx.db
    .selectFrom('bases')
    .select(['id', 'name'])
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .orderBy('name')
    .execute();
  const customised = new Set(rows.filter((r) => r.base_id !== null).map((r) => r.base_id));
  return {
    OperatingHours: {
      timezone: actor.company.timezone,
      overrides_from: window.from,
      overrides_to: window.to,
      rows,
      bases: bases.map((b) => ({ id: b.id, name: b.name, customised: customised.has(b.id) })),
    },
  };
}

// ---------------------------------------------------------------------------
// Save
// ---------------------------------------------------------------------------

const blank = (v: unknown) => v === undefined || v === null || v === '';

/** Integer from a JSON number or a form string; NaN when not a whole number (the shared rules word the message). */
function int(v: unknown): number {
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number.NaN;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return Number.NaN;
}

function flag(v: unknown): boolean | null {
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return null;
}

/** Rows posted as a list, or as an object keyed by index (form bodies with many rows). */
function rowList(raw: unknown): unknown[] | null {
  if (blank(raw)) return [];
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'object' && raw !== null) {
    const entries = Object.entries(raw as Record<string, unknown>);
    if (entries.every(([k]) => /^\d+$/.test(k)))
      return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  }
  return null;
}

/**
 * Turns the posted rows into HoursRow values plus messages for what the
 * shared rules cannot word (missing `closed`, missing minutes). A row with such
 * a problem is checked further as closed, so it adds no misleading message.
 * The messages are in `locale` (the caller's, issue 33); English without it.
 */
export function parseHoursRows(
  raw: unknown,
  baseId: string | null,
  locale?: Locale,
): { rows: HoursRow[]; messages: string[] } {
  const t = locale ? translator(locale) : undefined;
  const say = sayRows(t);
  const list = rowList(raw);
  if (list === null) return { rows: [], messages: [say('company.rowsNotList', {}, 'Rows must be a list of rows.')] };
  if (list.length > MAX_HOURS_ROWS)
    return {
      rows: [],
      messages: [
        // A string, so no language groups the digits differently from the English text.
        say(
          'company.rowsTooMany',
          { max: String(MAX_HOURS_ROWS) },
          `At most ${MAX_HOURS_ROWS} rows can be saved at once.`,
        ),
      ],
    };
  const messages: string[] = [];
  const rows = list.map((item, i): HoursRow => {
    const n = i + 1;
    const r = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof item !== 'object' || item === null)
      messages.push(
        say(
          'company.rowNotObject',
          { n },
          `Row ${n}: expected an object with weekday or override_date, closed, start_minute and end_minute.`,
        ),
      );
    const weekday = blank(r.weekday) ? null : int(r.weekday);
    const override_date = blank(r.override_date) ? null : String(r.override_date).trim();
    const closed = flag(r.closed);
    let usable = true;
    if (closed === null) {
      messages.push(
        say('company.rowClosedRequired', { n }, `Row ${n}: closed is required (1 shuts the day, 0 opens it).`),
      );
      usable = false;
    }
    if (closed === false) {
      for (const [field, label, id] of [
        ['start_minute', 'start', 'company.rowStartRequired'],
        ['end_minute', 'end', 'company.rowEndRequired'],
      ] as const) {
        if (blank(r[field])) {
          messages.push(say(id, { n }, `Row ${n}: the ${label} time is required when the day is open.`));
          usable = false;
        }
      }
    }
    const open = usable && closed === false;
    return {
      base_id: baseId,
      weekday,
      override_date,
      closed: !open,
      start_minute: open ? int(r.start_minute) : 0,
      end_minute: open ? int(r.end_minute) : 0,
    };
  });
  return { rows, messages: [...messages, ...validateHoursRows(rows, t)] };
}

/**
 * POST /manager/companies/save_operating_hours.json: the posted rows become the
 * complete set of one scope. Everything is validated first; the delete and
 * inserts run in one transaction, so a rejected or failed save changes nothing.
 */
export async function saveOperatingHours(
  ctx: AppContext,
  actor: Actor,
  input: { base_id: string | null; rows: unknown },
  locale?: Locale,
) {
  const baseId = input.base_id;
  if (baseId !== null) await requireBase(ctx.db, actor.companyId, baseId);
  const { rows, messages } = parseHoursRows(input.rows, baseId, locale);
  if (messages.length) throw new HttpError(400, { result: false, ...said('company.hoursNotSaved'), rows: messages });
  const now = nowSeconds();
  const saved = rows.map((r) => ({
    id: uuidv7(),
    company_id: actor.companyId,
    base_id: baseId,
    weekday: r.weekday,
    override_date: r.override_date,
    closed: r.closed ? 1 : 0,
    start_minute: r.closed ? 0 : r.start_minute,
    end_minute: r.closed ? 0 : r.end_minute,
    created: now,
  }));
  await ctx.tx(async (uow) => {
    // Stamp first: it takes the company's change-number row lock, so two saves of
    // one company run one after the other and the second replaces the first's rows.
    await stampReference(uow, actor.companyId, 'operating_hours');
    let del = uow.trx.deleteFrom('operating_hours').where('company_id', '=', actor.companyId);
    del = baseId === null ? del.where('base_id', 'is', null) : del.where('base_id', '=', baseId);
    await del.execute();
    if (saved.length) await uow.trx.insertInto('operating_hours').values(saved).execute();
  });
  return {
    result: true,
    message: saved.length
      ? 'Operating hours saved'
      : baseId
        ? 'The base follows the company week again'
        : 'The company hours were cleared',
    base_id: baseId,
    rows: saved.map((r) => ({
      id: r.id,
      base_id: r.base_id,
      weekday: r.weekday,
      override_date: r.override_date,
      closed: !!r.closed,
      start_minute: r.start_minute,
      end_minute: r.end_minute,
    })),
  };
}

// ---------------------------------------------------------------------------
// Resolution
// ---------------------------------------------------------------------------

const dayCount = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

/**
 * GET /companies/hours/{scope}/{from}/{to}.json: the hours of a base (or of the
 * company scope, `company`) on each date, with each window's unix instants in
 * the company time zone (wall-clock minutes, so DST days are 23 or 25 hours).
 */
export async function resolvedHours(ctx: AppContext, actor: Actor, scope: string, from: string, to: string) {
  const errors: Record<string, string[]> = {};
  if (!isValidDate(from)) errors.from = ['Expected a date YYYY-MM-DD'];
  if (!isValidDate(to)) errors.to = ['Expected a date YYYY-MM-DD'];
  if (!errors.from && !errors.to) {
    const days = dayCount(from, to);
    if (days < 1) errors.to = ['The end date must not be before the start date'];
    else if (days > MAX_RESOLVE_DAYS) errors.to = [`At most ${MAX_RESOLVE_DAYS} days at once`];
  }
  if (Object.keys(errors).length) throw badRequest('Invalid date range', { errors });
  const baseId = scope === 'company' ? null : scope;
  if (baseId !== null) await requireBase(ctx.db, actor.companyId, baseId);
  const rows = await rowsForResolution(ctx.db, actor.companyId, baseId, from, to);
  const zone = actor.company.timezone;
  return {
    base_id: baseId,
    timezone: zone,
    from,
    to,
    days: resolveRange(rows, baseId, from, to, zone),
  };
}
