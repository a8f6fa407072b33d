import {
  closestReport,
  historicalDate,
  METAR_WINDOW_SECONDS,
  NIL,
  TAF_WINDOW_SECONDS,
  tafSource,
} from '@ops/shared/rules/reports/index';
import type { AppContext } from '../context.ts';
import { nowSeconds } from '../lib/tokens.ts';
import '../areas/reports/reports.tables.ts';
import { aviationMetars, aviationTafs, archiveMetars, archiveTafs, type WeatherReport } from './providers.ts';

/**
 * METAR and TAF answers (Part A 4.11): current from the aviation weather
 * provider, historical by the ±45 min / ±6 h matching rules. Answers are kept
 * in `weather_cache`, shared by every server process on the same database:
 * current reports 5 minutes, a historical match a day (a past observation does
 * not change), a historical NIL 1 hour (the archive fills in late).
 */

export type WeatherKind = 'metar' | 'taf';

const CURRENT_TTL = 300;
const HISTORY_TTL = 86400;
const HISTORY_NIL_TTL = 3600;

async function cached(ctx: AppContext, key: string, now: number): Promise<string[] | null> {
  const row = await ctx.db
    .selectFrom('weather_cache')
    .select(['body', 'expires'])
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row || Number(row.expires) <= now) return null;
  try {
    const v = JSON.parse(row.body) as unknown;
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  } catch {
    return null;
  }
}

async function store(ctx: AppContext, key: string, body: string[], now: number, ttl: number): Promise<void> {
  const values = { key, body: JSON.stringify(body), fetched: now, expires: now + ttl };
  await ctx.db
    .insertInto('weather_cache')
    .values(values)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ body: values.body, fetched: values.fetched, expires: values.expires }),
    )
    .execute();
  // Expired entries go a few at a time, so the table stays small without a sweeper.
  if (Math.random() < 0.05)
    await ctx.db
      .deleteFrom('weather_cache')
      .where('expires', '<', now - 86400)
      .execute();
}

const rawOf = (r: WeatherReport | null | undefined): string[] => (r ? [r.raw] : [NIL]);

/** The newest report of a list. */
const newest = (rs: readonly WeatherReport[]) =>
  rs.reduce<WeatherReport | null>((b, r) => (!b || r.time > b.time ? r : b), null);

async function fetchCurrent(ctx: AppContext, kind: WeatherKind, icao: string): Promise<string[]> {
  const cfg = ctx.config.weather;
  return rawOf(newest(kind === 'metar' ? await aviationMetars(cfg, icao) : await aviationTafs(cfg, icao)));
}

async function fetchHistorical(
  ctx: AppContext,
  kind: WeatherKind,
  icao: string,
  at: number,
  now: number,
): Promise<string[]> {
  const cfg = ctx.config.weather;
  if (kind === 'metar') {
    return rawOf(
      closestReport(
        await archiveMetars(cfg, icao, at - METAR_WINDOW_SECONDS, at + METAR_WINDOW_SECONDS),
        at,
        METAR_WINDOW_SECONDS,
      ),
    );
  }
  const source = tafSource(at, now);
  if (source === 'none') return [NIL];
  const from = at - TAF_WINDOW_SECONDS;
  const to = Math.min(now, at + TAF_WINDOW_SECONDS);
  const reports =
    source === 'provider'
      ? await aviationTafs(cfg, icao, { end: to, hours: Math.max(1, Math.ceil((to - from) / 3600)) })
      : await archiveTafs(cfg, icao, from, to);
  return rawOf(closestReport(reports, at, TAF_WINDOW_SECONDS));
}

/** The reports for an airport: current, or the historical match for a past `date`. */
export async function weatherReports(
  ctx: AppContext,
  kind: WeatherKind,
  icao: string,
  date: number | null,
): Promise<string[]> {
  const now = nowSeconds();
  const at = historicalDate(date, now);
  const key = at === null ? `${kind}:${icao}` : `${kind}:${icao}:${at}`;
  const hit = await cached(ctx, key, now);
  if (hit) return hit;
  const body = at === null ? await fetchCurrent(ctx, kind, icao) : await fetchHistorical(ctx, kind, icao, at, now);
  await store(ctx, key, body, now, at === null ? CURRENT_TTL : body[0] === NIL ? HISTORY_NIL_TTL : HISTORY_TTL);
  return body;
}
