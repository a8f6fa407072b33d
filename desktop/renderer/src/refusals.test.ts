import { describe, expect, it } from 'vitest';
import { translator } from '@ops/shared/i18n/index';
import {
  commandRefusal,
  humanRefusal,
  offlineLine,
  refusalSentence,
  ruleTextOf,
  sentenceFor,
  supersededRejections,
} from './refusals.ts';

describe('refusals in words', () => {
  it('takes a trailing raw code off the message and never shows it', () => {
    expect(humanRefusal('EC-ABC is already booked then (1 booking).CONFLICT_AIRCRAFT')).toBe(
      'EC-ABC is already booked then (1 booking).',
    );
    expect(humanRefusal('Mechanics cannot fly this aircraft.NOT_ALLOWED')).toBe('Mechanics cannot fly this aircraft.');
  });
  it('gives the sentence of a bare code, and a fallback for an unknown one', () => {
    expect(humanRefusal('OUTSIDE_HOURS')).toBe(sentenceFor('OUTSIDE_HOURS'));
    expect(humanRefusal('', 'CONFLICT_PILOT')).toBe('The pilot already has a booking at that time.');
    expect(humanRefusal(null, 'SOMETHING_NEW')).toBe('Refused by the server.');
    expect(humanRefusal('Grounded by report 2026/00003')).toBe('Grounded by report 2026/00003.');
  });
  it('retires a refusal once a later command of the same kind is accepted', () => {
    const out = supersededRejections([
      { id: 'a', name: 'schedule.book', status: 'rejected', client_time: 1 },
      { id: 'b', name: 'schedule.book', status: 'accepted', client_time: 2 },
      { id: 'c', name: 'flight.dispatch', status: 'rejected', client_time: 3 },
      { id: 'd', name: 'schedule.book', status: 'rejected', client_time: 4 },
    ]);
    expect([...out]).toEqual(['a']);
  });
  it('says offline quietly with what waits', () => {
    expect(offlineLine(2)).toBe('Offline, 2 changes waiting');
    expect(offlineLine(1)).toBe('Offline, 1 change waiting');
  });
  it("says the same in the user's language: the code maps to a message, never shown itself", () => {
    const es = translator('es');
    expect(humanRefusal('', 'CONFLICT_PILOT', es)).toBe('El piloto ya tiene una reserva a esa hora.');
    expect(humanRefusal('OUTSIDE_HOURS', null, translator('de'))).toBe(
      'Diese Zeit liegt außerhalb der Öffnungszeiten der Basis.',
    );
    expect(humanRefusal(null, 'SOMETHING_NEW', translator('fr'))).toBe('Refusé par le serveur.');
    expect(offlineLine(1, es)).toBe('Sin conexión, 1 cambio pendiente');
    expect(offlineLine(3, es)).toBe('Sin conexión, 3 cambios pendientes');
  });
});

describe('a server refusal in the reader’s language (issue 33)', () => {
  const horizon = {
    reason: 'Bookings can be made at most 30 days ahead (until 2026-12-26); 2027-01-04 is too far.',
    details: {
      code: 'HORIZON',
      text: { id: 'schedules.sHorizon', values: { days: '30', last: '2026-12-26', date: '2027-01-04' } },
    },
  };

  it('renders the command’s text with the reader’s translator; English gives the server’s bytes', () => {
    expect(commandRefusal(horizon)).toBe(horizon.reason);
    expect(commandRefusal(horizon, translator('es'), 'es')).toBe(
      'Solo se puede reservar con 30 días de antelación como máximo (hasta el 2026-12-26); el 2027-01-04 queda demasiado lejos.',
    );
    expect(commandRefusal(horizon, translator('fr'), 'fr')).toMatch(/^On ne peut réserver que 30 jours/);
  });

  it('a REST body’s text the same way; money inside is formatted for the language', () => {
    const body = {
      message: 'Not ready: The balance is -20.00 EUR, below the company minimum of 0.00 EUR.',
      code: 'READINESS',
      text: {
        id: 'readiness.notReady',
        lists: {
          lines: [
            {
              id: 'readiness.balanceLow',
              money: { balance: { cents: -2000, currency: 'EUR' }, minimum: { cents: 0, currency: 'EUR' } },
            },
          ],
        },
        joins: { lines: ' ' },
      },
    };
    expect(refusalSentence(body)).toBe(body.message);
    expect(refusalSentence(body, translator('de'), 'de').replace(/\u00a0/g, ' ')).toBe(
      'Nicht bereit: Das Guthaben beträgt -20,00 €, unter dem Firmenminimum von 0,00 €.',
    );
  });

  it('without a text, or with an id this app does not know (a newer server), the English reason is shown', () => {
    expect(
      commandRefusal(
        { reason: 'The aircraft is grounded.', details: { code: 'AIRCRAFT_BLOCKED' } },
        translator('es'),
        'es',
      ),
    ).toBe('The aircraft is grounded.');
    const newer = { reason: 'Something new.', details: { text: { id: 'schedules.fromTheFuture' } } };
    expect(commandRefusal(newer, translator('es'), 'es')).toBe('Something new.');
    const nestedUnknown = { id: 'readiness.notReady', lists: { lines: [{ id: 'nope.nope' }] } };
    expect(ruleTextOf(nestedUnknown)).toBeNull();
    expect(refusalSentence({ message: null, code: 'HORIZON', text: 'junk' }, translator('es'), 'es')).toBe(
      'Esa fecha está más lejos de lo que se permite reservar.',
    );
  });
});
