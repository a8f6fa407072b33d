/**
 * `npm run bench:safety`: the safety report list (page of 25 with `paginate`)
 * and each statistic over 50,000 reports of one company, in process, on SQLite
 * and PostgreSQL (BENCH_DIALECTS to choose). Median of BENCH_CALLS calls per
 * query, for a manager (every report) and a pilot (visibility filter). Target < 30 ms.
 */
import { uuidv7 } from '@ops/shared';
import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../../server/src/db/schema.ts';
import { FLIGHT_PHASES } from '@ops/shared/rules/safety-reports/safety';
import { inTransaction } from '../../server/src/db/unit-of-work.ts';
import { authenticate } from '../../server/src/http/authenticate.ts';
import {
  listSafetyReports,
  reportsByMonth,
  statistic,
} from '../../server/src/areas/safety-reports/safety-reports.repository.ts';
import { ZListFilters } from '../../server/src/areas/safety-reports/safety-reports.schema.ts';
import { rebuildStats } from '../../server/src/areas/safety-reports/safety-stats.repository.ts';
import type { TestDialect } from '../setup/dialects.ts';
import { startTestServer } from '../setup/server.ts';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 50_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const TARGET_MS = 30;
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** BENCH_EXPLAIN=1: the plan of every query a case runs (EXPLAIN ANALYZE on PostgreSQL, EXPLAIN QUERY PLAN on SQLite). */
async function explain(db: Kysely<DB>, dialect: TestDialect, name: string, fn: () => Promise<unknown>) {
  const executor = db.getExecutor() as unknown as { executeQuery: (q: CompiledQuery) => Promise<unknown> };
  const original = executor.executeQuery;
  const seen: CompiledQuery[] = [];
  executor.executeQuery = function (this: unknown, q: CompiledQuery) {
    seen.push(q);
    return original.call(this, q);
  };
  try {
    await fn();
  } finally {
    executor.executeQuery = original;
  }
  console.log(`--- ${name}: ${seen.length} queries`);
  for (const q of seen) {
    console.log(q.sql);
    const plan = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${dialect === 'postgres' ? 'explain analyze' : 'explain query plan'} ${q.sql}`, [
        ...q.parameters,
      ]),
    );
    for (const r of plan.rows) console.log(`    ${String(r['QUERY PLAN'] ?? r.detail)}`);
  }
}

let failed = false;
for (const dialect of dialects) {
  const s = await startTestServer(dialect);
  try {
    const db = s.ctx.db;
    const company = s.refs.companies.skyline;
    const cats = await db
      .selectFrom('safety_report_categories')
      .select(['id', 'safety_report_department_id'])
      .where('company_id', '=', company)
      .execute();
    const types = await db.selectFrom('flight_types').select('id').where('company_id', '=', company).execute();
    const users = Object.values(s.refs.users.skyline);
    const phases = Object.keys(FLIGHT_PHASES);
    const severities = ['incident', 'accident', 'information', 'hazard'];
    const statuses = ['open', 'reviewed', 'closed', 'published', 'draft'];
    const now = Math.floor(Date.now() / 1000);
    const t0 = performance.now();
    for (let done = 0; done < REPORTS; ) {
      const n = Math.min(2000, REPORTS - done);
      await inTransaction(db, null, async (uow) => {
        const changeNo = await uow.changeNo(company, 'safety_reports');
        const rows = Array.from({ length: n }, (_, k) => {
          const i = done + k;
          const cat = cats[i % cats.length];
          const at = now - Math.floor((i / REPORTS) * 5 * 365 * 86400);
          const status = statuses[i % statuses.length];
          const year = new Date(at * 1000).getUTCFullYear();
          return {
            id: uuidv7(),
            company_id: company,
            change_no: changeNo,
            deleted: 0,
            created: at,
            modified: at,
            idn: status === 'draft' ? null : `B${year}/${i}`,
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
            user_id: users[i % users.length],
            author_id: users[i % users.length],
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
      done += n;
    }
    // The rows went in directly, not through the report service: fill the statistics aggregate as the migration does.
    await rebuildStats(db, company);
    if (dialect === 'postgres')
      await (await import('kysely')).sql`vacuum analyze safety_reports, safety_report_stats`.execute(db);
    else await (await import('kysely')).sql`analyze`.execute(db);
    console.log(`${dialect}: ${REPORTS} reports inserted in ${Math.round(performance.now() - t0)} ms`);
    for (const email of ['safety@skyline.test', 'pilot@skyline.test']) {
      const auth = await authenticate(db, await s.login(email));
      if (!auth.ok) throw new Error('login');
      const actor = auth.actor;
      const year = new Date().getUTCFullYear() - 1;
      const cases: [string, () => Promise<unknown>][] = [
        ['list page 1', () => listSafetyReports(db, actor, ZListFilters.parse({}))],
        [
          'list page 40, status:open',
          () => listSafetyReports(db, actor, ZListFilters.parse({ page: '40', status: 'open' })),
        ],
        ['reports_by_month/6', () => reportsByMonth(db, actor, 6)],
        ['reports_by_month/60', () => reportsByMonth(db, actor, 60)],
        ...(['flight_type', 'category', 'severity', 'flight_phase', 'department'] as const).flatMap((k) => [
          [`reports_by_${k}`, () => statistic(db, actor, k)] as [string, () => Promise<unknown>],
          [`reports_by_${k}/year:${year}`, () => statistic(db, actor, k, year)] as [string, () => Promise<unknown>],
        ]),
      ];
      for (const [name, fn] of cases) {
        if (process.env.BENCH_EXPLAIN) await explain(db, dialect, `role ${actor.role} ${name}`, fn);
        await fn();
        const times: number[] = [];
        for (let i = 0; i < CALLS; i++) {
          const a = performance.now();
          await fn();
          times.push(performance.now() - a);
        }
        const m = median(times);
        if (m >= TARGET_MS) failed = true;
        console.log(
          `${dialect.padEnd(8)} role ${String(actor.role).padEnd(4)} ${name.padEnd(34)} median ${m.toFixed(2)} ms${m >= TARGET_MS ? '  OVER TARGET' : ''}`,
        );
      }
    }
  } finally {
    await s.close();
  }
}
if (failed) {
  console.error(`Some medians are over ${TARGET_MS} ms`);
  process.exit(1);
}
