import { describe, expect, it } from 'vitest';
import { FRAT_FACTORS, scoreFrat } from './frat.ts';

const lowest = Object.fromEntries(FRAT_FACTORS.map((f) => [f.key, f.options[0].key]));
const highest = Object.fromEntries(FRAT_FACTORS.map((f) => [f.key, f.options[f.options.length - 1].key]));

describe('scoreFrat', () => {
  it('adds option points and bands them', () => {
    expect(scoreFrat(lowest, null)).toEqual({ ok: true, score: 0, level: 'LOW' });
    expect(scoreFrat({ ...lowest, weather: 'poor', fatigue: 'some' }, null)).toEqual({
      ok: true,
      score: 8,
      level: 'MEDIUM',
    });
  });

  it('needs a written mitigation for a HIGH result', () => {
    expect(scoreFrat(highest, '  ')).toEqual({
      ok: false,
      errors: { mitigation: ['A high-risk assessment needs the mitigation in words'] },
    });
    expect(scoreFrat(highest, 'Second pilot, daylight only')).toEqual({ ok: true, score: 24, level: 'HIGH' });
  });

  it('refuses a missing factor, an unknown option and an unknown factor', () => {
    const { weather: _, ...noWeather } = lowest;
    const r = scoreFrat({ ...noWeather, light: 'twilight', moon: 'full' }, null);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['answers.light', 'answers.moon', 'answers.weather']);
  });
});
