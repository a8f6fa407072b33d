import { uuidv7 } from '@ops/shared';
import type { SeedStep } from '../../seed/index.ts';
import './safety-reports.tables.ts';

/** CONTRACT 3: Skyline's safety report departments and categories. */
export const SAFETY_FIXTURES: Record<string, string[]> = {
  'Flight Operations': ['Airprox', 'Runway incursion', 'Bird strike'],
  Maintenance: ['Technical defect', 'Ground damage'],
};

export const safetyReportsSeedStep: SeedStep = {
  name: 'safety-reports',
  async fixtures(uow, refs) {
    const now = refs.now;
    const company_id = refs.companies.skyline;
    for (const [dep, cats] of Object.entries(SAFETY_FIXTURES)) {
      const depId = uuidv7();
      await uow.trx
        .insertInto('safety_report_departments')
        .values({ id: depId, company_id, name: dep, deleted: 0, created: now, modified: now })
        .execute();
      for (const name of cats) {
        await uow.trx
          .insertInto('safety_report_categories')
          .values({
            id: uuidv7(),
            company_id,
            safety_report_department_id: depId,
            name,
            deleted: 0,
            created: now,
            modified: now,
          })
          .execute();
      }
    }
  },
};
