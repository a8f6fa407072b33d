import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATIONS,
  computeLogbookTotals,
  creditedFunctions,
  FUNCTION_KEYS,
  type FunctionKey,
  isClassification,
  type LogbookFlight,
  type LogbookTotals,
  REMOVED_CLASSIFICATIONS,
  RULE_KEYS,
  ZClassification,
} from './logbook-totals.ts';

const ME = '42';
const OTHER = '7';
const HOUR = 3600;

const SEP = { multipilot: false, simulator: false };
const MULTI = { multipilot: true, simulator: false };
const SIM = { multipilot: false, simulator: true };

function flight(over: Partial<LogbookFlight> = {}, types: Partial<LogbookFlight['flight_type']> = {}): LogbookFlight {
  return {
    id: 'f1',
    pic_id: ME,
    sic_id: null,
    supervisor_id: null,
    block_time: HOUR,
    flight_time: 3000,
    night_flight_time: 0,
    ifr_flight_time: 0,
    rules: 'VFR',
    crosscountry: false,
    multiengine: false,
    aircraft: SEP,
    ...over,
    flight_type: {
      name: 'Solo',
      pic_flight_time: 'pic',
      sic_flight_time: 'none',
      supervisor_flight_time: 'none',
      ...types,
    },
  };
}

function totals(
  flights: LogbookFlight[],
  userId: string | number = ME,
  previousHours: number | string | null = 0,
  other = 0,
): LogbookTotals {
  return computeLogbookTotals({ userId, flights, previousHours, otherCompaniesSeconds: other });
}

/** Function lines with a non-zero time. */
function lines(t: LogbookTotals): Partial<Record<FunctionKey, number>> {
  return Object.fromEntries(Object.entries(t.functions).flatMap(([k, v]) => (v.time > 0 ? [[k, v.time]] : [])));
}

/** The flight with `classification` in the PIC seat, as the pilot. */
const asPic = (classification: string, aircraft = SEP) =>
  totals([flight({ aircraft }, { pic_flight_time: classification })]);

describe('classifications', () => {
  it('exports the allowed and removed values', () => {
    expect(CLASSIFICATIONS).toEqual([
      'pic',
      'picus',
      'sic',
      'fi',
      'dual',
      'cri',
      'iri',
      'fifi',
      'sfi',
      'tri',
      'exa',
      'sup',
      'none',
    ]);
    expect(REMOVED_CLASSIFICATIONS).toEqual(['copic', 'tre']);
    expect(isClassification('fi')).toBe(true);
    expect(isClassification('tre')).toBe(false);
    expect(isClassification(3)).toBe(false);
    expect(ZClassification.safeParse('copic').success).toBe(false);
    expect(ZClassification.parse('sup')).toBe('sup');
  });

  it('creditedFunctions covers every class', () => {
    expect(Object.fromEntries(CLASSIFICATIONS.map((c) => [c, creditedFunctions(c, true)]))).toEqual({
      pic: ['PIC'],
      picus: ['PIC', 'PICUS'],
      sic: ['SIC'],
      fi: ['PIC', 'FI'],
      dual: ['DUAL'],
      cri: ['PIC', 'FI', 'CRI'],
      iri: ['PIC', 'FI', 'IRI'],
      fifi: ['PIC', 'FI', 'FIFI'],
      sfi: ['PIC', 'FI', 'SFI'],
      tri: ['PIC', 'FI', 'TRI'],
      exa: ['PIC', 'FI', 'EXA'],
      sup: ['SUPERVISOR'],
      none: [],
    });
  });
});

