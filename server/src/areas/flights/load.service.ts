import type { Response } from 'express';
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { validationFailed, zodFieldErrors } from '../../http/errors.ts';
import { zId, zIntish } from '../../http/zod.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { delayedBefore, delayedFrom, flightZone, midnightIn } from '@ops/shared/rules/flights/clock';
import {
  type FlightFilters,
  flightsRepository,
  type FlightJoinedRow,
  LISTED,
  STORED_STATUSES,
} from './flights.repository.ts';
import { parseNamed } from '../../http/named-params.ts';
import { cachedPage, companyVersion, type RenderedPage, storePage } from './page-cache.repository.ts';
import { presentFlightRow } from './flights.presenter.ts';
import { zDate } from './flights.schema.ts';
import { seesAllFlights } from '@ops/shared/rules/flights/policy';
import { paginate } from '../../http/paging.ts';
import { drained } from '../../http/drained.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 20000;
/** Pages above this many rows are streamed row by row instead of built in memory. */
export const STREAM_ABOVE = 500;
/**
 * Rows per query of a streamed page. Small on purpose: a batch lives across the
 * waits for the client, long enough to be promoted to the old heap; 1,000-row
 * batches raised the server's peak memory by 55-150 MB for a 36 MB answer,
 * 200- and 250-row ones by 1-27 MB, for about 1 ms per extra query.
 */
const BATCH = 250;

const NAMED = ['page', 'limit', 'from', 'to', 'aircraft', 'pilot', 'base', 'flight_type', 'status'] as const;

export const ZLoad = z.object({
  page: zIntish.pipe(z.number().int().min(1, 'Pages start at 1')).default(1),
  // Above the maximum the page is clamped rather than refused (Part B 8: max 20000).
  limit: zIntish
    .pipe(z.number().int().min(1, 'At least 1'))
    .transform((n) => Math.min(n, MAX_LIMIT))
    .default(DEFAULT_LIMIT),
  from: zDate.optional(),
  to: zDate.optional(),
  aircraft: zId.optional(),
  pilot: zId.optional(),
  base: zId.optional(),
  flight_type: zId.optional(),
  status: z
    .string()
    .toUpperCase()
    .transform((v) =>
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum([...STORED_STATUSES, 'DELAYED'])).min(1))
    .optional()
    .meta({ description: `One or more of ${[...STORED_STATUSES, 'DELAYED'].join(', ')}, comma-separated (any case)` }),
});
export type LoadParams = z.output<typeof ZLoad>;

/** Valid parameters by their segments: the same few pages (page 1, the default limit) are asked all day long. */
const parsedLoads = new Map<string, Readonly<LoadParams>>();
const PARSED_LOADS_MAX = 1000;

/**
 * `/flights/load/page:2/from:2024-01-01/...json` segments → validated parameters (400 in the spec's shape).
 * A valid answer is kept by its segments (the parse is a pure function of them), so a repeated page pays no
 * zod parse; refusals are worked out each time. Frozen: callers share it.
 */
export function parseLoadParams(segments: readonly string[] | string | undefined): LoadParams {
  const key = segments === undefined ? '' : Array.isArray(segments) ? segments.join('/') : String(segments);
  const known = parsedLoads.get(key);
  if (known) return known;
  const parsed = ZLoad.safeParse(parseNamed(segments, NAMED));
  if (!parsed.success) throw validationFailed(zodFieldErrors(parsed.error));
  if (parsedLoads.size >= PARSED_LOADS_MAX) parsedLoads.clear();
  if (parsed.data.status) Object.freeze(parsed.data.status);
  const frozen = Object.freeze(parsed.data);
  parsedLoads.set(key, frozen);
  return frozen;
}

