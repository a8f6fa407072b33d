import { describe, expect, it } from 'vitest';
import { ROLES } from '../../roles.ts';
import {
  blocking,
  maintenanceDue,
  type ReadinessFacts,
  type ReadinessLine,
  type ReadinessSubject,
  readiness as rawReadiness,
  refusalMessage,
} from './readiness.ts';
import { translator } from '../../i18n/index.ts';
import { aircraftBlockers } from '../aircraft-reports/blockers.ts';
import { renderText } from './text.ts';
import { DEFAULT_READINESS_SETTINGS, minimumsFor, type ReadinessSettings, readSettings } from './settings.ts';
import { belowMinimums, crosswind, parseMetar, parseTaf, tafConditions } from './weather.ts';

// Every line the tests below produce, for the language check at the end.
const seen: ReadinessLine[] = [];
const readiness = (s: ReadinessSubject, f: ReadinessFacts): ReadinessLine[] => {
  const lines = rawReadiness(s, f);
  seen.push(...lines);
  return lines;
};

const H = 3600;
const D = 86400;
const now = Date.UTC(2026, 5, 10, 8, 0) / 1000;
const all = (action: 'warn' | 'block'): ReadinessSettings => ({
  ...DEFAULT_READINESS_SETTINGS,
  // Runway headings for the airport of these tests, so the crosswind is checked.
  weather: { ...DEFAULT_READINESS_SETTINGS.weather, runways: { LEMD: [140, 320] } },
  checks: {
    BALANCE: action,
    CERTIFICATES: action,
    CURRENCY: action,
    MAINTENANCE: action,
    MEL: action,
    DUTY: action,
    WEATHER: action,
  },
});
const subject: ReadinessSubject = {
  start: now + 2 * H,
  end: now + 4 * H,
  aircraft_id: 'a1',
  flight_type_id: 'ft1',
  pic_id: 'u1',
  pic_role: ROLES.STUDENT,
  sic_id: null,
  supervisor_id: null,
  billed_id: 'u1',
  pax: 1,
  night: false,
  departure_airport: 'LEMD',
};
const good: ReadinessFacts = {
  now,
  zone: 'Europe/Madrid',
  settings: all('block'),
  balance: { balance: 5000, currency: 'EUR' },
  certificates: {
    required: [{ role: 'pic', certificate_type: 'medical_class_2' }],
    held: { u1: [{ type: 'medical_class_2', issue: '2025-01-01', expiration: '2027-01-01' }] },
  },
  currency: { flights: [{ onblocks: now - 10 * D, landings: 3, night_landings: 1, block_time: H }] },
  maintenance: { open_jobs: [], plans: [] },
  mel: { items: [] },
  duty: { people: [] },
  weather: {
    icao: 'LEMD',
    metar: { raw: 'LEMD 100730Z 27008KT 9999 FEW030 15/09 Q1015', time: now - 30 * 60 },
    taf: null,
    fetched: null,
  },
};
function line(facts: Partial<ReadinessFacts>, s?: Partial<ReadinessSubject>): ReadinessLine[];
function line(facts: Partial<ReadinessFacts>, s: Partial<ReadinessSubject>, code: string): ReadinessLine | undefined;
function line(facts: Partial<ReadinessFacts>, s: Partial<ReadinessSubject> = {}, code?: string) {
  const lines = readiness({ ...subject, ...s }, { ...good, ...facts });
  return code ? lines.find((l) => l.code === code) : lines;
}