describe('computeLogbookTotals: one test per class of Part B 2.6', () => {
  it('pic: PIC total only', () => {
    expect(lines(asPic('pic'))).toEqual({ PIC: HOUR });
  });

  it('picus: PIC total and PICUS, not FI', () => {
    expect(lines(asPic('picus'))).toEqual({ PIC: HOUR, PICUS: HOUR });
  });

  it('sic: SIC total on a multipilot aircraft', () => {
    const t = totals([flight({ pic_id: OTHER, sic_id: ME, aircraft: MULTI }, { sic_flight_time: 'sic' })]);
    expect(lines(t)).toEqual({ SIC: HOUR });
    expect(t.total_time).toBe(HOUR);
  });

  it('fi: PIC and FI totals', () => {
    expect(lines(asPic('fi'))).toEqual({ PIC: HOUR, FI: HOUR });
  });

  it('dual: DUAL total only', () => {
    const t = totals([flight({ pic_id: OTHER, sic_id: ME }, { pic_flight_time: 'fi', sic_flight_time: 'dual' })]);
    expect(lines(t)).toEqual({ DUAL: HOUR });
    expect(t.total_time).toBe(HOUR);
  });

  it('cri: PIC, FI and CRI', () => {
    expect(lines(asPic('cri'))).toEqual({ PIC: HOUR, FI: HOUR, CRI: HOUR });
  });

  it('iri: PIC, FI and IRI', () => {
    expect(lines(asPic('iri'))).toEqual({ PIC: HOUR, FI: HOUR, IRI: HOUR });
  });

  it('fifi: PIC, FI and FIFI', () => {
    expect(lines(asPic('fifi'))).toEqual({ PIC: HOUR, FI: HOUR, FIFI: HOUR });
  });

  it('sfi: PIC, FI and SFI', () => {
    expect(lines(asPic('sfi', SIM))).toEqual({ PIC: HOUR, FI: HOUR, SFI: HOUR });
  });

  it('tri: PIC, FI and TRI', () => {
    expect(lines(asPic('tri', MULTI))).toEqual({ PIC: HOUR, FI: HOUR, TRI: HOUR });
  });

  it('exa: PIC, FI and EXA', () => {
    expect(lines(asPic('exa'))).toEqual({ PIC: HOUR, FI: HOUR, EXA: HOUR });
  });

  it('sup: SUPERVISOR only, not PIC or FI, and not flying time', () => {
    const t = totals([flight({ pic_id: OTHER, supervisor_id: ME }, { supervisor_flight_time: 'sup' })]);
    expect(lines(t)).toEqual({ SUPERVISOR: HOUR });
    expect(t.total_time).toBe(0);
    expect(t.flight_types).toEqual({});
    expect(t.average).toBe(0);
  });

  it('none: not logged at all', () => {
    const t = asPic('none');
    expect(lines(t)).toEqual({});
    expect(t.total_time).toBe(0);
    expect(t.flight_types).toEqual({});
    expect(t.rules.VFR.time).toBe(0);
  });

  it('removed values (copic, tre) log nothing', () => {
    expect(lines(asPic('copic'))).toEqual({});
    expect(lines(asPic('tre'))).toEqual({});
  });
});