export function filtersFor(actor: Actor, p: LoadParams, now: number): FlightFilters {
  const zone = flightZone(actor);
  const f: FlightFilters = { statuses: LISTED };
  if (p.status) {
    // Statuses as read: DELAYED is never stored (a SCHEDULED flight more than the
    // delay past its time), so SCHEDULED and DELAYED each ask for one part of the
    // stored SCHEDULED flights, and both for all of them.
    const delayed = p.status.includes('DELAYED');
    const scheduled = p.status.includes('SCHEDULED');
    f.statuses = p.status.filter((s) => s !== 'DELAYED' && (s !== 'SCHEDULED' || delayed));
    if (delayed !== scheduled) {
      f.delayedBefore = delayedBefore(now);
      f.scheduledPart = delayed ? 'delayed' : 'on_time';
    }
  }
  if (p.from) f.fromStarts = midnightIn(p.from, zone);
  if (p.to) f.toStarts = midnightIn(DateTime.fromISO(p.to).plus({ days: 1 }).toISODate() ?? p.to, zone);
  if (p.aircraft) f.aircraftId = p.aircraft;
  if (p.pilot) f.pilotId = p.pilot;
  if (p.base) f.baseId = p.base;
  if (p.flight_type) f.flightTypeId = p.flight_type;
  // The flights collection's `involved` scope: REST lists exactly what sync replicates.
  if (!seesAllFlights(actor)) f.involvedUserId = actor.userId;
  return f;
}

/**
 * One page presented and serialised up to its `time` value: count, rows with
 * their related records, and when a SCHEDULED flight on it turns DELAYED.
 */
async function renderPage(
  ctx: AppContext,
  actor: Actor,
  p: LoadParams,
  filters: FlightFilters,
  version: number,
  now: number,
): Promise<RenderedPage> {
  const zone = flightZone(actor);
  const offset = (p.page - 1) * p.limit;
  const count = await flightsRepository.count(ctx.db, actor.companyId, filters);
  const rows = await flightsRepository.page(ctx.db, actor.companyId, filters, p.limit, offset);
  let staleAt = Number.POSITIVE_INFINITY;
  for (const r of rows) {
    if (r.status !== 'SCHEDULED' || r.offblocks === null) continue;
    const flips = delayedFrom(Number(r.offblocks));
    if (flips > now) staleAt = Math.min(staleAt, flips);
  }
  const flights = JSON.stringify(rows.map((r) => presentFlightRow(r, zone, now)));
  const head = `{"flights":${flights},"paginate":${JSON.stringify(paginate(p.page, p.limit, count, rows.length))},"time":"`;
  return { version, head: Buffer.from(head), staleAt };
}

/**
 * The JSON body of one page of up to STREAM_ABOVE rows: `{flights, paginate,
 * time}`, newest first (off-blocks), paginated in SQL with the related records
 * joined in the same query. The count comes from the per-company counters
 * when no filter applies, else from an indexed COUNT. The page is kept by
 * company data version (page-cache.ts), so one read again before the company
 * writes costs no query of its own (authentication read the version);
 * `cache: false` renders it afresh (the benchmark's cold figure).
 */
export async function renderFlightsPage(
  ctx: AppContext,
  actor: Actor,
  p: LoadParams,
  now = nowSeconds(),
  opts: { cache?: boolean } = {},
): Promise<Buffer> {
  return Buffer.concat(await renderFlightsPageParts(ctx, actor, p, now, opts));
}

/**
 * renderFlightsPage as its two parts, the page (kept, shared) and its `time` ending: written one after the other,
 * a request copies nothing (a 20-row page is ~20 KB outside the heap, each copy work for the collector).
 */
