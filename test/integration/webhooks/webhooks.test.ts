import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_JOB } from '@ops/server/areas/webhooks/delivery.jobs';
import { verifyWebhook } from '@ops/server/areas/webhooks/signature.service';
import { runJob } from '@ops/server/jobs/scheduler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { spawnServer } from '../../setup/process.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { melBody } from '../aircraft-reports/fleet-helpers.ts';
import { createFlight, tokenCache, typeIds } from '../flights/helpers.ts';

interface Received {
  path: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A real HTTP receiver; `failNext` answers that many requests with 500 before accepting. */
async function receiver() {
  const got: Received[] = [];
  let failNext = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('down');
        return;
      }
      got.push({ path: req.url ?? '', body, headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    got,
    fail(n: number) {
      failNext = n;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(DIALECTS)('webhooks on %s', (dialect) => {
  let s: TestServer;
  let rx: Awaited<ReturnType<typeof receiver>>;
  const t = tokenCache(() => s);
  let types: Record<string, string>;
  let endpointId: string;
  let secret: string;

  const draft = async (day: string) =>
    createFlight(s, await t('dispatch@skyline.test'), {
      date: day,
      aircraft_id: s.refs.aircraft['EC-ABC'],
      flight_type_id: types.Solo,
      pic_id: s.userId('pilot@skyline.test'),
      departure_airport: 'LECU',
      landing_airport: 'LELL',
      offblocks_time: '09:00',
      takeoff_time: '09:10',
      landing_time: '10:10',
      onblocks_time: '10:20',
      landings: 1,
    });
  const cancel = async (id: string) =>
    s.api('POST', '/flights/cancel.json', { token: await t('dispatch@skyline.test'), body: { id, reason: 'Weather' } });
  const deliver = () => runJob(s.ctx, WEBHOOK_JOB);
  const deliveries = () =>
    s.ctx.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id').execute();
  const makeDue = () =>
    s.ctx.db.updateTable('webhook_deliveries').set({ next_attempt: 0 }).where('status', '=', 'pending').execute();

  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { JOBS: 'off' } });
    rx = await receiver();
    types = await typeIds(s, await t('admin@skyline.test'));
  });
  afterAll(async () => {
    await rx?.close();
    await s?.close();
  });
  beforeEach(() => {
    rx.got.length = 0;
  });

  describe('endpoints', () => {
    it('401 without a token, 403 below the managers', async () => {
      expect((await s.api('GET', '/webhooks/index.json')).status).toBe(401);
      expect(
        (await s.api('POST', '/webhooks/add.json', { body: { url: rx.url, events: ['flight.canceled'] } })).status,
      ).toBe(401);
      for (const email of [
        'instructor@skyline.test',
        'dispatch@skyline.test',
        'pilot@skyline.test',
        'mechanic@skyline.test',
      ]) {
        expect((await s.api('GET', '/webhooks/index.json', { token: await t(email) })).status).toBe(403);
        expect(
          (
            await s.api('POST', '/webhooks/add.json', {
              token: await t(email),
              body: { url: rx.url, events: ['flight.canceled'] },
            })
          ).status,
        ).toBe(403);
      }
    });

    it('refuses bad input with field errors and writes nothing', async () => {
      const token = await t('admin@skyline.test');
      for (const body of [
        { url: 'ftp://example.test/x', events: ['flight.canceled'] },
        { url: 'not a url', events: ['flight.canceled'] },
        { url: rx.url, events: [] },
        { url: rx.url, events: ['flight.exploded'] },
        { url: rx.url },
        { events: ['flight.canceled'] },
      ]) {
        const r = await s.api('POST', '/webhooks/add.json', { token, body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.result).toBe(false);
        expect(r.body.errors).toBeTypeOf('object');
      }
      expect(await s.ctx.db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
      const types = await s.api('GET', '/webhooks/events.json', { token });
      expect(types.body.events).toContain('mel.raised');
    });

    it('creates an endpoint; the secret is shown once, then only as a hint', async () => {
      const token = await t('admin@skyline.test');
      const r = await s.api('POST', '/webhooks/add.json', {
        token,
        body: {
          url: `${rx.url}/hook`,
          events: ['flight.canceled', 'flight.dispatched', 'mel.raised', 'mel.extended', 'mel.closed'],
          description: 'Accounting',
        },
      });
      expect(r.status).toBe(200);
      expect(r.body.secret).toMatch(/^whsec_/);
      endpointId = r.body.id;
      secret = r.body.secret;
      const list = await s.api('GET', '/webhooks/index.json', { token });
      expect(list.body.endpoints).toHaveLength(1);
      expect(JSON.stringify(list.body)).not.toContain(secret);
      expect(list.body.endpoints[0]).toMatchObject({
        id: endpointId,
        url: `${rx.url}/hook`,
        active: true,
        secret_hint: `…${secret.slice(-4)}`,
      });
      const view = await s.api('GET', `/webhooks/view/${endpointId}.json`, { token: await t('safety@skyline.test') });
      expect(view.body.endpoint.events).toContain('mel.raised');
      const edit = await s.api('POST', `/webhooks/edit/${endpointId}.json`, { token, body: {} });
      expect(edit.status).toBe(400);
    });

    it('another company sees nothing and changes nothing', async () => {
      const harbor = await t('admin@harbor.test');
      expect((await s.api('GET', '/webhooks/index.json', { token: harbor })).body.endpoints).toEqual([]);
      expect((await s.api('GET', `/webhooks/view/${endpointId}.json`, { token: harbor })).status).toBe(404);
      expect(
        (await s.api('POST', `/webhooks/edit/${endpointId}.json`, { token: harbor, body: { active: false } })).status,
      ).toBe(404);
      expect((await s.api('POST', `/webhooks/rotate_secret/${endpointId}.json`, { token: harbor })).status).toBe(404);
      expect((await s.api('GET', `/webhooks/deliveries/${endpointId}.json`, { token: harbor })).status).toBe(404);
      expect((await s.api('POST', `/webhooks/delete/${endpointId}.json`, { token: harbor })).status).toBe(404);
      const row = await s.ctx.db
        .selectFrom('webhook_endpoints')
        .select(['active', 'deleted', 'secret'])
        .where('id', '=', endpointId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ active: 1, deleted: 0, secret });
    });
  });

  describe('delivery', () => {
    it('delivers a signed event with the flight as the API presents it', async () => {
      const id = await draft('2026-03-02');
      expect((await cancel(id)).status).toBe(200);
      expect(await deliver()).toBe(true);
      expect(rx.got).toHaveLength(1);
      const got = rx.got[0];
      expect(got.path).toBe('/hook');
      const ts = String(got.headers['x-webhook-timestamp']);
      expect(
        verifyWebhook(secret, String(got.headers['x-webhook-signature']), ts, got.body, Math.floor(Date.now() / 1000)),
      ).toBe(true);
      expect(
        verifyWebhook(
          'whsec_wrong',
          String(got.headers['x-webhook-signature']),
          ts,
          got.body,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(false);
      expect(
        verifyWebhook(
          secret,
          String(got.headers['x-webhook-signature']),
          ts,
          `${got.body} `,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(false);
      const event = JSON.parse(got.body);
      expect(event).toMatchObject({ type: 'flight.canceled', model: 'Flight', id: got.headers['x-webhook-id'] });
      expect(event.data.Flight).toMatchObject({ id, status: 'CANCELED', departure_airport: 'LECU' });
      expect(event.data.Aircraft.registration).toBe('EC-ABC');
      const [d] = await deliveries();
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, response_status: 204 });
      // Nothing left to deliver: a second pass sends nothing.
      await deliver();
      expect(rx.got).toHaveLength(1);
    });

    it('events nobody subscribed to, and refused decisions, are not recorded', async () => {
      const before = (await s.ctx.db.selectFrom('webhook_events').select('id').execute()).length;
      const id = await draft('2026-03-03');
      const again = await cancel(id);
      expect(again.status).toBe(200);
      expect((await cancel(id)).body).toBeTruthy(); // already canceled: no change, no event
      const dispatch = await s.api('POST', `/flights/dispatch/${id}.json`, { token: await t('dispatch@skyline.test') });
      expect(dispatch.body.result).toBe(false);
      const after = (await s.ctx.db.selectFrom('webhook_events').select(['type']).orderBy('id').execute()).slice(
        before,
      );
      expect(after.map((e) => e.type)).toEqual(['flight.canceled']);
      await deliver();
    });

    it('retries with back-off after the receiver fails, then delivers', async () => {
      rx.fail(2);
      const id = await draft('2026-03-04');
      await cancel(id);
      await deliver();
      expect(rx.got).toHaveLength(0);
      let [d] = (await deliveries()).filter((x) => x.record_id === id);
      expect(d).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
      expect(Number(d.next_attempt)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + 9);
      await deliver(); // not due yet
      expect((await deliveries()).find((x) => x.record_id === id)?.attempts).toBe(1);
      await makeDue();
      await deliver();
      [d] = (await deliveries()).filter((x) => x.record_id === id);
      expect(d).toMatchObject({ status: 'pending', attempts: 2 });
      await makeDue();
      await deliver();
      [d] = (await deliveries()).filter((x) => x.record_id === id);
      expect(d).toMatchObject({ status: 'delivered', attempts: 3 });
      expect(rx.got).toHaveLength(1);
    });

    it('keeps the order of one record: a later event waits for the earlier one', async () => {
      const token = await t('mechanic@skyline.test');
      const raise = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
        token,
        body: melBody(
          s.refs.aircraft['EC-DEF'],
          s.userId('mechanic@skyline.test'),
          { category: 'C' },
          { title: 'Landing light inop' },
        ),
      });
      expect(raise.status, JSON.stringify(raise.body)).toBe(200);
      const reportId = raise.body.id as string;
      rx.fail(1);
      await deliver(); // mel.raised fails once
      const close = await s.api('POST', `/maintenance/aircraft_reports/edit/${reportId}.json`, {
        token,
        body: { AircraftReport: { status: 'CLOSED' } },
      });
      expect(close.status, JSON.stringify(close.body)).toBe(200);
      await deliver(); // mel.raised not due, mel.closed must wait behind it
      expect(rx.got).toHaveLength(0);
      await makeDue();
      await deliver();
      expect(rx.got.map((g) => JSON.parse(g.body).type)).toEqual(['mel.raised', 'mel.closed']);
      expect(JSON.parse(rx.got[0].body).data.AircraftReport.id).toBe(reportId);
    });

    it('gives up after a day and lists the failure; a manual redelivery sends it again', async () => {
      rx.fail(1);
      const id = await draft('2026-03-05');
      await cancel(id);
      // The event is a day old: the failed attempt is the last one.
      await s.ctx.db
        .updateTable('webhook_events')
        .set({ created: Math.floor(Date.now() / 1000) - 86_400 })
        .where('record_id', '=', id)
        .execute();
      await deliver();
      const log = await s.api('GET', `/webhooks/deliveries/${endpointId}.json`, {
        token: await t('admin@skyline.test'),
      });
      const failed = log.body.deliveries.find((x: any) => x.record_id === id);
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 1,
        type: 'flight.canceled',
        error: 'HTTP 500',
        next_attempt: null,
      });
      const harbor = await s.api('POST', `/webhooks/redeliver/${failed.id}.json`, {
        token: await t('admin@harbor.test'),
      });
      expect(harbor.status).toBe(404);
      const again = await s.api('POST', `/webhooks/redeliver/${failed.id}.json`, {
        token: await t('admin@skyline.test'),
      });
      expect(again.body.result).toBe(true);
      await deliver();
      expect(rx.got.map((g) => JSON.parse(g.body).data.Flight.id)).toEqual([id]);
      const pending = await s.api('POST', `/webhooks/redeliver/${again.body.id}.json`, {
        token: await t('admin@skyline.test'),
      });
      expect(pending.status).toBe(200); // delivered by now, so it may be sent once more
      await deliver();
      expect(rx.got).toHaveLength(2);
    });

    it('another company’s endpoints never receive this company’s events', async () => {
      const other = await receiver();
      try {
        const r = await s.api('POST', '/webhooks/add.json', {
          token: await t('admin@harbor.test'),
          body: { url: other.url, events: ['flight.canceled'] },
        });
        expect(r.status).toBe(200);
        const id = await draft('2026-03-06');
        await cancel(id);
        await deliver();
        expect(rx.got).toHaveLength(1);
        expect(other.got).toHaveLength(0);
      } finally {
        await other.close();
      }
    });

    it('a rotated secret signs from then on; a deleted endpoint gets nothing more', async () => {
      const token = await t('admin@skyline.test');
      const rot = await s.api('POST', `/webhooks/rotate_secret/${endpointId}.json`, { token });
      const id = await draft('2026-03-07');
      await cancel(id);
      await deliver();
      const got = rx.got[0];
      expect(
        verifyWebhook(
          rot.body.secret,
          String(got.headers['x-webhook-signature']),
          String(got.headers['x-webhook-timestamp']),
          got.body,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(true);
      expect(
        verifyWebhook(
          secret,
          String(got.headers['x-webhook-signature']),
          String(got.headers['x-webhook-timestamp']),
          got.body,
          Math.floor(Date.now() / 1000),
        ),
      ).toBe(false);
      secret = rot.body.secret;
      const off = await s.api('POST', `/webhooks/edit/${endpointId}.json`, { token, body: { active: false } });
      expect(off.body.endpoint.active).toBe(false);
      await cancel(await draft('2026-03-08'));
      await deliver();
      expect(rx.got).toHaveLength(1);
      await s.api('POST', `/webhooks/edit/${endpointId}.json`, { token, body: { active: true } });
    });

    it('an event committed by a server killed before delivering is delivered by another process', async () => {
      const id = await draft('2026-03-09');
      const proc = await spawnServer(dialect, s.where, { JOBS: 'off' });
      try {
        const login = await fetch(`${proc.baseUrl}/login.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'dispatch@skyline.test', password: 'demo1234' }),
        });
        const { token } = (await login.json()) as { token: string };
        const r = await fetch(`${proc.baseUrl}/flights/cancel.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ id, reason: 'Crash test' }),
        });
        expect(r.status).toBe(200);
      } finally {
        await proc.kill();
      }
      expect(rx.got).toHaveLength(0);
      await deliver();
      expect(rx.got.map((g) => JSON.parse(g.body).data.Flight.id)).toEqual([id]);
    });

    it('deleting an endpoint keeps its log and stops its deliveries', async () => {
      const token = await t('admin@skyline.test');
      rx.fail(1);
      await cancel(await draft('2026-03-10'));
      await deliver();
      expect((await s.api('POST', `/webhooks/delete/${endpointId}.json`, { token })).body.result).toBe(true);
      await makeDue();
      await deliver();
      expect(rx.got).toHaveLength(0);
      expect((await s.api('GET', `/webhooks/view/${endpointId}.json`, { token })).status).toBe(404);
      const rows = await deliveries();
      expect(rows.at(-1)).toMatchObject({ status: 'failed', error: 'Endpoint disabled' });
    });
  });
});
