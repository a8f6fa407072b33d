import { describe, expect, it } from 'vitest';
import { translator } from '@ops/shared/i18n/index';
import { humanRefusal, offlineLine, sentenceFor, supersededRejections } from './refusals.ts';

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
