/**
 * The Intl formatters (shared/src/i18n/format.ts): the company's formats decide the
 * order and the clock, the language the separators; English reads as it did before.
 */
import {
  type CompanyFormats,
  companyFormatsOf,
  formatDate,
  formatDateTime,
  formatDuration,
  formatInstant,
  formatMoney,
} from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import {
  formatDateTime as oldDateTime,
  type DisplaySettings,
  formatDuration as oldDuration,
} from '../../../desktop/renderer/src/format.ts';

const at = Date.UTC(2026, 10, 25, 14, 5) / 1000; // 15:05 in Madrid
const madrid = (over: Partial<CompanyFormats> = {}): CompanyFormats => ({
  dateFormat: 'DD-MM-YYYY',
  timeFormat: '24',
  durationFormat: 'time',
  zone: 'Europe/Madrid',
  ...over,
});

describe('formatters in a language and the company formats', () => {
  it('English is what the screens showed before, for every company format', () => {
    for (const dateFormat of ['YYYY-MM-DD', 'DD-MM-YYYY', 'MM-DD-YYYY'] as const)
      for (const timeFormat of ['12', '24'] as const)
        for (const t of [at, at + 9 * 3600, at - 14 * 3600]) {
          const f = madrid({ dateFormat, timeFormat });
          const display: DisplaySettings = {
            dateFormat,
            timeFormat,
            durationFormat: 'time',
            companyZone: f.zone,
            flightZone: f.zone,
          };
          expect(formatDateTime(t, 'en', f)).toBe(oldDateTime(t, display));
        }
    for (const d of ['decimal', 'time'] as const)
      expect(formatDuration(5430, 'en', { durationFormat: d })).toBe(oldDuration(5430, { durationFormat: d }));
  });

  it('Spanish and German: the company order with their separators, decimal commas, money as the custom is', () => {
    expect(formatDate(at, 'es', madrid())).toBe('25/11/2026');
    expect(formatDate(at, 'de', madrid())).toBe('25.11.2026');
    expect(formatDate(at, 'es', madrid({ dateFormat: 'YYYY-MM-DD' }))).toBe('2026-11-25');
    expect(formatDateTime(at, 'es', madrid())).toBe('25/11/2026 15:05');
    expect(formatDuration(5400, 'es', { durationFormat: 'decimal' })).toBe('1,5');
    expect(formatDuration(5400, 'es', { durationFormat: 'time' })).toBe('1:30');
    // A no-break space before the sign, as Intl writes it.
    expect(formatMoney(1234.5, 'EUR', 'es')).toMatch(/^1\.234,50\s€$/);
    expect(formatMoney(1234.5, 'EUR', 'en')).toBe('€1,234.50');
  });

  it('a company row reads as its formats; unknown values and zones as the defaults; a printed instant names its zone', () => {
    const row = { timezone: 'Europe/Madrid', date_format: 'DD-MM-YYYY', time_format: '12', duration_format: 'decimal' };
    expect(companyFormatsOf(row)).toEqual(madrid({ timeFormat: '12', durationFormat: 'decimal' }));
    expect(companyFormatsOf({ timezone: 'Mars/Olympus', date_format: 'D/M/Y', time_format: '13' })).toEqual({
      dateFormat: 'YYYY-MM-DD',
      timeFormat: '24',
      durationFormat: 'time',
      zone: 'UTC',
    });
    expect(formatInstant(at, 'es', madrid())).toBe('25/11/2026 15:05 CET');
    expect(formatInstant(at, 'de', madrid())).toBe('25.11.2026 15:05 MEZ');
    expect(formatInstant(at, 'en', madrid({ zone: 'UTC' }))).toBe('25-11-2026 14:05 UTC');
  });
});
