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
    expect(text).toContain('Opening balance: 0.00 EUR');
    expect(text).toContain('Landing fee, Sabadell');
    expect(text).toContain('Closing balance: -990.50 EUR');
    if (dialect === 'sqlite') {
      // The PNG of docs/screenshots (pdftoppm from poppler).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stmt-'));
      fs.writeFileSync(path.join(dir, 's.pdf'), r.body);
      try {
        execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', path.join(dir, 's.pdf'), path.join(dir, 's')]);
        const shots = path.resolve(import.meta.dirname, '../../../docs/screenshots');
        if (fs.existsSync(shots)) fs.copyFileSync(path.join(dir, 's.png'), path.join(shots, 'billing-statement.png'));
      } catch {
        // poppler is optional on a developer machine; the text check above is the test.
      }
    }
    // Next month: the whole balance opens it, no entries.
    const next = DateTime.fromFormat(month, 'yyyy-MM').plus({ months: 1 }).toFormat('yyyy-MM');
    expect(
      await pdfText((await get(`/billing/statement/${paula}/${next}.pdf`, 'dispatch@skyline.test')).body),
    ).toContain('Opening balance: -990.50 EUR');
  });

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
});
