import { HttpError } from '../http/errors.ts';
import { said } from '../http/messages.ts';

/**
 * Weather providers (Part A 4.11, docs/areas/reports.md "Weather providers").
 *
 * - Aviation weather data API (aviationweather.gov `/api/data`): `metar` and
 *   `taf` with `ids`, `format=json`, `hours`, `date`. JSON rows carry
 *   `icaoId`, `obsTime` (unix) and `rawOb` for a METAR; `icaoId`,
 *   `issueTime` (ISO 8601) and `rawTAF` for a TAF.
 * - Surface-observation archive (Iowa Environmental Mesonet `/cgi-bin/request`):
 *   `asos.py?station=…&data=metar&sts=…&ets=…&tz=Etc/UTC&format=onlycomma`
 *   answers CSV `station,valid,metar` (valid `YYYY-MM-DD HH:MM` UTC);
 *   `taf.py?station=…&sts=…&ets=…&fmt=csv` answers CSV with `valid` (issue
 *   time) and `raw` columns.
 *
 * A provider that cannot be reached or does not answer in time is 503; one
 * that answers with an error status or a body that is not its format is 502.
 */

export interface WeatherReport {
  /** Unix seconds: observation time of a METAR, issue time of a TAF. */
  time: number;
  raw: string;
}

export interface ProviderConfig {
  aviationUrl: string;
  archiveUrl: string;
  timeoutMs: number;
}

/** Which provider failed: the `provider` select of `errors.weather…` (issue 33). */
type Provider = 'aviation' | 'archive';
/** Why its answer was refused: the `reason` select of `errors.weatherBadGateway`. */
type Why = { reason: 'status'; status: number } | { reason: 'json' | 'list' | 'csv' };

const unavailable = (provider: Provider) =>
  new HttpError(503, { result: false, ...said('errors.weatherUnavailable', { provider }) });
// The status as a string, so ICU does not group its digits.
const badGateway = (provider: Provider, why: Why) =>
  new HttpError(502, {
    result: false,
    ...said('errors.weatherBadGateway', {
      provider,
      reason: why.reason,
      status: 'status' in why ? String(why.status) : '',
    }),
  });

const AVIATION: Provider = 'aviation';
const ARCHIVE: Provider = 'archive';

async function get(url: string, name: Provider, timeoutMs: number): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json, text/csv, text/plain' },
    });
  } catch {
    throw unavailable(name);
  }
  // The data API answers 204 (no content) when nothing matches.
  if (res.status === 204) return '';
  if (res.status === 429 || res.status === 503) {
    await res.body?.cancel();
    throw unavailable(name);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw badGateway(name, { reason: 'status', status: res.status });
  }
  try {
    return await res.text();
  } catch {
    throw unavailable(name);
  }
}

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
/** IEM wants minutes precision: `2024-06-10T12:00Z`. */
const isoMinutes = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 16) + 'Z';

function parseJsonArray(text: string, name: Provider): Record<string, unknown>[] {
  if (!text.trim()) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badGateway(name, { reason: 'json' });
  }
  if (!Array.isArray(v)) throw badGateway(name, { reason: 'list' });
  return v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
}

