import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { authenticate, authenticateHashed, hashedCredential } from '../../../server/src/http/authenticate.ts';

describe.each(DIALECTS)('API keys on %s', (dialect) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    admin = await s.login('admin@skyline.test');
  });
  afterAll(() => s?.close());

  const create = (token: string, body: Record<string, unknown>) =>
    s.api('POST', '/manager/api_keys/add.json', { token, body });

  it('creates a key shown once, lists it without secrets, and the key authenticates as its user', async () => {
    const r = await create(admin, { name: 'Billing export', user_id: s.userId('dispatch@skyline.test') });
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(true);
    const key = r.body.key;
    expect(key.plaintext).toMatch(/^svc_/);
    expect(key.plaintext.startsWith(key.key_prefix)).toBe(true);
    const list = await s.api('GET', '/manager/api_keys.json', { token: admin });
    const row = list.body.keys.find((k: any) => k.ApiKey.id === key.id);
    expect(row.User).toEqual({ id: s.userId('dispatch@skyline.test'), email: 'dispatch@skyline.test' });
    expect(JSON.stringify(list.body)).not.toContain(key.plaintext);
    expect(row.ApiKey.last_used_at).toBeNull();
    const use = await s.api('GET', '/aircraft/index.json', { token: key.plaintext });
    expect(use.status).toBe(200);
    const after = await s.api('GET', '/manager/api_keys.json', { token: admin });
    expect(after.body.keys.find((k: any) => k.ApiKey.id === key.id).ApiKey.last_used_at).toBeGreaterThan(0);
    // The stored hash is not the key.
    const stored = await s.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).not.toContain(key.plaintext);
  });

  it('the live fan-out re-check by hash (authenticateHashed) answers as authenticate: session, key, revoked key, unknown', async () => {
    const key = (await create(admin, { name: 'Stream key', user_id: s.userId('dispatch@skyline.test') })).body.key;
    const gone = (await create(admin, { name: 'Gone key', user_id: s.userId('ops@skyline.test') })).body.key;
    await s.api('POST', `/manager/api_keys/revoke/${gone.id}.json`, { token: admin });
    const tokens = [admin, key.plaintext as string, gone.plaintext as string, 'not-a-token', 'svc_not-a-key'];
    const many = await authenticateHashed(s.ctx.db, tokens.map(hashedCredential));
    for (const t of tokens) {
      const one = await authenticate(s.ctx.db, t);
      const batched = many.get(hashedCredential(t).hash);
      expect(batched?.ok, t).toBe(one.ok);
      if (one.ok && batched?.ok) expect(batched.actor.userId).toBe(one.actor.userId);
      if (!one.ok && batched && !batched.ok) expect(batched.message).toBe(one.message);
    }
    expect(tokens.map((t) => many.get(hashedCredential(t).hash)?.ok)).toEqual([true, true, false, false, false]);
  });

  it('the fan-out re-check over thousands of sessions (queries side by side) finds every revoked and expired one', async () => {
    const me = await s.ctx.db
      .selectFrom('users')
      .select(['id', 'identity_id', 'company_id'])
      .where('id', '=', s.userId('pilot@skyline.test'))
      .executeTakeFirstOrThrow();
    const identityId = me.identity_id as string; // the fixture pilot has a login
    const now = Math.floor(Date.now() / 1000);
    // 2,300 sessions: five queries of 500, in two rounds; the refused ones sit in different queries.
    const tokens = Array.from({ length: 2_300 }, (_, i) => `fanout-recheck-${dialect}-${i}-${now}`);
    const revoked = new Set([10, 1_210, 2_290]);
    const expired = new Set([777]);
    for (let i = 0; i < tokens.length; i += 200)
      await s.ctx.db
        .insertInto('sessions')
        .values(
          tokens.slice(i, i + 200).map((t, k) => ({
            id: `ses-recheck-${dialect}-${i + k}`,
            token_hash: hashedCredential(t).hash,
            identity_id: identityId,
            user_id: me.id,
            company_id: me.company_id,
            created: now,
            expires: expired.has(i + k) ? now - 1 : now + 3_600,
            last_seen: now,
            revoked: revoked.has(i + k) ? 1 : 0,
          })),
        )
        .execute();
    const many = await authenticateHashed(s.ctx.db, tokens.map(hashedCredential));
    const refused = tokens.flatMap((t, i) => (many.get(hashedCredential(t).hash)?.ok ? [] : [i]));
    expect(refused).toEqual([10, 777, 1_210, 2_290]);
    expect(many.size).toBe(2_300);
  });

  it('never accepts an API key on key management, even for an admin-bound key', async () => {
    const r = await create(admin, { name: 'Admin key', user_id: s.userId('admin@skyline.test') });
    const key = r.body.key.plaintext;
    expect((await s.api('GET', '/manager/api_keys.json', { token: key })).status).toBe(403);
    expect((await create(key, { name: 'x', user_id: s.userId('admin@skyline.test') })).status).toBe(403);
  });

  it('is unaffected by logout and never asks for two-factor', async () => {
    const r = await create(admin, { name: 'Auditor export', user_id: s.userId('auditor@skyline.test') });
    const key = r.body.key.plaintext;
    expect((await s.api('POST', '/logout.json', { token: key })).status).toBe(200);
    expect((await s.api('GET', '/aircraft/index.json', { token: key })).status).toBe(200);
  });

  it('revoke is irreversible and the key stops at once', async () => {
    const r = await create(admin, { name: 'Temp', user_id: s.userId('ops@skyline.test') });
    const key = r.body.key;
    const rev = await s.api('POST', `/manager/api_keys/revoke/${key.id}.json`, { token: admin });
    expect(rev.body).toMatchObject({ result: true });
    const denied = await s.api('GET', '/aircraft/index.json', { token: key.plaintext });
    expect(denied.status).toBe(401);
    expect(denied.body.message).toMatch(/revoked/i);
    const list = await s.api('GET', '/manager/api_keys.json', { token: admin });
    expect(list.body.keys.find((k: any) => k.ApiKey.id === key.id).ApiKey.revoked).toBe(true);
  });

  it('an expired key is refused', async () => {
    const soon = Math.floor(Date.now() / 1000) + 60;
    const r = await create(admin, { name: 'Short', user_id: s.userId('ops@skyline.test'), expires: soon });
    expect(r.body.key.expires).toBe(soon);
    await s.ctx.db
      .updateTable('api_keys')
      .set({ expires: soon - 120 })
      .where('id', '=', r.body.key.id)
      .execute();
    const denied = await s.api('GET', '/aircraft/index.json', { token: r.body.key.plaintext });
    expect(denied.status).toBe(401);
    expect(denied.body.message).toMatch(/expired/i);
  });

  it('validates input: missing name, past expiry, user of another company', async () => {
    const noName = await create(admin, { user_id: s.userId('ops@skyline.test') });
    expect(noName.status).toBe(400);
    expect(noName.body.errors.name).toBeDefined();
    const past = await create(admin, { name: 'x', user_id: s.userId('ops@skyline.test'), expires: 1000 });
    expect(past.status).toBe(400);
    const foreign = await create(admin, { name: 'x', user_id: s.userId('admin@harbor.test', 'harbor') });
    expect(foreign.status).toBe(404);
    const before = await s.ctx.db.selectFrom('api_keys').select('id').execute();
    expect(before.every((k) => k.id)).toBe(true);
  });

  it('gates by role: 110 may, 120 and a pilot may not; another company’s key is 404', async () => {
    const safety = await s.login('safety@skyline.test');
    expect((await s.api('GET', '/manager/api_keys.json', { token: safety })).status).toBe(200);
    for (const email of ['headtraining@skyline.test', 'pilot@skyline.test']) {
      const t = await s.login(email);
      expect((await s.api('GET', '/manager/api_keys.json', { token: t })).status).toBe(403);
    }
    const r = await create(admin, { name: 'Skyline only', user_id: s.userId('ops@skyline.test') });
    const harbor = await s.login('admin@harbor.test');
    expect((await s.api('POST', `/manager/api_keys/revoke/${r.body.key.id}.json`, { token: harbor })).status).toBe(404);
    expect((await s.api('GET', '/aircraft/index.json', { token: r.body.key.plaintext })).status).toBe(200);
  });
});