describe('computeLogbookTotals: rollup rules', () => {
  it('gives SIC nothing on a single-pilot aircraft, and does not count the flight', () => {
    const t = totals([flight({ pic_id: OTHER, sic_id: ME, aircraft: SEP }, { sic_flight_time: 'sic' })]);
    expect(t.functions.SIC.time).toBe(0);
    expect(t.total_time).toBe(0);
  });

  it('keeps SUPERVISOR separate from PIC when a pilot supervises and also flies', () => {
    const t = totals([
      flight({ id: 'a', pic_id: OTHER, supervisor_id: ME, block_time: 2 * HOUR }, { supervisor_flight_time: 'sup' }),
      flight({ id: 'b', pic_id: ME, block_time: HOUR }),
    ]);
    expect(t.functions.PIC.time).toBe(HOUR);
    expect(t.functions.SUPERVISOR.time).toBe(2 * HOUR);
    expect(t.total_time).toBe(HOUR);
  });

  it('credits a pilot in two seats each line once and the flight once', () => {
    // PIC seat as instructor and supervisor seat as supervisor on the same flight.
    const t = totals([flight({ supervisor_id: ME }, { pic_flight_time: 'fi', supervisor_flight_time: 'sup' })]);
    expect(lines(t)).toEqual({ PIC: HOUR, FI: HOUR, SUPERVISOR: HOUR });
    expect(t.total_time).toBe(HOUR);
    expect(t.average).toBe(HOUR);
    // Two seats that both mean PIC still give PIC once.
    const twice = totals([
      flight({ sic_id: ME, aircraft: MULTI }, { pic_flight_time: 'pic', sic_flight_time: 'picus' }),
    ]);
    expect(lines(twice)).toEqual({ PIC: HOUR, PICUS: HOUR });
    expect(twice.total_time).toBe(HOUR);
  });

  it('ignores flights where the pilot holds no seat, and matches numeric and text ids', () => {
    expect(totals([flight({ pic_id: OTHER })]).total_time).toBe(0);
    expect(totals([flight({ pic_id: 42 })], '42').total_time).toBe(HOUR);
    expect(totals([flight({ pic_id: '42' })], 42).user.id).toBe(42);
  });

  it('credits block time, not flight time', () => {
    const t = totals([flight({ block_time: 4000, flight_time: 3000 })]);
    expect(t.total_time).toBe(4000);
    expect(t.functions.PIC.time).toBe(4000);
  });

  it('computes flight_time as total_time minus the SIM rule', () => {
    const t = totals([
      flight({ id: 'a', block_time: 2 * HOUR }),
      flight({ id: 'b', block_time: HOUR, aircraft: SIM, rules: 'IFR' }, { name: 'Sim session' }),
    ]);
    expect(t.total_time).toBe(3 * HOUR);
    expect(t.rules.SIM.time).toBe(HOUR);
    expect(t.flight_time).toBe(2 * HOUR);
  });

  it('sets previous_time to flight hours times 3600, accepting decimals as text and null', () => {
    expect(totals([], ME, 12.5).user.previous_time).toBe(45_000);
    expect(totals([], ME, 1.1).user.previous_time).toBe(3960);
    expect(totals([], ME, '100.25').user.previous_time).toBe(360_900);
    expect(totals([], ME, null).user.previous_time).toBe(0);
    expect(totals([], ME, 'n/a').user.previous_time).toBe(0);
  });

  it('reports other companies separately and keeps them out of total_time', () => {
    const t = totals([flight()], ME, 10, 7200);
    expect(t.user).toEqual({ id: ME, previous_time: 36_000, other_companies: 7200 });
    expect(t.total_time).toBe(HOUR);
  });

  it('sums flight types by name', () => {
    const t = totals([
      flight({ id: 'a', block_time: 1800 }),
      flight({ id: 'b', block_time: 2700 }),
      flight({ id: 'c', block_time: HOUR }, { name: 'Dual training', pic_flight_time: 'fi' }),
    ]);
    expect(t.flight_types).toEqual({ Solo: 4500, 'Dual training': HOUR });
  });

  it('computes the rule lines', () => {
    const t = totals([
      flight({ id: 'a', block_time: 2 * HOUR, rules: 'VFR', crosscountry: true, night_flight_time: 1200 }),
      flight({ id: 'b', block_time: 3 * HOUR, rules: 'IFR', multiengine: true, aircraft: SEP }),
      flight({ id: 'c', block_time: HOUR, rules: 'IFR', ifr_flight_time: 1800 }),
      flight({ id: 'd', block_time: HOUR, rules: 'Z', ifr_flight_time: 900 }),
      flight({ id: 'e', block_time: HOUR, rules: null }),
    ]);
    expect(Object.fromEntries(RULE_KEYS.map((k) => [k, t.rules[k].time]))).toEqual({
      VFR: 2 * HOUR,
      IFR: 3 * HOUR + 1800 + 900,
      SIM: 0,
      'Cross Country': 2 * HOUR,
      Night: 1200,
      'Multi Engine': 3 * HOUR,
    });
  });

  it('averages block seconds per counted flight, rounded', () => {
    const t = totals([
      flight({ id: 'a', block_time: 1000 }),
      flight({ id: 'b', block_time: 2001 }),
      flight({ id: 'c', pic_id: OTHER, block_time: 99_999 }),
    ]);
    expect(t.average).toBe(1501);
  });

  it('returns the full response shape with zeros when there are no flights', () => {
    const t = totals([]);
    expect(Object.keys(t).sort()).toEqual([
      'average',
      'flight_time',
      'flight_types',
      'functions',
      'rules',
      'total_time',
      'user',
    ]);
    expect(Object.keys(t.functions)).toEqual([...FUNCTION_KEYS]);
    expect(Object.keys(t.rules)).toEqual(['VFR', 'IFR', 'SIM', 'Cross Country', 'Night', 'Multi Engine']);
    for (const line of [...Object.values(t.functions), ...Object.values(t.rules)]) {
      expect(line.time).toBe(0);
      expect(line.icon).toMatch(/^fas fa-/);
    }
    expect(t).toMatchObject({ average: 0, total_time: 0, flight_time: 0, flight_types: {} });
  });

  it('treats negative or missing durations as zero', () => {
    const t = totals([flight({ block_time: -5, night_flight_time: Number.NaN })]);
    expect(t.total_time).toBe(0);
    expect(t.rules.Night.time).toBe(0);
  });
});
