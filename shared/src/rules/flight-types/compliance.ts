import { DateTime } from 'luxon';
import type { RequirementSeat } from './required-certificates.ts';

export interface HeldCertificate {
  type: string;
  /** `YYYY-MM-DD` or null. */
  issue: string | null;
  expiration: string | null;
}

export interface SeatCompliance {
  compliant: boolean;
  ok: string[];
  required: string[];
  limit: number | null;
}

/**
 * Dates are calendar days in the company zone: a certificate is valid from the
 * start of its issue day through the end of its expiration day, so it stops
 * being valid at midnight after the expiration date.
 */
const dayStart = (date: string, zone: string): number | null => {
  const d = DateTime.fromISO(date.slice(0, 10), { zone });
  return d.isValid ? Math.floor(d.startOf('day').toSeconds()) : null;
};
export function certificateWindow(c: HeldCertificate, zone: string): { from: number | null; until: number | null } {
  const from = c.issue ? dayStart(c.issue, zone) : null;
  const expStart = c.expiration ? dayStart(c.expiration, zone) : null;
  const until =
    expStart === null ? null : Math.floor(DateTime.fromSeconds(expStart, { zone }).plus({ days: 1 }).toSeconds());
  return { from, until };
}

/**
 * Part B 4.5 compliance of one seat. A required type is satisfied by any held
 * certificate of exactly that type valid at `at`. `limit` is when the seat
 * stops being compliant: for each satisfied type the last expiry among its
 * valid certificates (a type held without expiry never lapses), the soonest of
 * those; null when nothing is required or nothing satisfied ever lapses.
 */
export function seatCompliance(
  required: readonly string[],
  held: readonly HeldCertificate[],
  at: number,
  zone: string,
): SeatCompliance {
  const ok: string[] = [];
  let limit: number | null = null;
  for (const type of required) {
    let horizon: number | null | undefined; // undefined: not satisfied; null: never lapses
    for (const c of held) {
      if (c.type !== type) continue;
      const w = certificateWindow(c, zone);
      if (w.from !== null && w.from > at) continue;
      if (w.until !== null && w.until <= at) continue;
      if (w.until === null) horizon = null;
      else if (horizon !== null) horizon = Math.max(horizon ?? 0, w.until);
    }
    if (horizon === undefined) continue;
    ok.push(type);
    if (horizon !== null) limit = limit === null ? horizon : Math.min(limit, horizon);
  }
  return { compliant: ok.length === required.length, ok, required: [...required], limit };
}

export type FlightTypeCompliance = Record<RequirementSeat, SeatCompliance>;
