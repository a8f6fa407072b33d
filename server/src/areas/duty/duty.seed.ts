import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';

/**
 * Demo only (the fixed data keeps both limits null, CONTRACT 7): Skyline gets
 * a 10-hour duty day and 900 flight hours a year, and Ivan Instructor a DUTY
 * roster of 9:15 today, so the crew duty board shows someone near the limit
 * and a tenth hour of lessons today is refused.
 */
export const dutySeedStep: SeedStep = {
  name: 'duty',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    const companyId = refs.companies.skyline;
    const ivan = refs.users.skyline['instructor@skyline.test'];
    const base = refs.bases['Cuatro Vientos'];
    if (!ivan || !base) return;
    await uow.trx
      .updateTable('companies')
      .set({ max_duty_hours: 10, max_flight_hours_year: 900, change_no: await uow.changeNo(companyId, 'companies') })
      .where('id', '=', companyId)
      .execute();
    const c = await uow.trx
      .selectFrom('companies')
      .select('timezone')
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    const today = DateTime.fromSeconds(refs.now, { zone: c.timezone }).startOf('day');
    const changeNo = await uow.changeNo(companyId, 'base_schedules');
    await uow.trx
      .insertInto('base_schedules')
      .values({
        id: uuidv7(),
        company_id: companyId,
        change_no: changeNo,
        deleted: 0,
        created: refs.now,
        modified: refs.now,
        base_id: base,
        user_id: ivan,
        start_at: today.plus({ hours: 7 }).toUnixInteger(),
        end_at: today.plus({ hours: 16, minutes: 15 }).toUnixInteger(),
        type: 'DUTY',
        always: 0,
        created_by: refs.users.skyline['ops@skyline.test'] ?? null,
      })
      .execute();
  },
};
