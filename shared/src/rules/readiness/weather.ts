/**
 * Just enough METAR and TAF reading for student minimums (issue 31): wind,
 * gust, visibility and ceiling of a report, and of the TAF groups that cover
 * a flight. Anything not understood is left out (null), never guessed.
 */
import type { WeatherMinimums } from './settings.ts';

export interface Conditions {
  /** Lowest BKN/OVC/VV layer in feet; null: no ceiling reported. */
  ceiling_ft: number | null;
  visibility_m: number | null;
  /** Mean wind, knots; gust when higher. */
  wind_kt: number | null;
  gust_kt: number | null;
  /** Degrees true; null for variable or calm. */
  wind_dir: number | null;
}

const EMPTY: Conditions = { ceiling_ft: null, visibility_m: null, wind_kt: null, gust_kt: null, wind_dir: null };

const WIND = /^(\d{3}|VRB)(\d{2,3})(?:G(\d{2,3}))?(KT|MPS)$/;
const METRES = /^(\d{4})$/;
const MILES = /^(P)?(\d+)?(?:(\d)\/(\d))?SM$/;
const CLOUD = /^(FEW|SCT|BKN|OVC|VV)(\d{3})/;

/** The elements a run of tokens sets (the others stay undefined, so a change group can inherit them). */
function elements(tokens: readonly string[]): Partial<Conditions> {
  const out: Partial<Conditions> = {};
  let ceiling: number | null | undefined;
  let sawCloud = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = WIND.exec(t);
    if (w) {
      const factor = w[4] === 'MPS' ? 1.944 : 1;
      out.wind_kt = Math.round(Number(w[2]) * factor);
      out.gust_kt = w[3] ? Math.round(Number(w[3]) * factor) : null;
      out.wind_dir = w[1] === 'VRB' ? null : Number(w[1]);
      continue;
    }
    if (t === 'CAVOK') {
      out.visibility_m = 10_000;
      ceiling = null;
      sawCloud = true;
      continue;
    }
    if (METRES.test(t)) {
      out.visibility_m = Math.min(10_000, Number(t));
      continue;
    }
    // "1 1/2SM": a whole number followed by the fraction token.
    const whole = /^\d$/.test(t) && /^\d\/\dSM$/.test(tokens[i + 1] ?? '') ? Number(t) : 0;
    const m = MILES.exec(whole ? (tokens[++i] ?? '') : t);
    if (m) {
      const miles = whole + Number(m[2] ?? 0) + (m[3] ? Number(m[3]) / Number(m[4]) : 0);
      out.visibility_m = Math.min(10_000, Math.round(miles * 1609));
      continue;
    }
    if (t === 'SKC' || t === 'CLR' || t === 'NSC' || t === 'NCD') {
      sawCloud = true;
      if (ceiling === undefined) ceiling = null;
      continue;
    }
    const c = CLOUD.exec(t);
    if (c) {
      sawCloud = true;
      if (c[1] === 'BKN' || c[1] === 'OVC' || c[1] === 'VV') {
        const ft = Number(c[2]) * 100;
        ceiling = ceiling == null ? ft : Math.min(ceiling, ft);
      } else if (ceiling === undefined) ceiling = null;
    }
  }
  if (sawCloud) out.ceiling_ft = ceiling ?? null;
  return out;
}

/** The conditions of a METAR (or of any run of report tokens). */
export function parseMetar(raw: string): Conditions {
  return { ...EMPTY, ...elements(raw.trim().split(/\s+/)) };
}

export interface TafGroup {
  from: number;
  to: number;
  /** TEMPO and PROB groups are temporary: they count, but do not change what prevails after them. */
  temporary: boolean;
  conditions: Conditions;
}

