import { uuidv7 } from '@ops/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { pullAll } from '../../setup/sync.ts';
import { tokens } from '../pilots/people-helpers.ts';
import { addCertificate, aircraftId, createMultipart, directUpload } from './helpers.ts';
import { jpegWithExifSample, pdfSample } from './samples.ts';

/** The `files` collection: upload metadata offline, by the rule REST applies (docs/areas/uploads.md). */
describe.each(DIALECTS)('files collection on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let defectId: string;
  let photo: string;
  let signedOnly: string;
  let certUpload: string;
  let harborUpload: string;

  const files = async (email: string) => (await pullAll(s, await t(email), 'files')).docs;
  const live = async (email: string) => (await files(email)).filter((d: any) => !d._deleted);
  const ids = async (email: string) => (await live(email)).map((d: any) => d.id);

  beforeAll(async () => {
    s = await startTestServer(dialect);
    const mech = await t('mechanic@skyline.test');
    const created = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
      token: mech,
      body: {
        AircraftReport: { aircraft_id: aircraftId(s), type: 'DEFECT', title: 'Cracked fairing', severity: 'LOW' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    defectId = created.body.id;
    const jpeg = await jpegWithExifSample(120, 80);
    const d = await directUpload(s, mech, jpeg, {
      filename: 'crack.jpg',
      mime: 'image/jpeg',
      model: 'AircraftReport',
      foreign_key: defectId,
    });
    expect(d.complete.status, JSON.stringify(d.complete.body)).toBe(200);
    photo = d.sign.body.upload_id;
    // Signed but never completed: inactive, the mechanic's own.
    const sign = await s.api('POST', '/uploads/sign.json', {
      token: mech,
      body: {
        filename: 'later.pdf',
        mime: 'application/pdf',
        size: 100,
        model: 'AircraftReport',
        foreign_key: defectId,
      },
    });
    expect(sign.status).toBe(200);
    signedOnly = sign.body.upload_id;
    const certId = await addCertificate(s, 'pilot@skyline.test');
    const cert = await createMultipart(
      s,
      await t('pilot@skyline.test'),
      { bytes: jpeg, filename: 'medical.jpg', mime: 'image/jpeg' },
      { active: '1', model: 'UserCertificate', id: certId },
    );
    expect(cert.status, JSON.stringify(cert.body)).toBe(200);
    certUpload = cert.body.file.id;
    const harbor = await createMultipart(
      s,
      await t('admin@harbor.test'),
      { bytes: pdfSample(), filename: 'harbor.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Checklist', id: uuidv7() },
    );
    expect(harbor.status).toBe(200);
    harborUpload = harbor.body.file.id;
  });
  afterAll(() => s?.close());

  it('carries the attachment metadata of a record, never storage keys or EXIF', async () => {
    const doc = (await live('mechanic@skyline.test')).find((d: any) => d.id === photo);
    expect(doc).toMatchObject({
      type: 'upload',
      file_type: 'photo',
      filename: 'crack.jpg',
      mime: 'image/jpeg',
      model: 'AircraftReport',
      foreign_key: defectId,
      width: 120,
      height: 80,
      active: true,
      verified: true,
      has_thumb: true,
      downloadable: true,
      user_id: s.userId('mechanic@skyline.test'),
    });
    expect(doc.size).toBeGreaterThan(0);
    for (const hidden of ['storage_key', 'thumb_key', 'exif', 'company_id', 'declared_size'])
      expect(doc).not.toHaveProperty(hidden);
  });

  it('rows by the REST rule: active uploads to the whole company, inactive ones to their uploader only', async () => {
    const mech = await ids('mechanic@skyline.test');
    expect(mech).toEqual(expect.arrayContaining([photo, signedOnly, certUpload]));
    expect((await live('mechanic@skyline.test')).find((d: any) => d.id === signedOnly)).toMatchObject({
      active: false,
      verified: false,
      downloadable: false,
      has_thumb: false,
      model: 'AircraftReport',
    });
    for (const email of ['pilot@skyline.test', 'admin@skyline.test', 'student@skyline.test']) {
      const seen = await ids(email);
      expect(seen, email).toEqual(expect.arrayContaining([photo, certUpload]));
      expect(seen, email).not.toContain(signedOnly);
      // The same answer as REST: view is 404 for the inactive upload of someone else.
      expect((await s.api('GET', `/uploads/view/${signedOnly}.json`, { token: await t(email) })).status, email).toBe(
        404,
      );
    }
    // The REST index of the defect lists exactly the active documents of that record.
    const index = await s.api('GET', `/uploads/index/AircraftReport/${defectId}.json`, {
      token: await t('pilot@skyline.test'),
    });
    const synced = (await live('pilot@skyline.test'))
      .filter((d: any) => d.model === 'AircraftReport' && d.foreign_key === defectId)
      .map((d: any) => d.id);
    expect(index.body.uploads.map((u: any) => u.id).sort()).toEqual(synced.sort());
  });

  it('External Auditor: certificate files are withheld (no thumbnail, not downloadable), like REST', async () => {
    const docs = await live('auditor@skyline.test');
    expect(docs.find((d: any) => d.id === certUpload)).toMatchObject({
      filename: 'medical.jpg',
      has_thumb: false,
      downloadable: false,
    });
    expect(docs.find((d: any) => d.id === photo)).toMatchObject({ has_thumb: true, downloadable: true });
    const auditor = await t('auditor@skyline.test');
    expect((await s.api('GET', `/uploads/download/${certUpload}.json`, { token: auditor })).status).toBe(403);
    const index = await s.api(
      'GET',
      `/uploads/index/UserCertificate/${docs.find((d: any) => d.id === certUpload).foreign_key}.json`,
      { token: auditor },
    );
    expect(index.body.uploads[0]).not.toHaveProperty('thumb_url');
    // Everyone else gets the certificate file.
    expect((await live('admin@skyline.test')).find((d: any) => d.id === certUpload)).toMatchObject({
      has_thumb: true,
      downloadable: true,
    });
  });

  it('isolation: each company pulls only its own uploads', async () => {
    const sky = await ids('admin@skyline.test');
    expect(sky).not.toContain(harborUpload);
    const harbor = await files('admin@harbor.test');
    expect(harbor.map((d: any) => d.id)).toEqual([harborUpload]);
    expect(JSON.stringify(harbor)).not.toContain(defectId);
  });

  it('incremental pulls: a completed upload appears for others, a deleted one goes away', async () => {
    const pilot = await t('pilot@skyline.test');
    const { checkpoint } = await pullAll(s, pilot, 'files');
    const mech = await t('mechanic@skyline.test');
    const d = await directUpload(s, mech, pdfSample(), {
      filename: 'work-card.pdf',
      mime: 'application/pdf',
      model: 'AircraftReport',
      foreign_key: defectId,
    });
    expect(d.complete.status).toBe(200);
    expect((await s.api('GET', `/uploads/delete/${photo}.json`, { token: mech })).status).toBe(200);
    const next = await pullAll(s, pilot, 'files', checkpoint);
    expect(next.docs.find((x: any) => x.id === d.sign.body.upload_id)).toMatchObject({
      _deleted: false,
      filename: 'work-card.pdf',
      active: true,
      has_thumb: false,
    });
    expect(next.docs.find((x: any) => x.id === photo)).toMatchObject({ _deleted: true });
    // A signed-only upload of someone else reaches an incremental pull as a deletion without content.
    const other = await s.api('POST', '/uploads/sign.json', {
      token: mech,
      body: {
        filename: 'secret-name.pdf',
        mime: 'application/pdf',
        size: 100,
        model: 'AircraftReport',
        foreign_key: defectId,
      },
    });
    const after = await pullAll(s, pilot, 'files', next.checkpoint);
    const stub = after.docs.find((x: any) => x.id === other.body.upload_id);
    expect(stub).toMatchObject({ _deleted: true });
    expect(JSON.stringify(stub)).not.toContain('secret-name');
  });

  it('is read-only through sync', async () => {
    const r = await s.api('POST', '/sync/files/push.json', {
      token: await t('admin@skyline.test'),
      body: {
        rows: [{ assumedMasterState: null, newDocumentState: { id: uuidv7(), type: 'upload', filename: 'x.pdf' } }],
      },
    });
    // Refused as a conflict: the master state (none, so a deletion without content) comes back.
    expect(r.status).toBe(200);
    expect(r.body.conflicts).toEqual([expect.objectContaining({ _deleted: true })]);
    expect(
      await s.ctx.db.selectFrom('uploads').select('id').where('filename', '=', 'x.pdf').executeTakeFirst(),
    ).toBeUndefined();
  });
});
