import type { SeedMode } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { seedFixtures } from './fixtures.ts';
import type { SeedRefs } from './refs.ts';
import { seedSteps } from '../areas/index.ts';

/**
 * A seed step of one area (its manifest's `seed`). `fixtures` adds that area's part of CONTRACT 3;
 * `demo` adds sample data for `SEED=demo`. Steps run in SEED_ORDER (server/src/areas/index.ts), in one transaction.
 */
export interface SeedStep {
  name: string;
  fixtures?(uow: UnitOfWork, refs: SeedRefs): Promise<void>;
  demo?(uow: UnitOfWork, refs: SeedRefs): Promise<void>;
}

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
    // The areas' steps in SEED_ORDER (server/src/areas/index.ts).
    const steps = seedSteps();
    for (const step of steps) await step.fixtures?.(uow, r);
    if (mode === 'demo') for (const step of steps) await step.demo?.(uow, r);
    return r;
  });
  return { refs, logins: DEMO_LOGINS };
}
