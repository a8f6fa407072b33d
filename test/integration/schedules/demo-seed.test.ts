/**
 * The demo board obeys the booking rules it demonstrates (issue 28): no coming
 * booking on a closed day or outside the hours, none with a non-pilot as
 * pilot, none beyond the horizon; and the board still has lessons.
 */
import { hoursRefusal, pilotRefusal, timeRefusal } from '@ops/shared/rules/schedules/sanity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('demo bookings on %s', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
  });
  afterAll(() => s?.close());

  it('every coming demo booking passes the pilot, time and operating-hours checks', async () => {
    const sky = s.refs.companies.skyline;
    const db = s.ctx.db;
    const now = Math.floor(Date.now() / 1000);
    const bookings = await db
      .selectFrom('schedules')
      .select(['pilot_id', 'base_id', 'start_at', 'end_at'])
      .where('company_id', '=', sky)
      .where('status', '=', 'BOOKED')
      .where('start_at', '>', now)
      .execute();
    expect(bookings.length).toBeGreaterThan(10);
    const rows = (
      await db
        .selectFrom('operating_hours')
        .select(['base_id', 'weekday', 'override_date', 'closed', 'start_minute', 'end_minute'])
        .where('company_id', '=', sky)
        .execute()
    ).map((r) => ({
      ...r,
      weekday: r.weekday === null ? null : Number(r.weekday),
      closed: !!r.closed,
      start_minute: Number(r.start_minute),
      end_minute: Number(r.end_minute),
    }));
    expect(rows.some((r) => r.closed)).toBe(true);
    const users = new Map(
      (
        await db.selectFrom('users').select(['id', 'name', 'pilot', 'active']).where('company_id', '=', sky).execute()
      ).map((u) => [u.id, u]),
    );
    for (const b of bookings) {
      const span = { start: Number(b.start_at), end: Number(b.end_at) };
      const u = users.get(b.pilot_id);
      expect(pilotRefusal({ name: u?.name ?? '?', pilot: !!u?.pilot, active: !!u?.active })).toBeNull();
      expect(timeRefusal({ span, now, zone: 'Europe/Madrid' })).toBeNull();
      expect(hoursRefusal({ rows, baseId: b.base_id, span, zone: 'Europe/Madrid' })).toBeNull();
    }
  });
});
