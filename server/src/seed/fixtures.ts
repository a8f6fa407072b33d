import { uuidv7 } from '@ops/shared';
import argon2 from 'argon2';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { SeedRefs } from './refs.ts';

export const DEMO_PASSWORD = 'demo1234';

interface SeedUser {
  email: string;
  role: number;
  name: string;
  surname: string;
  supervisor?: string;
  auditor?: boolean;
}

const SKYLINE_USERS: SeedUser[] = [
  { email: 'root@skyline.test', role: 1, name: 'Rita', surname: 'Root' },
  { email: 'admin@skyline.test', role: 100, name: 'Ana', surname: 'Admin' },
  { email: 'ops@skyline.test', role: 105, name: 'Oscar', surname: 'Ops' },
  { email: 'safety@skyline.test', role: 110, name: 'Sara', surname: 'Safety' },
  { email: 'headtraining@skyline.test', role: 120, name: 'Hugo', surname: 'Head' },
  { email: 'ground@skyline.test', role: 135, name: 'Greta', surname: 'Ground' },
  { email: 'instructor@skyline.test', role: 150, name: 'Ivan', surname: 'Instructor' },
  { email: 'dispatch@skyline.test', role: 170, name: 'Diego', surname: 'Dispatch' },
  { email: 'pilot@skyline.test', role: 190, name: 'Paula', surname: 'Pilot' },
  {
    email: 'student@skyline.test',
    role: 200,
    name: 'Stefan',
    surname: 'Student',
    supervisor: 'instructor@skyline.test',
  },
  { email: 'auditor@skyline.test', role: 250, name: 'Alba', surname: 'Auditor', auditor: true },
  { email: 'mechanic@skyline.test', role: 300, name: 'Marco', surname: 'Mechanic' },
  { email: 'dual@demo.test', role: 190, name: 'Dana', surname: 'Dual' },
];

const HARBOR_USERS: SeedUser[] = [
  { email: 'admin@harbor.test', role: 100, name: 'Hank', surname: 'Harbor' },
  { email: 'pilot@harbor.test', role: 190, name: 'Pia', surname: 'Harbor' },
  { email: 'dual@demo.test', role: 190, name: 'Dana', surname: 'Dual' },
];

const MODELS = [
  { key: 'C172', manufacturer: 'Cessna', name: 'Cessna 172S', icao: 'C172' },
  { key: 'PA34', manufacturer: 'Piper', name: 'Piper PA-34 Seneca', icao: 'PA34' },
  { key: 'C25A', manufacturer: 'Cessna', name: 'Cessna Citation CJ2', icao: 'C25A' },
  { key: 'AL42', manufacturer: 'ALSIM', name: 'ALSIM AL42', icao: null },
  { key: 'P28A', manufacturer: 'Piper', name: 'Piper PA-28', icao: 'P28A' },
];

const AIRCRAFT = [
  {
    company: 'skyline',
    registration: 'EC-ABC',
    model: 'C172',
    multiengine: 0,
    multipilot: 0,
    simulator: 0,
    base: 'Cuatro Vientos',
    hours: 2450.5,
    landings: 5120,
  },
  {
    company: 'skyline',
    registration: 'EC-DEF',
    model: 'PA34',
    multiengine: 1,
    multipilot: 0,
    simulator: 0,
    base: 'Cuatro Vientos',
    hours: 3890.2,
    landings: 4210,
  },
  {
    company: 'skyline',
    registration: 'EC-JET',
    model: 'C25A',
    multiengine: 1,
    multipilot: 1,
    simulator: 0,
    base: 'Sabadell',
    hours: 1520.8,
    landings: 1310,
  },
  {
    company: 'skyline',
    registration: 'SIM-01',
    model: 'AL42',
    multiengine: 0,
    multipilot: 0,
    simulator: 1,
    base: 'Cuatro Vientos',
    hours: 610,
    landings: 0,
  },
  {
    company: 'harbor',
    registration: 'N123HA',
    model: 'P28A',
    multiengine: 0,
    multipilot: 0,
    simulator: 0,
    base: 'Republic',
    hours: 5210.4,
    landings: 8900,
  },
] as const;