/** `DDHH` of a TAF (hours 24 allowed) to unix seconds, in the month of `ref` or the next one. */
function dayHour(ddhh: string, ref: number, minutes = 0): number {
  const day = Number(ddhh.slice(0, 2));
  const hour = Number(ddhh.slice(2, 4));
  const r = new Date(ref * 1000);
  let year = r.getUTCFullYear();
  let month = r.getUTCMonth();
  // A day well before the issue day is in the next month (a TAF never looks back).
  if (day < r.getUTCDate() - 15) month += 1;
  else if (day > r.getUTCDate() + 15) month -= 1;
  if (month > 11) {
    month = 0;
    year += 1;
  }
  if (month < 0) {
    month = 11;
    year -= 1;
  }
  return Date.UTC(year, month, day, hour, minutes) / 1000;
}

const PERIOD = /^(\d{4})\/(\d{4})$/;
const FM = /^FM(\d{4})(\d{2})$/;

/** The groups of a TAF with their validity, `issued` being the report time (unix seconds). */
export function parseTaf(raw: string, issued: number): { from: number; to: number; groups: TafGroup[] } | null {
  const tokens = raw.trim().split(/\s+/);
  const first = tokens.findIndex((t) => PERIOD.test(t));
  if (first < 0) return null;
  const [, a, b] = PERIOD.exec(tokens[first]) as RegExpExecArray;
  const from = dayHour(a, issued);
  const to = dayHour(b, issued);
  // Split into runs at each change indicator.
  const runs: { head: string[]; body: string[] }[] = [{ head: ['BASE'], body: [] }];
  for (let i = first + 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (FM.test(t) || t === 'BECMG' || t === 'TEMPO' || /^PROB\d{2}$/.test(t)) {
      const head = [t];
      if (/^PROB\d{2}$/.test(t) && tokens[i + 1] === 'TEMPO') head.push(tokens[++i]);
      runs.push({ head, body: [] });
    } else runs[runs.length - 1].body.push(t);
  }
  const groups: TafGroup[] = [];
  let prevailing: Conditions = { ...EMPTY };
  let prevailingFrom = from;
  const closePrevailing = (until: number) => {
    if (until > prevailingFrom)
      groups.push({ from: prevailingFrom, to: until, temporary: false, conditions: prevailing });
  };
  for (const run of runs) {
    const kind = run.head[0];
    if (kind === 'BASE') {
      prevailing = { ...EMPTY, ...elements(run.body) };
      continue;
    }
    const fm = FM.exec(kind);
    if (fm) {
      const at = dayHour(fm[1], issued, Number(fm[2]));
      closePrevailing(at);
      prevailing = { ...EMPTY, ...elements(run.body) };
      prevailingFrom = at;
      continue;
    }
    const period = run.body.length && PERIOD.exec(run.body[0]);
    if (!period) continue;
    const gFrom = dayHour(period[1], issued);
    const gTo = dayHour(period[2], issued);
    const changed = { ...prevailing, ...elements(run.body.slice(1)) };
    if (kind === 'BECMG') {
      // Becoming: the change holds from the group's start (the cautious reading) onwards.
      closePrevailing(gFrom);
      prevailing = changed;
      prevailingFrom = gFrom;
    } else groups.push({ from: gFrom, to: gTo, temporary: true, conditions: changed });
  }
  closePrevailing(to);
  return { from, to, groups };
}

/** The worst of several conditions: lowest ceiling and visibility, strongest wind. */
export function worst(list: readonly Conditions[]): Conditions {
  const out: Conditions = { ...EMPTY };
  for (const c of list) {
    if (c.ceiling_ft !== null)
      out.ceiling_ft = out.ceiling_ft === null ? c.ceiling_ft : Math.min(out.ceiling_ft, c.ceiling_ft);
    if (c.visibility_m !== null)
      out.visibility_m = out.visibility_m === null ? c.visibility_m : Math.min(out.visibility_m, c.visibility_m);
    const wind = Math.max(c.wind_kt ?? -1, c.gust_kt ?? -1);
    if (wind >= 0 && wind > Math.max(out.wind_kt ?? -1, out.gust_kt ?? -1)) {
      out.wind_kt = c.wind_kt;
      out.gust_kt = c.gust_kt;
      out.wind_dir = c.wind_dir;
    }
  }
  return out;
}

