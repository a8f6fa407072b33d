import type { Kysely } from 'kysely';
import type { DB } from '../../../server/src/db/schema.ts';
import type { TestServer } from '../../setup/server.ts';

/**
 * Differences between the duty running totals (`duty_flights`, `duty_months`)
 * and a full recount from the flights, written in plain SQL here, apart from
 * the server's code (empty: the totals are right).
 */
export const recountDuty = (s: TestServer): Promise<string[]> => recountDutyOn(s.ctx.db);

/** The same on any database handle (the crash harness opens the database itself). */
export async function recountDutyOn(db: Kysely<DB>): Promise<string[]> {
  const flights = await db
    .selectFrom('flights as f')
    .leftJoin('aircraft as a', (j) => j.onRef('a.id', '=', 'f.aircraft_id').onRef('a.company_id', '=', 'f.company_id'))
    .select([
      'f.company_id',
      'f.id',
      'f.pic_id',
      'f.sic_id',
      'f.supervisor_id',
      'f.offblocks',
      'f.onblocks',
      'f.flight_time',
      'a.simulator',
    ])
    .where('f.status', '=', 'LANDED')
    .where('f.deleted', '=', 0)
    .where('f.offblocks', 'is not', null)
    .where('f.onblocks', 'is not', null)
    .execute();
  const want = new Map<string, string>();
  const months = new Map<string, { s: number; n: number }>();
  for (const f of flights)
    for (const u of new Set([f.pic_id, f.sic_id, f.supervisor_id])) {
      if (!u) continue;
      const sim = Number(f.simulator ?? 0) === 1 ? 1 : 0;
      want.set(`${f.company_id}|${f.id}|${u}`, `${f.offblocks}|${f.onblocks}|${f.flight_time}|${sim}`);
      const d = new Date(Number(f.offblocks) * 1000);
      const key = `${f.company_id}|${u}|${Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000}`;
      const m = months.get(key) ?? { s: 0, n: 0 };
      m.s += sim ? 0 : Number(f.flight_time);
      m.n += 1;
      months.set(key, m);
    }
  const bad: string[] = [];
  const have = await db.selectFrom('duty_flights').selectAll().execute();
  for (const h of have) {
    const key = `${h.company_id}|${h.flight_id}|${h.user_id}`;
    const value = `${h.offblocks}|${h.onblocks}|${h.flight_time}|${h.simulator}`;
    if (want.get(key) !== value) bad.push(`duty_flights ${key}: ${value} vs ${want.get(key)}`);
    want.delete(key);
  }
  for (const [key, value] of want) bad.push(`duty_flights ${key}: missing (${value})`);
  for (const m of await db.selectFrom('duty_months').selectAll().execute()) {
    const key = `${m.company_id}|${m.user_id}|${m.month}`;
    const w = months.get(key) ?? { s: 0, n: 0 };
    // A month emptied by a cancel keeps its row at zero.
    if (Number(m.flight_seconds) !== w.s || Number(m.flights) !== w.n)
      bad.push(`duty_months ${key}: ${m.flight_seconds}/${m.flights} vs ${w.s}/${w.n}`);
    months.delete(key);
  }
  for (const [key, w] of months) bad.push(`duty_months ${key}: missing (${w.s}/${w.n})`);
  return bad;
}
