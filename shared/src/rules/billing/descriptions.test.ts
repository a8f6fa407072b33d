import { describe, expect, it } from 'vitest';
import { translator } from '../../i18n/index.ts';
import { renderText } from '../readiness/text.ts';
import {
  chargeLineDescription,
  entryText,
  flightChangedDescription,
  ONLINE_PAYMENT,
  reversalDescription,
} from './descriptions.ts';

const say = (l: string, e: Parameters<typeof entryText>[0]) => {
  const text = entryText(e);
  return text ? renderText(translator(l), text, l) : e.description;
};

describe('ledger descriptions in the reader’s language (issue 33)', () => {
  const written = [
    { kind: 'flight', flight_id: 'f1', description: chargeLineDescription('Aircraft', 'EC-ABC', '2026-11-20') },
    { kind: 'instructor', flight_id: 'f1', description: chargeLineDescription('Instructor', 'EC-ABC', '2026-11-20') },
    {
      kind: 'package',
      flight_id: 'f1',
      description: chargeLineDescription('Prepaid hours used', 'EC-ABC', '2026-11-20'),
    },
    { kind: 'reversal', flight_id: 'f1', description: flightChangedDescription('2026-11-20') },
    { kind: 'reversal', flight_id: null, description: reversalDescription('payment') },
    { kind: 'payment', flight_id: null, description: ONLINE_PAYMENT },
  ];

  it('what the server writes reads back as a message: English gives the stored bytes, the others translate', () => {
    for (const e of written) {
      expect(entryText(e), e.description).not.toBeNull();
      expect(say('en', e)).toBe(e.description);
      // "Instructor" is also the Spanish word: at least two of the three languages differ from the stored text.
      expect(['es', 'fr', 'de'].filter((l) => say(l, e) !== e.description).length).toBeGreaterThanOrEqual(2);
    }
    expect(say('es', written[0])).toBe('Aeronave: EC-ABC 2026-11-20');
    expect(say('fr', written[3])).toBe('Vol du 2026-11-20 modifié');
    expect(say('de', written[4])).toBe('Storno von Zahlung');
  });

  it('free text and rows without a description are shown as stored', () => {
    expect(entryText({ kind: 'payment', flight_id: null, description: 'Bank transfer, course deposit' })).toBeNull();
    expect(entryText({ kind: 'package', flight_id: null, description: '5 h block EC-DEF' })).toBeNull();
    expect(entryText({ kind: 'flight', flight_id: null, description: 'Aircraft: EC-ABC 2026-11-20' })).toBeNull();
    expect(entryText({ kind: 'flight', flight_id: 'f1', description: null })).toBeNull();
    expect(say('es', { kind: 'adjustment', flight_id: null, description: 'Fuel surcharge' })).toBe('Fuel surcharge');
  });
});