describe('readiness', () => {
  it('is all green with good facts, one line per check in order', () => {
    const lines = readiness(subject, good);
    expect(lines.map((l) => l.code)).toEqual([
      'BALANCE',
      'CERTIFICATES',
      'CURRENCY',
      'MAINTENANCE',
      'MEL',
      'DUTY',
      'WEATHER',
    ]);
    expect(
      lines.every((l) => l.level === 'ok'),
      JSON.stringify(lines),
    ).toBe(true);
  });

  it('leaves ignored checks out and maps a problem to warn or block by policy', () => {
    const poor = { balance: { balance: -100, currency: 'EUR' } };
    expect(line({ ...poor, settings: DEFAULT_READINESS_SETTINGS })).toEqual([]);
    expect(line({ ...poor, settings: all('warn') }, {}, 'BALANCE')).toMatchObject({ level: 'warn' });
    const b = line(poor, {}, 'BALANCE');
    expect(b).toMatchObject({ level: 'block' });
    expect(refusalMessage(readiness(subject, { ...good, ...poor }))).toContain('below the company minimum');
  });

  it('BALANCE: off when the minimum is null; no account counts as zero', () => {
    expect(line({ balance: null, settings: { ...all('block'), balance_minimum: 1 } }, {}, 'BALANCE')).toMatchObject({
      level: 'block',
    });
    expect(line({ balance: null, settings: { ...all('block'), balance_minimum: null } }, {}, 'BALANCE')).toMatchObject({
      level: 'ok',
    });
  });

  it('CERTIFICATES: expired on the flight date', () => {
    const held = { u1: [{ type: 'medical_class_2', issue: '2025-01-01', expiration: '2026-06-09' }] };
    const l = line({ certificates: { ...good.certificates!, held } }, {}, 'CERTIFICATES');
    expect(l).toMatchObject({ level: 'block' });
    expect(l!.message).toContain('medical_class_2');
  });

  it('CURRENCY: only with passengers; landings and night landings in the window', () => {
    const stale = { currency: { flights: [{ onblocks: now - 100 * D, landings: 5, block_time: H }] } };
    expect(line(stale, {}, 'CURRENCY')).toMatchObject({ level: 'block' });
    expect(line(stale, { pax: 0 }, 'CURRENCY')).toMatchObject({ level: 'ok' });
    const day = { currency: { flights: [{ onblocks: now - D, landings: 3, night_landings: 0, block_time: H }] } };
    expect(line(day, {}, 'CURRENCY')).toMatchObject({ level: 'ok' });
    expect(line(day, { night: true }, 'CURRENCY')).toMatchObject({ level: 'block' });
  });

  it('MAINTENANCE: by date (job or repeat) and by hours with the booked time', () => {
    expect(
      line({ maintenance: { open_jobs: [{ name: '50 h', start: now + 3 * H }], plans: [] } }, {}, 'MAINTENANCE'),
    ).toMatchObject({ level: 'block' });
    expect(
      line({ maintenance: { open_jobs: [{ name: '50 h', start: now + 5 * H }], plans: [] } }, {}, 'MAINTENANCE'),
    ).toMatchObject({ level: 'ok' });
    const plan = { name: '100 h', hours_interval: 100, repeat: 'NEVER', last_done: now - 90 * D, crs_expiration: null };
    expect(
      line({ maintenance: { open_jobs: [], plans: [{ ...plan, hours_since: 98.5 }] } }, {}, 'MAINTENANCE'),
    ).toMatchObject({ level: 'block' });
    expect(
      line({ maintenance: { open_jobs: [], plans: [{ ...plan, hours_since: 90 }] } }, {}, 'MAINTENANCE'),
    ).toMatchObject({ level: 'ok' });
    expect(
      line({ maintenance: { open_jobs: [], plans: [{ ...plan, hours_since: null }] } }, {}, 'MAINTENANCE'),
    ).toMatchObject({ level: 'warn' });
    const yearly = { ...plan, hours_interval: null, repeat: 'YEAR', last_done: now - 366 * D, hours_since: null };
    expect(maintenanceDue({ open_jobs: [], plans: [yearly] }, subject.start, subject.end, 'UTC').due).toHaveLength(1);
  });

  it('MEL: an expired item fails, open items are amber with their limitations', () => {
    expect(line({ mel: { items: [{ label: '34-1 A', expired: true, limitations: [] }] } }, {}, 'MEL')).toMatchObject({
      level: 'block',
    });
    const open = line({ mel: { items: [{ label: '33-2 C', expired: false, limitations: ['NO_NIGHT'] }] } }, {}, 'MEL');
    expect(open).toMatchObject({ level: 'warn' });
    expect(open!.fix).toContain('NO_NIGHT');
  });

  it('MEL: a grounded aircraft fails first, its line a message in every language (one report, or several joined)', () => {
    const report = (id: string, title: string, severity: string | null) => ({
      id,
      type: 'DEFECT',
      title,
      ata_chapter: '32',
      severity,
      status: 'OPEN',
      aircraft_status: 'GROUNDED',
    });
    const grounded = aircraftBlockers(
      [report('r1', 'Nose gear shimmy', 'CRITICAL'), report('r2', 'Flat tyre', 'LOW')],
      now,
    );
    const one = line({ mel: { items: [], grounded: grounded.slice(0, 1) } }, {}, 'MEL');
    expect(one).toMatchObject({
      level: 'block',
      message: 'Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft.',
      text: { id: 'aircraft-reports.groundingDetails' },
    });
    expect(renderText(translator('es'), one!.text!, 'es')).toBe(
      'El defecto abierto «Nose gear shimmy» (ATA 32, CRÍTICA) inmoviliza la aeronave.',
    );
    const two = line({ mel: { items: [], grounded } }, {}, 'MEL');
    expect(two!.message).toBe(
      'Open defect “Nose gear shimmy” (ATA 32, CRITICAL) grounds the aircraft. Open defect “Flat tyre” (ATA 32) grounds the aircraft.',
    );
    expect(renderText(translator('en'), two!.text!)).toBe(two!.message);
    expect(renderText(translator('fr'), two!.text!, 'fr')).toBe(
      'Le défaut ouvert « Nose gear shimmy » (ATA 32, CRITIQUE) immobilise l’aéronef. Le défaut ouvert « Flat tyre » (ATA 32) immobilise l’aéronef.',
    );
    // A sentence that came without its message (an older device) keeps the line English-only rather than half translated.
    expect(line({ mel: { items: [], grounded: [{ sentence: 'Grounded.' }] } }, {}, 'MEL')!.text).toBeNull();
  });

  it('DUTY: the duty rule of CONTRACT 7', () => {
    const person = {
      name: 'Ivan',
      planned: { start: subject.start, end: subject.end },
      plannedFlightSeconds: 2 * H,
      duty: [{ start: now - 8 * H, end: now + H }],
      yearFlightSeconds: 0,
      zone: 'UTC',
      limits: { max_duty_hours: 8, max_flight_hours_year: null },
    };
    const l = line({ duty: { people: [person] } }, {}, 'DUTY');
    expect(l).toMatchObject({ level: 'block' });
    expect(l!.message).toContain('Ivan');
  });

  it('WEATHER: students only; METAR near the time, TAF later; provider down is amber "no current report"', () => {
    const windy = {
      ...good.weather!,
      metar: { raw: 'LEMD 100730Z 27025G35KT 3000 BKN008 15/09 Q1015', time: now - 600 },
    };
    expect(line({ weather: windy }, {}, 'WEATHER')).toMatchObject({ level: 'block' });
    expect(line({ weather: windy }, { pic_role: ROLES.PILOT }, 'WEATHER')).toMatchObject({ level: 'ok' });
    const down = line({ weather: null }, {}, 'WEATHER');
    expect(down).toMatchObject({ level: 'warn' });
    expect(down!.message).toContain('No current report');
    // Tomorrow: the METAR does not apply and no TAF covers it.
    expect(line({}, { start: now + D, end: now + D + H }, 'WEATHER')!.message).toContain('No current report');
    const taf = {
      raw: 'TAF LEMD 100500Z 1006/1112 27010KT 9999 SCT030 TEMPO 1012/1016 2000 BKN005',
      time: now - 3 * H,
    };
    expect(
      line({ weather: { ...good.weather!, metar: null, taf } }, { start: now + 5 * H, end: now + 6 * H }, 'WEATHER'),
    ).toMatchObject({ level: 'block' });
    expect(
      line({ weather: { ...good.weather!, metar: null, taf } }, { start: now + 12 * H, end: now + 13 * H }, 'WEATHER'),
    ).toMatchObject({ level: 'ok' });
  });

  it('WEATHER: without runway headings for the airport the crosswind is not checked, and the line says so in amber', () => {
    const noRunways = { ...good.settings, weather: { ...good.settings.weather, runways: {} } };
    const calm = line({ settings: noRunways }, {}, 'WEATHER');
    expect(calm).toMatchObject({ level: 'warn' });
    expect(calm!.message).toContain('crosswind not checked: no runway headings for LEMD');
    // A crosswind that would break the minimum on the known runways is found once they are set.
    const across = {
      ...good.weather!,
      metar: { raw: 'LEMD 100730Z 05015KT 9999 FEW030 15/09 Q1015', time: now - 600 },
    };
    expect(line({ weather: across }, {}, 'WEATHER')).toMatchObject({
      level: 'block',
      message: expect.stringContaining('crosswind'),
    });
    const unchecked = line({ weather: across, settings: noRunways }, {}, 'WEATHER');
    expect(unchecked).toMatchObject({ level: 'warn', message: expect.stringContaining('crosswind not checked') });
    // Still below minimums on other counts: red, and the sentence adds that the crosswind was not checked.
    const windy = {
      ...good.weather!,
      metar: { raw: 'LEMD 100730Z 27025G35KT 3000 BKN008 15/09 Q1015', time: now - 600 },
    };
    const red = line({ weather: windy, settings: noRunways }, {}, 'WEATHER');
    expect(red).toMatchObject({ level: 'block', message: expect.stringContaining('Crosswind not checked') });
  });

  it('WEATHER: minimums per pilot group; with those of the flight type too, the stricter of each number', () => {
    const w = {
      ...good.settings.weather,
      flight_types: { ft1: { ceiling_ft: 1000, visibility_m: 8000, wind_kt: 25, crosswind_kt: 12 } },
      pilot_groups: {
        g1: { ceiling_ft: 3000, visibility_m: 5000, wind_kt: 15, crosswind_kt: 15 },
        g2: { ceiling_ft: 2000, visibility_m: 6000, wind_kt: 20, crosswind_kt: 8 },
      },
    };
    expect(minimumsFor(w, null, [])).toEqual({ minimums: w.default, from: [] });
    expect(minimumsFor(w, 'ft1', [])).toEqual({ minimums: w.flight_types.ft1, from: ['flight type'] });
    expect(minimumsFor(w, null, ['g1', 'unknown'])).toEqual({ minimums: w.pilot_groups.g1, from: ['pilot group'] });
    expect(minimumsFor(w, 'ft1', ['g1', 'g2'])).toEqual({
      minimums: { ceiling_ft: 3000, visibility_m: 8000, wind_kt: 15, crosswind_kt: 8 },
      from: ['flight type', 'pilot group'],
    });
    // 18 kt of wind: within the default (20) and the flight type (25), above the group's 15.
    const breezy = {
      ...good.weather!,
      metar: { raw: 'LEMD 100730Z 32018KT 9999 FEW040 15/09 Q1015', time: now - 600 },
    };
    const settings = { ...good.settings, weather: w };
    expect(line({ weather: breezy, settings }, {}, 'WEATHER')).toMatchObject({ level: 'ok' });
    const grouped = line({ weather: breezy, settings, pic_groups: ['g1'] }, {}, 'WEATHER');
    expect(grouped).toMatchObject({ level: 'block' });
    expect(grouped!.message).toContain('minimums of the flight type and pilot group');
    expect(grouped!.message).toContain('wind 18 kt above 15 kt');
  });

  it('offline: a fact the device does not hold is amber, never a crash; old reports say their age', () => {
    const lines = readiness(subject, { now, zone: 'UTC', settings: all('block') });
    expect(lines).toHaveLength(7);
    for (const l of lines.filter((x) => x.code !== 'BALANCE')) expect(l.level, l.code).toBe('warn');
    expect(blocking(lines)).toEqual([]);
    const held = line({ weather: { ...good.weather!, fetched: now - 3 * H } }, {}, 'WEATHER');
    expect(held!.message).toContain('3 h old');
    // A malformed fact becomes a doubt.
    const broken = line({ certificates: { required: null as never, held: {} } }, {}, 'CERTIFICATES');
    expect(broken).toMatchObject({ level: 'warn' });
  });
});

