import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { DateTime } from 'luxon';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';
import { tokenCache } from '../flights/helpers.ts';
import { recount } from './recount.ts';

async function pdfText(buf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(buf), useSystemFonts: false, isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

describe.each(DIALECTS)('billing statements and export on %s', (dialect) => {
  let s: TestServer;
  const t = tokenCache(() => s);
  let paula: string;
  const month = DateTime.now().setZone('Europe/Madrid').toFormat('yyyy-MM');
  const today = DateTime.now().setZone('Europe/Madrid').toFormat('yyyy-MM-dd');
  const get = async (p: string, email: string | null) => {
    const res = await fetch(`${s.baseUrl}${p}`, {
      headers: email ? { authorization: `Bearer ${await t(email)}` } : {},
    });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    s = await startTestServer(dialect);
    paula = s.userId('pilot@skyline.test');
    const add = async (Entry: Record<string, unknown>) => {
      const r = await s.api('POST', '/manager/billing/entries/add.json', {
        token: await t('dispatch@skyline.test'),
        body: { Entry: { user_id: paula, ...Entry } },
      });
      if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    };
    await add({ kind: 'payment', amount: 250, description: 'Bank transfer' });
    await add({ kind: 'adjustment', amount: -30.5, description: 'Landing fee, Sabadell' });
    await add({ kind: 'package', amount: 1210, hours: 10, description: 'Ten hours, any aircraft' });
  });
  afterAll(async () => {
    if (s) expect(await recount(s)).toEqual([]);
    await s?.close();
  });

  it('answers a PDF statement with opening and closing balance and the month’s entries', async () => {
    const r = await get(`/billing/statement/${paula}/${month}.pdf`, 'pilot@skyline.test');
    expect(r.status).toBe(200);
    expect(r.type).toContain('application/pdf');
    const text = await pdfText(r.body);
    expect(text).toContain('Opening balance: €0.00');
    expect(text).toContain('Landing fee, Sabadell');
    expect(text).toContain('Closing balance: -€990.50');
    // Next month: the whole balance opens it, no entries.
    const next = DateTime.fromFormat(month, 'yyyy-MM').plus({ months: 1 }).toFormat('yyyy-MM');
    const empty = await pdfText((await get(`/billing/statement/${paula}/${next}.pdf`, 'dispatch@skyline.test')).body);
    expect(empty).toContain('Opening balance: -€990.50');
    expect(empty).toContain('No entries this month');
    // In the requester's language (issue 33): the closing line and the empty month too.
    const dispatcher = s.userId('dispatch@skyline.test');
    await s.ctx.db.updateTable('users').set({ language: 'es' }).where('id', '=', dispatcher).execute();
    // The company's date order (Part A 2.2); the language picks the separator.
    await s.ctx.db
      .updateTable('companies')
      .set({ date_format: 'DD-MM-YYYY' })
      .where('id', '=', s.refs.companies.skyline)
      .execute();
    try {
      const spanish = await pdfText(
        (await get(`/billing/statement/${paula}/${next}.pdf`, 'dispatch@skyline.test')).body,
      );
      // Money as the Spanish screens show it (issue 33): comma decimals, the sign after, a no-break space.
      expect(spanish.replace(/\s+/g, ' ')).toContain('Saldo final: -990,50 €');
      expect(spanish).not.toContain('EUR');
      expect(spanish).toContain('No hay movimientos este mes');
      // This month's entries: kind names, month name and the file's title in Spanish, the codes nowhere.
      const pdf = (await get(`/billing/statement/${paula}/${month}.pdf`, 'dispatch@skyline.test')).body;
      const entries = await pdfText(pdf);
      const words = entries.replace(/\s+/g, ' ');
      expect(words).toContain('Saldo inicial: 0,00 €');
      // Grouped thousands and the entries' day in the company's order, Spanish separators.
      expect(words).toContain('1.210,00 €');
      expect(words).toContain(DateTime.fromFormat(today, 'yyyy-MM-dd').toFormat('dd/MM/yyyy'));
      expect(words).not.toContain(today);
      expect(words).not.toMatch(/\d\.\d\d\b/);
      for (const want of ['Pago', 'Ajuste', 'Bono', 'Clase', 'Saldo inicial'])
        expect(entries, want).toMatch(new RegExp(`\\b${want}\\b`));
      for (const english of ['payment', 'adjustment', 'package', 'Payment', 'Kind', 'Statement', 'Opening'])
        expect(entries, english).not.toMatch(new RegExp(`\\b${english}\\b`));
      const monthName = DateTime.fromFormat(month, 'yyyy-MM').setLocale('es').toFormat('LLLL yyyy');
      expect(entries).toContain(`Extracto ${monthName}`);
      const meta = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
      const info = (await meta.getMetadata()).info as { Title?: string };
      expect(info.Title).toBe(`Extracto ${month} Paula Pilot`);
    } finally {
      await s.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', dispatcher).execute();
      await s.ctx.db
        .updateTable('companies')
        .set({ date_format: 'YYYY-MM-DD' })
        .where('id', '=', s.refs.companies.skyline)
        .execute();
    }
  });

  // Looks at the statement as a reader would: page 1 rendered by poppler (installed by .ci/e2e-setup).
  it.skipIf(!fs.existsSync('/usr/bin/pdftoppm'))(
    'the statement renders to an A4 page with ink where the header, the entries and the balance are',
    async () => {
      const r = await get(`/billing/statement/${paula}/${month}.pdf`, 'pilot@skyline.test');
      expect(r.status).toBe(200);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stmt-'));
      try {
        fs.writeFileSync(path.join(dir, 's.pdf'), r.body);
        // 80 dpi grey levels (PGM: a text header, then one byte a pixel) to count ink.
        execFileSync('pdftoppm', [
          '-gray',
          '-r',
          '80',
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          path.join(dir, 's.pdf'),
          path.join(dir, 's'),
        ]);
        const pgm = fs.readFileSync(path.join(dir, 's.pgm'));
        const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 40).toString('latin1'));
        expect(header).not.toBeNull();
        const [width, height] = [Number(header?.[1]), Number(header?.[2])];
        // A4 (595 x 842 pt) at 80 dpi: 661.1 x 935.6 pixels, which poppler rounds up.
        expect([width, height]).toEqual([662, 936]);
        const pixels = pgm.subarray(pgm.length - width * height);
        const inkIn = (fromRow: number, toRow: number) => {
          let dark = 0;
          for (let y = fromRow; y < toRow; y++) for (let x = 0; x < width; x++) if (pixels[y * width + x] < 128) dark++;
          return dark / ((toRow - fromRow) * width);
        };
        const all = inkIn(0, height);
        // Text, not a blank page and not a black one.
        expect(all).toBeGreaterThan(0.003);
        expect(all).toBeLessThan(0.2);
        // The header and the entries sit in the top third; the bottom fifth of a three-entry month is empty.
        expect(inkIn(0, Math.floor(height / 3))).toBeGreaterThan(0.005);
        expect(inkIn(Math.floor(height * 0.8), height)).toBeLessThan(0.002);
        if (dialect === 'sqlite') {
          execFileSync('pdftoppm', [
            '-png',
            '-r',
            '80',
            '-f',
            '1',
            '-l',
            '1',
            '-singlefile',
            path.join(dir, 's.pdf'),
            path.join(dir, 's'),
          ]);
          const png = fs.readFileSync(path.join(dir, 's.png'));
          expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
          fs.copyFileSync(
            path.join(dir, 's.png'),
            path.resolve(import.meta.dirname, '../../../docs/screenshots/billing-statement-pdf.png'),
          );
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('gates statements: own or <= 170; another company 404; bad month 400', async () => {
    expect((await get(`/billing/statement/${paula}/${month}.pdf`, 'student@skyline.test')).status).toBe(403);
    expect((await get(`/billing/statement/${paula}/${month}.pdf`, 'admin@harbor.test')).status).toBe(404);
    expect((await get(`/billing/statement/${paula}/2024-13.pdf`, 'pilot@skyline.test')).status).toBe(400);
    expect((await get(`/billing/statement/${paula}/${month}.pdf`, null)).status).toBe(401);
  });

  it('exports entries as CSV and XLSX with the accounting columns', async () => {
    const csv = await get(
      `/manager/billing/entries/export.json?from=${today}&to=${today}&format=csv`,
      'dispatch@skyline.test',
    );
    expect(csv.status).toBe(200);
    const lines = csv.body.toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('date,user id,name,kind,description,net,tax,amount,hours,flight id,entry id');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(
      new RegExp(`^${today},${paula},Paula Pilot,package,"Ten hours, any aircraft",-1000,-210,-1210,10,,`),
    );
    const x = await get(
      `/manager/billing/entries/export.json?from=${today}&to=${today}&format=xlsx`,
      'admin@skyline.test',
    );
    expect(x.type).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('Entries');
    expect(ws?.getRow(1).values).toEqual([
      undefined,
      'date',
      'user id',
      'name',
      'kind',
      'description',
      'net',
      'tax',
      'amount',
      'hours',
      'flight id',
      'entry id',
    ]);
    expect(ws?.getRow(3).getCell(8).value).toBe(-30.5);
    expect(ws?.rowCount).toBe(4);
    expect(
      (await get(`/manager/billing/entries/export.json?from=${today}&to=${today}&format=csv`, 'pilot@skyline.test'))
        .status,
    ).toBe(403);
    expect(
      (
        await get(
          `/manager/billing/entries/export.json?from=${today}&to=2000-01-01&format=csv`,
          'dispatch@skyline.test',
        )
      ).status,
    ).toBe(400);
    expect((await get(`/manager/billing/entries/export.json?from=x&to=${today}`, 'dispatch@skyline.test')).status).toBe(
      400,
    );
    expect(
      (await get(`/manager/billing/entries/export.json?from=${today}&to=${today}`, 'admin@harbor.test')).status,
    ).toBe(403);
  });

  // Runs last: the reversal changes the balances and rows the tests above count.
  it('words the descriptions the server wrote in the reader’s language, in the PDF and the spreadsheet; free text as typed', async () => {
    const payment = await s.ctx.db
      .selectFrom('billing_entries')
      .select('id')
      .where('user_id', '=', paula)
      .where('description', '=', 'Bank transfer')
      .executeTakeFirstOrThrow();
    const r = await s.api('POST', `/manager/billing/entries/reverse/${payment.id}.json`, {
      token: await t('dispatch@skyline.test'),
      body: {},
    });
    expect(r.status).toBe(200);
    const english = (
      await pdfText((await get(`/billing/statement/${paula}/${month}.pdf`, 'pilot@skyline.test')).body)
    ).replace(/\s+/g, ' ');
    expect(english).toContain('Reversal of payment');
    const dispatcher = s.userId('dispatch@skyline.test');
    await s.ctx.db.updateTable('users').set({ language: 'es' }).where('id', '=', dispatcher).execute();
    try {
      const spanish = (
        await pdfText((await get(`/billing/statement/${paula}/${month}.pdf`, 'dispatch@skyline.test')).body)
      ).replace(/\s+/g, ' ');
      expect(spanish).toContain('Anulación de pago');
      expect(spanish).not.toContain('Reversal of payment');
      expect(spanish).toContain('Landing fee, Sabadell');
      const x = await get(
        `/manager/billing/entries/export.json?from=${today}&to=${today}&format=xlsx`,
        'dispatch@skyline.test',
      );
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(x.body as unknown as ArrayBuffer);
      const column = wb.getWorksheet('Entries')?.getColumn(5).values.slice(2);
      expect(column).toEqual([
        'Bank transfer',
        'Landing fee, Sabadell',
        'Ten hours, any aircraft',
        'Anulación de pago',
      ]);
      // The kind stays the code an accounting import reads.
      const csv = (
        await get(`/manager/billing/entries/export.json?from=${today}&to=${today}&format=csv`, 'dispatch@skyline.test')
      ).body.toString('utf8');
      expect(csv).toMatch(/,reversal,Anulación de pago,/);
    } finally {
      await s.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', dispatcher).execute();
    }
  });
});
