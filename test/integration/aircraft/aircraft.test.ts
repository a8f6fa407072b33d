import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokens } from '../aircraft-reports/fleet-helpers.ts';

/** CONTRACT 3 and 4 aircraft endpoints, models, and the designed manager create, edit and deactivate. */
describe.each(DIALECTS)('aircraft on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const add = async (aircraft: Record<string, unknown>, email = 'admin@skyline.test') =>
    s.api('POST', '/manager/aircraft/add.json', { token: await t(email), body: { Aircraft: aircraft } });
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('aircraft')
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );
  const view = async (id: string, email = 'pilot@skyline.test') =>
    s.api('GET', `/aircraft/view/${id}.json`, { token: await t(email) });

  it('needs credentials', async () => {
    for (const [m, p] of [
      ['GET', '/aircraft/index.json'],
      ['GET', '/aircraft/view/x.json'],
      ['GET', '/aircraft/models.json'],
      ['GET', '/aircraft/manufacturers.json'],
      ['POST', '/manager/aircraft/add.json'],
      ['POST', '/manager/aircraft/edit/x.json'],
      ['POST', '/manager/aircraft/deactivate/x.json'],
    ] as const) {
      expect((await s.api(m, p, { body: m === 'POST' ? {} : undefined })).status, p).toBe(401);
    }
  });

  it('lists and shows the company fleet in the CONTRACT shape; another company’s aircraft is 404', async () => {
    const list = await s.api('GET', '/aircraft/index.json', { token: await t('pilot@skyline.test') });
    expect(list.body.aircraft.map((a: any) => a.Aircraft.registration)).toEqual([
      'EC-ABC',
      'EC-DEF',
      'EC-JET',
      'SIM-01',
    ]);
    expect(list.body.aircraft[2]).toEqual({
      Aircraft: {
        id: s.refs.aircraft['EC-JET'],
        registration: 'EC-JET',
        multiengine: true,
        multipilot: true,
        simulator: false,
        active: true,
        hours: 1520.8,
        landings: 1310,
        user_id: null,
        base_id: s.refs.bases.Sabadell,
      },
      AircraftModel: { name: 'Cessna Citation CJ2', icao: 'C25A', AircraftManufacturer: { name: 'Cessna' } },
    });
    const v = await view(s.refs.aircraft['EC-ABC']);
    expect(v.body.Aircraft).toMatchObject({
      registration: 'EC-ABC',
      insurance_expiration: null,
      airworthiness_expiration: null,
    });
    expect(v.body.Base).toMatchObject({ name: 'Cuatro Vientos', default: true });
    expect((await view(s.refs.aircraft.N123HA)).status).toBe(404);
    const harbor = await s.api('GET', '/aircraft/index.json', { token: await t('admin@harbor.test') });
    expect(harbor.body.aircraft.map((a: any) => a.Aircraft.registration)).toEqual(['N123HA']);
  });

  it('lists models with manufacturers and the manufacturers, by name', async () => {
    const models = await s.api('GET', '/aircraft/models.json', { token: await t('pilot@skyline.test') });
    const names = models.body.models.map((m: any) => m.AircraftModel.name);
    expect(names).toEqual(
      expect.arrayContaining(['ALSIM AL42', 'Cessna 172S', 'Cessna Citation CJ2', 'Piper PA-28', 'Piper PA-34 Seneca']),
    );
    expect(names).toEqual([...names].sort());
    expect(models.body.models.find((m: any) => m.AircraftModel.name === 'Cessna 172S')).toMatchObject({
      AircraftModel: { icao: 'C172' },
      AircraftManufacturer: { name: 'Cessna' },
    });
    const makers = await s.api('GET', '/aircraft/manufacturers.json', { token: await t('pilot@skyline.test') });
    expect(makers.body.manufacturers.map((m: any) => m.name)).toEqual(
      expect.arrayContaining(['ALSIM', 'Cessna', 'Piper']),
    );
  });

  describe('manager create, edit, deactivate', () => {
    it('is for roles 1, 100, 105 and 110 only', async () => {
      const before = await count();
      for (const email of [
        'mechanic@skyline.test',
        'pilot@skyline.test',
        'dispatch@skyline.test',
        'headtraining@skyline.test',
      ]) {
        expect((await add({ registration: 'EC-NO', model_name: 'Cessna 172S' }, email)).status, email).toBe(403);
        expect(
          (
            await s.api('POST', `/manager/aircraft/deactivate/${s.refs.aircraft['EC-ABC']}.json`, {
              token: await t(email),
            })
          ).status,
        ).toBe(403);
      }
      expect(await count()).toBe(before);
      let i = 0;
      for (const email of ['root@skyline.test', 'admin@skyline.test', 'ops@skyline.test', 'safety@skyline.test']) {
        i += 1;
        expect((await add({ registration: `EC-RL${i}`, model_name: 'Cessna 172S' }, email)).status, email).toBe(200);
      }
    });

    it('creates an aircraft by model id with its books and certificate dates (form fields)', async () => {
      const model = (
        await s.api('GET', '/aircraft/models.json', { token: await t('admin@skyline.test') })
      ).body.models.find((m: any) => m.AircraftModel.name === 'Piper PA-34 Seneca');
      const r = await s.api('POST', '/manager/aircraft/add.json', {
        token: await t('admin@skyline.test'),
        form: {
          'data[Aircraft][registration]': 'ec-new',
          'data[Aircraft][model_id]': model.AircraftModel.id,
          'data[Aircraft][multiengine]': '1',
          'data[Aircraft][hours]': '120.5',
          'data[Aircraft][landings]': '300',
          'data[Aircraft][base_id]': s.refs.bases.Sabadell,
          'data[Aircraft][user_id]': s.userId('pilot@skyline.test'),
          'data[Aircraft][insurance_expiration]': '2027-05-31',
          'data[Aircraft][airworthiness_expiration]': '2027-01-15',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe(true);
      const v = await view(r.body.id);
      expect(v.body.Aircraft).toMatchObject({
        registration: 'EC-NEW',
        multiengine: true,
        multipilot: false,
        active: true,
        hours: 120.5,
        landings: 300,
        user_id: s.userId('pilot@skyline.test'),
        insurance_expiration: '2027-05-31',
        airworthiness_expiration: '2027-01-15',
        radio_expiration: null,
      });
      expect(v.body.AircraftModel).toMatchObject({ name: 'Piper PA-34 Seneca' });
      expect(v.body.Base.name).toBe('Sabadell');
    });

    it('reuses a model by name (any case) and creates a new one under its manufacturer', async () => {
      const reuse = await add({ registration: 'EC-RUS', model_name: 'cessna 172s' });
      expect((await view(reuse.body.id)).body.AircraftModel).toMatchObject({ name: 'Cessna 172S', icao: 'C172' });
      const fresh = await add({
        registration: 'EC-DA4',
        model_name: 'Diamond DA40 NG',
        manufacturer_name: 'Diamond',
        model_icao: 'DA40',
      });
      expect(fresh.status).toBe(200);
      expect((await view(fresh.body.id)).body.AircraftModel).toEqual({
        name: 'Diamond DA40 NG',
        icao: 'DA40',
        AircraftManufacturer: { name: 'Diamond' },
      });
      const models = await s.api('GET', '/aircraft/models.json', { token: await t('pilot@skyline.test') });
      expect(models.body.models.some((m: any) => m.AircraftModel.name === 'Diamond DA40 NG')).toBe(true);
    });

    it.each([
      ['no registration', { model_name: 'Cessna 172S' }, 'registration'],
      ['a malformed registration', { registration: 'EC ABC!', model_name: 'Cessna 172S' }, 'registration'],
      ['a registration already in the company', { registration: 'EC-ABC', model_name: 'Cessna 172S' }, 'registration'],
      ['no model', { registration: 'EC-NOM' }, 'model_id'],
      ['an unknown model id', { registration: 'EC-NOM', model_id: uuidv7() }, 'model_id'],
      ['a new model without manufacturer', { registration: 'EC-NOM', model_name: 'Mystery 1' }, 'manufacturer_name'],
      [
        'a base of another company',
        { registration: 'EC-NOM', model_name: 'Cessna 172S', base_id: 'harbor-base' },
        'base_id',
      ],
      [
        'a user of another company',
        { registration: 'EC-NOM', model_name: 'Cessna 172S', user_id: 'harbor-user' },
        'user_id',
      ],
      [
        'a malformed certificate date',
        { registration: 'EC-NOM', model_name: 'Cessna 172S', radio_expiration: '2027-02-30' },
        'radio_expiration',
      ],
      ['negative hours', { registration: 'EC-NOM', model_name: 'Cessna 172S', hours: -3 }, 'hours'],
    ])('rejects %s with 400 and creates nothing', async (_n, body, field) => {
      const b: Record<string, unknown> = { ...body };
      if (b.base_id === 'harbor-base') b.base_id = s.refs.bases.Republic;
      if (b.user_id === 'harbor-user') b.user_id = s.userId('admin@harbor.test', 'harbor');
      const before = await count();
      const r = await add(b);
      expect(r.status).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.errors[field]).toBeDefined();
      expect(await count()).toBe(before);
    });

    it('allows the same registration in another company', async () => {
      const r = await add({ registration: 'EC-ABC', model_name: 'Piper PA-28' }, 'admin@harbor.test');
      expect(r.status).toBe(200);
    });

    it('edits partially, keeps the counters of the flights area, and refuses clashes and other companies', async () => {
      const id = (await add({ registration: 'EC-EDT', model_name: 'Cessna 172S', hours: 10, landings: 20 })).body.id;
      const token = await t('ops@skyline.test');
      const r = await s.api('POST', `/manager/aircraft/edit/${id}.json`, {
        token,
        body: {
          Aircraft: {
            registration: 'ec-ed2',
            radio_expiration: '2027-03-01',
            multipilot: true,
            hours: 9999,
            landings: 1,
          },
        },
      });
      expect(r.status).toBe(200);
      const v = (await view(id)).body;
      expect(v.Aircraft).toMatchObject({
        registration: 'EC-ED2',
        radio_expiration: '2027-03-01',
        multipilot: true,
        hours: 10,
        landings: 20,
      });
      expect(v.AircraftModel.name).toBe('Cessna 172S');
      const clash = await s.api('POST', `/manager/aircraft/edit/${id}.json`, {
        token,
        body: { Aircraft: { registration: 'EC-DEF', radio_expiration: '2030-01-01' } },
      });
      expect(clash.status).toBe(400);
      expect((await view(id)).body.Aircraft).toMatchObject({ registration: 'EC-ED2', radio_expiration: '2027-03-01' });
      const cleared = await s.api('POST', `/manager/aircraft/edit/${id}.json`, {
        token,
        body: { Aircraft: { radio_expiration: null, model_name: 'Piper PA-28' } },
      });
      expect(cleared.status).toBe(200);
      expect((await view(id)).body).toMatchObject({
        Aircraft: { radio_expiration: null },
        AircraftModel: { name: 'Piper PA-28' },
      });
      const harbor = await t('admin@harbor.test');
      expect(
        (
          await s.api('POST', `/manager/aircraft/edit/${id}.json`, {
            token: harbor,
            body: { Aircraft: { registration: 'HACK' } },
          })
        ).status,
      ).toBe(404);
      expect((await s.api('POST', `/manager/aircraft/deactivate/${id}.json`, { token: harbor })).status).toBe(404);
      expect((await view(id)).body.Aircraft.active).toBe(true);
    });

    it('deactivates an aircraft, which stays listed as inactive and can be reactivated', async () => {
      const id = (await add({ registration: 'EC-OFF', model_name: 'Cessna 172S' })).body.id;
      const token = await t('admin@skyline.test');
      const r = await s.api('POST', `/manager/aircraft/deactivate/${id}.json`, { token });
      expect(r.body).toMatchObject({ result: true, id });
      const list = await s.api('GET', '/aircraft/index.json', { token });
      expect(list.body.aircraft.find((a: any) => a.Aircraft.id === id).Aircraft.active).toBe(false);
      await s.api('POST', `/manager/aircraft/edit/${id}.json`, { token, body: { Aircraft: { active: true } } });
      expect((await view(id)).body.Aircraft.active).toBe(true);
      expect((await s.api('POST', `/manager/aircraft/deactivate/${uuidv7()}.json`, { token })).status).toBe(404);
    });
  });
});
