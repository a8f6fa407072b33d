import { uuidv7 } from '@ops/shared';
import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import { stampReference } from './reference.sync.ts';
import './company.tables.ts';

/**
 * `SEED=demo` only (operating hours are not part of CONTRACT 3): Skyline's
 * week (weekdays 08:00-20:00, Saturday 09:00-14:00, Sunday closed), Sabadell's
 * own shorter week, and a company closure on the next 25 December.
 */
export const companySeedStep: SeedStep = {
  name: 'company',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    const companyId = refs.companies.skyline;
    const now = refs.now;
    const row = (
      base: string | null,
      weekday: number | null,
      date: string | null,
      closed: boolean,
      start = 0,
      end = 0,
    ) => ({
      id: uuidv7(),
      company_id: companyId,
      base_id: base,
      weekday,
      override_date: date,
      closed: closed ? 1 : 0,
      start_minute: start,
      end_minute: end,
      created: now,
    });
    const sabadell = refs.bases.Sabadell ?? null;
    const today = DateTime.fromSeconds(now, { zone: 'Europe/Madrid' });
    const christmas = DateTime.fromObject({
      year: today.month === 12 && today.day > 25 ? today.year + 1 : today.year,
      month: 12,
      day: 25,
    }).toISODate() as string;
    const rows = [
      ...[0, 1, 2, 3, 4].map((d) => row(null, d, null, false, 8 * 60, 20 * 60)),
      row(null, 5, null, false, 9 * 60, 14 * 60),
      row(null, 6, null, true),
      row(null, null, christmas, true),
      ...(sabadell ? [0, 1, 2, 3, 4].map((d) => row(sabadell, d, null, false, 9 * 60, 17 * 60)) : []),
    ];
    await uow.trx.insertInto('operating_hours').values(rows).execute();
    await stampReference(uow, companyId, 'operating_hours');
  },
};
