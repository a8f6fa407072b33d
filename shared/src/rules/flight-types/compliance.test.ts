import { describe, expect, it } from 'vitest';
import { certificateWindow, seatCompliance } from './compliance.ts';

const UTC = 'UTC';
const at = Date.UTC(2025, 5, 15) / 1000;

describe('seat compliance', () => {
  it('holds a certificate from its issue day through its expiration day', () => {
    expect(certificateWindow({ type: 'SEP', issue: '2025-01-01', expiration: '2025-06-15' }, UTC)).toEqual({
      from: Date.UTC(2025, 0, 1) / 1000,
      until: Date.UTC(2025, 5, 16) / 1000,
    });
  });

  it('is compliant when every required type is held and valid, limited by the soonest lapse', () => {
    const held = [
      { type: 'SEP', issue: '2024-01-01', expiration: '2025-06-20' },
      { type: 'SEP', issue: '2025-01-01', expiration: '2026-01-31' },
      { type: 'MED', issue: null, expiration: '2025-09-30' },
    ];
    expect(seatCompliance(['SEP', 'MED'], held, at, UTC)).toEqual({
      compliant: true,
      ok: ['SEP', 'MED'],
      required: ['SEP', 'MED'],
      limit: Date.UTC(2025, 9, 1) / 1000,
    });
  });

  it('does not count a certificate not yet issued or expired, and never lapses without expiry', () => {
    const held = [
      { type: 'SEP', issue: '2025-07-01', expiration: null },
      { type: 'MCC', issue: '2020-01-01', expiration: '2025-06-14' },
      { type: 'FI', issue: null, expiration: null },
    ];
    expect(seatCompliance(['SEP', 'MCC', 'FI'], held, at, UTC)).toEqual({
      compliant: false,
      ok: ['FI'],
      required: ['SEP', 'MCC', 'FI'],
      limit: null,
    });
    expect(seatCompliance([], held, at, UTC)).toEqual({ compliant: true, ok: [], required: [], limit: null });
  });
});
