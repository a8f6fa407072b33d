import { DEFAULT_READINESS_SETTINGS, type ReadinessSettings } from '@ops/shared/rules/readiness/settings';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import './readiness.tables.ts';

/** Demo: most checks warn, an expired MEL item blocks (as it always did), so the panels show amber lines. */
export const DEMO_READINESS: ReadinessSettings = {
  ...DEFAULT_READINESS_SETTINGS,
  checks: {
    BALANCE: 'warn',
    CERTIFICATES: 'warn',
    CURRENCY: 'warn',
    MAINTENANCE: 'warn',
    MEL: 'block',
    DUTY: 'warn',
    WEATHER: 'warn',
  },
  balance_minimum: 0,
};

export const readinessSeedStep: SeedStep = {
  name: 'readiness',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    for (const companyId of Object.values(refs.companies)) {
      await uow.trx
        .insertInto('readiness_settings')
        .values({
          company_id: companyId,
          settings: JSON.stringify(DEMO_READINESS),
          modified: refs.now,
          modified_by: null,
          change_no: await uow.changeNo(companyId, 'readiness_settings'),
        })
        .execute();
    }
  },
};
