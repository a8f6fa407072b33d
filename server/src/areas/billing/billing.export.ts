import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDate, formatMoney, type Locale, localeOf, type Translate, translator } from '@ops/shared/i18n/index';
import { kindLabel } from '@ops/shared/rules/billing/charges';
import { entryText } from '@ops/shared/rules/billing/descriptions';
import { fromCents, secondsToHours } from '@ops/shared/rules/billing/money';
import { renderText } from '@ops/shared/rules/readiness/text';
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest } from '../../http/errors.ts';
import { companyFormats } from '../company/company.repository.ts';
import { billingSettingsOf, companyEntriesBetween, entriesBetween } from './billing.repository.ts';

/** DejaVu Sans ships with the server (accented names whatever fonts the host has). */
const FONTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/fonts');
const REGULAR = path.join(FONTS, 'DejaVuSans.ttf');
const BOLD = path.join(FONTS, 'DejaVuSans-Bold.ttf');

/** Rows of one export, so a download stays bounded. */
export const EXPORT_MAX_ROWS = 100_000;

/** The month `YYYY-MM` in the company zone as unix `[from, to)` and its name in `locale`; 400 for a month that is not one. */
function monthRange(month: string, zone: string, locale: Locale = 'en'): { from: number; to: number; label: string } {
  const start = DateTime.fromFormat(month, 'yyyy-MM', { zone }).setLocale(locale);
  if (!start.isValid) throw badRequest('Expected a month YYYY-MM', { errors: { month: ['Expected a month YYYY-MM'] } });
  return {
    from: Math.floor(start.toSeconds()),
    to: Math.floor(start.plus({ months: 1 }).toSeconds()),
    label: start.toFormat('LLLL yyyy'),
  };
}

/** An entry's description as the screens word it: one the server wrote in the reader's language, free text as typed. */
function describe(
  e: { kind: string; flight_id: string | null; description: string | null },
  t: Translate,
  locale: Locale,
): string {
  const written = entryText(e);
  return written ? renderText(t, written, locale) : (e.description ?? '');
}

/**
 * GET /billing/statement/{userId}/{YYYY-MM}.pdf: opening balance (every entry
 * before the month), the month's entries by creation time with a running
 * balance, closing balance. Caller checks (company, billing, own or office) are done.
 */
