import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n/index.ts';
import { type RuleText, renderText, ruleHours, ruleMoney } from './text.ts';

// Intl separates French thousands and the currency sign with narrow or plain no-break spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const say = (text: RuleText, locale: string) => plain(renderText(translator(locale), text, locale));

describe('numbers inside rule sentences (issue 33)', () => {
  const low: RuleText = {
    id: 'readiness.balanceLow',
    money: { balance: { cents: -123450, currency: 'EUR' }, minimum: { cents: 5000, currency: 'EUR' } },
  };

  it('English keeps the bytes the API has always said', () => {
    expect(renderText(translator('en'), low)).toBe(
      `The balance is ${ruleMoney(-123450, 'EUR')}, below the company minimum of ${ruleMoney(5000, 'EUR')}.`,
    );
    expect(ruleMoney(5000, 'EUR')).toBe('50.00 EUR');
    expect(ruleHours(1.54)).toBe('1.5 h');
    expect(ruleHours(2)).toBe('2 h');
  });

  it('money goes through Intl currency in each other language', () => {
    expect(say(low, 'es')).toBe('El saldo es -1.234,50 €, por debajo del mínimo de la empresa de 50,00 €.');
    expect(say(low, 'de')).toBe('Das Guthaben beträgt -1.234,50 €, unter dem Firmenminimum von 50,00 €.');
    expect(say(low, 'fr')).toBe('Le solde est de -1 234,50 €, sous le minimum de la société de 50,00 €.');
  });

  it('an account without a currency code shows the amount in the language’s digits', () => {
    expect(say({ id: 'readiness.balanceOk', money: { balance: { cents: 150, currency: '' } } }, 'de')).toBe(
      'Guthaben 1,50.',
    );
    expect(
      renderText(translator('en'), { id: 'readiness.balanceOk', money: { balance: { cents: 150, currency: '' } } }),
    ).toBe('Balance 1.50 .');
  });

  it('hours use the language’s decimal mark, one decimal at most', () => {
    const due: RuleText = {
      id: 'readiness.dueByHours',
      values: { name: '50 h check' },
      hours: { used: 50.04, interval: 50 },
    };
    expect(say(due, 'en')).toBe('50 h check (50 h of 50 h with this flight)');
    const part: RuleText = { id: 'readiness.dueByHours', values: { name: 'Oil' }, hours: { used: 1.46, interval: 25 } };
    expect(say(part, 'en')).toBe('Oil (1.5 h of 25 h with this flight)');
    expect(say(part, 'es')).toContain('1,5 h');
    expect(say(part, 'fr')).toContain('1,5 h');
    expect(say(part, 'de')).toContain('1,5 h');
  });

  it('nested sentences render in the reader’s language, with their own separator', () => {
    const text: RuleText = {
      id: 'readiness.maintDue',
      lists: {
        due: [
          { id: 'readiness.dueByHours', values: { name: 'Oil' }, hours: { used: 25.5, interval: 25 } },
          { id: 'readiness.dueByDate', values: { name: 'ARC' }, dates: { date: Date.UTC(2026, 10, 25) / 1000 } },
        ],
      },
      joins: { due: ' | ' },
      zone: 'Europe/Madrid',
    };
    const es = say(text, 'es');
    expect(es).toContain('Oil (25,5 h de 25 h con este vuelo) | ARC');
    expect(say(text, 'en')).toContain('Oil (25.5 h of 25 h with this flight) | ARC (due 25 Nov 2026)');
  });
});
