import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokens } from '../pilots/people-helpers.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

describe.each(DIALECTS)('Pilot certificates on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  let paula: string;
  let stefan: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
    paula = s.userId('pilot@skyline.test');
    stefan = s.userId('student@skyline.test');
  });
  afterAll(() => s?.close());

  const save = async (email: string, UserCertificate: Record<string, unknown>) =>
    s.api('POST', '/pilots/certificates/edit.json', { token: await tok(email), body: { UserCertificate } });
  const list = async (email: string, userId?: string) =>
    s.api('GET', userId ? `/pilots/certificates/${userId}.json` : '/pilots/certificates.json', {
      token: await tok(email),
    });
  const count = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom('user_certificates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const row = (id: string) =>
    s.ctx.db.selectFrom('user_certificates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('answers 401 without a token', async () => {
    expect((await s.api('POST', '/pilots/certificates/edit.json', { body: {} })).status).toBe(401);
    expect((await s.api('GET', `/pilots/certificates/${paula}.json`)).status).toBe(401);
    expect((await s.api('GET', '/pilots/certificates.json')).status).toBe(401);
    expect((await s.api('POST', `/pilots/certificates/delete/${uuidv7()}.json`, { body: {} })).status).toBe(401);
    expect((await s.api('GET', '/pilots/certificate_types.json')).status).toBe(401);
  });

  it('the catalog lists EASA and FAA licences, ratings and medicals with unique keys', async () => {
    const r = await s.api('GET', '/pilots/certificate_types.json', { token: await tok('student@skyline.test') });
    expect(r.status).toBe(200);
    const types = r.body.certificate_types;
    const keys = types.map((t: any) => t.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of [
      'LAPL',
      'PPL',
      'CPL',
      'ATPL',
      'IR',
      'ME',
      'SEP',
      'MEP',
      'MCC',
      'FI',
      'CRI',
      'IRI',
      'TRI',
      'SFI',
      'FE',
      'MED_CLASS1',
      'MED_CLASS2',
      'MED_LAPL',
      'FAA_PRIVATE',
      'FAA_COMMERCIAL',
      'FAA_ATP',
      'FAA_CFI',
      'FAA_CFII',
      'FAA_MEI',
      'FAA_MED_1',
      'FAA_MED_2',
      'FAA_MED_3',
    ]) {
      expect(keys, k).toContain(k);
    }
    expect(types.find((t: any) => t.key === 'PPL')).toEqual({
      key: 'PPL',
      name: 'Private Pilot Licence (PPL)',
      kind: 'licence',
      authority: 'EASA',
    });
    expect(types.find((t: any) => t.key === 'FAA_MED_3')).toMatchObject({ kind: 'medical', authority: 'FAA' });
    expect(types.find((t: any) => t.key === 'IR')).toMatchObject({ kind: 'rating' });
    expect(new Set(types.map((t: any) => t.kind))).toEqual(new Set(['licence', 'rating', 'medical']));
  });

  it('a pilot records their own certificate; the name defaults to the catalog name', async () => {
    const r = await save('pilot@skyline.test', {
      user_id: paula,
      type: 'PPL',
      issue: '2020-05-01',
      expiration: day(400),
      comments: 'ES.FCL.12345',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ result: true, id: expect.any(String) });
    expect(r.body.UserCertificate).toEqual({
      id: r.body.id,
      user_id: paula,
      type: 'PPL',
      name: 'Private Pilot Licence (PPL)',
      issue: '2020-05-01',
      expiration: day(400),
      comments: 'ES.FCL.12345',
      Upload: null,
    });
    const stored = await row(r.body.id);
    expect(stored.company_id).toBe(s.refs.companies.skyline);
    expect(Number(stored.change_no)).toBeGreaterThan(0);
  });

  it('form fields data[UserCertificate][...] are accepted', async () => {
    const r = await s.api('POST', '/pilots/certificates/edit.json', {
      token: await tok('pilot@skyline.test'),
      form: {
        'data[UserCertificate][user_id]': paula,
        'data[UserCertificate][type]': 'MED_CLASS2',
        'data[UserCertificate][expiration]': day(200),
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.UserCertificate).toMatchObject({
      type: 'MED_CLASS2',
      name: 'Class 2 medical certificate',
      issue: null,
      expiration: day(200),
    });
  });

  it('roles <= 150 write for anyone of the company; others only for themselves (403, nothing written)', async () => {
    const ok = await save('instructor@skyline.test', {
      user_id: stefan,
      type: 'LAPL',
      name: 'LAPL(A) student',
      expiration: day(30),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.UserCertificate.name).toBe('LAPL(A) student');
    const before = await count();
    for (const email of ['dispatch@skyline.test', 'pilot@skyline.test', 'mechanic@skyline.test']) {
      const r = await save(email, { user_id: stefan, type: 'PPL' });
      expect(r.status, email).toBe(403);
    }
    expect(await count()).toBe(before);
  });

  it('the external auditor writes no certificate, not even their own', async () => {
    const before = await count();
    const r = await save('auditor@skyline.test', { user_id: s.userId('auditor@skyline.test'), type: 'PPL' });
    expect(r.status).toBe(403);
    expect(await count()).toBe(before);
  });

  it('validates: unknown type, bad date, expiration before issue, missing user; nothing is written', async () => {
    const before = await count();
    const unknown = await save('pilot@skyline.test', { user_id: paula, type: 'JEDI' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.result).toBe(false);
    expect(unknown.body.errors.type[0]).toMatch(/Unknown certificate type/);
    const badDate = await save('pilot@skyline.test', { user_id: paula, type: 'PPL', expiration: '2025-13-40' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors.expiration).toBeDefined();
    const reversed = await save('pilot@skyline.test', {
      user_id: paula,
      type: 'PPL',
      issue: '2024-05-01',
      expiration: '2024-04-01',
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body.errors.expiration[0]).toMatch(/before the issue/);
    const noUser = await save('pilot@skyline.test', { type: 'PPL' });
    expect(noUser.status).toBe(400);
    expect(noUser.body.errors.user_id).toBeDefined();
    expect(await count()).toBe(before);
  });

  it('edits an existing certificate partially; it never moves to another person', async () => {
    const created = await save('pilot@skyline.test', {
      user_id: paula,
      type: 'SEP',
      issue: '2023-01-10',
      expiration: day(100),
      comments: 'first',
    });
    const id = created.body.id;
    const r = await save('pilot@skyline.test', { id, user_id: paula, type: 'SEP', expiration: day(465) });
    expect(r.status).toBe(200);
    expect(r.body.UserCertificate).toMatchObject({
      id,
      issue: '2023-01-10',
      expiration: day(465),
      comments: 'first',
      name: 'Single-engine piston class rating (SEP)',
    });
    const before = await row(id);
    const intoPast = await save('pilot@skyline.test', { id, user_id: paula, type: 'SEP', expiration: '2022-01-01' });
    expect(intoPast.status).toBe(400);
    const move = await save('admin@skyline.test', { id, user_id: stefan, type: 'SEP' });
    expect(move.status).toBe(400);
    expect(move.body.errors.user_id).toBeDefined();
    const others = await save('dual@demo.test', { id, user_id: s.userId('dual@demo.test'), type: 'SEP' });
    expect(others.status).toBe(403);
    expect(await row(id)).toEqual(before);
  });

  it('another company’s user or certificate is 404 and nothing changes', async () => {
    const before = await count();
    const foreignUser = await save('admin@skyline.test', {
      user_id: s.userId('pilot@harbor.test', 'harbor'),
      type: 'PPL',
    });
    expect(foreignUser.status).toBe(404);
    expect(await count()).toBe(before);
    const harbor = await save('admin@harbor.test', {
      user_id: s.userId('pilot@harbor.test', 'harbor'),
      type: 'FAA_PRIVATE',
    });
    expect(harbor.status).toBe(200);
    const snapshot = await row(harbor.body.id);
    const foreignCert = await save('admin@skyline.test', { id: harbor.body.id, user_id: paula, type: 'PPL' });
    expect(foreignCert.status).toBe(404);
    expect(await row(harbor.body.id)).toEqual(snapshot);
    const listed = await list('admin@skyline.test', s.userId('pilot@harbor.test', 'harbor'));
    expect(listed.status).toBe(404);
    expect(JSON.stringify(listed.body)).not.toContain('FAA_PRIVATE');
    expect(
      (
        await s.api('POST', `/pilots/certificates/delete/${harbor.body.id}.json`, {
          token: await tok('admin@skyline.test'),
        })
      ).status,
    ).toBe(404);
    expect((await row(harbor.body.id)).deleted).toBe(0);
  });

  it('lists: own by default; roles <= 150 anyone’s; others get 403 for another person', async () => {
    const own = await list('pilot@skyline.test');
    expect(own.status).toBe(200);
    expect(own.body.certificates.length).toBeGreaterThan(0);
    expect(own.body.certificates.every((c: any) => c.user_id === paula)).toBe(true);
    expect(own.body.certificates[0]).toHaveProperty('Upload');
    const byInstructor = await list('instructor@skyline.test', stefan);
    expect(byInstructor.status).toBe(200);
    expect(byInstructor.body.certificates.map((c: any) => c.type)).toContain('LAPL');
    for (const email of ['dispatch@skyline.test', 'pilot@skyline.test', 'auditor@skyline.test']) {
      const r = await list(email, stefan);
      expect(r.status, email).toBe(403);
      expect(r.body.certificates).toBeUndefined();
    }
    const self = await list('student@skyline.test', stefan);
    expect(self.status).toBe(200);
  });

  it('delete: own yes; another’s no for roles > 150; a deleted certificate leaves the list', async () => {
    const mine = await save('pilot@skyline.test', { user_id: paula, type: 'NIGHT' });
    const theirs = await save('instructor@skyline.test', { user_id: stefan, type: 'MED_LAPL' });
    expect(
      (
        await s.api('POST', `/pilots/certificates/delete/${theirs.body.id}.json`, {
          token: await tok('pilot@skyline.test'),
        })
      ).status,
    ).toBe(403);
    expect((await row(theirs.body.id)).deleted).toBe(0);
    const r = await s.api('POST', `/pilots/certificates/delete/${mine.body.id}.json`, {
      token: await tok('pilot@skyline.test'),
    });
    expect(r.status).toBe(200);
    expect((await row(mine.body.id)).deleted).toBe(1);
    expect((await list('pilot@skyline.test')).body.certificates.map((c: any) => c.id)).not.toContain(mine.body.id);
    expect(
      (
        await s.api('POST', `/pilots/certificates/delete/${theirs.body.id}.json`, {
          token: await tok('instructor@skyline.test'),
        })
      ).status,
    ).toBe(200);
  });

  it('a certificate expiring soon shows as a UserCertificate alert (same table as the alerts source)', async () => {
    const created = await save('admin@skyline.test', { user_id: stefan, type: 'MED_CLASS1', expiration: day(12) });
    const r = await s.api('GET', '/companies/alerts.json', { token: await tok('admin@skyline.test') });
    expect(r.status).toBe(200);
    const alert = r.body.find((a: any) => a.type === 'UserCertificate' && a.name === 'Class 1 medical certificate');
    expect(alert).toMatchObject({ details: 'Stefan Student', class: 'text-warning' });
    await s.api('POST', `/pilots/certificates/delete/${created.body.id}.json`, {
      token: await tok('admin@skyline.test'),
    });
  });

  it('own certificates replicate in `people`; another person’s never', async () => {
    const token = await tok('student@skyline.test');
    const pull = await s.api('POST', '/sync/people/pull.json', { token, body: { checkpoint: null, limit: 1000 } });
    expect(pull.status).toBe(200);
    const certs = pull.body.documents.filter((d: any) => d.type === 'certificate');
    expect(certs.length).toBeGreaterThan(0);
    expect(certs.every((d: any) => d.user_id === stefan && d.data.UserCertificate.user_id === stefan)).toBe(true);
    expect(certs.filter((d: any) => !d._deleted).map((d: any) => d.data.UserCertificate.type)).toContain('LAPL');
    const added = await save('instructor@skyline.test', { user_id: stefan, type: 'FI' });
    const foreign = await save('instructor@skyline.test', { user_id: paula, type: 'FI' });
    const next = await s.api('POST', '/sync/people/pull.json', {
      token,
      body: { checkpoint: pull.body.checkpoint, limit: 1000 },
    });
    const doc = next.body.documents.find((d: any) => d.id === added.body.id);
    expect(doc).toMatchObject({ type: 'certificate', user_id: stefan, _deleted: false });
    expect(doc.data.UserCertificate.type).toBe('FI');
    const leaked = next.body.documents.find((d: any) => d.id === foreign.body.id);
    // Incremental pulls send rows of others as content-free deletions.
    if (leaked) {
      expect(leaked).toMatchObject({ _deleted: true, type: '' });
      expect(leaked.data).toBeUndefined();
    }
    // Read-only on devices: a pushed change is answered with the master state and not applied.
    const { _deleted, ...edited } = doc;
    const push = await s.api('POST', '/sync/people/push.json', {
      token,
      body: {
        rows: [
          { assumedMasterState: doc, newDocumentState: { ...edited, data: { UserCertificate: { type: 'ATPL' } } } },
        ],
      },
    });
    expect(push.status).toBe(200);
    expect(push.body.conflicts.find((c: any) => c.id === added.body.id).data.UserCertificate.type).toBe('FI');
    expect((await row(added.body.id)).type).toBe('FI');
  });
});
