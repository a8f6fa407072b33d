import { uuidv7 } from '@ops/shared';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import { presentEntry } from './billing.presenter.ts';
import { appendEntries, RECENT_ENTRIES } from './billing.repository.ts';
import { settleFlightCharges } from './billing.service.ts';

const DAY = 86400;

/**
 * SEED=demo: a living ledger for Skyline (CONTRACT 3 fixed data has no rates,
 * so this is demo only): rates for the fleet and the instructor, the charges
 * of the demo flights (booked by the same settle as a confirm), monthly
 * payments, one package, dated back over the two months of demo flights.
 */
export const billingSeedStep: SeedStep = {
  name: 'billing',
  async demo(uow: UnitOfWork, refs: SeedRefs) {
    const companyId = refs.companies.skyline;
    const sky = refs.users.skyline;
    const now = Math.floor(Date.now() / 1000);
    const rates: [string, string, number][] = [
      ['aircraft', refs.aircraft['EC-ABC'], 13500],
      ['aircraft', refs.aircraft['EC-DEF'], 26000],
      ['aircraft', refs.aircraft['EC-JET'], 120000],
      ['aircraft', refs.aircraft['SIM-01'], 9000],
      ['instructor', sky['instructor@skyline.test'], 4500],
    ];
    await uow.trx
      .insertInto('billing_rates')
      .values(
        rates.map(([kind, target_id, amount]) => ({
          id: uuidv7(),
          company_id: companyId,
          kind,
          target_id,
          amount,
          created: now - 70 * DAY,
          modified: now - 70 * DAY,
        })),
      )
      .execute();
    const stefan = sky['student@skyline.test'];
    const paula = sky['pilot@skyline.test'];
    const office = sky['dispatch@skyline.test'];
    const base = {
      tax: 0,
      seconds: 0,
      package_seconds: 0,
      aircraft_id: null,
      flight_id: null,
      reverses_id: null,
      reference: null,
    };
    // Opening payments and the package come before the flights that use them.
    await appendEntries(uow, companyId, stefan, office, [
      { ...base, kind: 'payment', amount: 150000, description: 'Bank transfer, course deposit' },
    ]);
    await appendEntries(uow, companyId, paula, office, [
      {
        ...base,
        kind: 'package',
        amount: -120000,
        tax: -20826,
        seconds: 5 * 3600,
        package_seconds: 5 * 3600,
        aircraft_id: refs.aircraft['EC-DEF'],
        description: '5 h block EC-DEF',
      },
    ]);
    const flights = await uow.trx
      .selectFrom('flights')
      .select(['id', 'starts'])
      .where('company_id', '=', companyId)
      .where('status', '=', 'LANDED')
      .orderBy('starts')
      .execute();
    for (const f of flights) await settleFlightCharges(uow, companyId, f.id, office);
    await appendEntries(uow, companyId, stefan, office, [
      { ...base, kind: 'payment', amount: 80000, description: 'Card payment at the desk' },
    ]);
    await appendEntries(uow, companyId, paula, office, [
      { ...base, kind: 'payment', amount: 60000, description: 'Bank transfer' },
    ]);

    // Date the demo ledger back: charges at their flight, the rest spread over the two months (seed only).
    for (const f of flights)
      await uow.trx
        .updateTable('billing_entries')
        .set({ created: Number(f.starts) + 2 * 3600 })
        .where('company_id', '=', companyId)
        .where('flight_id', '=', f.id)
        .execute();
    const others = await uow.trx
      .selectFrom('billing_entries')
      .select(['id', 'user_id', 'kind'])
      .where('company_id', '=', companyId)
      .where('flight_id', 'is', null)
      .orderBy('id')
      .execute();
    let step = 0;
    for (const e of others) {
      const daysAgo = e.kind === 'payment' && step++ > 0 ? 5 : 62;
      await uow.trx
        .updateTable('billing_entries')
        .set({ created: now - daysAgo * DAY })
        .where('id', '=', e.id)
        .execute();
    }
    // The accounts' last entries follow the new dates.
    const accounts = await uow.trx
      .selectFrom('billing_accounts')
      .select(['id', 'user_id'])
      .where('company_id', '=', companyId)
      .execute();
    for (const a of accounts) {
      const recent = await uow.trx
        .selectFrom('billing_entries')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('user_id', '=', a.user_id)
        .orderBy('created', 'desc')
        .orderBy('id', 'desc')
        .limit(RECENT_ENTRIES)
        .execute();
      await uow.trx
        .updateTable('billing_accounts')
        .set({ recent: JSON.stringify(recent.map(presentEntry)) })
        .where('id', '=', a.id)
        .execute();
    }
  },
};
