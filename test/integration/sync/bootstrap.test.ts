/**
 * The bootstrap stream (issue 35, docs/sync.md "The bootstrap stream"): a
 * device's first sync of several collections as one NDJSON answer. Each
 * collection's lines are exactly the pages the pull endpoint answers from a
 * `null` checkpoint for the same caller (documents, role filtering, bounds,
 * `total`, checkpoints, the last one without `snap`), in the order asked, then
 * `{"done":true}`. Another company's rows never appear; bad input is a 400 and
 * writes nothing; a session revoked between collections ends the stream with
 * an error line; a client gone stops the reading.
 */
import { COLLECTIONS } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../../server/src/http/authenticate.ts';
import { type BootstrapLine, streamBootstrap } from '../../../server/src/sync/bootstrap.ts';
import { getCollection, type RegisteredCollection } from '../../../server/src/sync/registry.ts';
import { seedDeviceBench } from '../../bench/device-seed.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

type Page = { documents: Array<{ id: string }>; checkpoint: { snap?: number }; total?: number };
const LIMIT = 200;

describe.each(DIALECTS)('bootstrap stream on %s', (dialect) => {
  let s: TestServer;

  /** The stream's lines, parsed (the raw answer must be NDJSON: one JSON document per line). */
  const stream = async (token: string | null, body: unknown) => {
    const r = await s.api('POST', '/sync/bootstrap.json', { token, body });
    if (r.status !== 200) return { status: r.status, body: r.body, lines: [] as Record<string, unknown>[] };
    expect(r.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const text = r.body as string;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { status: r.status, body: null, lines };
  };

  /** What the pull endpoint answers for a load from nothing: the first page with `count`, until the load's end. */
  const pulls = async (token: string, collection: string) => {
    const pages: Page[] = [];
    let checkpoint: unknown = null;
    for (;;) {
      const r = await s.api('POST', `/sync/${collection}/pull.json`, {
        token,
        body: { checkpoint, limit: LIMIT, ...(checkpoint === null ? { count: true } : {}) },
      });
      expect(r.status).toBe(200);
      const page = r.body as Page;
      pages.push(page);
      if (page.checkpoint.snap === undefined) return pages;
      checkpoint = page.checkpoint;
    }
  };

  /** `derived_at` is the read's clock (aircraft reports' derived status): a second apart between two reads. */
  const timeless = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === 'derived_at' ? 0 : x)));
  const linesOf = (lines: Record<string, unknown>[], collection: string) =>
    lines.filter((l) => l.collection === collection).map(({ collection: _, ...page }) => page);

  beforeAll(async () => {
    s = await startTestServer(dialect, { seed: 'demo' });
    await seedDeviceBench(s, {
      users: 30,
      students: 4,
      flights: 700,
      bookings: 300,
      aircraftReports: 80,
      safetyReports: 40,
    });
  });
  afterAll(() => s?.close());

  it.each([
    ['an office device', 'admin@skyline.test'],
    ['a pilot', 'pilot@skyline.test'],
  ])('sends %s exactly the pages its pulls would answer, collection after collection, then done', async (_, email) => {
    const token = await s.login(email);
    const names = COLLECTIONS.map((c) => c.name);
    const out = await stream(token, { collections: names, limit: LIMIT });
    expect(out.status).toBe(200);
    expect(out.lines.at(-1)).toEqual({ done: true });
    // In the order asked: each collection's lines together.
    const order = [...new Set(out.lines.slice(0, -1).map((l) => l.collection))];
    expect(order).toEqual(names);
    for (const name of names) {
      const expected = await pulls(token, name);
      expect({ name, pages: timeless(linesOf(out.lines, name)) }).toEqual({ name, pages: timeless(expected) });
      // The last checkpoint is where live pulls continue: no `snap`, read to the end.
      expect(expected.at(-1)?.checkpoint).toMatchObject({ tail: true });
    }
  });

  it("filters by role like the pull: a pilot gets fewer flights than the office, and another company's never come", async () => {
    const ids = async (email: string) => {
      const out = await stream(await s.login(email), { collections: ['flights', 'people'], limit: LIMIT });
      return new Set(
        out.lines
          .flatMap((l) => (l.collection === 'flights' ? (l.documents as Array<{ id: string }>) : []))
          .map((d) => d.id),
      );
    };
    const office = await ids('admin@skyline.test');
    const pilot = await ids('pilot@skyline.test');
    const harbor = await ids('admin@harbor.test');
    expect(pilot.size).toBeGreaterThan(0);
    expect(pilot.size).toBeLessThan(office.size);
    expect(harbor.size).toBeGreaterThan(0);
    for (const id of harbor) expect(office.has(id)).toBe(false);
    const harborFlights = await s.ctx.db
      .selectFrom('flights')
      .select('id')
      .where('company_id', '=', s.refs.companies.skyline)
      .where('id', 'in', [...harbor])
      .execute();
    expect(harborFlights).toEqual([]);
  });

  it('refuses bad input with a 400 and no stream, and a missing credential with a 401', async () => {
    const token = await s.login('pilot@skyline.test');
    for (const body of [
      { collections: ['flights', 'nothing'] },
      { collections: [] },
      { collections: ['flights', 'flights'] },
      { collections: ['flights'], limit: 0 },
      { collections: ['flights'], limit: 1001 },
      { collections: 'flights' },
      {},
    ]) {
      const out = await stream(token, body);
      expect({ body, status: out.status }).toEqual({ body, status: 400 });
      expect(out.body).toMatchObject({ result: false, message: expect.any(String) });
    }
    expect((await stream(null, { collections: ['flights'] })).status).toBe(401);
  });

  it('ends with an error line when the session is revoked between collections, and stops when the client left', async () => {
    const token = await s.login('admin@skyline.test');
    const auth = await authenticate(s.ctx.db, token);
    if (!auth.ok) throw new Error(auth.message);
    const collections = ['people', 'flights'].map((n) => getCollection(n) as RegisteredCollection);
    const lines: BootstrapLine[] = [];
    await streamBootstrap(s.ctx, auth.actor, token, collections, LIMIT, {
      gone: () => false,
      write: async (line) => {
        lines.push(line);
        // The people's last page: the person signs out before the next collection is read.
        if ('collection' in line && line.checkpoint.snap === undefined)
          expect((await s.api('POST', '/logout.json', { token })).status).toBe(200);
      },
    });
    expect(lines.filter((l) => 'collection' in l && l.collection === 'people').length).toBeGreaterThan(0);
    expect(lines.some((l) => 'collection' in l && l.collection === 'flights')).toBe(false);
    expect(lines.at(-1)).toMatchObject({ error: { status: 401 } });
    expect(lines.some((l) => 'done' in l)).toBe(false);

    const other = await s.login('admin@skyline.test');
    const again = await authenticate(s.ctx.db, other);
    if (!again.ok) throw new Error(again.message);
    const seen: BootstrapLine[] = [];
    await streamBootstrap(s.ctx, again.actor, other, collections, 10, {
      gone: () => seen.length > 0,
      write: async (line) => {
        seen.push(line);
      },
    });
    // One page, then nothing: no further page read, no done line.
    expect(seen).toHaveLength(1);
  });
});