describe('weather reading', () => {
  it('reads wind, gusts, visibility in metres and miles, ceilings and CAVOK', () => {
    expect(parseMetar('LEMD 100730Z 27008G18KT 0800 FEW010 BKN020 OVC030')).toMatchObject({
      wind_kt: 8,
      gust_kt: 18,
      wind_dir: 270,
      visibility_m: 800,
      ceiling_ft: 2000,
    });
    expect(parseMetar('KJFK 201251Z 31012KT 1 1/2SM VV004')).toMatchObject({ visibility_m: 2414, ceiling_ft: 400 });
    expect(parseMetar('LEMD 100730Z VRB02KT CAVOK 15/09')).toMatchObject({
      visibility_m: 10000,
      ceiling_ft: null,
      wind_dir: null,
    });
  });

  it('splits a TAF into groups across the month end and finds the worst for a window', () => {
    const issued = Date.UTC(2026, 0, 31, 5) / 1000;
    const t = parseTaf(
      'TAF LEMD 310500Z 3106/0112 27010KT 9999 SCT030 BECMG 3110/3112 32020KT FM010000 VRB03KT CAVOK',
      issued,
    );
    expect(t?.to).toBe(Date.UTC(2026, 1, 1, 12) / 1000);
    const c = tafConditions(
      'TAF LEMD 310500Z 3106/0112 27010KT 9999 SCT030 BECMG 3110/3112 32020KT FM010000 VRB03KT CAVOK',
      issued,
      Date.UTC(2026, 0, 31, 13) / 1000,
      Date.UTC(2026, 0, 31, 14) / 1000,
    );
    expect(c).toMatchObject({ wind_kt: 20, wind_dir: 320 });
    expect(
      tafConditions(
        'TAF LEMD 310500Z 3106/0112 27010KT',
        issued,
        Date.UTC(2026, 1, 2) / 1000,
        Date.UTC(2026, 1, 2, 1) / 1000,
      ),
    ).toBeNull();
  });

  it('crosswind on the best runway and the minimums', () => {
    const c = parseMetar('LEMD 100730Z 36015KT 9999');
    expect(crosswind(c, [90])).toBe(15);
    expect(crosswind(c, [90, 360])).toBe(0);
    expect(belowMinimums(c, { ceiling_ft: 1000, visibility_m: 5000, wind_kt: 20, crosswind_kt: 10 }, [90])).toEqual([
      'crosswind 15 kt above 10 kt',
    ]);
  });

  it('reads a stored settings document leniently', () => {
    const s = readSettings({ checks: { MEL: 'block', WEATHER: 'loud' }, balance_minimum: 'x' });
    expect(s.checks.MEL).toBe('block');
    expect(s.checks.WEATHER).toBe('ignore');
    expect(s.balance_minimum).toBe(0);
    // A document saved before pilot group minimums existed keeps its weather part.
    const old = readSettings({
      weather: { ...DEFAULT_READINESS_SETTINGS.weather, pilot_groups: undefined, runways: { LEMD: [140] } },
    });
    expect(old.weather.runways).toEqual({ LEMD: [140] });
    expect(old.weather.pilot_groups).toEqual({});
  });
});

describe('readiness sentences in other languages (issue 33)', () => {
  it('each line carries its message id and values: English renders the same bytes, Spanish differs', () => {
    const en = translator('en');
    const es = translator('es');
    const withText = seen.filter((l) => l.text);
    // Every check's sentences went by above, nearly all with a message id (a grounding sentence without one: English only).
    expect(new Set(withText.map((l) => l.text?.id)).size).toBeGreaterThan(25);
    for (const l of seen) {
      if (l.text) {
        expect(renderText(en, l.text)).toBe(l.message);
        expect(renderText(es, l.text, 'es')).not.toBe(l.message);
      }
      if (l.fix_text) {
        expect(renderText(en, l.fix_text)).toBe(l.fix);
        expect(renderText(es, l.fix_text, 'es')).not.toBe(l.fix);
      }
      if (l.fix) expect(l.fix_text).toBeTruthy();
    }
  });
});
