import { once } from 'node:events';
import type { Response } from 'express';
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { validationFailed, zodFieldErrors } from '../../http/errors.ts';
import { zId, zIntish } from '../../http/zod.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { delayedBefore, flightZone, midnightIn } from './clock.ts';
import { type FlightFilters, flightsRepository, type FlightJoinedRow, LISTED, STORED_STATUSES } from './flights.repository.ts';
import { parseNamed } from './named-params.ts';
import { presentFlightRow } from './flights.presenter.ts';
import { zDate } from './flights.schema.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 20000;
/** Pages above this many rows are streamed row by row instead of built in memory. */
export const STREAM_ABOVE = 500;
const BATCH = 1000;

const NAMED = ['page', 'limit', 'from', 'to', 'aircraft', 'pilot', 'base', 'flight_type', 'status'] as const;

const ZLoad = z.object({
  page: zIntish.pipe(z.number().int().min(1, 'Pages start at 1')).default(1),
  // Above the maximum the page is clamped rather than refused (Part B 8: max 20000).
  limit: zIntish.pipe(z.number().int().min(1, 'At least 1')).transform((n) => Math.min(n, MAX_LIMIT)).default(DEFAULT_LIMIT),
  from: zDate.optional(),
  to: zDate.optional(),
  aircraft: zId.optional(),
  pilot: zId.optional(),
  base: zId.optional(),
  flight_type: zId.optional(),
  status: z
    .string()
    .toUpperCase()
    .transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.enum([...STORED_STATUSES, 'DELAYED'])).min(1))
    .optional(),
});
export type LoadParams = z.output<typeof ZLoad>;

/** `/flights/load/page:2/from:2024-01-01/...json` segments → validated parameters (400 in the spec's shape). */
export function parseLoadParams(segments: readonly string[] | string | undefined): LoadParams {
  const parsed = ZLoad.safeParse(parseNamed(segments, NAMED));
  if (!parsed.success) throw validationFailed(zodFieldErrors(parsed.error));
  return parsed.data;
}

export function filtersFor(actor: Actor, p: LoadParams, now: number): FlightFilters {
  const zone = flightZone(actor);
  const f: FlightFilters = { statuses: LISTED };
  if (p.status) {
    if (p.status.includes('DELAYED')) {
      // DELAYED is never stored: a SCHEDULED flight more than the delay past its time.
      f.statuses = [...new Set([...p.status.filter((s) => s !== 'DELAYED'), 'SCHEDULED'])];
      if (p.status.length === 1) f.delayedBefore = delayedBefore(now);
    } else f.statuses = p.status;
  }
  if (p.from) f.fromStarts = midnightIn(p.from, zone);
  if (p.to) f.toStarts = midnightIn(DateTime.fromISO(p.to).plus({ days: 1 }).toISODate() ?? p.to, zone);
  if (p.aircraft) f.aircraftId = p.aircraft;
  if (p.pilot) f.pilotId = p.pilot;
  if (p.base) f.baseId = p.base;
  if (p.flight_type) f.flightTypeId = p.flight_type;
  // The flights collection's `involved` scope: REST lists exactly what sync replicates.
  if (actor.role > 170) f.involvedUserId = actor.userId;
  return f;
}

function paginate(page: number, limit: number, count: number, current: number) {
  const pageCount = Math.max(1, Math.ceil(count / limit));
  return { page, current, count, prevPage: page > 1, nextPage: page < pageCount, pageCount, limit };
}

/**
 * GET /flights/load: one page newest first (off-blocks), paginated in SQL, with
 * its related records joined in the same query. The count comes from the
 * per-company counters when no filter applies, else from an indexed COUNT.
 * Large pages are streamed: rows are serialised as they arrive (Kysely
 * `.stream()` on SQLite, keyset batches on PostgreSQL where no cursor driver is
 * installed), so the result is never held as rows and as text at once.
 */
export async function loadFlights(ctx: AppContext, actor: Actor, p: LoadParams, res: Response): Promise<Record<string, unknown> | undefined> {
  const now = nowSeconds();
  const zone = flightZone(actor);
  const filters = filtersFor(actor, p, now);
  const offset = (p.page - 1) * p.limit;
  const count = await flightsRepository.count(ctx.db, actor.companyId, filters);
  const time = String(now);
  if (p.limit <= STREAM_ABOVE) {
    const rows = await flightsRepository.page(ctx.db, actor.companyId, filters, p.limit, offset);
    return { flights: rows.map((r) => presentFlightRow(r, zone, now)), paginate: paginate(p.page, p.limit, count, rows.length), time };
  }
  res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
  let sent = 0;
  let chunk = '';
  const flush = async () => {
    if (!chunk) return;
    const ok = res.write(chunk);
    chunk = '';
    if (!ok) await once(res, 'drain');
  };
  chunk = '{"flights":[';
  for await (const row of rowsOf(ctx, actor.companyId, filters, p.limit, offset)) {
    if (res.destroyed) return undefined; // the client went away: stop reading
    chunk += (sent ? ',' : '') + JSON.stringify(presentFlightRow(row, zone, now));
    sent += 1;
    if (chunk.length > 64 * 1024) await flush();
  }
  chunk += `],"paginate":${JSON.stringify(paginate(p.page, p.limit, count, sent))},"time":${JSON.stringify(time)}}`;
  await flush();
  res.end();
  return undefined;
}

async function* rowsOf(ctx: AppContext, companyId: string, filters: FlightFilters, limit: number, offset: number): AsyncGenerator<FlightJoinedRow> {
  if (ctx.database.dialect === 'sqlite') {
    yield* flightsRepository.pageStream(ctx.db, companyId, filters, limit, offset, BATCH);
    return;
  }
  let left = limit;
  let batch = await flightsRepository.page(ctx.db, companyId, filters, Math.min(BATCH, left), offset);
  while (batch.length) {
    for (const row of batch) yield row;
    left -= batch.length;
    const last = batch[batch.length - 1];
    if (left <= 0 || batch.length < BATCH) return;
    batch = await flightsRepository.after(ctx.db, companyId, filters, { starts: Number(last.starts), id: last.id }, Math.min(BATCH, left));
  }
}
