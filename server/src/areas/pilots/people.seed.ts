import { uuidv7 } from '@ops/shared';
import { getCertificateType } from '@ops/shared/reference/certificate-types';
import { DateTime } from 'luxon';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { SeedStep } from '../../seed/index.ts';
import type { SeedRefs } from '../../seed/refs.ts';
import '../bases/bases.tables.ts';
import '../pilot-groups/pilot-groups.tables.ts';

type Company = 'skyline' | 'harbor';

/** Demo certificates: offsets in days from seeding; some expire soon or lapsed, so the alerts have something to show. */
const CERTIFICATES: Array<{
  company: Company;
  email: string;
  type: string;
  issuedDaysAgo: number;
  expiresInDays: number | null;
}> = [
  { company: 'skyline', email: 'pilot@skyline.test', type: 'PPL', issuedDaysAgo: 2200, expiresInDays: null },
  { company: 'skyline', email: 'pilot@skyline.test', type: 'SEP', issuedDaysAgo: 480, expiresInDays: 250 },
  { company: 'skyline', email: 'pilot@skyline.test', type: 'MED_CLASS2', issuedDaysAgo: 700, expiresInDays: 45 },
  { company: 'skyline', email: 'instructor@skyline.test', type: 'CPL', issuedDaysAgo: 3000, expiresInDays: null },
  { company: 'skyline', email: 'instructor@skyline.test', type: 'FI', issuedDaysAgo: 600, expiresInDays: 130 },
  { company: 'skyline', email: 'instructor@skyline.test', type: 'MEP', issuedDaysAgo: 300, expiresInDays: 65 },
  { company: 'skyline', email: 'instructor@skyline.test', type: 'MED_CLASS1', issuedDaysAgo: 200, expiresInDays: 165 },
  { company: 'skyline', email: 'student@skyline.test', type: 'MED_CLASS2', issuedDaysAgo: 90, expiresInDays: 640 },
  { company: 'skyline', email: 'dual@demo.test', type: 'PPL', issuedDaysAgo: 1500, expiresInDays: null },
  { company: 'skyline', email: 'dual@demo.test', type: 'MED_CLASS2', issuedDaysAgo: 740, expiresInDays: -10 },
  { company: 'harbor', email: 'pilot@harbor.test', type: 'FAA_PRIVATE', issuedDaysAgo: 1200, expiresInDays: null },
  { company: 'harbor', email: 'pilot@harbor.test', type: 'FAA_MED_3', issuedDaysAgo: 500, expiresInDays: 220 },
];

const GROUPS: Array<{ name: string; color: string; members: string[] }> = [
  {
    name: 'Instructors',
    color: '#3788d8',
    members: ['headtraining@skyline.test', 'ground@skyline.test', 'instructor@skyline.test'],
  },
  { name: 'Private pilots', color: '#2ecc71', members: ['pilot@skyline.test', 'dual@demo.test'] },
  { name: 'Students 2025', color: '#f39c12', members: ['student@skyline.test'] },
];

async function seedCertificates(uow: UnitOfWork, refs: SeedRefs) {
  const day = (offset: number) =>
    DateTime.fromSeconds(refs.now + offset * 86400, { zone: 'UTC' }).toISODate() as string;
  for (const c of CERTIFICATES) {
    const companyId = refs.companies[c.company];
    await uow.trx
      .insertInto('user_certificates')
      .values({
        id: uuidv7(),
        company_id: companyId,
        change_no: await uow.changeNo(companyId, 'user_certificates'),
        deleted: 0,
        created: refs.now,
        modified: refs.now,
        user_id: refs.users[c.company][c.email],
        type: c.type,
        name: getCertificateType(c.type)?.name ?? c.type,
        issue: day(-c.issuedDaysAgo),
        expiration: c.expiresInDays === null ? null : day(c.expiresInDays),
        comments: null,
        upload_id: null,
      })
      .execute();
  }
}

async function seedGroups(uow: UnitOfWork, refs: SeedRefs) {
  const companyId = refs.companies.skyline;
  for (const g of GROUPS) {
    const id = uuidv7();
    await uow.trx
      .insertInto('pilot_groups')
      .values({ id, company_id: companyId, name: g.name, color: g.color, created: refs.now, modified: refs.now })
      .execute();
    await uow.trx
      .insertInto('pilot_group_members')
      .values(
        g.members.map((email) => ({
          id: uuidv7(),
          company_id: companyId,
          pilot_group_id: id,
          user_id: refs.users.skyline[email],
          created: refs.now,
        })),
      )
      .execute();
  }
}

/** Next week's duty at Cuatro Vientos in the company zone: the instructor on weekdays, the pilot on standby, weekends off. */
async function seedSchedules(uow: UnitOfWork, refs: SeedRefs) {
  const companyId = refs.companies.skyline;
  const zone = 'Europe/Madrid';
  const cv = refs.bases['Cuatro Vientos'];
  const instructor = refs.users.skyline['instructor@skyline.test'];
  const pilot = refs.users.skyline['pilot@skyline.test'];
  const tomorrow = DateTime.fromSeconds(refs.now, { zone }).plus({ days: 1 }).startOf('day');
  const rows: Array<{
    base: string;
    user: string;
    start: number | null;
    end: number | null;
    type: string;
    always: boolean;
  }> = [];
  for (let i = 0; i < 7; i++) {
    const d = tomorrow.plus({ days: i });
    const weekend = d.weekday >= 6;
    rows.push({
      base: cv,
      user: instructor,
      start: d.set({ hour: weekend ? 0 : 8 }).toUnixInteger(),
      end: (weekend ? d.plus({ days: 1 }) : d.set({ hour: 16 })).toUnixInteger(),
      type: weekend ? 'OFF' : 'DUTY',
      always: false,
    });
    if (!weekend && i % 2 === 0)
      rows.push({
        base: cv,
        user: pilot,
        start: d.set({ hour: 9 }).toUnixInteger(),
        end: d.set({ hour: 13 }).toUnixInteger(),
        type: 'STANDBY',
        always: false,
      });
  }
  rows.push({ base: refs.bases['Sabadell'], user: instructor, start: null, end: null, type: 'STANDBY', always: true });
  for (const r of rows) {
    await uow.trx
      .insertInto('base_schedules')
      .values({
        id: uuidv7(),
        company_id: companyId,
        change_no: await uow.changeNo(companyId, 'base_schedules'),
        deleted: 0,
        created: refs.now,
        modified: refs.now,
        base_id: r.base,
        user_id: r.user,
        start_at: r.start,
        end_at: r.end,
        type: r.type,
        always: r.always ? 1 : 0,
        created_by: null,
      })
      .execute();
  }
}

/** People demo data (docs/areas/people.md): certificates, pilot groups and a week of base schedules. Fixtures add nothing. */
export const peopleSeedStep: SeedStep = {
  name: 'people',
  async demo(uow, refs) {
    await seedCertificates(uow, refs);
    await seedGroups(uow, refs);
    await seedSchedules(uow, refs);
  },
};
