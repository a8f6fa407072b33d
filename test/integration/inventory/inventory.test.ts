import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll, push } from '../../setup/sync.ts';
import { countQueries, setPlan, tokens } from '../aircraft-reports/fleet-helpers.ts';

/** Part B 2.1 and 4.1: parts, units, providers and history; plans premium, unlimited or club. */
describe.each(DIALECTS)('inventory on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  beforeAll(async () => {
    s = await startTestServer(dialect);
  });
  afterAll(() => s?.close());

  const save = async (body: unknown, email = 'mechanic@skyline.test') =>
    s.api('POST', '/maintenance/inventory/edit.json', { token: await t(email), body });
  const view = async (id: string, email = 'pilot@skyline.test') =>
    s.api('GET', `/maintenance/inventory/view/${id}.json`, { token: await t(email) });
  const count = async (table: 'inventory_parts' | 'inventory_units' | 'inventory_providers' | 'inventory_history') =>
    Number(
      (
        await s.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );
  const part = (pn: string, extra: Record<string, unknown> = {}) => ({
    Inventory: { part_number: pn, name: `Part ${pn}`, mfr_name: 'Maker', category: 'Engine', ...extra },
  });

  it('needs credentials on every endpoint', async () => {
    for (const [m, p] of [
      ['GET', '/maintenance/inventory/available.json'],
      ['POST', '/maintenance/inventory/index.json'],
      ['GET', '/maintenance/inventory/selectables.json'],
      ['GET', '/maintenance/inventory/view/x.json'],
      ['POST', '/maintenance/inventory/edit.json'],
      ['POST', '/maintenance/inventory/delete.json'],
      ['POST', '/maintenance/inventory/providers.json'],
      ['GET', '/maintenance/inventory/provider/x.json'],
    ] as const) {
      expect((await s.api(m, p, { body: m === 'POST' ? {} : undefined })).status, p).toBe(401);
    }
  });

  it('is refused to a free plan (403) and open to club, with companies kept apart (404)', async () => {
    const harbor = await t('admin@harbor.test');
    expect((await s.api('GET', '/maintenance/inventory/selectables.json', { token: harbor })).status).toBe(403);
    const before = await count('inventory_parts');
    expect((await save(part('H-1'), 'admin@harbor.test')).status).toBe(403);
    expect(await count('inventory_parts')).toBe(before);
    const sky = await save(part('SKY-ISO'), 'mechanic@skyline.test');
    await setPlan(s, 'harbor', 'club');
    try {
      expect((await s.api('GET', '/maintenance/inventory/selectables.json', { token: harbor })).status).toBe(200);
      expect((await s.api('GET', `/maintenance/inventory/view/${sky.body.id}.json`, { token: harbor })).status).toBe(
        404,
      );
      expect(
        (
          await s.api('POST', '/maintenance/inventory/edit.json', {
            token: harbor,
            body: { Inventory: { id: sky.body.id, name: 'hacked' } },
          })
        ).status,
      ).toBe(404);
      expect(
        (await s.api('POST', '/maintenance/inventory/delete.json', { token: harbor, body: { id: sky.body.id } }))
          .status,
      ).toBe(404);
      const list = await s.api('POST', '/maintenance/inventory/index.json', { token: harbor, body: {} });
      expect(list.body.items).toEqual([]);
      expect((await s.api('GET', '/maintenance/inventory/available.json', { token: harbor })).body.items).toEqual([]);
      // The same part number is free in another company.
      expect(
        (await s.api('POST', '/maintenance/inventory/edit.json', { token: harbor, body: part('SKY-ISO') })).status,
      ).toBe(200);
      expect((await view(sky.body.id)).body.Inventory.name).toBe('Part SKY-ISO');
    } finally {
      await setPlan(s, 'harbor', 'free');
    }
  });

  it('creates a part with its first unit and a provider (form fields), and records the history', async () => {
    const base = s.refs.bases['Cuatro Vientos'];
    const r = await s.api('POST', '/maintenance/inventory/edit.json', {
      token: await t('mechanic@skyline.test'),
      form: {
        'Inventory[part_number]': 'CH48110-1',
        'Inventory[name]': 'Oil filter',
        'Inventory[mfr_name]': 'Champion',
        'Inventory[category]': 'engine',
        'Inventory[approval_status]': 'Certified',
        'InventoryProvider[name]': 'Aero Parts',
        'InventoryProvider[email]': 'sales@aeroparts.example',
        'InventoryUnit[serial_number]': 'OF-1',
        'InventoryUnit[condition]': 'NEW',
        'InventoryUnit[base_id]': base,
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, message: 'Part created' });
    const v = await view(r.body.id);
    expect(v.body.Inventory).toMatchObject({
      part_number: 'CH48110-1',
      name: 'Oil filter',
      mfr_name: 'Champion',
      category: 'Engine',
      approval_status: 'Certified',
    });
    expect(v.body.InventoryUnit).toEqual([
      expect.objectContaining({
        serial_number: 'OF-1',
        status: 'IN_STOCK',
        condition: 'NEW',
        base_id: base,
        aircraft_id: null,
        workorder_id: null,
      }),
    ]);
    expect(v.body.InventoryProvider).toEqual([
      expect.objectContaining({ name: 'Aero Parts', email: 'sales@aeroparts.example' }),
    ]);
    expect(v.body.InventoryHistory.map((h: any) => h.action)).toEqual(['provider_link', 'create']);
    expect(v.body.InventoryHistory[1].User.surname).toBe('Mechanic');

    // A part without a unit block still gets its first unit, with the defaults.
    const bare = await save(part('BARE-1'));
    expect((await view(bare.body.id)).body.InventoryUnit).toEqual([
      expect.objectContaining({ serial_number: null, status: 'IN_STOCK', condition: 'NEW' }),
    ]);
  });

  it('validates: required fields on create, allowed values, lengths, references; nothing is written', async () => {
    const before = await Promise.all([
      count('inventory_parts'),
      count('inventory_units'),
      count('inventory_providers'),
    ]);
    const missing = await save({ Inventory: { name: 'x' } });
    expect(missing.status).toBe(400);
    expect(missing.body.result).toBe(false);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['category', 'mfr_name', 'part_number']);
    const bad = await save({
      Inventory: {
        part_number: 'X'.repeat(61),
        name: 'n',
        mfr_name: 'm',
        category: 'Rockets',
        approval_status: 'Maybe',
      },
      InventoryProvider: { name: 'P', email: 'not-an-email' },
      InventoryUnit: { status: 'LOST' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'InventoryProvider.email',
      'InventoryUnit.status',
      'approval_status',
      'category',
      'part_number',
    ]);
    const refs = await save({
      ...part('REF-1'),
      InventoryUnit: { base_id: uuidv7(), aircraft_id: s.refs.aircraft.N123HA },
    });
    expect(refs.status).toBe(400);
    expect(Object.keys(refs.body.errors).sort()).toEqual(['InventoryUnit.aircraft_id', 'InventoryUnit.base_id']);
    expect(
      await Promise.all([count('inventory_parts'), count('inventory_units'), count('inventory_providers')]),
    ).toEqual(before);
  });

  it('keeps part numbers unique per company, on create and on edit', async () => {
    const a = await save(part('UNQ-1'));
    const before = await count('inventory_parts');
    const dup = await save(part('UNQ-1', { name: 'Duplicate' }));
    expect(dup.status).toBe(400);
    expect(dup.body.errors.part_number).toBeDefined();
    expect(await count('inventory_parts')).toBe(before);
    const b = await save(part('UNQ-2'));
    const clash = await save({ Inventory: { id: b.body.id, part_number: 'UNQ-1' } });
    expect(clash.status).toBe(400);
    expect((await view(b.body.id)).body.Inventory.part_number).toBe('UNQ-2');
    // Concurrent creates: the unique index lets exactly one win.
    const racers = await Promise.all([save(part('RACE-1')), save(part('RACE-1'))]);
    expect(racers.map((r) => r.status).sort()).toEqual([200, 400]);
    // A deleted part frees its number.
    expect(
      (
        await s.api('POST', '/maintenance/inventory/delete.json', {
          token: await t('admin@skyline.test'),
          body: { id: a.body.id },
        })
      ).status,
    ).toBe(200);
    expect((await save(part('UNQ-1'))).status).toBe(200);
  });

  it('edits a part, adds and edits units, links providers; every change is in the history, newest first', async () => {
    const p = await save(part('EDIT-1'));
    const id = p.body.id;
    const e1 = await save({ Inventory: { id, name: 'Renamed', approval_status: 'Quarantined' } });
    expect(e1.body.message).toBe('Part saved');
    await save({ Inventory: { id }, InventoryUnit: { serial_number: 'SN-2', condition: 'OVERHAULED' } });
    const unit = (await view(id)).body.InventoryUnit.find((u: any) => u.serial_number === 'SN-2');
    await save({ Inventory: { id }, InventoryUnit: { id: unit.id, status: 'IN_REPAIR' } });
    await save({ Inventory: { id }, InventoryProvider: { name: 'Parts Co', phone: '123' } });
    await save({ Inventory: { id }, InventoryProvider: { name: 'parts co' } });
    const v = (await view(id)).body;
    expect(v.Inventory).toMatchObject({ name: 'Renamed', approval_status: 'Quarantined' });
    expect(v.InventoryUnit.map((u: any) => [u.serial_number, u.status, u.condition])).toEqual([
      [null, 'IN_STOCK', 'NEW'],
      ['SN-2', 'IN_REPAIR', 'OVERHAULED'],
    ]);
    expect(v.InventoryProvider.map((x: any) => x.name)).toEqual(['Parts Co']);
    expect(v.InventoryHistory.map((h: any) => h.action)).toEqual([
      'provider_link',
      'unit_edit',
      'unit_add',
      'edit',
      'create',
    ]);
    expect(v.InventoryHistory.find((h: any) => h.action === 'edit').fields).toEqual([
      { field: 'name', from: 'Part EDIT-1', to: 'Renamed' },
      { field: 'approval_status', from: 'Pending', to: 'Quarantined' },
    ]);
    const foreignUnit = await save({ Inventory: { id }, InventoryUnit: { id: uuidv7(), status: 'SCRAPPED' } });
    expect(foreignUnit.status).toBe(400);
    expect(foreignUnit.body.errors['InventoryUnit.id']).toBeDefined();
    expect((await save({ Inventory: { id: uuidv7(), name: 'x' } })).status).toBe(404);
  });

  it('lets managers and mechanics edit, only managers delete; a part whose unit is on a work order stays', async () => {
    const before = await count('inventory_parts');
    for (const email of ['pilot@skyline.test', 'dispatch@skyline.test', 'student@skyline.test'])
      expect((await save(part(`R-${email}`), email)).status).toBe(403);
    expect(await count('inventory_parts')).toBe(before);
    const p = await save(part('DEL-1'));
    expect(
      (
        await s.api('POST', '/maintenance/inventory/delete.json', {
          token: await t('mechanic@skyline.test'),
          body: { id: p.body.id },
        })
      ).status,
    ).toBe(403);
    expect(
      (await s.api('POST', '/maintenance/inventory/delete.json', { token: await t('admin@skyline.test'), body: {} }))
        .status,
    ).toBe(400);
    const unitId = (await view(p.body.id)).body.InventoryUnit[0].id;
    const mech = await t('mechanic@skyline.test');
    const job = await s.api('POST', '/maintenance/jobs/create.json', {
      token: mech,
      body: { Job: { aircraft_id: s.refs.aircraft['EC-ABC'], name: 'Uses DEL-1' } },
    });
    const wo = await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
      token: mech,
      body: { WorkOrder: { maintenance_job_id: job.body.id, name: 'Fit', inventory_unit_ids: [unitId] } },
    });
    expect(wo.status).toBe(200);
    const refused = await s.api('POST', '/maintenance/inventory/delete.json', {
      token: await t('ops@skyline.test'),
      body: { id: p.body.id },
    });
    expect(refused.status).toBe(400);
    expect((await view(p.body.id)).status).toBe(200);
    await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
      token: mech,
      body: { WorkOrder: { id: wo.body.id, inventory_unit_ids: [] } },
    });
    const ok = await s.api('POST', '/maintenance/inventory/delete.json', {
      token: await t('safety@skyline.test'),
      form: { id: p.body.id },
    });
    expect(ok.body).toMatchObject({ result: true });
    expect((await view(p.body.id)).status).toBe(404);
    expect(
      (
        await s.api('POST', '/maintenance/inventory/delete.json', {
          token: await t('admin@skyline.test'),
          body: { id: p.body.id },
        })
      ).status,
    ).toBe(404);
  });

  it('lists parts with filters and pagination, and the available parts by name', async () => {
    const mk = async (pn: string, name: string, category: string, status: string, mfr = 'Maker') =>
      (await save({ Inventory: { part_number: pn, name, mfr_name: mfr, category, approval_status: status } })).body
        .id as string;
    const ids = {
      a: await mk('LST-100', 'Zulu alternator', 'Electrical', 'Approved', 'Plane-Power'),
      b: await mk('LST-200', 'Alpha battery', 'Electrical', 'Pending', 'Concorde'),
      c: await mk('LST-300', 'Mike brake pad', 'Braking System', 'Approved', 'Cleveland'),
    };
    const token = await t('pilot@skyline.test');
    const list = async (body: Record<string, unknown>) =>
      (await s.api('POST', '/maintenance/inventory/index.json', { token, body })).body;
    expect((await list({ name: 'lst-' })).items.map((i: any) => i.Inventory.name)).toEqual([
      'Alpha battery',
      'Mike brake pad',
      'Zulu alternator',
    ]);
    expect((await list({ name: 'LST', category: 'Electrical' })).items.map((i: any) => i.Inventory.id)).toEqual([
      ids.b,
      ids.a,
    ]);
    expect((await list({ name: 'LST', status: 'Approved' })).items.map((i: any) => i.Inventory.id)).toEqual([
      ids.c,
      ids.a,
    ]);
    expect((await list({ name: 'cleveland' })).items.map((i: any) => i.Inventory.id)).toEqual([ids.c]);
    const page = await list({ name: 'LST', limit: 2, page: 2 });
    expect(page.items.map((i: any) => i.Inventory.id)).toEqual([ids.a]);
    expect(page.paginate).toMatchObject({ page: 2, count: 3, limit: 2, pageCount: 2, prevPage: true, nextPage: false });
    expect(page.items[0]).toMatchObject({ unit_count: 1, available_count: 1 });
    const q1 = await countQueries(s, () => list({ name: 'LST', limit: 1 }));
    const q3 = await countQueries(s, () => list({ name: 'LST', limit: 3 }));
    expect(q1).toBeGreaterThanOrEqual(3);
    expect(q3).toBe(q1);

    // Available: parts with a unit not on a work order, by name.
    const mech = await t('mechanic@skyline.test');
    const unitOfC = (await view(ids.c)).body.InventoryUnit[0].id;
    const job = await s.api('POST', '/maintenance/jobs/create.json', {
      token: mech,
      body: { Job: { aircraft_id: s.refs.aircraft['EC-DEF'], name: 'Brakes' } },
    });
    await s.api('POST', '/maintenance/jobs/work_orders/edit.json', {
      token: mech,
      body: { WorkOrder: { maintenance_job_id: job.body.id, name: 'Pads', inventory_unit_ids: [unitOfC] } },
    });
    const avail = (await s.api('GET', '/maintenance/inventory/available.json', { token })).body.items;
    const names = avail.map((i: any) => i.name);
    expect(names).toEqual([...names].sort());
    expect(avail.find((i: any) => i.id === ids.b)).toEqual({
      id: ids.b,
      name: 'Alpha battery',
      category: 'Electrical',
    });
    expect(avail.some((i: any) => i.id === ids.c)).toBe(false);
    expect((await list({ name: 'LST-300' })).items[0]).toMatchObject({ unit_count: 1, available_count: 0 });
  });

  it('answers the selectable values', async () => {
    const r = await s.api('GET', '/maintenance/inventory/selectables.json', { token: await t('pilot@skyline.test') });
    expect(r.body.categories).toHaveLength(21);
    expect(r.body.categories).toContain('Environmental Control System');
    expect(r.body.statuses).toEqual([
      'Pending',
      'Approved',
      'Rejected',
      'Quarantined',
      'Certified',
      'Non-certified',
      'Under-review',
      'Expired',
      'Unapproved',
    ]);
    expect(r.body.unit_statuses).toContain('IN_STOCK');
    expect(r.body.unit_conditions).toContain('SERVICEABLE');
  });

  it('searches providers by name, email or phone and shows one with its parts', async () => {
    const p = await save({
      ...part('PRV-1'),
      InventoryProvider: { name: 'Hangar Supply', email: 'orders@hangar.example', phone: '+34 600 111 222' },
    });
    await save({ ...part('PRV-2'), InventoryProvider: { name: 'Other Vendor', email: 'x@other.example' } });
    const token = await t('pilot@skyline.test');
    const search = async (q: string) =>
      (await s.api('POST', '/maintenance/inventory/providers.json', { token, body: { search: q } })).body.providers.map(
        (x: any) => x.name,
      );
    expect(await search('hangar')).toEqual(['Hangar Supply']);
    expect(await search('@other.')).toEqual(['Other Vendor']);
    expect(await search('600 111')).toEqual(['Hangar Supply']);
    expect((await search('')).length).toBeGreaterThanOrEqual(2);
    const id = (await view(p.body.id)).body.InventoryProvider[0].id;
    const one = await s.api('GET', `/maintenance/inventory/provider/${id}.json`, { token });
    expect(one.body.InventoryProvider).toMatchObject({ id, name: 'Hangar Supply', email: 'orders@hangar.example' });
    expect(one.body.Inventory.map((x: any) => x.part_number)).toEqual(['PRV-1']);
    expect((await s.api('GET', `/maintenance/inventory/provider/${uuidv7()}.json`, { token })).status).toBe(404);
  });

  it('replicates parts with their units read-only', async () => {
    const p = await save({ ...part('SYNC-1'), InventoryUnit: { serial_number: 'S-1' } });
    const token = await t('mechanic@skyline.test');
    const { docs, checkpoint } = await pullAll(s, token, 'inventory');
    const doc = docs.find((d) => d.id === p.body.id);
    expect(doc).toMatchObject({ part_number: 'SYNC-1', InventoryUnit: [{ serial_number: 'S-1', workorder_id: null }] });
    await save({ Inventory: { id: p.body.id }, InventoryUnit: { serial_number: 'S-2' } });
    const next = await pullAll(s, token, 'inventory', checkpoint);
    expect(next.docs.find((d) => d.id === p.body.id).InventoryUnit.map((u: any) => u.serial_number)).toEqual([
      'S-1',
      'S-2',
    ]);
    await push(s, token, 'inventory', [
      { assumedMasterState: doc, newDocumentState: { ...doc, name: 'offline rename' } },
    ]);
    expect((await view(p.body.id)).body.Inventory.name).toBe('Part SYNC-1');
  });
});
