/**
 * The company of `bench:device` (issue 35): 2,000 users (300 of them students of
 * one training), 100,000 flights over ten years, 50,000 bookings, 20,000 aircraft
 * reports and 5,000 safety reports, added to the demo-seeded Skyline company.
 * Rows are clones of the demo's own rows (so every NOT NULL column has a real
 * value) written straight into the tables in batches, one transaction and one
 * change number per table: minutes through the REST API, seconds this way.
 */
import { uuidv7 } from '@ops/shared';
import { FLIGHT_PHASES } from '@ops/shared/rules/safety-reports/safety';
import { inTransaction } from '../../server/src/db/unit-of-work.ts';
import type { TestServer } from '../setup/server.ts';

export interface DeviceBenchSize {
  users: number;
  students: number;
  flights: number;
  bookings: number;
  aircraftReports: number;
  safetyReports: number;
}

export const COMPANY_SIZE: DeviceBenchSize = {
  users: 2_000,
  students: 300,
  flights: 100_000,
  bookings: 50_000,
  aircraftReports: 20_000,
  safetyReports: 5_000,
};

type Row = Record<string, unknown>;
const DAY = 86_400;

export async function seedDeviceBench(s: TestServer, size: DeviceBenchSize = COMPANY_SIZE): Promise<void> {
  const db = s.ctx.db;
  const company = s.refs.companies.skyline;
  const pilotId = s.userId('pilot@skyline.test');
  const template = async (table: string, where: Row = {}) => {
    let q = db
      .selectFrom(table as never)
      .selectAll()
      .where('company_id' as never, '=', company as never);
    for (const [k, v] of Object.entries(where)) q = q.where(k as never, '=', v as never);
    return (await q.limit(1).executeTakeFirstOrThrow()) as Row;
  };
  /** Clones `base` `n` times (fresh id, the table's change number), `vary` fills what differs. */
  const clone = async (table: string, base: Row, n: number, vary: (i: number) => Row) => {
    const width = Object.keys(base).length;
    const batch = Math.max(1, Math.floor(30_000 / width));
    await inTransaction(db, null, async (uow) => {
      const changeNo = await uow.changeNo(company, table);
      for (let done = 0; done < n; done += batch) {
        const rows: Row[] = [];
        for (let i = done; i < Math.min(n, done + batch); i++)
          rows.push({ ...base, id: uuidv7(), change_no: changeNo, deleted: 0, ...vary(i) });
        await uow.trx
          .insertInto(table as never)
          .values(rows as never)
          .execute();
      }
    });
  };
  const now = Math.floor(Date.now() / 1000);
  const t0 = performance.now();

  // People: pilots cloned from the fixture pilot, students from the fixture student (their roles, base, identity).
  const pilotRow = await template('users', { email: 'pilot@skyline.test' });
  const studentRow = await template('users', { email: 'student@skyline.test' });
  await clone('users', pilotRow, size.users - size.students, (i) => ({
    email: `pilot${i}@bench.test`,
    name: `Pilot${i}`,
    surname: `Bench`,
  }));
  await clone('users', studentRow, size.students, (i) => ({
    email: `student${i}@bench.test`,
    name: `Student${i}`,
    surname: `Bench`,
  }));
  const users = (
    await db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('company_id', '=', company)
      .where('email', 'like', '%@bench.test')
      .execute()
  ).map((u) => ({ id: u.id, student: (u.email ?? '').startsWith('student') }));
  const pilots = users.filter((u) => !u.student).map((u) => u.id);
  const students = users.filter((u) => u.student).map((u) => u.id);
  // One flight or booking in 60 is the fixture pilot's: about 170 a year, a busy instructor's logbook.
  const crew = (i: number) => (i % 60 === 0 ? pilotId : pilots[i % pilots.length]);

  // Flights: ten years back from today, newest last.
  const flight = await template('flights');
  const flightOffset = Number(flight.offblocks) - Date.parse(`${flight.date}T00:00:00Z`) / 1000;
  await clone('flights', flight, size.flights, (i) => {
    const day = Math.floor(((size.flights - 1 - i) * 3650) / size.flights);
    const midnight = Math.floor((now - day * DAY) / DAY) * DAY;
    const off = midnight + flightOffset;
    return {
      date: new Date(midnight * 1000).toISOString().slice(0, 10),
      callsign: `B${i}`,
      pic_id: crew(i),
      sic_id: null,
      offblocks: off,
      takeoff: off + 720,
      landing: off + 4800,
      onblocks: off + 5400,
      starts: off,
      created: off,
      modified: off,
    };
  });

  // Bookings: five years back and three months ahead.
  const booking = await template('schedules');
  await clone('schedules', booking, size.bookings, (i) => {
    const start = now + 90 * DAY - Math.floor((i * 5 * 365 * DAY) / size.bookings);
    return {
      start_at: start,
      end_at: start + 7200,
      pilot_id: crew(i + 1),
      instructor_id: i % 3 ? pilots[(i * 7) % pilots.length] : null,
      flight_id: null,
      created: start - 7 * DAY,
      modified: start - 7 * DAY,
    };
  });

  // Aircraft reports: defects over ten years, most of them closed.
  const report = await template('aircraft_reports');
  await clone('aircraft_reports', report, size.aircraftReports, (i) => {
    const at = now - Math.floor(((size.aircraftReports - i) * 3650 * DAY) / size.aircraftReports);
    return {
      type: 'DEFECT',
      status: i > size.aircraftReports - 50 ? 'OPEN' : 'CLOSED',
      title: `Defect ${i}`,
      user_id: crew(i),
      created: at,
      modified: at,
    };
  });

  // Safety reports, as bench:safety writes them.
  const cats = await db
    .selectFrom('safety_report_categories')
    .select(['id', 'safety_report_department_id'])
    .where('company_id', '=', company)
    .execute();
  const types = await db.selectFrom('flight_types').select('id').where('company_id', '=', company).execute();
  const phases = Object.keys(FLIGHT_PHASES);
  const severities = ['incident', 'accident', 'information', 'hazard'];
  const statuses = ['open', 'reviewed', 'closed', 'published', 'draft'];
  await inTransaction(db, null, async (uow) => {
    const changeNo = await uow.changeNo(company, 'safety_reports');
    const rows = Array.from({ length: size.safetyReports }, (_, i) => {
      const cat = cats[i % cats.length];
      const at = now - Math.floor(((size.safetyReports - i) * 10 * 365 * DAY) / size.safetyReports);
      const status = statuses[i % statuses.length];
      const author = crew(i);
      return {
        id: uuidv7(),
        company_id: company,
        change_no: changeNo,
        deleted: 0,
        created: at,
        modified: at,
        idn: status === 'draft' ? null : `D${new Date(at * 1000).getUTCFullYear()}/${i}`,
        idn_year: null,
        idn_seq: null,
        child_no: null,
        name: `Report ${i}`,
        status,
        type: i % 4 < 2 ? 'OCCURRENCE' : 'INFORMATION',
        severity: severities[i % 4],
        datetime: new Date(at * 1000).toISOString().slice(0, 19).replace('T', ' '),
        location: 'LECU',
        events: 'Something happened on the way to the runway.',
        actions: null,
        result: null,
        corrective_measures: null,
        met_conditions: null,
        immediate_consequences: null,
        flight_phase: phases[i % phases.length],
        safety_report_category_id: cat.id,
        safety_report_department_id: i % 10 === 0 ? null : cat.safety_report_department_id,
        flight_id: null,
        flight_type_id: i % 3 ? types[i % types.length].id : null,
        parent_id: null,
        user_id: author,
        author_id: author,
        reviewer_id: null,
        reviewer_outcome: null,
        damages: null,
        personal_damages: null,
        air_space: null,
        risk_probability: null,
        risk_severity: null,
        mitigated_risk_probability: null,
        mitigated_risk_severity: null,
        crew_pic_id: null,
        crew_sic_id: null,
        crew_supervisor_id: null,
        aircraft_ids: '[]',
        involved_user_ids: '[]',
        reported: at,
      };
    });
    for (let j = 0; j < rows.length; j += 500)
      await uow.trx
        .insertInto('safety_reports')
        .values(rows.slice(j, j + 500))
        .execute();
  });

  // The training catalog's students: each enrolled in the demo training with the demo student's progress.
  const enrollment = await template('training_enrollments');
  const enrollments = students.map(() => uuidv7());
  await clone('training_enrollments', enrollment, students.length, (i) => ({
    id: enrollments[i],
    user_id: students[i],
  }));
  const progress = (await db
    .selectFrom('training_progress' as never)
    .selectAll()
    .where('company_id' as never, '=', company as never)
    .execute()) as Row[];
  for (const p of progress)
    await clone('training_progress', p, students.length, (i) => ({ enrollment_id: enrollments[i] }));

  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
