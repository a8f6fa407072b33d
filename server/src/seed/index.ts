import type { SeedMode } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { seedFixtures } from './fixtures.ts';
import type { SeedRefs } from './refs.ts';
import { fleetSeedStep } from '../areas/aircraft/fleet.seed.ts';
import { flightTypesSeedStep } from '../areas/flight-types/flight-types.seed.ts';
import { flightsSeedStep } from '../areas/flights/flights.seed.ts';
import { companySeedStep } from '../areas/company/company.seed.ts';
import { newsSeedStep } from '../areas/news/news.seed.ts';
import { peopleSeedStep } from '../areas/pilots/people.seed.ts';
import { schedulesSeedStep } from '../areas/schedules/schedules.seed.ts';
import { trainingsSeedStep } from '../areas/trainings/trainings.seed.ts';
import { safetyReportsSeedStep } from '../areas/safety-reports/safety-reports.seed.ts';
import { billingSeedStep } from '../areas/billing/billing.seed.ts';
import { dutySeedStep } from '../areas/duty/duty.seed.ts';
import { readinessSeedStep } from '../areas/readiness/readiness.seed.ts';

/**
 * A seed step of one area. `fixtures` adds that area's part of CONTRACT 3;
 * `demo` adds sample data for `SEED=demo`. Steps run in order, in one transaction.
 */
export interface SeedStep {
  name: string;
  fixtures?(uow: UnitOfWork, refs: SeedRefs): Promise<void>;
  demo?(uow: UnitOfWork, refs: SeedRefs): Promise<void>;
}

/** Areas append their steps here (one line per area). */
export const seedSteps: SeedStep[] = [
  flightTypesSeedStep,
  fleetSeedStep,
  flightsSeedStep,
  companySeedStep,
  newsSeedStep,
  peopleSeedStep,
  schedulesSeedStep,
  trainingsSeedStep,
  safetyReportsSeedStep,
  billingSeedStep,
  dutySeedStep,
  readinessSeedStep,
];

export const DEMO_LOGINS = [
  'admin@skyline.test',
  'ops@skyline.test',
  'instructor@skyline.test',
  'pilot@skyline.test',
  'student@skyline.test',
  'mechanic@skyline.test',
  'auditor@skyline.test',
  'admin@harbor.test',
  'dual@demo.test',
];

/** Seeds only an empty database; returns the refs, or null when nothing was seeded. */
export async function seedDatabase(
  ctx: AppContext,
  mode: SeedMode,
): Promise<{ refs: SeedRefs; logins: string[] } | null> {
  if (mode === 'none') return null;
  const any = await ctx.db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const refs = await ctx.tx(async (uow) => {
    const r = await seedFixtures(uow);
    for (const step of seedSteps) await step.fixtures?.(uow, r);
    if (mode === 'demo') for (const step of seedSteps) await step.demo?.(uow, r);
    return r;
  });
  return { refs, logins: DEMO_LOGINS };
}
