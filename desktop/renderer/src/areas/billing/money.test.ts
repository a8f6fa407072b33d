import { translator } from '@ops/shared/i18n/index';
import { describe, expect, it } from 'vitest';
import {
  accountOfDoc,
  addEffect,
  byBalance,
  formatHours,
  formatMoney,
  kindLabel,
  parseAmount,
  parseHours,
  recentMonths,
  refusalSentence,
  reverseEffect,
  reverseRefusal,
  sumMoney,
  ZAccountPage,
} from './money.ts';

describe('billing view logic', () => {
  it('formats money in the company currency, without a negative zero', () => {
    expect(formatMoney(-120.5, 'EUR', 'en-US')).toBe('-€120.50');
    expect(formatMoney(1234, 'USD', 'en-US')).toBe('$1,234.00');
    expect(formatMoney(-0, 'EUR', 'en-US')).toBe('€0.00');
    expect(formatMoney(5, 'ZZZ1', 'en-US')).toBe('5.00 ZZZ1');
  });

  it('adds money exactly in cents', () => {
    expect(sumMoney([0.1, 0.1, 0.1])).toBe(0.3);
    expect(sumMoney([-121, 50.55, 0.45])).toBe(-70);
  });

  it('reads typed amounts: two decimals at most, comma or dot, minus only when signed', () => {
    expect(parseAmount('49.90')).toEqual({ ok: true, value: 49.9 });
    expect(parseAmount(' 1 200,5 ')).toEqual({ ok: true, value: 1200.5 });
    expect(parseAmount('0.10')).toEqual({ ok: true, value: 0.1 });
    expect(parseAmount('-25', { signed: true })).toEqual({ ok: true, value: -25 });
    expect(parseAmount('-25')).toMatchObject({ ok: false, message: expect.stringContaining('minus') });
    expect(parseAmount('1.005')).toMatchObject({ ok: false, message: expect.stringContaining('two decimals') });
    expect(parseAmount('abc')).toMatchObject({ ok: false });
    expect(parseAmount('0')).toMatchObject({ ok: false, message: expect.stringContaining('zero') });
    expect(parseAmount('0', { allowZero: true })).toEqual({ ok: true, value: 0 });
    expect(parseHours('7,5')).toEqual({ ok: true, value: 7.5 });
    expect(parseHours('0')).toMatchObject({ ok: false, message: 'A package needs hours' });
  });

  it('says the effect of an entry and of a reversal, balance before and after', () => {
    const account = { balance: -120, package_balance: 0, currency: 'EUR' };
    expect(addEffect({ kind: 'payment', amount: 50 }, 'Paula Pilot', account, 'en-US')).toBe(
      'This books a payment of €50.00 for Paula Pilot. Paula Pilot’s balance goes from -€120.00 to -€70.00.',
    );
    expect(
      addEffect({ kind: 'package', amount: 1500, hours: 10, aircraftLabel: 'EC-ABC' }, 'Paula Pilot', account, 'en-US'),
    ).toContain(
      'package of 10.0 h on EC-ABC for €1,500.00, booked as a charge. Paula Pilot’s balance goes from -€120.00 to -€1,620.00; package hours go from 0.0 h to 10.0 h.',
    );
    expect(addEffect({ kind: 'adjustment', amount: -5.5 }, 'P', account, 'en-US')).toContain('(a charge)');
    expect(
      reverseEffect(
        { kind: 'payment', amount: 50, hours: null },
        'Paula Pilot',
        { balance: -70, package_balance: 0, currency: 'EUR' },
        'en-US',
      ),
    ).toBe(
      'This books a reversal of -€50.00 against the payment entry of €50.00. Paula Pilot’s balance goes from -€70.00 to -€120.00. The original entry stays in the account.',
    );
  });

  it('refuses to offer reversing a reversal or a reversed entry', () => {
    expect(reverseRefusal({ id: 'a', kind: 'reversal' }, new Set())).toMatch(/cannot be reversed/);
    expect(reverseRefusal({ id: 'a', kind: 'payment' }, new Set(['a']))).toMatch(/already/);
    expect(reverseRefusal({ id: 'a', kind: 'payment' }, new Set())).toBeNull();
  });

  it('lists the most negative balance first, then by name', () => {
    const rows = byBalance([
      { user_id: '1', name: 'Zoe', balance: 10, package_balance: 0 },
      { user_id: '2', name: 'Ana', balance: -50.1, package_balance: 0 },
      { user_id: '3', name: 'Bea', balance: 10, package_balance: 0 },
      { user_id: '4', name: 'Carl', balance: -50.2, package_balance: 0 },
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Carl', 'Ana', 'Bea', 'Zoe']);
  });

  it('counts statement months back across a year', () => {
    expect(recentMonths('2026-02-10', 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
  });

  it('turns bare status words into sentences and keeps the server’s sentences', () => {
    expect(refusalSentence(403, 'Forbidden')).toMatch(/role may not/);
    expect(refusalSentence(404, 'HTTP 404')).toMatch(/not in your company/);
    expect(refusalSentence(400, 'This entry has already been reversed')).toBe('This entry has already been reversed.');
    expect(refusalSentence(0, '')).toMatch(/cannot be reached/);
  });

  it('reads the account answer and a replicated account document', () => {
    const page = ZAccountPage.parse({
      Account: { user_id: 'u', balance: -10, package_balance: 2, currency: 'EUR' },
      entries: [
        {
          Entry: {
            id: 'e',
            user_id: 'u',
            kind: 'flight',
            amount: -10,
            tax: -1.74,
            hours: null,
            aircraft_id: 'a',
            flight_id: 'f',
            reverses_id: null,
            description: null,
            created: 5,
            created_by: null,
          },
        },
      ],
      paginate: { page: 1, pageCount: 1, count: 1, prevPage: false, nextPage: false },
    });
    expect(page.entries[0]).toMatchObject({ id: 'e', amount: -10, tax: -1.74 });
    const local = accountOfDoc(
      {
        id: 'x',
        type: 'account',
        user_id: 'u',
        data: {
          Account: { balance: 5, package_balance: 0 },
          entries: [
            { id: 'e1', user_id: 'u', kind: 'payment', amount: 5, created: 1 },
            { id: 'e2', user_id: 'u', kind: 'payment', amount: 1, created: 9 },
          ],
        },
        updated: 9,
      },
      'EUR',
    );
    expect(local?.account).toEqual({ user_id: 'u', balance: 5, package_balance: 0, currency: 'EUR' });
    expect(local?.entries.map((e) => e.id)).toEqual(['e2', 'e1']);
    expect(accountOfDoc({ id: 'x', type: 'user', name: 'A' })).toBeNull();
  });

  it('speaks the reader’s language: sentences, kinds, hours and money in Spanish and German', () => {
    const es = translator('es');
    const account = { balance: -120, package_balance: 0, currency: 'EUR' };
    expect(formatMoney(1234.5, 'EUR', 'es')).toBe('1.234,50\u00a0€');
    expect(addEffect({ kind: 'payment', amount: 50 }, 'Paula Pilot', account, 'es', es)).toBe(
      'Se registra un pago de 50,00\u00a0€ para Paula Pilot. El saldo de Paula Pilot pasa de -120,00\u00a0€ a -70,00\u00a0€.',
    );
    expect(
      addEffect({ kind: 'package', amount: 1500, hours: 10, aircraftLabel: 'EC-ABC' }, 'P', account, 'es', es),
    ).toContain('un bono de 10,0 h en EC-ABC por 1.500,00\u00a0€');
    expect(reverseEffect({ kind: 'flight', amount: -80, hours: null }, 'P', account, 'de', translator('de'))).toContain(
      'gegen die Buchung (Flugzeug) über -80,00\u00a0€',
    );
    expect(parseAmount('-25', {}, es)).toEqual({ ok: false, message: 'Introduzca el importe sin signo menos' });
    expect(parseHours('0', es)).toEqual({ ok: false, message: 'Un bono necesita horas' });
    expect(kindLabel('reversal', es)).toBe('Anulación');
    expect(kindLabel('future', es)).toBe('future');
    expect(formatHours(7.5, es, 'es')).toBe('7,5 h');
    expect(reverseRefusal({ id: 'a', kind: 'reversal' }, new Set(), es)).toMatch(/no se puede anular/);
    expect(refusalSentence(403, 'Forbidden', es)).toMatch(/^Su función no permite/);
  });
});