/** Conditions the TAF forecasts over [start, end), or null when it does not cover the start. */
export function tafConditions(raw: string, issued: number, start: number, end: number): Conditions | null {
  const taf = parseTaf(raw, issued);
  if (!taf || start < taf.from || start >= taf.to) return null;
  const covering = taf.groups.filter((g) => g.from < Math.max(end, start + 1) && g.to > start);
  return covering.length ? worst(covering.map((g) => g.conditions)) : null;
}

/** Crosswind component (knots) on the best of the runways; null when unknown. */
export function crosswind(c: Conditions, runways: readonly number[]): number | null {
  const speed = Math.max(c.wind_kt ?? 0, c.gust_kt ?? 0);
  if (!runways.length || c.wind_kt === null) return null;
  if (c.wind_dir === null) return speed; // variable: assume the worst
  let best = Number.POSITIVE_INFINITY;
  for (const r of runways) {
    const angle = ((c.wind_dir - r) * Math.PI) / 180;
    best = Math.min(best, Math.abs(Math.round(speed * Math.sin(angle))));
  }
  return best;
}

/** Each minimum the conditions break: which, the value found and the minimum. */
export function breaches(
  c: Conditions,
  min: WeatherMinimums,
  runways: readonly number[] = [],
): { kind: 'ceiling' | 'visibility' | 'wind' | 'crosswind'; value: number; min: number }[] {
  const out: { kind: 'ceiling' | 'visibility' | 'wind' | 'crosswind'; value: number; min: number }[] = [];
  if (c.ceiling_ft !== null && c.ceiling_ft < min.ceiling_ft)
    out.push({ kind: 'ceiling', value: c.ceiling_ft, min: min.ceiling_ft });
  if (c.visibility_m !== null && c.visibility_m < min.visibility_m)
    out.push({ kind: 'visibility', value: c.visibility_m, min: min.visibility_m });
  const wind = Math.max(c.wind_kt ?? 0, c.gust_kt ?? 0);
  if (c.wind_kt !== null && wind > min.wind_kt) out.push({ kind: 'wind', value: wind, min: min.wind_kt });
  const xw = crosswind(c, runways);
  if (xw !== null && xw > min.crosswind_kt) out.push({ kind: 'crosswind', value: xw, min: min.crosswind_kt });
  return out;
}

const BREACH_WORDS = {
  ceiling: ['ceiling', 'ft below', 'ft'],
  visibility: ['visibility', 'm below', 'm'],
  wind: ['wind', 'kt above', 'kt'],
  crosswind: ['crosswind', 'kt above', 'kt'],
} as const;

/** Each minimum the conditions break, as a sentence; empty when they meet them. */
export function belowMinimums(c: Conditions, min: WeatherMinimums, runways: readonly number[] = []): string[] {
  return breaches(c, min, runways).map((b) => {
    const [what, relation, unit] = BREACH_WORDS[b.kind];
    return `${what} ${b.value} ${relation} ${b.min} ${unit}`;
  });
}

/** The issue or observation time of a report (`DDHHMMZ`), in the month of `ref` or the one before; null when absent. */
export function reportTime(raw: string, ref: number): number | null {
  const m = /(?:^|\s)(\d{2})(\d{2})(\d{2})Z(?:\s|$)/.exec(raw);
  if (!m) return null;
  const r = new Date(ref * 1000);
  let t = Date.UTC(r.getUTCFullYear(), r.getUTCMonth(), Number(m[1]), Number(m[2]), Number(m[3])) / 1000;
  // A report from the end of last month read at the start of this one.
  if (t > ref + 86_400)
    t = Date.UTC(r.getUTCFullYear(), r.getUTCMonth() - 1, Number(m[1]), Number(m[2]), Number(m[3])) / 1000;
  return Number.isFinite(t) ? t : null;
}
