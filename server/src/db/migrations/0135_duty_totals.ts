import { type Kysely, sql } from 'kysely';

/**
 * Duty running totals (issue 30, docs/areas/duty.md "Speed"): `duty_flights`
 * holds one row per LANDED flight and crew member (PIC, SIC or supervisor)
 * with what the duty rule needs, so a person's flights are one index range
 * instead of three seat ranges whose plans SQLite misjudges (an all-NULL seat
 * column looks like it matches every flight); `duty_months` sums each
 * person's flight seconds per UTC month, so a year is about 12 rows. Both
 * are kept in the transaction of every flight change (flights/history
 * recordChange); filled here from the flights already flown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('duty_flights')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('offblocks', 'bigint', (c) => c.notNull())
    .addColumn('onblocks', 'bigint', (c) => c.notNull())
    .addColumn('flight_time', 'bigint', (c) => c.notNull())
    .addColumn('simulator', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('duty_flights_pk', ['company_id', 'flight_id', 'user_id'])
    .execute();
  // A person's flights by time, covering the columns the rule reads.
  await s
    .createIndex('duty_flights_user_offblocks')
    .on('duty_flights')
    .columns(['company_id', 'user_id', 'offblocks', 'onblocks', 'flight_time', 'simulator'])
    .execute();
  // Everyone's flights of a week (the board).
  await s
    .createIndex('duty_flights_company_offblocks')
    .on('duty_flights')
    .columns(['company_id', 'offblocks'])
    .execute();
  await s
    .createTable('duty_months')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    /** Unix seconds of the UTC month's first instant. */
    .addColumn('month', 'bigint', (c) => c.notNull())
    .addColumn('flight_seconds', 'bigint', (c) => c.notNull())
    .addColumn('flights', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('duty_months_pk', ['company_id', 'user_id', 'month'])
    .execute();
  await s.createIndex('duty_months_company_month').on('duty_months').columns(['company_id', 'month']).execute();

  for (const seat of ['pic_id', 'sic_id', 'supervisor_id'])
    await sql`
      insert into duty_flights (company_id, flight_id, user_id, offblocks, onblocks, flight_time, simulator)
      select f.company_id, f.id, f.${sql.ref(seat)}, f.offblocks, f.onblocks, f.flight_time, coalesce(a.simulator, 0)
      from flights f left join aircraft a on a.id = f.aircraft_id and a.company_id = f.company_id
      where f.status = 'LANDED' and f.deleted = 0 and f.offblocks is not null and f.onblocks is not null
        and f.${sql.ref(seat)} is not null
      on conflict do nothing`.execute(db);

  // Month sums in TypeScript (the UTC month of a unix time is dialect-specific SQL).
  const sums = new Map<string, { company_id: string; user_id: string; month: number; s: number; n: number }>();
  let after = { company_id: '', flight_id: '', user_id: '' };
  for (;;) {
    const rows = (
      await sql<{
        company_id: string;
        flight_id: string;
        user_id: string;
        offblocks: number;
        flight_time: number;
        simulator: number;
      }>`
        select company_id, flight_id, user_id, offblocks, flight_time, simulator from duty_flights
        where (company_id, flight_id, user_id) > (${after.company_id}, ${after.flight_id}, ${after.user_id})
        order by company_id, flight_id, user_id limit 5000`.execute(db)
    ).rows;
    if (!rows.length) break;
    for (const r of rows) {
      const d = new Date(Number(r.offblocks) * 1000);
      const month = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
      const key = `${r.company_id}|${r.user_id}|${month}`;
      const t = sums.get(key) ?? { company_id: r.company_id, user_id: r.user_id, month, s: 0, n: 0 };
      if (Number(r.simulator) !== 1) t.s += Number(r.flight_time);
      t.n += 1;
      sums.set(key, t);
    }
    const last = rows[rows.length - 1];
    after = { company_id: last.company_id, flight_id: last.flight_id, user_id: last.user_id };
  }
  const all = [...sums.values()];
  for (let i = 0; i < all.length; i += 500)
    await sql`insert into duty_months (company_id, user_id, month, flight_seconds, flights) values ${sql.join(
      all.slice(i, i + 500).map((t) => sql`(${t.company_id}, ${t.user_id}, ${t.month}, ${t.s}, ${t.n})`),
    )}`.execute(db);
}

export async function down(): Promise<void> {}
