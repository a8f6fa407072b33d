import { uuidv7 } from '@ops/shared';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';

interface SeedType {
  name: string;
  color: string;
  booking: boolean;
  pic: string;
  sic: string;
  supervisor: string;
}

/** CONTRACT 3: the fixed flight types of Skyline, in this display order. */
export const SKYLINE_FLIGHT_TYPES: readonly SeedType[] = [
  { name: 'Dual training', color: '#1f6ac4', booking: true, pic: 'fi', sic: 'dual', supervisor: 'none' },
  { name: 'Solo', color: '#34a853', booking: true, pic: 'pic', sic: 'none', supervisor: 'none' },
  { name: 'Supervised solo', color: '#fbbc05', booking: false, pic: 'pic', sic: 'none', supervisor: 'sup' },
  { name: 'Multi-crew', color: '#8e44ad', booking: false, pic: 'pic', sic: 'sic', supervisor: 'none' },
  { name: 'Checkride', color: '#ea4335', booking: false, pic: 'exa', sic: 'picus', supervisor: 'none' },
];

/** Demo only: Harbor's own small set (CONTRACT 3 gives Harbor no types). */
const HARBOR_DEMO_TYPES: readonly SeedType[] = [
  { name: 'Local flight', color: '#34a853', booking: true, pic: 'pic', sic: 'none', supervisor: 'none' },
  { name: 'Instruction', color: '#1f6ac4', booking: true, pic: 'fi', sic: 'dual', supervisor: 'none' },
];

async function insertTypes(
  uow: UnitOfWork,
  companyId: string,
  types: readonly SeedType[],
): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const ids: Record<string, string> = {};
  let order = 0;
  for (const t of types) {
    const id = uuidv7();
    ids[t.name] = id;
    await uow.trx
      .insertInto('flight_types')
      .values({
        id,
        company_id: companyId,
        change_no: await uow.changeNo(companyId, 'flight_types'),
        deleted: 0,
        created: now,
        modified: now,
        name: t.name,
        color: t.color,
        booking: t.booking ? 1 : 0,
        pic_flight_time: t.pic,
        sic_flight_time: t.sic,
        supervisor_flight_time: t.supervisor,
        sort_order: order++,
      })
      .execute();
  }
  return ids;
}

export const flightTypesSeedStep: SeedStep = {
  name: 'flight-types',
  async fixtures(uow, refs) {
    await insertTypes(uow, refs.companies.skyline, SKYLINE_FLIGHT_TYPES);
  },
  async demo(uow, refs) {
    await insertTypes(uow, refs.companies.harbor, HARBOR_DEMO_TYPES);
    // A demo requirement so the compliance check has something to say.
    const multi = await uow.trx
      .selectFrom('flight_types')
      .select('id')
      .where('company_id', '=', refs.companies.skyline)
      .where('name', '=', 'Multi-crew')
      .executeTakeFirst();
    if (multi) {
      await uow.trx
        .insertInto('flight_type_certificates')
        .values([
          {
            id: uuidv7(),
            company_id: refs.companies.skyline,
            flight_type_id: multi.id,
            role: 'pic',
            certificate_type: 'MEP',
          },
          {
            id: uuidv7(),
            company_id: refs.companies.skyline,
            flight_type_id: multi.id,
            role: 'sic',
            certificate_type: 'MCC',
          },
        ])
        .execute();
    }
  },
};