export async function sendStatement(
  ctx: AppContext,
  actor: Actor,
  user: { id: string; name: string; surname: string },
  month: string,
  res: Response,
): Promise<void> {
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  const zone = settings.timezone || 'UTC';
  const t = translator(actor.language);
  const locale = localeOf(actor.language) ?? 'en';
  const range = monthRange(month, zone, locale);
  const { opening, rows } = await entriesBetween(ctx.db, actor.companyId, user.id, range.from, range.to);
  const currency = settings.currency ?? 'EUR';
  // Figures as the screens show them (issue 33): the reader's language, the company's date order, in its zone.
  const formats = await companyFormats(ctx.db, actor.companyId);
  const money = (cents: number) => formatMoney(fromCents(cents), currency, locale);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: t('documents.statementFileTitle', { month, name: `${user.name} ${user.surname}` }),
      Author: settings.name,
    },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));

  doc.font('bold').fontSize(9).fillColor('#64748b').text(settings.name.toUpperCase());
  doc.moveDown(0.3);
  doc
    .font('bold')
    .fontSize(18)
    .fillColor('#111111')
    .text(t('documents.statementTitle', { month: range.label }));
  doc.font('regular').fontSize(12).text(`${user.name} ${user.surname}`);
  doc.moveDown(0.8);
  doc
    .font('bold')
    .fontSize(10)
    .text(t('documents.openingBalance', { amount: money(opening) }));
  doc.moveDown(0.6);

  const cols = [
    { title: t('documents.colDate'), x: 50, w: 70 },
    { title: t('documents.colKind'), x: 120, w: 65 },
    { title: t('documents.colDescription'), x: 185, w: 150 },
    { title: t('documents.colTax'), x: 335, w: 65, right: true },
    { title: t('documents.colAmount'), x: 400, w: 65, right: true },
    { title: t('documents.colBalance'), x: 465, w: 80, right: true },
  ];
  const line = (values: string[], font: 'regular' | 'bold') => {
    if (doc.y > 760) doc.addPage();
    const y = doc.y;
    doc.font(font).fontSize(8.5).fillColor('#111111');
    let bottom = y;
    cols.forEach((c, i) => {
      doc.text(values[i], c.x, y, { width: c.w - 4, align: c.right ? 'right' : 'left' });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = 50;
    doc.y = bottom + 3;
  };
  line(
    cols.map((c) => c.title),
    'bold',
  );
  let balance = opening;
  for (const e of rows) {
    balance += Number(e.amount);
    line(
      [
        formatDate(Number(e.created), locale, formats),
        kindLabel(e.kind, t),
        describe(e, t, locale),
        money(Number(e.tax)),
        money(Number(e.amount)),
        money(balance),
      ],
      'regular',
    );
  }
  if (!rows.length) line(['', '', t('documents.noEntriesMonth'), '', '', ''], 'regular');
  doc.moveDown(0.8);
  doc.x = 50;
  doc
    .font('bold')
    .fontSize(10)
    .text(t('documents.closingBalance', { amount: money(balance) }));
  doc.end();
  await done;
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', `attachment; filename="statement-${month}.pdf"`);
  res.end(Buffer.concat(chunks));
}

/** Columns an accounting import expects (CONTRACT 6). */
const HEADERS = [
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
] as const;

const csvCell = (v: string | number) => {
  const s = String(v);
  // Quote what a spreadsheet would split or read as a formula.
  const safe = /^[=+\-@]/.test(s) && typeof v === 'string' ? `'${s}` : s;
  return /[",\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** GET /manager/billing/entries/export.json: every entry of the company between two dates of the company zone (both included). */
export async function sendEntriesExport(
  ctx: AppContext,
  actor: Actor,
  q: { from: string; to: string; format: 'csv' | 'xlsx' },
  res: Response,
): Promise<void> {
  const settings = await billingSettingsOf(ctx.db, actor.companyId);
  const zone = settings.timezone || 'UTC';
  const from = DateTime.fromISO(q.from, { zone });
  const to = DateTime.fromISO(q.to, { zone });
  if (!from.isValid || !to.isValid || to < from)
    throw badRequest('Expected from <= to, both YYYY-MM-DD', { errors: { to: ['Expected a date on or after from'] } });
  // Headers, codes, dates and figures stay machine-readable (CONTRACT 6); descriptions are for people (issue 33).
  const t = translator(actor.language);
  const locale = localeOf(actor.language) ?? 'en';
  const rows = (
    await companyEntriesBetween(
      ctx.db,
      actor.companyId,
      Math.floor(from.toSeconds()),
      Math.floor(to.plus({ days: 1 }).toSeconds()),
    )
  ).slice(0, EXPORT_MAX_ROWS);
  const data = rows.map((e) => {
    const amount = Number(e.amount);
    const tax = Number(e.tax);
    return [
      DateTime.fromSeconds(Number(e.created), { zone }).toFormat('yyyy-LL-dd'),
      e.user_id,
      [e.name, e.surname].filter(Boolean).join(' '),
      e.kind,
      describe(e, t, locale),
      fromCents(amount - tax),
      fromCents(tax),
      fromCents(amount),
      secondsToHours(Number(e.seconds)),
      e.flight_id ?? '',
      e.id,
    ] as (string | number)[];
  });
  const name = `entries-${q.from}-${q.to}`;
  if (q.format === 'csv') {
    const text = [HEADERS.join(','), ...data.map((r) => r.map(csvCell).join(','))].join('\r\n');
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${name}.csv"`);
    res.end(`${text}\r\n`);
    return;
  }
  const wb = new ExcelJS.Workbook();
  wb.creator = settings.name;
  const ws = wb.addWorksheet('Entries');
  ws.addRow([...HEADERS]);
  ws.getRow(1).font = { bold: true };
  for (const r of data) ws.addRow(r);
  for (const c of [6, 7, 8]) ws.getColumn(c).numFmt = '0.00';
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', `attachment; filename="${name}.xlsx"`);
  res.end(buf);
}