/** CONTRACT section 3: companies, users and logins, bases, aircraft with models. */
export async function seedFixtures(uow: UnitOfWork): Promise<SeedRefs> {
  const trx = uow.trx;
  const now = Math.floor(Date.now() / 1000);
  const passwordHash = await argon2.hash(DEMO_PASSWORD, { type: argon2.argon2id });
  const refs: SeedRefs = {
    companies: { skyline: uuidv7(), harbor: uuidv7() },
    users: { skyline: {}, harbor: {} },
    bases: {},
    aircraft: {},
    now,
  };

  const companyDefaults = {
    deleted: 0,
    disabled: 0,
    api: 1,
    type: 'school',
    created: now,
    modified: now,
    flags: '{}',
    aoc: 0,
    extracrew: 0,
    cabincrew: 0,
    date_format: 'YYYY-MM-DD',
    time_format: '24',
    duration_format: 'time',
    billing_basis: 'block',
  };
  await trx
    .insertInto('sync_counters')
    .values([
      { company_id: refs.companies.skyline, value: 0 },
      { company_id: refs.companies.harbor, value: 0 },
    ])
    .execute();
  await trx
    .insertInto('companies')
    .values([
      {
        ...companyDefaults,
        id: refs.companies.skyline,
        change_no: await uow.changeNo(refs.companies.skyline, 'companies'),
        name: 'Skyline Flight Academy',
        plan: 'premium',
        timezone: 'Europe/Madrid',
        flight_timezone: 'UTC',
        currency: 'EUR',
        country_iso: 'ES',
        icao: 'LECU',
        billing_enabled: 1,
        billing_tax: 21,
        billing_send_notification: 1,
      },
      {
        ...companyDefaults,
        id: refs.companies.harbor,
        change_no: await uow.changeNo(refs.companies.harbor, 'companies'),
        name: 'Harbor Aero Club',
        type: 'club',
        plan: 'free',
        timezone: 'America/New_York',
        flight_timezone: null,
        currency: 'USD',
        country_iso: 'US',
        icao: 'KFRG',
        billing_enabled: 0,
        billing_tax: 0,
        billing_send_notification: 0,
      },
    ])
    .execute();

  const identities = new Map<string, string>();
  for (const u of [...SKYLINE_USERS, ...HARBOR_USERS]) {
    if (identities.has(u.email)) continue;
    const id = uuidv7();
    identities.set(u.email, id);
    await trx
      .insertInto('identities')
      .values({
        id,
        email: u.email,
        password_hash: passwordHash,
        alerts: 1,
        message_alerts: 1,
        newsletter: 0,
        whatsapp: 0,
        created: now,
        modified: now,
      })
      .execute();
  }

  const bases = [
    { company: 'skyline' as const, name: 'Cuatro Vientos', airport: 'LECU', isDefault: 1 },
    { company: 'skyline' as const, name: 'Sabadell', airport: 'LELL', isDefault: 0 },
    { company: 'harbor' as const, name: 'Republic', airport: 'KFRG', isDefault: 1 },
  ];
  for (const b of bases) {
    const id = uuidv7();
    refs.bases[b.name] = id;
    const companyId = refs.companies[b.company];
    await trx
      .insertInto('bases')
      .values({
        id,
        company_id: companyId,
        change_no: await uow.changeNo(companyId, 'bases'),
        deleted: 0,
        name: b.name,
        is_default: b.isDefault,
        airport_id: b.airport,
        created: now,
        modified: now,
      })
      .execute();
  }

  const auditorExpiry = new Date((now + 60 * 86400) * 1000).toISOString().slice(0, 10);
  for (const [company, list] of [
    ['skyline', SKYLINE_USERS],
    ['harbor', HARBOR_USERS],
  ] as const) {
    const companyId = refs.companies[company];
    const defaultBase = company === 'skyline' ? refs.bases['Cuatro Vientos'] : refs.bases.Republic;
    for (const u of list) {
      const id = uuidv7();
      refs.users[company][u.email] = id;
      await trx
        .insertInto('users')
        .values({
          id,
          company_id: companyId,
          change_no: await uow.changeNo(companyId, 'users'),
          deleted: 0,
          created: now,
          modified: now,
          identity_id: identities.get(u.email) ?? null,
          email: u.email,
          email_status: 'confirmed',
          active: 1,
          pilot: u.role === 250 || u.role === 300 || u.role < 100 ? 0 : 1,
          billing: u.role >= 190 && u.role <= 200 ? 1 : 0,
          user_group_id: u.role,
          base_id: defaultBase,
          supervisor_id: u.supervisor ? refs.users[company][u.supervisor] : null,
          language: 'en',
          api: 0,
          two_factor: u.auditor ? 'EMAIL' : 'OFF',
          totp_secret: null,
          expiration: u.auditor ? auditorExpiry : null,
          name: u.name,
          surname: u.surname,
          passport: null,
          companyid: null,
          dob: null,
          phonecode: null,
          phone: null,
          phonecode2: null,
          phone2: null,
          emergency_contact: null,
          public_phone: 0,
          address: null,
          pc: null,
          city: null,
          country_id: company === 'skyline' ? 'ES' : 'US',
          timezone_id: company === 'skyline' ? 'Europe/Madrid' : 'America/New_York',
          nationality: null,
          birthcountry_id: null,
          photo: null,
          flight_hours: 0,
          color: null,
          notes: null,
        })
        .execute();
    }
  }

  const makers = new Map<string, string>();
  const models = new Map<string, string>();
  for (const m of MODELS) {
    if (!makers.has(m.manufacturer)) {
      const id = uuidv7();
      makers.set(m.manufacturer, id);
      await trx.insertInto('aircraft_manufacturers').values({ id, name: m.manufacturer }).execute();
    }
    const id = uuidv7();
    models.set(m.key, id);
    await trx
      .insertInto('aircraft_models')
      .values({ id, manufacturer_id: makers.get(m.manufacturer)!, name: m.name, icao: m.icao })
      .execute();
  }
  for (const a of AIRCRAFT) {
    const id = uuidv7();
    refs.aircraft[a.registration] = id;
    const companyId = refs.companies[a.company];
    await trx
      .insertInto('aircraft')
      .values({
        id,
        company_id: companyId,
        change_no: await uow.changeNo(companyId, 'aircraft'),
        deleted: 0,
        created: now,
        modified: now,
        registration: a.registration,
        model_id: models.get(a.model)!,
        multiengine: a.multiengine,
        multipilot: a.multipilot,
        simulator: a.simulator,
        active: 1,
        hours: a.hours,
        landings: a.landings,
        flights: 0,
        user_id: null,
        base_id: refs.bases[a.base],
        photo: null,
        adsb: null,
      })
      .execute();
  }
  return refs;
}