export async function renderFlightsPageParts(
  ctx: AppContext,
  actor: Actor,
  p: LoadParams,
  now = nowSeconds(),
  opts: { cache?: boolean } = {},
): Promise<[Buffer, Buffer]> {
  const filters = filtersFor(actor, p, now);
  // `status:SCHEDULED` and `status:DELAYED` compare with the clock in SQL: their rows change without any write.
  const cacheable = opts.cache !== false && filters.scheduledPart === undefined;
  let page: RenderedPage;
  if (cacheable) {
    const version = actor.companyVersion ?? (await companyVersion(ctx.db, actor.companyId));
    const key = JSON.stringify([actor.companyId, flightZone(actor), filters, p.limit, p.page]);
    const hit = cachedPage(ctx.db, key, version, now);
    if (hit) page = hit;
    else {
      page = await renderPage(ctx, actor, p, filters, version, now);
      storePage(ctx.db, key, page);
    }
  } else page = await renderPage(ctx, actor, p, filters, 0, now);
  return [page.head, timeEnding(now)];
}

/** The page's `time` ending, made once a second: every request of that second shares it. */
let ending = { now: Number.NaN, bytes: Buffer.alloc(0) };
function timeEnding(now: number): Buffer {
  if (ending.now !== now) ending = { now, bytes: Buffer.from(`${now}"}`) };
  return ending.bytes;
}

/**
 * GET /flights/load. Pages up to STREAM_ABOVE rows are rendered whole
 * (renderFlightsPage). Larger pages are streamed: rows are read in batches of
 * BATCH and serialised as they arrive, and the text goes out in 64 KB pieces
 * as the client takes them, so the result is never held as rows and as text
 * at once.
 */
export async function loadFlights(ctx: AppContext, actor: Actor, p: LoadParams, res: Response): Promise<undefined> {
  const now = nowSeconds();
  if (p.limit <= STREAM_ABOVE) {
    const [head, tail] = await renderFlightsPageParts(ctx, actor, p, now);
    res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', head.length + tail.length);
    // One packet: the head goes out with the ending (corked), not copied into a new buffer first.
    res.cork();
    res.write(head);
    res.end(tail);
    process.nextTick(() => res.uncork());
    return undefined;
  }
  const zone = flightZone(actor);
  const filters = filtersFor(actor, p, now);
  const offset = (p.page - 1) * p.limit;
  const count = await flightsRepository.count(ctx.db, actor.companyId, filters);
  const time = String(now);
  res.status(200).setHeader('content-type', 'application/json; charset=utf-8');
  let sent = 0;
  let chunk = '';
  const flush = async () => {
    if (!chunk) return;
    const ok = res.write(chunk);
    chunk = '';
    if (!ok) await drained(res);
  };
  chunk = '{"flights":[';
  try {
    for await (const row of rowsOf(ctx, actor.companyId, filters, p.limit, offset)) {
      if (res.destroyed) return undefined; // the client went away: stop reading
      chunk += (sent ? ',' : '') + JSON.stringify(presentFlightRow(row, zone, now));
      sent += 1;
      if (chunk.length > 64 * 1024) await flush();
    }
  } catch (err) {
    // Once the 200 is on its way a failure can no longer be an error answer: cut
    // the connection so the client sees a truncated body rather than waiting.
    if (res.headersSent) res.destroy();
    throw err;
  }
  chunk += `],"paginate":${JSON.stringify(paginate(p.page, p.limit, count, sent))},"time":${JSON.stringify(time)}}`;
  await flush();
  res.end();
  return undefined;
}

/**
 * The rows of a large page in batches: the first by offset, the next ones
 * after the last (starts, id) read. Each batch is its own query, so no
 * connection is held while the client reads (SQLite has only one).
 */
async function* rowsOf(
  ctx: AppContext,
  companyId: string,
  filters: FlightFilters,
  limit: number,
  offset: number,
): AsyncGenerator<FlightJoinedRow> {
  let left = limit;
  let batch = await flightsRepository.page(ctx.db, companyId, filters, Math.min(BATCH, left), offset);
  while (batch.length) {
    for (const row of batch) yield row;
    left -= batch.length;
    const last = batch[batch.length - 1];
    if (left <= 0 || batch.length < BATCH) return;
    batch = await flightsRepository.after(
      ctx.db,
      companyId,
      filters,
      { starts: Number(last.starts), id: last.id },
      Math.min(BATCH, left),
    );
  }
}
