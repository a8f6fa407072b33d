import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachUploads, detachAllUploads } from '@ops/server/areas/uploads/attachments.service';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { insertFlight } from '../aircraft-reports/fleet-helpers.ts';
import { tokens } from '../pilots/people-helpers.ts';
import { addCertificate, aircraftId, createMultipart, uploadRow } from './helpers.ts';
import { jpegWithExifSample, pdfSample } from './samples.ts';

/** Attachments where the spec uses them: flight view, certificates, aircraft documents and their alerts, aircraft reports, the hook. */
describe.each(DIALECTS)('Upload attachments on %s', (dialect) => {
  let s: TestServer;
  let tok: (email: string) => Promise<string>;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    tok = tokens(() => s);
  });
  afterAll(() => s?.close());

  it('flight view lists the flight’s uploads in Upload[]', async () => {
    const admin = await tok('admin@skyline.test');
    const flightId = await insertFlight(s, {
      aircraftId: aircraftId(s),
      onblocks: Math.floor(Date.now() / 1000) - 86400,
    });
    const before = await s.api('GET', `/flights/view/${flightId}.json`, { token: admin });
    expect(before.status).toBe(200);
    expect(before.body.flight.Upload).toEqual([]);
    const up = await createMultipart(
      s,
      admin,
      { bytes: pdfSample(), filename: 'loadsheet.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Flight', id: flightId },
    );
    expect(up.status).toBe(200);
    const after = await s.api('GET', `/flights/view/${flightId}.json`, { token: admin });
    expect(after.body.flight.Upload).toEqual([
      expect.objectContaining({
        id: up.body.file.id,
        filename: 'loadsheet.pdf',
        type: 'document',
        mime: 'application/pdf',
        size: String(pdfSample().length),
      }),
    ]);
    // A flight of another company cannot receive an upload.
    const harbor = await createMultipart(
      s,
      await tok('admin@harbor.test'),
      { bytes: pdfSample(), filename: 'x.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Flight', id: flightId },
    );
    expect(harbor.status).toBe(404);
  });

  it('certificates carry their upload (id, filename, type, mime, size) instead of a bare id', async () => {
    const certId = await addCertificate(s, 'pilot@skyline.test');
    const pilot = await tok('pilot@skyline.test');
    const list0 = await s.api('GET', '/pilots/certificates.json', { token: pilot });
    expect(list0.body.certificates.find((c: any) => c.id === certId).Upload).toBeNull();
    const scan = await jpegWithExifSample();
    const up = await createMultipart(
      s,
      pilot,
      { bytes: scan, filename: 'medical.jpg', mime: 'image/jpeg' },
      { active: '1', model: 'UserCertificate', id: certId },
    );
    const list = await s.api('GET', '/pilots/certificates.json', { token: pilot });
    expect(list.body.certificates.find((c: any) => c.id === certId).Upload).toEqual({
      id: up.body.file.id,
      filename: 'medical.jpg',
      type: 'photo',
      mime: 'image/jpeg',
      size: String(scan.length),
    });
  });

  it('aircraft documents with an expiration raise AircraftUpload alerts', async () => {
    const admin = await tok('admin@skyline.test');
    const ac = aircraftId(s);
    const up = await createMultipart(
      s,
      admin,
      { bytes: pdfSample(), filename: 'insurance.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Aircraft', id: ac },
    );
    const soon = new Date(Date.now() + 10 * 86400_000).toISOString().slice(0, 10);
    expect(
      (await s.api('POST', `/uploads/expiration/${up.body.file.id}.json`, { token: admin, body: { expiration: soon } }))
        .status,
    ).toBe(200);
    const far = await createMultipart(
      s,
      admin,
      { bytes: pdfSample(), filename: 'far.pdf', mime: 'application/pdf' },
      { active: '1', model: 'Aircraft', id: ac },
    );
    await s.api('POST', `/uploads/expiration/${far.body.file.id}.json`, {
      token: admin,
      body: { expiration: '2099-01-01' },
    });
    const r = await s.api('GET', '/companies/alerts.json?types=AircraftUpload', { token: admin });
    expect(r.status).toBe(200);
    const alerts = r.body.alerts ?? r.body;
    const mine = (Array.isArray(alerts) ? alerts : []).filter((a: any) => a.type === 'AircraftUpload');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: 'AircraftUpload',
      class: 'text-warning',
      link: `/aircraft/view/${ac}`,
      name: 'EC-ABC: insurance.pdf',
    });
    expect(typeof mine[0].details).toBe('string');
    // Another company sees none of them.
    const h = await s.api('GET', '/companies/alerts.json?types=AircraftUpload', {
      token: await tok('admin@harbor.test'),
    });
    const hl = h.body.alerts ?? h.body;
    expect((Array.isArray(hl) ? hl : []).filter((a: any) => a.type === 'AircraftUpload')).toEqual([]);
  });

  it('aircraft report view lists the defect photos', async () => {
    const mech = await tok('mechanic@skyline.test');
    const created = await s.api('POST', '/maintenance/aircraft_reports/create.json', {
      token: mech,
      form: {
        'AircraftReport[aircraft_id]': aircraftId(s),
        'AircraftReport[type]': 'DEFECT',
        'AircraftReport[title]': 'Cracked fairing',
        'AircraftReport[severity]': 'LOW',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const reportId = created.body.id as string;
    const up = await createMultipart(
      s,
      mech,
      { bytes: await jpegWithExifSample(), filename: 'crack.jpg', mime: 'image/jpeg' },
      { active: '1', model: 'AircraftReport', id: reportId },
    );
    expect(up.status).toBe(200);
    const view = await s.api('GET', `/maintenance/aircraft_reports/view/${reportId}.json`, {
      token: await tok('admin@skyline.test'),
    });
    expect(view.status).toBe(200);
    expect(view.body.Upload.map((u: any) => u.id)).toContain(up.body.file.id);
  });

  it('the hook attaches a caller’s verified uploads to a record and drops them with it', async () => {
    const pilot = await tok('pilot@skyline.test');
    const mine = await createMultipart(s, pilot, {
      bytes: pdfSample(),
      filename: 'evidence.pdf',
      mime: 'application/pdf',
    });
    const others = await createMultipart(s, await tok('student@skyline.test'), {
      bytes: pdfSample(),
      filename: 'theirs.pdf',
      mime: 'application/pdf',
    });
    const harbor = await createMultipart(s, await tok('pilot@harbor.test'), {
      bytes: pdfSample(),
      filename: 'harbor.pdf',
      mime: 'application/pdf',
    });
    const actor = { userId: s.userId('pilot@skyline.test'), companyId: s.refs.companies.skyline, role: 190 } as never;
    const attached = await s.ctx.tx((uow) =>
      attachUploads(uow, actor, 'Checklist', 'report-1', [
        mine.body.file.id,
        others.body.file.id,
        harbor.body.file.id,
        'nope',
      ]),
    );
    expect(attached).toEqual([mine.body.file.id]);
    expect(await uploadRow(s, mine.body.file.id)).toMatchObject({
      model: 'Checklist',
      foreign_key: 'report-1',
      active: 1,
    });
    expect(await uploadRow(s, others.body.file.id)).toMatchObject({ model: null, active: 0 });
    const list = await s.api('GET', '/uploads/index/Checklist/report-1.json', { token: pilot });
    expect(list.body.uploads.map((u: any) => u.filename)).toEqual(['evidence.pdf']);
    const keys = await s.ctx.tx((uow) => detachAllUploads(uow, s.refs.companies.skyline, 'Checklist', 'report-1'));
    expect(keys).toHaveLength(1);
    expect((await uploadRow(s, mine.body.file.id))?.deleted).toBe(1);
  });
});
