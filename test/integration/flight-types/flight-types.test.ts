import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('flight types on %s', (dialect) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const t = async (email: string) => {
    tokens[email] ??= await s.login(email);
    return tokens[email];
  };
  const typeId = async (name: string) => {
    const r = await s.api('GET', '/flight_types/manager_index.json', { token: await t('admin@skyline.test') });
    return r.body.flight_types.find((x: any) => x.FlightType.name === name).FlightType.id as string;
  };
  const typeRow = (id: string) =>
    s.ctx.db.selectFrom('flight_types').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const certRows = (id: string) =>
    s.ctx.db
      .selectFrom('flight_type_certificates')
      .select(['role', 'certificate_type'])
      .where('flight_type_id', '=', id)
      .orderBy('role')
      .orderBy('certificate_type')
      .execute();
  const addCert = async (email: string, type: string, issue: string | null, expiration: string | null) => {
    const now = Math.floor(Date.now() / 1000);
    await s.ctx.db
      .insertInto('user_certificates')
      .values({
        id: uuidv7(),
        company_id: s.refs.companies.skyline,
        change_no: 0,
        deleted: 0,
        created: now,
        modified: now,
        user_id: s.userId(email),
        type,
        name: type,
        issue,
        expiration,
        comments: null,
        upload_id: null,
      })
      .execute();
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  it('every flight type route needs credentials', async () => {
    const id = await typeId('Solo');
    for (const [m, p] of [
      ['GET', '/flight_types/index.json'],
      ['GET', '/flight_types/index/true.json'],
      ['GET', '/flight_types/manager_index.json'],
      ['GET', `/flight_types/view/${id}.json`],
      ['POST', '/flight_types/manager_add.json'],
      ['GET', `/flight_types/manager_edit/${id}.json`],
      ['POST', `/flight_types/manager_edit/${id}.json`],
      ['PUT', `/flight_types/manager_edit/${id}.json`],
      ['POST', `/flight_types/manager_delete/${id}.json`],
      ['DELETE', `/flight_types/manager_delete/${id}.json`],
      ['POST', '/flight_types/manager_reorder.json'],
      ['GET', `/flight_types/compliance/${id}.json`],
    ] as const) {
      expect((await s.api(m, p, m === 'GET' ? {} : { body: {} })).status, `${m} ${p}`).toBe(401);
    }
  });

  it('index lists the seeded types of CONTRACT 3 in order; /index/true only bookable ones; Harbor has none', async () => {
    const pilot = await t('pilot@skyline.test');
    const r = await s.api('GET', '/flight_types/index.json', { token: pilot });
    expect(r.status).toBe(200);
    expect(r.body.flight_types.map((x: any) => x.FlightType.name)).toEqual([
      'Dual training',
      'Solo',
      'Supervised solo',
      'Multi-crew',
      'Checkride',
    ]);
    const dual = r.body.flight_types[0];
    expect(dual.FlightType).toMatchObject({
      pic_flight_time: 'fi',
      sic_flight_time: 'dual',
      supervisor_flight_time: 'none',
      booking: true,
      order: 0,
      deleted: false,
    });
    expect(dual.RequiredCertificate).toEqual([]);
    const checkride = r.body.flight_types[4].FlightType;
    expect([checkride.pic_flight_time, checkride.sic_flight_time, checkride.supervisor_flight_time]).toEqual([
      'exa',
      'picus',
      'none',
    ]);
    const booking = await s.api('GET', '/flight_types/index/true.json', { token: pilot });
    expect(booking.body.flight_types.map((x: any) => x.FlightType.name)).toEqual(['Dual training', 'Solo']);
    const harbor = await s.api('GET', '/flight_types/index.json', { token: await t('admin@harbor.test') });
    expect(harbor.body.flight_types).toEqual([]);
  });

  it('view answers one type; another company gets 404', async () => {
    const id = await typeId('Supervised solo');
    const r = await s.api('GET', `/flight_types/view/${id}.json`, { token: await t('student@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.flight_type.FlightType).toMatchObject({ id, name: 'Supervised solo', supervisor_flight_time: 'sup' });
    expect((await s.api('GET', `/flight_types/view/${id}.json`, { token: await t('admin@harbor.test') })).status).toBe(
      404,
    );
    expect(
      (await s.api('GET', `/flight_types/view/${uuidv7()}.json`, { token: await t('pilot@skyline.test') })).status,
    ).toBe(404);
  });

  it('manager routes are for roles <= 110 (manager_index for staff <= 170)', async () => {
    const id = await typeId('Solo');
    for (const email of ['headtraining@skyline.test', 'dispatch@skyline.test', 'pilot@skyline.test']) {
      const token = await t(email);
      expect(
        (await s.api('POST', '/flight_types/manager_add.json', { token, body: { FlightType: { name: 'X' } } })).status,
      ).toBe(403);
      expect((await s.api('GET', `/flight_types/manager_edit/${id}.json`, { token })).status).toBe(403);
      expect(
        (await s.api('POST', `/flight_types/manager_edit/${id}.json`, { token, body: { FlightType: { name: 'X' } } }))
          .status,
      ).toBe(403);
      expect((await s.api('POST', `/flight_types/manager_delete/${id}.json`, { token })).status).toBe(403);
      expect((await s.api('POST', '/flight_types/manager_reorder.json', { token, body: { items: [id] } })).status).toBe(
        403,
      );
    }
    expect(
      (await s.api('GET', '/flight_types/manager_index.json', { token: await t('dispatch@skyline.test') })).status,
    ).toBe(200);
    expect(
      (await s.api('GET', '/flight_types/manager_index.json', { token: await t('pilot@skyline.test') })).status,
    ).toBe(403);
    expect((await typeRow(id)).name).toBe('Solo');
  });

  it('manager_add creates a type with defaults and returns the classification list', async () => {
    const admin = await t('admin@skyline.test');
    const r = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Night rating', color: '1F6AC4', booking: '1' } },
    });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(true);
    expect(r.body.flight_type.FlightType).toMatchObject({
      name: 'Night rating',
      color: '#1f6ac4',
      booking: true,
      pic_flight_time: 'pic',
      sic_flight_time: 'none',
      supervisor_flight_time: 'none',
      order: 5,
    });
    expect(r.body.classifications.map((c: any) => c.value)).toEqual([
      'pic',
      'picus',
      'sic',
      'fi',
      'dual',
      'cri',
      'iri',
      'fifi',
      'sfi',
      'tri',
      'exa',
      'sup',
      'none',
    ]);
    const row = await typeRow(r.body.id);
    expect(row.company_id).toBe(s.refs.companies.skyline);
    expect(row.change_no).toBeGreaterThan(0);
    // Form-encoded body with the data[FlightType][...] names.
    const form = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      form: {
        'data[FlightType][name]': 'Form type',
        'data[FlightType][pic_flight_time]': 'fi',
        'data[FlightType][sic_flight_time]': 'dual',
      },
    });
    expect(form.status).toBe(200);
    expect(form.body.flight_type.FlightType).toMatchObject({
      name: 'Form type',
      pic_flight_time: 'fi',
      sic_flight_time: 'dual',
    });
  });

  it('manager_add refuses a missing name, unknown classifications and the retired copic and tre, writing nothing', async () => {
    const admin = await t('admin@skyline.test');
    const count = async () =>
      (
        await s.ctx.db
          .selectFrom('flight_types')
          .select('id')
          .where('company_id', '=', s.refs.companies.skyline)
          .execute()
      ).length;
    const before = await count();
    const noName = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { color: '#000000' } },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ result: false, errors: { 'FlightType.name': expect.any(Array) } });
    const copic = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Old', sic_flight_time: 'copic' } },
    });
    expect(copic.status).toBe(400);
    expect(copic.body.errors['FlightType.sic_flight_time'][0]).toMatch(/copic.*removed.*sic/);
    const tre = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Old', pic_flight_time: 'tre' } },
    });
    expect(tre.status).toBe(400);
    expect(tre.body.errors['FlightType.pic_flight_time'][0]).toMatch(/tre.*renamed.*exa/);
    const bad = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Old', supervisor_flight_time: 'boss' } },
    });
    expect(bad.status).toBe(400);
    const color = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Old', color: 'red' } },
    });
    expect(color.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('required certificates: opt-in sync, full replacement, invalid and duplicate pairs ignored', async () => {
    const admin = await t('admin@skyline.test');
    // Without the opt-in the posted list is ignored.
    const plain = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: { FlightType: { name: 'Certs' }, RequiredCertificate: [{ role: 'pic', certificate_type: 'SEP' }] },
    });
    const id = plain.body.id;
    expect(await certRows(id)).toEqual([]);
    const synced = await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      body: {
        FlightType: {},
        syncRequiredCertificates: true,
        RequiredCertificate: [
          { role: 'pic', certificate_type: 'SEP' },
          { role: 'pic', certificate_type: 'SEP' },
          { role: 'pic', certificate_type: 'MED_CLASS2' },
          { role: 'captain', certificate_type: 'SEP' },
          { role: 'sic', certificate_type: '' },
          { role: 'supervisor', certificate_type: 'FI' },
          'garbage',
        ],
      },
    });
    expect(synced.status).toBe(200);
    expect(await certRows(id)).toEqual([
      { role: 'pic', certificate_type: 'MED_CLASS2' },
      { role: 'pic', certificate_type: 'SEP' },
      { role: 'supervisor', certificate_type: 'FI' },
    ]);
    // An edit without the flag leaves them.
    await s.api('PUT', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      body: { FlightType: { name: 'Certs 2' }, RequiredCertificate: [] },
    });
    expect(await certRows(id)).toHaveLength(3);
    const edit = await s.api('GET', `/flight_types/manager_edit/${id}.json`, { token: admin });
    expect(edit.status).toBe(200);
    expect(edit.body.FlightType.name).toBe('Certs 2');
    expect(edit.body.usage).toBe(0);
    expect(edit.body.requiredCertificates).toEqual([
      { role: 'pic', certificate_type: 'MED_CLASS2' },
      { role: 'pic', certificate_type: 'SEP' },
      { role: 'supervisor', certificate_type: 'FI' },
    ]);
    // Full replacement, also from a form (indexed object), and an empty list clears.
    await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      form: {
        syncRequiredCertificates: '1',
        'RequiredCertificate[0][role]': 'sic',
        'RequiredCertificate[0][certificate_type]': 'MCC',
      },
    });
    expect(await certRows(id)).toEqual([{ role: 'sic', certificate_type: 'MCC' }]);
    const before = (await typeRow(id)).change_no;
    await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      body: { syncRequiredCertificates: true, RequiredCertificate: [] },
    });
    expect(await certRows(id)).toEqual([]);
    // The requirements are part of the replicated type: its change number moved.
    expect((await typeRow(id)).change_no).toBeGreaterThan(before);
  });

  it('required certificates: types outside the certificate type catalog are ignored on add and edit', async () => {
    const admin = await t('admin@skyline.test');
    const add = await s.api('POST', '/flight_types/manager_add.json', {
      token: admin,
      body: {
        FlightType: { name: 'Catalog only' },
        syncRequiredCertificates: true,
        RequiredCertificate: [
          { role: 'pic', certificate_type: 'NOT_IN_CATALOG' },
          { role: 'pic', certificate_type: 'sep' },
          { role: 'sic', certificate_type: 'MCC' },
        ],
      },
    });
    expect(add.status).toBe(200);
    const id = add.body.id;
    expect(await certRows(id)).toEqual([{ role: 'sic', certificate_type: 'MCC' }]);
    const edit = await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      body: {
        syncRequiredCertificates: true,
        RequiredCertificate: [
          { role: 'supervisor', certificate_type: 'MADE_UP_42' },
          { role: 'supervisor', certificate_type: 'FI' },
        ],
      },
    });
    expect(edit.status).toBe(200);
    expect(await certRows(id)).toEqual([{ role: 'supervisor', certificate_type: 'FI' }]);
    const view = await s.api('GET', `/flight_types/view/${id}.json`, { token: admin });
    expect(JSON.stringify(view.body)).not.toContain('MADE_UP_42');
  });

  it('manager_edit counts the flights that use the type and refuses bad input without changing anything', async () => {
    const admin = await t('admin@skyline.test');
    const id = await typeId('Multi-crew');
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 2; i++) {
      await s.ctx.db
        .insertInto('flights')
        .values({
          id: uuidv7(),
          company_id: s.refs.companies.skyline,
          change_no: 0,
          deleted: 0,
          created: now,
          modified: now,
          date: '2024-01-01',
          status: 'DRAFT',
          flight_type_id: id,
          starts: now,
        } as any)
        .execute();
    }
    const r = await s.api('GET', `/flight_types/manager_edit/${id}.json`, { token: admin });
    expect(r.body.usage).toBe(2);
    const bad = await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
      token: admin,
      body: { FlightType: { name: '', sic_flight_time: 'copic' } },
    });
    expect(bad.status).toBe(400);
    const row = await typeRow(id);
    expect([row.name, row.sic_flight_time]).toEqual(['Multi-crew', 'sic']);
  });

  it('another company cannot edit, delete or read a type (404) and nothing changes', async () => {
    const harbor = await t('admin@harbor.test');
    const id = await typeId('Checkride');
    expect((await s.api('GET', `/flight_types/manager_edit/${id}.json`, { token: harbor })).status).toBe(404);
    expect(
      (
        await s.api('POST', `/flight_types/manager_edit/${id}.json`, {
          token: harbor,
          body: { FlightType: { name: 'Hacked' } },
        })
      ).status,
    ).toBe(404);
    expect((await s.api('DELETE', `/flight_types/manager_delete/${id}.json`, { token: harbor })).status).toBe(404);
    expect((await s.api('GET', `/flight_types/compliance/${id}.json`, { token: harbor })).status).toBe(404);
    const row = await typeRow(id);
    expect([row.name, row.deleted]).toEqual(['Checkride', 0]);
  });

  it('unknown ids are 404 everywhere; another company reordering our ids changes nothing; bad reorder items are 400', async () => {
    const admin = await t('admin@skyline.test');
    const unknown = uuidv7();
    expect((await s.api('GET', `/flight_types/view/${unknown}.json`, { token: admin })).status).toBe(404);
    expect((await s.api('GET', `/flight_types/manager_edit/${unknown}.json`, { token: admin })).status).toBe(404);
    expect(
      (
        await s.api('PUT', `/flight_types/manager_edit/${unknown}.json`, {
          token: admin,
          body: { FlightType: { name: 'X' } },
        })
      ).status,
    ).toBe(404);
    expect((await s.api('POST', `/flight_types/manager_delete/${unknown}.json`, { token: admin })).status).toBe(404);
    const orderOf = async () =>
      (
        await s.ctx.db
          .selectFrom('flight_types')
          .select(['id', 'sort_order'])
          .where('company_id', '=', s.refs.companies.skyline)
          .orderBy('id')
          .execute()
      ).map((r) => [r.id, r.sort_order]);
    const before = await orderOf();
    const ours = before.map(([id]) => id).reverse();
    const harbor = await s.api('POST', '/flight_types/manager_reorder.json', {
      token: await t('admin@harbor.test'),
      body: { items: ours },
    });
    expect(harbor.status).toBe(200);
    expect(harbor.body.items).not.toContain(ours[0]);
    expect(await orderOf()).toEqual(before);
    for (const body of [{ items: 'all' }, { items: [{}] }, { items: [''] }]) {
      const r = await s.api('POST', '/flight_types/manager_reorder.json', { token: admin, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.result).toBe(false);
    }
    expect(await orderOf()).toEqual(before);
  });

  it('manager_delete soft-deletes (POST or DELETE): gone from index, kept in manager_index', async () => {
    const admin = await t('admin@skyline.test');
    const a = (
      await s.api('POST', '/flight_types/manager_add.json', {
        token: admin,
        body: { FlightType: { name: 'Temp A', booking: true } },
      })
    ).body.id;
    const b = (
      await s.api('POST', '/flight_types/manager_add.json', { token: admin, body: { FlightType: { name: 'Temp B' } } })
    ).body.id;
    expect((await s.api('POST', `/flight_types/manager_delete/${a}.json`, { token: admin })).body).toMatchObject({
      result: true,
    });
    expect((await s.api('DELETE', `/flight_types/manager_delete/${b}.json`, { token: admin })).body).toMatchObject({
      result: true,
    });
    const index = await s.api('GET', '/flight_types/index.json', { token: admin });
    expect(index.body.flight_types.map((x: any) => x.FlightType.id)).not.toContain(a);
    expect(
      (await s.api('GET', '/flight_types/index/true.json', { token: admin })).body.flight_types.map(
        (x: any) => x.FlightType.id,
      ),
    ).not.toContain(a);
    const all = await s.api('GET', '/flight_types/manager_index.json', { token: admin });
    const deleted = all.body.flight_types.filter((x: any) => [a, b].includes(x.FlightType.id));
    expect(deleted.map((x: any) => x.FlightType.deleted)).toEqual([true, true]);
    expect((await typeRow(a)).deleted).toBe(1);
    // Still viewable, so old flights can show their type.
    expect(
      (await s.api('GET', `/flight_types/view/${a}.json`, { token: admin })).body.flight_type.FlightType.deleted,
    ).toBe(true);
  });

  it('manager_reorder sets the display order; foreign ids are dropped; unlisted types follow', async () => {
    const safety = await t('safety@skyline.test');
    const ids = Object.fromEntries(
      await Promise.all(
        ['Dual training', 'Solo', 'Supervised solo', 'Multi-crew', 'Checkride'].map(async (n) => [n, await typeId(n)]),
      ),
    );
    const foreign = uuidv7();
    const r = await s.api('POST', '/flight_types/manager_reorder.json', {
      token: safety,
      body: { items: [ids.Checkride, foreign, ids.Solo] },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.slice(0, 2)).toEqual([ids.Checkride, ids.Solo]);
    expect(r.body.items).not.toContain(foreign);
    const index = await s.api('GET', '/flight_types/index.json', { token: safety });
    const names = index.body.flight_types.map((x: any) => x.FlightType.name);
    expect(names.slice(0, 4)).toEqual(['Checkride', 'Solo', 'Dual training', 'Supervised solo']);
    const orders = index.body.flight_types.map((x: any) => x.FlightType.order);
    expect([...orders].sort((x: number, y: number) => x - y)).toEqual(orders);
    expect(new Set(orders).size).toBe(orders.length);
    expect(
      (await s.api('POST', '/flight_types/manager_reorder.json', { token: safety, body: { items: [] } })).status,
    ).toBe(400);
    expect((await s.api('POST', '/flight_types/manager_reorder.json', { token: safety, body: {} })).status).toBe(400);
  });

  describe('compliance', () => {
    let typeWithReqs: string;
    const day = 86400;
    const ymd = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
    beforeAll(async () => {
      const admin = await t('admin@skyline.test');
      const r = await s.api('POST', '/flight_types/manager_add.json', {
        token: admin,
        body: {
          FlightType: { name: 'Compliance type', sic_flight_time: 'sic' },
          syncRequiredCertificates: true,
          RequiredCertificate: [
            { role: 'pic', certificate_type: 'SEP' },
            { role: 'pic', certificate_type: 'MED_CLASS1' },
            { role: 'sic', certificate_type: 'MCC' },
          ],
        },
      });
      typeWithReqs = r.body.id;
      const now = Math.floor(Date.now() / 1000);
      // Pilot: SEP never expires; two medicals, the later one counts; MCC expired.
      await addCert('pilot@skyline.test', 'SEP', '2020-01-01', null);
      await addCert('pilot@skyline.test', 'MED_CLASS1', '2020-01-01', ymd(now + 10 * day));
      await addCert('pilot@skyline.test', 'MED_CLASS1', '2020-01-01', ymd(now + 40 * day));
      await addCert('pilot@skyline.test', 'MCC', '2019-01-01', '2020-01-01');
      // Student: SEP issued in the future.
      await addCert('student@skyline.test', 'SEP', ymd(now + 5 * day), null);
    });

    it('answers per seat compliant, ok, required and limit for the caller by default', async () => {
      const r = await s.api('GET', `/flight_types/compliance/${typeWithReqs}.json`, {
        token: await t('pilot@skyline.test'),
      });
      expect(r.status).toBe(200);
      expect(r.body.user_id).toBe(s.userId('pilot@skyline.test'));
      const { pic, sic, supervisor } = r.body.compliance;
      expect(pic).toMatchObject({ compliant: true, ok: ['MED_CLASS1', 'SEP'], required: ['MED_CLASS1', 'SEP'] });
      // The later medical decides; it lapses at midnight (Europe/Madrid) after its expiration date.
      const exp = ymd(Math.floor(Date.now() / 1000) + 40 * day);
      const madridMidnight = Math.floor(new Date(`${exp}T00:00:00Z`).getTime() / 1000) + day;
      expect(Math.abs(pic.limit - madridMidnight)).toBeLessThanOrEqual(2 * 3600);
      expect(pic.limit).toBeLessThan(madridMidnight);
      expect(sic).toEqual({ compliant: false, ok: [], required: ['MCC'], limit: null });
      expect(supervisor).toEqual({ compliant: true, ok: [], required: [], limit: null });
    });

    it('`at` moves the check: after the last medical lapses the PIC seat is not compliant', async () => {
      const pilot = await t('pilot@skyline.test');
      const at = Math.floor(Date.now() / 1000) + 60 * day;
      const r = await s.api('GET', `/flight_types/compliance/${typeWithReqs}.json?at=${at}`, { token: pilot });
      expect(r.body.at).toBe(at);
      expect(r.body.compliance.pic).toMatchObject({ compliant: false, ok: ['SEP'], limit: null });
      const past = await s.api(
        'GET',
        `/flight_types/compliance/${typeWithReqs}.json?at=${Date.UTC(2019, 5, 1) / 1000}`,
        { token: pilot },
      );
      expect(past.body.compliance.sic).toMatchObject({ compliant: true, ok: ['MCC'] });
      expect(past.body.compliance.sic.limit).toBe(Date.UTC(2020, 0, 1, 23) / 1000);
      const student = await s.api('GET', `/flight_types/compliance/${typeWithReqs}.json`, {
        token: await t('student@skyline.test'),
      });
      expect(student.body.compliance.pic).toMatchObject({ compliant: false, ok: [] });
      expect(
        (await s.api('GET', `/flight_types/compliance/${typeWithReqs}.json?at=abc`, { token: pilot })).status,
      ).toBe(400);
    });

    it('staff may name another user of the company; above 170 another user is 403; outside the company 404', async () => {
      const staff = await s.api(
        'GET',
        `/flight_types/compliance/${typeWithReqs}.json?user_id=${s.userId('pilot@skyline.test')}`,
        { token: await t('dispatch@skyline.test') },
      );
      expect(staff.status).toBe(200);
      expect(staff.body.compliance.pic.compliant).toBe(true);
      const student = await s.api(
        'GET',
        `/flight_types/compliance/${typeWithReqs}.json?user_id=${s.userId('pilot@skyline.test')}`,
        { token: await t('student@skyline.test') },
      );
      expect(student.status).toBe(403);
      const outside = await s.api(
        'GET',
        `/flight_types/compliance/${typeWithReqs}.json?user_id=${s.userId('pilot@harbor.test', 'harbor')}`,
        { token: await t('dispatch@skyline.test') },
      );
      expect(outside.status).toBe(404);
      expect(
        (await s.api('GET', `/flight_types/compliance/${uuidv7()}.json`, { token: await t('pilot@skyline.test') }))
          .status,
      ).toBe(404);
    });

    it('a type without requirements is compliant on every seat with no limit', async () => {
      const r = await s.api('GET', `/flight_types/compliance/${await typeId('Solo')}.json`, {
        token: await t('student@skyline.test'),
      });
      for (const seat of ['pic', 'sic', 'supervisor'])
        expect(r.body.compliance[seat]).toEqual({ compliant: true, ok: [], required: [], limit: null });
    });
  });
});
