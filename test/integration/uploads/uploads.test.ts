import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStore } from '@ops/server/files/index';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokens } from '../pilots/people-helpers.ts';
import {
  addCertificate,
  aircraftId,
  createMultipart,
  directUpload,
  fetchBytes,
  putBytes,
  uploadRow,
} from './helpers.ts';
import { jpegWithExifSample, mp3Sample, mp4Sample, pdfSample, pngSample } from './samples.ts';
import { DIALECT_STORES, type S3Fixture, startS3 } from './stores.ts';

describe.each(DIALECT_STORES)('Uploads on %s with the %s store', (dialect, storeKind) => {
  let s: TestServer;
  let s3: S3Fixture | null = null;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    if (storeKind === 's3') s3 = await startS3();
    s = await startTestServer(dialect, { env: s3?.env ?? {} });
    tok = tokens(() => s);
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  const stored = (key: string) => fileStore(s.ctx).head(key);

  it('uses the configured store', () => {
    expect(fileStore(s.ctx).kind).toBe(storeKind);
  });

  it('answers 401 without a token, and sign answers 404 (Part A 4.9)', async () => {
    for (const [m, p] of [
      ['GET', '/uploads/index/Aircraft/x.json'],
      ['GET', '/uploads/view/x.json'],
      ['GET', '/uploads/download/x.json'],
      ['POST', '/uploads/complete/x.json'],
      ['POST', '/uploads/create.json'],
      ['POST', '/uploads/confirm/x.json'],
      ['POST', '/uploads/expiration/x.json'],
      ['GET', '/uploads/delete/x.json'],
    ] as const) {
      const r = await s.api(m, p, m === 'POST' ? { body: {} } : {});
      expect(r.status, `${m} ${p}`).toBe(401);
      expect(r.body.result).toBe(false);
    }
    const sign = await s.api('POST', '/uploads/sign.json', {
      body: { filename: 'a.pdf', mime: 'application/pdf', size: 10, model: 'Aircraft', foreign_key: aircraftId(s) },
    });
    expect(sign.status).toBe(404);
    expect(sign.body.result).toBe(false);
    const bad = await s.api('POST', '/uploads/sign.json', { token: 'ses_not_a_token', body: {} });
    expect(bad.status).toBe(404);
  });

  it('sign validates the five parameters with clear 400s and writes nothing', async () => {
    const t = await tok('pilot@skyline.test');
    const before = await s.ctx.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const ok = { filename: 'a.pdf', mime: 'application/pdf', size: 100, model: 'Aircraft', foreign_key: aircraftId(s) };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'filename', 'Missing parameters'],
      [{ ...ok, filename: '' }, 'filename', 'Missing parameters'],
      [{ ...ok, mime: 'application/x-msdownload' }, 'mime', 'Unsupported file type'],
      [{ ...ok, size: 'ten' }, 'size', 'Invalid size'],
      [{ ...ok, size: -5 }, 'size', 'Invalid size'],
      [{ ...ok, size: 2 * 1024 ** 3 + 1 }, 'size', 'File is larger than 2 GB'],
      [{ ...ok, model: undefined }, 'model', 'Missing parameters'],
      [{ ...ok, foreign_key: '' }, 'foreign_key', 'Missing parameters'],
    ];
    for (const [body, field, error] of cases) {
      const r = await s.api('POST', '/uploads/sign.json', { token: t, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.result).toBe(false);
      expect(r.body.error).toBe(error);
      expect(Object.keys(r.body.errors)).toContain(field);
    }
    const after = await s.ctx.db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Exactly 2 GB is allowed.
    const max = await s.api('POST', '/uploads/sign.json', { token: t, body: { ...ok, size: 2 * 1024 ** 3 } });
    expect(max.status).toBe(200);
  });

  it('runs the direct flow for a PDF, PNG, JPEG with EXIF, MP3 and MP4, the PUT without Authorization', async () => {
    const t = await tok('pilot@skyline.test');
    const ac = aircraftId(s);
    const samples = [
      { bytes: pdfSample(), filename: 'arc.pdf', mime: 'application/pdf', type: 'document' },
      {
        bytes: await pngSample(64, 48),
        filename: 'panel.png',
        mime: 'image/png',
        type: 'photo',
        width: '64',
        height: '48',
      },
      {
        bytes: await jpegWithExifSample(120, 80),
        filename: 'défaut 1.jpg',
        mime: 'image/jpeg',
        type: 'photo',
        width: '120',
        height: '80',
      },
      { bytes: mp3Sample(), filename: 'engine.mp3', mime: 'audio/mpeg', type: 'sound' },
      { bytes: mp4Sample(), filename: 'runup.mp4', mime: 'video/mp4', type: 'video' },
    ];
    for (const sample of samples) {
      const d = await directUpload(s, t, sample.bytes, {
        filename: sample.filename,
        mime: sample.mime,
        foreign_key: ac,
      });
      expect(d.sign.body).toMatchObject({ result: true, error: null });
      expect(d.sign.body.expires).toBeGreaterThan(Date.now() / 1000 + 14 * 60);
      expect(d.sign.body.expires).toBeLessThanOrEqual(Date.now() / 1000 + 15 * 60 + 2);
      expect(d.sign.body.key).toContain(s.refs.companies.skyline);
      expect(d.put).toBe(200);
      expect(d.complete.status, JSON.stringify(d.complete.body)).toBe(200);
      expect(d.complete.body).toEqual({
        result: true,
        error: null,
        file: {
          id: d.sign.body.upload_id,
          filename: sample.filename,
          type: sample.type,
          mime: sample.mime,
          size: String(sample.bytes.length),
          active: true,
          model: 'Aircraft',
          foreign_key: ac,
        },
      });
      const view = await s.api('GET', `/uploads/view/${d.sign.body.upload_id}.json`, { token: t });
      expect(view.status).toBe(200);
      expect(view.body.upload).toMatchObject({
        id: d.sign.body.upload_id,
        size: String(sample.bytes.length),
        type: sample.type,
        width: sample.width ?? null,
        height: sample.height ?? null,
      });
      expect(view.body.upload.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      if (sample.mime === 'image/jpeg')
        expect(view.body.upload.exif).toMatchObject({ Make: 'HangarCam', Model: 'HC-20' });
      else expect(view.body.upload.exif).toBeNull();
      // Download: a redirect to a signed storage URL that serves the same bytes without credentials.
      const dl = await fetchBytes(`${s.baseUrl}/uploads/download/${d.sign.body.upload_id}.json`, { token: t });
      expect(dl.status).toBe(302);
      const file = await fetchBytes(dl.headers.get('location')!);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(sample.bytes)).toBe(true);
      // The repeated call answers the same record.
      const again = await s.api('POST', `/uploads/complete/${d.sign.body.upload_id}.json`, { token: t });
      expect(again.body).toEqual(d.complete.body);
    }
    // Images got a thumbnail, others none.
    const list = await s.api('GET', `/uploads/index/Aircraft/${ac}.json`, { token: t });
    const png = list.body.uploads.find((u: any) => u.filename === 'panel.png');
    const pdf = list.body.uploads.find((u: any) => u.filename === 'arc.pdf');
    expect(pdf.thumb_url).toBeNull();
    const thumb = await fetchBytes(png.thumb_url);
    expect(thumb.status).toBe(200);
    expect(thumb.bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
  });

  it('complete rejects a missing, empty, oversized or lying file and deletes object and record', async () => {
    const t = await tok('pilot@skyline.test');
    const ac = aircraftId(s);
    const png = await pngSample();
    const cases: Array<[string, Buffer | null, { mime: string; size?: number }, RegExp]> = [
      ['missing', null, { mime: 'image/png', size: 100 }, /not uploaded/],
      ['empty', Buffer.alloc(0), { mime: 'image/png', size: 100 }, /empty/],
      ['over the declared size', png, { mime: 'image/png', size: png.length - 1 }, /larger than the size signed/],
      ['a PNG declared as a PDF', png, { mime: 'application/pdf' }, /does not match/],
      ['a PDF declared as a JPEG', pdfSample(), { mime: 'image/jpeg' }, /does not match/],
      ['text declared as MP4', Buffer.from('just some text, no video here'), { mime: 'video/mp4' }, /does not match/],
    ];
    for (const [label, bytes, o, message] of cases) {
      const d = await directUpload(s, t, bytes, {
        filename: 'x.bin',
        mime: o.mime,
        size: o.size ?? bytes?.length,
        foreign_key: ac,
      });
      expect(d.complete.status, label).toBe(400);
      expect(d.complete.body.result).toBe(false);
      expect(d.complete.body.error, label).toMatch(message);
      const id = d.sign.body.upload_id;
      expect((await uploadRow(s, id))?.deleted, label).toBe(1);
      expect(await stored(d.sign.body.key), label).toBeNull();
      expect((await s.api('GET', `/uploads/view/${id}.json`, { token: t })).status).toBe(404);
      // The record is gone: a second complete is a 404.
      expect((await s.api('POST', `/uploads/complete/${id}.json`, { token: t })).status).toBe(404);
    }
  });

  it('complete takes only POST (405) and only from the signer (404)', async () => {
    const t = await tok('pilot@skyline.test');
    const sign = await s.api('POST', '/uploads/sign.json', {
      token: t,
      body: { filename: 'a.pdf', mime: 'application/pdf', size: 500, model: 'Aircraft', foreign_key: aircraftId(s) },
    });
    const id = sign.body.upload_id;
    expect(await putBytes(sign.body.url, pdfSample())).toBe(200);
    for (const m of ['GET', 'PUT', 'DELETE'])
      expect((await s.api(m, `/uploads/complete/${id}.json`, { token: t })).status, m).toBe(405);
    const other = await s.api('POST', `/uploads/complete/${id}.json`, { token: await tok('admin@skyline.test') });
    expect(other.status).toBe(404);
    expect((await uploadRow(s, id))?.verified).toBe(0);
    expect((await s.api('POST', `/uploads/complete/${id}.json`, { token: t })).status).toBe(200);
    // Once completed, the signed PUT URL no longer replaces the verified file (local store refuses; S3 writes to the staging key only).
    const status = await putBytes(sign.body.url, Buffer.from('tampered'));
    if (storeKind === 'local') expect(status).toBe(403);
    const dl = await fetchBytes(`${s.baseUrl}/uploads/download/${id}.json`, { token: t });
    expect((await fetchBytes(dl.headers.get('location')!)).bytes.equals(pdfSample())).toBe(true);
  });

  it('sign refuses a record of another company (404)', async () => {
    const r = await s.api('POST', '/uploads/sign.json', {
      token: await tok('admin@harbor.test'),
      body: { filename: 'a.pdf', mime: 'application/pdf', size: 10, model: 'Aircraft', foreign_key: aircraftId(s) },
    });
    expect(r.status).toBe(404);
  });

  it('create streams a multipart file; confirmed at once with active, model and id', async () => {
    const t = await tok('mechanic@skyline.test');
    const ac = aircraftId(s);
    const jpeg = await jpegWithExifSample(90, 60);
    const now = await createMultipart(
      s,
      t,
      { bytes: jpeg, filename: 'crack.jpg', mime: 'image/jpeg' },
      { active: '1', model: 'Aircraft', id: ac },
    );
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(now.body).toMatchObject({
      result: true,
      error: null,
      file: {
        filename: 'crack.jpg',
        type: 'photo',
        mime: 'image/jpeg',
        size: String(jpeg.length),
        active: true,
        model: 'Aircraft',
        foreign_key: ac,
      },
    });
    const view = await s.api('GET', `/uploads/view/${now.body.file.id}.json`, { token: t });
    expect(view.body.upload).toMatchObject({ width: '90', height: '60', exif: { Make: 'HangarCam' } });

    const later = await createMultipart(s, t, { bytes: pdfSample(), filename: 'wo.pdf', mime: 'application/pdf' });
    expect(later.body.file).toMatchObject({ active: false, model: null, foreign_key: null, type: 'document' });
    const notListed = await s.api('GET', `/uploads/index/Aircraft/${ac}.json`, { token: t });
    expect(notListed.body.uploads.map((u: any) => u.id)).not.toContain(later.body.file.id);
    // confirm: only the uploader, fields required.
    expect(
      (
        await s.api('POST', `/uploads/confirm/${later.body.file.id}.json`, {
          token: await tok('admin@skyline.test'),
          body: { model: 'Aircraft', foreign_key: ac },
        })
      ).status,
    ).toBe(404);
    const missing = await s.api('POST', `/uploads/confirm/${later.body.file.id}.json`, {
      token: t,
      body: { model: 'Aircraft' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.foreign_key).toBeDefined();
    const conf = await s.api('POST', `/uploads/confirm/${later.body.file.id}.json`, {
      token: t,
      body: { model: 'Aircraft', foreign_key: ac },
    });
    expect(conf.status).toBe(200);
    expect(conf.body).toEqual({
      result: true,
      Upload: { id: later.body.file.id, filename: 'wo.pdf', active: true, model: 'Aircraft', foreign_key: ac },
    });
    const listed = await s.api('GET', `/uploads/index/Aircraft/${ac}.json`, { token: t });
    expect(listed.body.uploads.map((u: any) => u.id)).toContain(later.body.file.id);
    // The part type defaults to what the bytes say when the client sends octet-stream.
    const sniffed = await createMultipart(s, t, {
      bytes: mp3Sample(),
      filename: 'noise',
      mime: 'application/octet-stream',
    });
    expect(sniffed.body.file).toMatchObject({ mime: 'audio/mpeg', type: 'sound' });
  });

  it('create rejects a missing file, a lying type, an unsupported type and a non-multipart body', async () => {
    const t = await tok('pilot@skyline.test');
    const before = Number(
      (
        await s.ctx.db
          .selectFrom('uploads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const noFile = await createMultipart(s, t, null, { model: 'Aircraft' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toMatch(/file/);
    const lying = await createMultipart(s, t, { bytes: await pngSample(), filename: 'x.pdf', mime: 'application/pdf' });
    expect(lying.status).toBe(400);
    expect(lying.body.error).toMatch(/does not match/);
    const exe = await createMultipart(s, t, {
      bytes: Buffer.from('MZ\x90\x00binary'),
      filename: 'x.exe',
      mime: 'application/x-msdownload',
    });
    expect(exe.status).toBe(400);
    const json = await s.api('POST', '/uploads/create.json', { token: t, body: { file: 'x' } });
    expect(json.status).toBe(400);
    const empty = await createMultipart(s, t, { bytes: Buffer.alloc(0), filename: 'e.txt', mime: 'text/plain' });
    expect(empty.status).toBe(400);
    const after = Number(
      (
        await s.ctx.db
          .selectFrom('uploads')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });

  it('index pages with the seven X- headers, newest first, uploader name', async () => {
    const t = await tok('instructor@skyline.test');
    const ac = aircraftId(s, 'EC-DEF');
    for (let i = 0; i < 3; i++) {
      const r = await createMultipart(
        s,
        t,
        { bytes: pdfSample(), filename: `doc${i}.pdf`, mime: 'application/pdf' },
        { active: 'true', model: 'Aircraft', id: ac },
      );
      expect(r.status).toBe(200);
    }
    const p1 = await s.api('GET', `/uploads/index/Aircraft/${ac}/limit:2.json`, { token: t });
    expect(p1.status).toBe(200);
    expect(p1.body.uploads).toHaveLength(2);
    expect(p1.body.paginate).toEqual({
      page: 1,
      current: 2,
      count: 3,
      prevPage: false,
      nextPage: true,
      pageCount: 2,
      limit: 2,
    });
    expect(
      Object.fromEntries(
        [
          'X-Total-Posts',
          'X-Actual-Page',
          'X-Paging-recs',
          'X-Paging-limit',
          'X-Paging-Prev-Page',
          'X-Paging-Next-Page',
          'X-Number-Pages',
        ].map((h) => [h, p1.headers.get(h)]),
      ),
    ).toEqual({
      'X-Total-Posts': '3',
      'X-Actual-Page': '1',
      'X-Paging-recs': '2',
      'X-Paging-limit': '2',
      'X-Paging-Prev-Page': 'false',
      'X-Paging-Next-Page': 'true',
      'X-Number-Pages': '2',
    });
    const row = p1.body.uploads[0];
    expect(row).toMatchObject({
      filename: 'doc2.pdf',
      user_name: 'Ivan Instructor',
      model: 'Aircraft',
      foreign_key: ac,
      type: 'document',
      active: true,
    });
    expect(typeof row.created).toBe('number');
    expect(typeof row.url).toBe('string');
    const p2 = await s.api('GET', `/uploads/index/Aircraft/${ac}.json?page=2&limit=2`, { token: t });
    expect(p2.body.uploads.map((u: any) => u.filename)).toEqual(['doc0.pdf']);
    expect(p2.headers.get('X-Paging-Prev-Page')).toBe('true');
    const bad = await s.api('GET', `/uploads/index/Aircraft/${ac}/limit:zero.json`, { token: t });
    expect(bad.status).toBe(400);
    const unknown = await s.api('GET', `/uploads/index/Aircraft/${ac}/sort:x.json`, { token: t });
    expect(unknown.status).toBe(400);
  });

  it('omits url and thumb_url on UserCertificate rows for the External Auditor', async () => {
    const cert = { id: await addCertificate(s) };
    const t = await tok('instructor@skyline.test');
    const up = await createMultipart(
      s,
      t,
      { bytes: await pngSample(), filename: 'medical.png', mime: 'image/png' },
      { active: '1', model: 'UserCertificate', id: cert.id },
    );
    expect(up.status).toBe(200);
    const auditor = await tok('auditor@skyline.test');
    const list = await s.api('GET', `/uploads/index/UserCertificate/${cert.id}.json`, { token: auditor });
    expect(list.status).toBe(200);
    expect(list.body.uploads.length).toBeGreaterThan(0);
    for (const row of list.body.uploads) {
      expect(row).not.toHaveProperty('url');
      expect(row).not.toHaveProperty('thumb_url');
      expect(row.filename).toBeDefined();
    }
    expect((await s.api('GET', `/uploads/download/${up.body.file.id}.json`, { token: auditor })).status).toBe(403);
    const staff = await s.api('GET', `/uploads/index/UserCertificate/${cert.id}.json`, { token: t });
    expect(typeof staff.body.uploads[0].url).toBe('string');
    expect(typeof staff.body.uploads[0].thumb_url).toBe('string');
    // Other models keep their URLs for the auditor.
    const ac = await s.api('GET', `/uploads/index/Aircraft/${aircraftId(s)}.json`, { token: auditor });
    expect(typeof ac.body.uploads[0].url).toBe('string');
  });

  it('expiration: staff (<= 170) any upload of the company, others only their own', async () => {
    const pilot = await tok('pilot@skyline.test');
    const up = await createMultipart(
      s,
      pilot,
      { bytes: pdfSample(), filename: 'insurance.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Aircraft', id: aircraftId(s) },
    );
    const id = up.body.file.id;
    const own = await s.api('POST', `/uploads/expiration/${id}.json`, {
      token: pilot,
      body: { expiration: '2027-03-31' },
    });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      result: true,
      file: {
        Upload: {
          id,
          filename: 'insurance.pdf',
          company_id: s.refs.companies.skyline,
          model: 'Aircraft',
          user_id: s.userId('pilot@skyline.test'),
          expiration: '2027-03-31',
        },
      },
    });
    const student = await s.api('POST', `/uploads/expiration/${id}.json`, {
      token: await tok('student@skyline.test'),
      body: { expiration: '2030-01-01' },
    });
    expect(student.status).toBe(404);
    const dispatch = await s.api('POST', `/uploads/expiration/${id}.json`, {
      token: await tok('dispatch@skyline.test'),
      form: { expiration: String(Date.UTC(2028, 5, 15, 12) / 1000) },
    });
    expect(dispatch.status).toBe(200);
    expect(dispatch.body.file.Upload.expiration).toBe('2028-06-15');
    const cleared = await s.api('POST', `/uploads/expiration/${id}.json`, { token: pilot, body: { expiration: '' } });
    expect(cleared.body.file.Upload.expiration).toBeNull();
    expect((await uploadRow(s, id))?.expiration).toBeNull();
    const missing = await s.api('POST', `/uploads/expiration/${id}.json`, { token: pilot, body: {} });
    expect(missing.status).toBe(400);
    const bad = await s.api('POST', `/uploads/expiration/${id}.json`, {
      token: pilot,
      body: { expiration: 'next tuesday' },
    });
    expect(bad.status).toBe(400);
    expect((await uploadRow(s, id))?.expiration).toBeNull();
  });

  it('delete removes record and file; staff any, others their own', async () => {
    const pilot = await tok('pilot@skyline.test');
    const mk = async () =>
      (
        await createMultipart(
          s,
          pilot,
          { bytes: await pngSample(), filename: 'p.png', mime: 'image/png' },
          { active: '1', model: 'Aircraft', id: aircraftId(s) },
        )
      ).body.file.id as string;
    const a = await mk();
    const rowA = (await uploadRow(s, a))!;
    expect(await stored(rowA.storage_key)).not.toBeNull();
    expect(rowA.thumb_key).not.toBeNull();
    expect((await s.api('GET', `/uploads/delete/${a}.json`, { token: await tok('student@skyline.test') })).status).toBe(
      404,
    );
    const del = await s.api('GET', `/uploads/delete/${a}.json`, { token: pilot });
    expect(del.body).toEqual({ result: true, id: a, filename: 'p.png' });
    expect((await uploadRow(s, a))?.deleted).toBe(1);
    expect(await stored(rowA.storage_key)).toBeNull();
    expect(await stored(rowA.thumb_key!)).toBeNull();
    expect((await s.api('GET', `/uploads/view/${a}.json`, { token: pilot })).status).toBe(404);
    const b = await mk();
    expect(
      (await s.api('GET', `/uploads/delete/${b}.json`, { token: await tok('dispatch@skyline.test') })).status,
    ).toBe(200);
    expect((await s.api('GET', `/uploads/delete/${b}.json`, { token: pilot })).status).toBe(404);
  });

  it('another company’s upload is 404 everywhere, never listed, never changed', async () => {
    const pilot = await tok('pilot@skyline.test');
    const ac = aircraftId(s);
    const up = await createMultipart(
      s,
      pilot,
      { bytes: pdfSample(), filename: 'mine.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Aircraft', id: ac },
    );
    const id = up.body.file.id;
    const before = await uploadRow(s, id);
    for (const who of ['admin@harbor.test', 'pilot@harbor.test']) {
      const h = await tok(who);
      expect((await s.api('GET', `/uploads/view/${id}.json`, { token: h })).status, who).toBe(404);
      expect((await s.api('GET', `/uploads/download/${id}.json`, { token: h })).status, who).toBe(404);
      expect(
        (await s.api('POST', `/uploads/confirm/${id}.json`, { token: h, body: { model: 'Aircraft', foreign_key: ac } }))
          .status,
        who,
      ).toBe(404);
      expect(
        (await s.api('POST', `/uploads/expiration/${id}.json`, { token: h, body: { expiration: '2030-01-01' } }))
          .status,
        who,
      ).toBe(404);
      expect((await s.api('GET', `/uploads/delete/${id}.json`, { token: h })).status, who).toBe(404);
      expect((await s.api('POST', `/uploads/complete/${id}.json`, { token: h })).status, who).toBe(404);
      const list = await s.api('GET', `/uploads/index/Aircraft/${ac}.json`, { token: h });
      expect(list.status).toBe(200);
      expect(list.body.uploads).toEqual([]);
      expect(list.headers.get('X-Total-Posts')).toBe('0');
    }
    expect(await uploadRow(s, id)).toEqual(before);
    expect(await stored(before!.storage_key)).not.toBeNull();
  });

  it('signed storage URLs refuse a forged or expired token', async () => {
    if (storeKind !== 'local') return;
    const t = await tok('pilot@skyline.test');
    const sign = await s.api('POST', '/uploads/sign.json', {
      token: t,
      body: { filename: 'a.pdf', mime: 'application/pdf', size: 500, model: 'Aircraft', foreign_key: aircraftId(s) },
    });
    const url = new URL(sign.body.url);
    expect(url.pathname.startsWith('/api/v1/files/object/')).toBe(true);
    const token = url.pathname.split('/').pop()!;
    const [payload, mac] = token.split('.');
    const grant = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...grant, key: `${s.refs.companies.harbor}/x/incoming/a.pdf` }),
    ).toString('base64url');
    expect(await putBytes(`${url.origin}${url.pathname.replace(token, `${forged}.${mac}`)}`, pdfSample())).toBe(403);
    const expired = Buffer.from(JSON.stringify({ ...grant, expires: 1 })).toString('base64url');
    expect(await putBytes(`${url.origin}${url.pathname.replace(token, `${expired}.${mac}`)}`, pdfSample())).toBe(403);
    // A PUT URL cannot be used to read, nor the reverse.
    expect((await fetchBytes(sign.body.url)).status).toBe(403);
  });
});