const toUnix = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && v) {
    const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v.replace(' ', 'T')}Z`);
    return Number.isFinite(ms) ? Math.trunc(ms / 1000) : null;
  }
  return null;
};

/** METARs from the data API; `date` the end of the window and `hours` its length, or the latest when absent. */
export async function aviationMetars(
  cfg: ProviderConfig,
  icao: string,
  window?: { end: number; hours: number },
): Promise<WeatherReport[]> {
  const q = new URLSearchParams({ ids: icao, format: 'json' });
  if (window) {
    q.set('hours', String(window.hours));
    q.set('date', iso(window.end));
  }
  const rows = parseJsonArray(await get(`${cfg.aviationUrl}/metar?${q}`, AVIATION, cfg.timeoutMs), AVIATION);
  return rows
    .map((r) => ({
      time: toUnix(r.obsTime) ?? toUnix(r.reportTime),
      raw: typeof r.rawOb === 'string' ? r.rawOb.trim() : '',
    }))
    .filter((r): r is WeatherReport => r.time !== null && r.raw !== '');
}

/** TAFs from the data API (`time=issue`: the window selects by issue time). */
export async function aviationTafs(
  cfg: ProviderConfig,
  icao: string,
  window?: { end: number; hours: number },
): Promise<WeatherReport[]> {
  const q = new URLSearchParams({ ids: icao, format: 'json' });
  if (window) {
    q.set('hours', String(window.hours));
    q.set('date', iso(window.end));
    q.set('time', 'issue');
  }
  const rows = parseJsonArray(await get(`${cfg.aviationUrl}/taf?${q}`, AVIATION, cfg.timeoutMs), AVIATION);
  return rows
    .map((r) => ({
      time: toUnix(r.issueTime) ?? toUnix(r.bulletinTime),
      raw: typeof r.rawTAF === 'string' ? r.rawTAF.trim() : '',
    }))
    .filter((r): r is WeatherReport => r.time !== null && r.raw !== '');
}

/** Minimal CSV (the archive quotes fields holding commas). */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      if (row.some((c) => c !== '')) out.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  row.push(cell);
  if (row.some((c) => c !== '')) out.push(row);
  return out;
}

function csvReports(text: string, name: Provider, timeCol: string, rawCol: string): WeatherReport[] {
  // The archive writes `#` comment lines (e.g. a rate-limit or error notice) before or instead of the header.
  const lines = parseCsv(text).filter((r) => !(r[0] ?? '').startsWith('#'));
  if (!lines.length) return [];
  const header = lines[0]!.map((h) => h.trim().toLowerCase());
  const t = header.indexOf(timeCol);
  const r = header.indexOf(rawCol);
  if (t < 0 || r < 0) throw badGateway(name, { reason: 'csv' });
  const out: WeatherReport[] = [];
  for (const line of lines.slice(1)) {
    const time = toUnix(line[t]?.trim());
    const raw = (line[r] ?? '').trim();
    if (time !== null && raw && raw !== 'M') out.push({ time, raw });
  }
  return out;
}

/** The archive's station id: ICAO, except the contiguous United States (`K…`) which it keys by the 3-letter identifier. */
export const archiveStation = (icao: string) => (/^K[A-Z0-9]{3}$/.test(icao) ? icao.slice(1) : icao);

/** Archived METARs (routine and special) between `from` and `to`. */
export async function archiveMetars(
  cfg: ProviderConfig,
  icao: string,
  from: number,
  to: number,
): Promise<WeatherReport[]> {
  const q = new URLSearchParams({
    station: archiveStation(icao),
    data: 'metar',
    sts: isoMinutes(from),
    ets: isoMinutes(to),
    tz: 'Etc/UTC',
    format: 'onlycomma',
    latlon: 'no',
    missing: 'M',
    trace: 'T',
    direct: 'no',
  });
  q.append('report_type', '3');
  q.append('report_type', '4');
  return csvReports(await get(`${cfg.archiveUrl}/asos.py?${q}`, ARCHIVE, cfg.timeoutMs), ARCHIVE, 'valid', 'metar');
}

/** Archived TAFs issued between `from` and `to`; one report per issue (the CSV repeats it per forecast group). */
export async function archiveTafs(
  cfg: ProviderConfig,
  icao: string,
  from: number,
  to: number,
): Promise<WeatherReport[]> {
  const q = new URLSearchParams({ station: icao, sts: isoMinutes(from), ets: isoMinutes(to), fmt: 'csv' });
  const all = csvReports(await get(`${cfg.archiveUrl}/taf.py?${q}`, ARCHIVE, cfg.timeoutMs), ARCHIVE, 'valid', 'raw');
  const seen = new Set<number>();
  return all.filter((r) => {
    if (seen.has(r.time)) return false;
    seen.add(r.time);
    return true;
  });
}
