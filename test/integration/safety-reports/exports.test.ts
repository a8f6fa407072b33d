import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { addUser, categoryId, createSR, crewedFlight, reportBody, tokens } from './safety-helpers.ts';

async function pdfText(buf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

const download = async (s: TestServer, p: string) => {
  const res = await fetch(`${s.baseUrl}${p}`);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
};

/** Part B 4.4 item 3: the PDF of one report and the spreadsheet of the list, reached with `?token=`. */
describe.each(DIALECTS)('safety report exports on %s', (dialect) => {
  let s: TestServer;
  const t = tokens(() => s);
  let reportId: string;
  let idn: string;
  beforeAll(async () => {
    s = await startTestServer(dialect);
    await addUser(s, { email: 'jose@skyline.test', role: 190, name: 'José Ñúñez' });
    const bird = await categoryId(s, 'Bird strike');
    const flight = await crewedFlight(s, { pic: s.userId('pilot@skyline.test') });
    const r = await createSR(
      s,
      await t('jose@skyline.test'),
      reportBody(bird, {
        name: 'Colisión con ave en final — Cuatro Vientos',
        location: 'LECU',
        datetime: '2026-04-02T09:15:00Z',
        events: 'Durante la aproximación final a la pista 28 una cigüeña impactó el ala izquierda.',
        actions: 'Motor y aproximación frustrada; aterrizaje sin novedad.',
        corrective_measures: 'Aviso a la torre y revisión del ala.',
        damages: 'minimal',
        personal_damages: 'none',
        risk_probability: 'possible',
        risk_severity: 'critical',
        mitigated_risk_probability: 'improbable',
        mitigated_risk_severity: 'marginal',
      }),
      flight,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    reportId = r.body.id;
    idn = r.body.idn;
    await createSR(
      s,
      await t('safety@skyline.test'),
      reportBody(bird, { name: 'Older event', datetime: '2025-01-01 10:00' }),
    );
    await createSR(s, await t('pilot@skyline.test'), reportBody(bird, { name: 'Private draft', status: 'draft' }));
  });
  afterAll(() => s?.close());

  it('serves a real PDF with accented text, the risk and the trail, to a token in the query', async () => {
    const token = await t('safety@skyline.test');
    const r = await download(s, `/safety_reports/view/${reportId}/pdf:true?token=${encodeURIComponent(token)}`);
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/pdf');
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(r.body);
    for (const want of [
      `Safety report ${idn}`,
      'Colisión con ave en final',
      'José Ñúñez',
      'cigüeña',
      'Flight Operations / Bird strike',
      '3C (tolerable)',
      '2D (acceptable)',
      'EC-ABC',
      'Change history',
      // The event time in the company's zone (Europe/Madrid, summer time) and formats, its zone named.
      'Date and time 2026-04-02 11:15 GMT+2',
    ]) {
      expect(text.replace(/\s+/g, ' '), want).toContain(want);
    }
    if (process.env.UPDATE_SCREENSHOTS && fs.existsSync('/usr/bin/pdftoppm')) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sr-pdf-'));
      fs.writeFileSync(path.join(dir, 'r.pdf'), r.body);
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '80',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        path.join(dir, 'r.pdf'),
        path.join(dir, 'page'),
      ]);
      fs.copyFileSync(
        path.join(dir, 'page.png'),
        path.resolve(__dirname, '../../../docs/screenshots/safety-report-pdf.png'),
      );
    }
  });

  it('words the PDF in the requesting user’s language: every label, section and code name (issue 33)', async () => {
    const safety = s.userId('safety@skyline.test');
    await s.ctx.db.updateTable('users').set({ language: 'es' }).where('id', '=', safety).execute();
    // The company's formats (Part A 2.2): day first, 12 hours; the language picks "/" and "a. m.".
    const sky = s.refs.companies.skyline;
    await s.ctx.db
      .updateTable('companies')
      .set({ date_format: 'DD-MM-YYYY', time_format: '12' })
      .where('id', '=', sky)
      .execute();
    try {
      const token = await t('safety@skyline.test');
      const r = await download(s, `/safety_reports/view/${reportId}/pdf:true?token=${encodeURIComponent(token)}`);
      expect(r.status).toBe(200);
      const text = (await pdfText(r.body)).replace(/\s+/g, ' ');
      for (const want of [
        `Informe de seguridad ${idn}`,
        'Incidente',
        'Abierta · Suceso',
        'Fecha y hora 02/04/2026 11:15 a. m. CEST',
        'Lugar',
        'Fase de vuelo APR Aproximación',
        'Departamento / Categoría',
        'Informante',
        'Vuelo',
        'Daños Mínimos',
        'Daños personales Sin heridos',
        'Riesgo antes de la mitigación 3C (tolerable)',
        'Riesgo después de la mitigación 2D (aceptable)',
        'Hechos',
        'Acciones',
        'Medidas correctoras',
        'Historial de cambios',
        'Creado',
        'Impreso el',
      ])
        expect(text, want).toContain(want);
      // Printed and trail times the same way: no ISO dates, no UTC left.
      expect(text).toMatch(/Impreso el \d\d\/\d\d\/\d{4} \d{1,2}:\d\d [ap]\. m\. CES?T por/);
      expect(text).not.toMatch(/\d{4}-\d\d-\d\d/);
      expect(text).not.toMatch(/\bUTC\b/);
      // Whole words: the Spanish "Incidente" contains "Incident".
      for (const english of [
        'Safety report',
        'Incident',
        'Open',
        'Occurrence',
        'Date and time',
        'Location',
        'Flight phase',
        'Approach',
        'Department',
        'Reporter',
        'Damages',
        'Minimal',
        'No injuries',
        'Risk',
        'acceptable',
        'Events',
        'Actions',
        'Corrective measures',
        'Change history',
        'Created',
        'Printed',
      ])
        expect(text, english).not.toMatch(new RegExp(`\\b${english}\\b`));
    } finally {
      await s.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', safety).execute();
      await s.ctx.db
        .updateTable('companies')
        .set({ date_format: 'YYYY-MM-DD', time_format: '24' })
        .where('id', '=', sky)
        .execute();
    }
  });

  it('applies the view rules to the PDF: 401 without a token, 404 for a report the caller cannot see', async () => {
    expect((await download(s, `/safety_reports/view/${reportId}/pdf:true`)).status).toBe(401);
    expect((await download(s, `/safety_reports/view/${reportId}/pdf:true?token=nope`)).status).toBe(401);
    const student = await t('student@skyline.test');
    expect((await download(s, `/safety_reports/view/${reportId}/pdf:true?token=${student}`)).status).toBe(404);
    // The crew (PIC) may read it.
    const pilot = await t('pilot@skyline.test');
    const p = await download(s, `/safety_reports/view/${reportId}/pdf:true?token=${pilot}`);
    expect(p.status).toBe(200);
    expect(await pdfText(p.body)).not.toContain('Change history');
    expect((await download(s, `/safety_reports/view/${reportId}/csv:true?token=${pilot}`)).status).toBe(404);
  });

  it('serves the filtered list as an xlsx file, drafts of others left out', async () => {
    const token = await t('safety@skyline.test');
    const r = await download(
      s,
      `/safety_reports/index/from:2026-01-01/to:2026-12-31/status:open/severity:incident/excel:true?token=${token}`,
    );
    expect(r.status).toBe(200);
    expect(r.type).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.body as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Safety reports')!;
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Number',
      'Date',
      'Name',
      'Status',
      'Type',
      'Severity',
      'Location',
      'Flight phase',
      'Department',
      'Category',
      'Reporter',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        idn,
        '2026-04-02 09:15:00',
        'Colisión con ave en final — Cuatro Vientos',
        'Open',
        'OCCURRENCE',
        'Incident',
        'LECU',
        'Approach',
        'Flight Operations',
        'Bird strike',
        'José Ñúñez User',
      ],
    ]);
    const all = await download(s, `/safety_reports/index/excel:true?token=${token}`);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(all.body as unknown as ArrayBuffer);
    const names: unknown[] = [];
    wb2.getWorksheet('Safety reports')!.eachRow((row, n) => n > 1 && names.push(row.getCell(3).value));
    expect(names).toEqual(['Colisión con ave en final — Cuatro Vientos', 'Older event']);
    expect((await download(s, `/safety_reports/index/excel:true`)).status).toBe(401);
    expect((await download(s, `/safety_reports/index/status:lost/excel:true?token=${token}`)).status).toBe(400);
    // The .json form takes excel:true too.
    const j = await download(s, `/safety_reports/index/excel:true.json?token=${token}`);
    expect(j.type).toContain('spreadsheetml');
  });
});
