import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LOCALE, formatDate, formatInstant, localeOf, translator } from '@ops/shared/i18n/index';
import {
  DAMAGE_NAMES,
  named,
  PERSONAL_DAMAGE_NAMES,
  PHASE_NAMES,
  severityName,
  statusName,
  TOLERABILITY_NAMES,
  TYPE_NAMES,
} from '@ops/shared/rules/safety-reports/names';
import { SAFETY_SEVERITIES } from '@ops/shared/rules/safety-reports/safety';
import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { companyFormats } from '../company/company.repository.ts';
import { filteredQuery, viewSafetyReport } from './safety-reports.repository.ts';
import type { ListFilters } from './safety-reports.schema.ts';

/** DejaVu Sans ships with the server (accented names in every PDF, whatever fonts the host has). */
const FONTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/fonts');
const REGULAR = path.join(FONTS, 'DejaVuSans.ttf');
const BOLD = path.join(FONTS, 'DejaVuSans-Bold.ttf');

/** Rows of the spreadsheet: the whole filtered list, capped so one download stays bounded. */
export const EXCEL_MAX_ROWS = 10000;

const plain = (v: unknown) =>
  v === null || v === undefined
    ? ''
    : String(v)
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/[ \t]+/g, ' ')
        .trim();

/** GET index/.../excel:true?token=: the filtered list as an .xlsx file. */
export async function sendExcel(db: Kysely<DB>, actor: Actor, f: ListFilters, res: Response): Promise<void> {
  const rows = await filteredQuery(db, actor, f)
    .leftJoin('safety_report_categories as c', 'c.id', 'safety_reports.safety_report_category_id')
    .leftJoin('safety_report_departments as d', 'd.id', 'safety_reports.safety_report_department_id')
    .leftJoin('users as u', 'u.id', 'safety_reports.user_id')
    .select([
      'safety_reports.idn',
      'safety_reports.name',
      'safety_reports.status',
      'safety_reports.type',
      'safety_reports.severity',
      'safety_reports.datetime',
      'safety_reports.location',
      'safety_reports.flight_phase',
      'c.name as category',
      'd.name as department',
      'u.name as rname',
      'u.surname as rsurname',
      'safety_reports.risk_probability',
      'safety_reports.risk_severity',
    ])
    .orderBy('safety_reports.datetime', 'desc')
    .orderBy('safety_reports.id', 'desc')
    .limit(EXCEL_MAX_ROWS)
    .execute();
  const wb = new ExcelJS.Workbook();
  wb.creator = actor.company.name;
  const t = translator(actor.language);
  const ws = wb.addWorksheet(t('documents.safetyReportsSheet'));
  ws.columns = [
    { header: t('documents.colNumber'), key: 'idn', width: 14 },
    { header: t('documents.colDate'), key: 'datetime', width: 20 },
    { header: t('documents.colName'), key: 'name', width: 36 },
    { header: t('documents.colStatus'), key: 'status', width: 12 },
    { header: t('documents.colType'), key: 'type', width: 14 },
    { header: t('documents.colSeverity'), key: 'severity', width: 12 },
    { header: t('documents.colLocation'), key: 'location', width: 16 },
    { header: t('documents.colPhase'), key: 'phase', width: 18 },
    { header: t('documents.colDepartment'), key: 'department', width: 20 },
    { header: t('documents.colCategory'), key: 'category', width: 20 },
    { header: t('documents.colReporter'), key: 'reporter', width: 22 },
  ];
  ws.getRow(1).font = { bold: true };
  for (const r of rows)
    ws.addRow({
      idn: r.idn ?? t('safety-reports.statusDraft'),
      datetime: r.datetime,
      name: r.name,
      status: statusName(t, r.status),
      type: r.type,
      severity: severityName(t, r.severity),
      location: r.location,
      phase: named(t, PHASE_NAMES, r.flight_phase),
      department: r.department ?? '',
      category: r.category ?? '',
      reporter: r.rname ? `${r.rname} ${r.rsurname}` : t('documents.srAnonymous'),
    });
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', 'attachment; filename="safety-reports.xlsx"');
  res.end(buf);
}

/** Unix seconds of a stored UTC `YYYY-MM-DD[ HH:MM[:SS]]` (the report's event time, a flight's date), or null. */
function utcSeconds(text: string | null | undefined): number | null {
  const d = DateTime.fromSQL(text ?? '', { zone: 'UTC' });
  return d.isValid ? d.toSeconds() : null;
}

/** GET view/{id}/pdf:true?token=: one report as a PDF (same visibility as the view; the trail for managers). */
export async function sendPdf(db: Kysely<DB>, actor: Actor, id: string, res: Response): Promise<void> {
  const view = await viewSafetyReport(db, actor, id);
  const rep = view.report;
  const r = rep.SafetyReport;
  const t = translator(actor.language);
  // Times in the company's formats and zone, named, in the reader's language (issue 33).
  const locale = localeOf(actor.language) ?? DEFAULT_LOCALE;
  const formats = await companyFormats(db, actor.companyId);
  const stamp = (seconds: number) => formatInstant(seconds, locale, formats);
  const title = t('documents.safetyReportTitle', { number: r.idn ?? t('documents.safetyReportDraft') });
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: title, Author: actor.company.name },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));

  const color = SAFETY_SEVERITIES.find((s) => s.key === r.severity)?.color ?? '#333333';
  doc.font('bold').fontSize(9).fillColor('#64748b').text(actor.company.name.toUpperCase());
  doc.moveDown(0.3);
  doc.font('bold').fontSize(18).fillColor('#111111').text(title);
  doc.font('regular').fontSize(13).text(r.name);
  doc.moveDown(0.4);
  const y = doc.y;
  doc.roundedRect(50, y, 90, 18, 4).fill(color);
  doc
    .font('bold')
    .fontSize(9)
    .fillColor('#ffffff')
    .text(severityName(t, r.severity), 50, y + 5, { width: 90, align: 'center' });
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#111111')
    .text(`${statusName(t, r.status)} · ${named(t, TYPE_NAMES, r.type)}`, 150, y + 5);
  doc.x = 50;
  doc.y = y + 30;

  // A report field's name as the audit trail words it (one translation per field).
  const fieldName = (field: string) => t('safety-reports.trailField', { field, label: field });
  const field = (label: string, value: unknown) => {
    doc.font('bold').fontSize(9).fillColor('#475569').text(label, { continued: true });
    doc
      .font('regular')
      .fillColor('#111111')
      .text(`  ${plain(value) || '—'}`);
  };
  const risk = (r: { index: string; tolerability: string } | null) =>
    r ? `${r.index} (${named(t, TOLERABILITY_NAMES, r.tolerability)})` : '';
  const eventAt = utcSeconds(r.datetime);
  field(fieldName('datetime'), eventAt === null ? r.datetime : stamp(eventAt));
  field(fieldName('location'), r.location);
  field(fieldName('flight_phase'), r.flight_phase ? `${r.flight_phase} ${named(t, PHASE_NAMES, r.flight_phase)}` : '');
  field(
    `${fieldName('safety_report_department_id')} / ${fieldName('safety_report_category_id')}`,
    [rep.SafetyReportDepartment?.name, rep.SafetyReportCategory?.name].filter(Boolean).join(' / '),
  );
  field(fieldName('user_id'), rep.User ? `${rep.User.name} ${rep.User.surname}` : t('documents.srAnonymous'));
  if (rep.Reviewer) field(fieldName('reviewer_id'), `${rep.Reviewer.name} ${rep.Reviewer.surname}`);
  // A flight's date is a calendar day, not an instant: shown as written, in the company's order.
  const flightDate = rep.Flight ? utcSeconds(rep.Flight.date) : null;
  if (rep.Flight)
    field(
      fieldName('flight_id'),
      `${flightDate === null ? rep.Flight.date : formatDate(flightDate, locale, { ...formats, zone: 'UTC' })} ${rep.Flight.registration ?? ''} ${rep.Flight.departure_airport ?? ''}–${rep.Flight.landing_airport ?? ''}`,
    );
  if (rep.Aircraft?.length) field(fieldName('aircraft'), rep.Aircraft.map((a) => a.registration).join(', '));
  field(fieldName('damages'), r.damages ? named(t, DAMAGE_NAMES, r.damages) : '');
  field(fieldName('personal_damages'), r.personal_damages ? named(t, PERSONAL_DAMAGE_NAMES, r.personal_damages) : '');
  field(t('documents.srRiskBefore'), risk(rep.Risk.before));
  field(t('documents.srRiskAfter'), risk(rep.Risk.after));

  const section = (title: string, text: unknown) => {
    if (!plain(text)) return;
    doc.moveDown(0.6);
    doc.font('bold').fontSize(11).fillColor('#111111').text(title);
    doc.font('regular').fontSize(10).fillColor('#222222').text(plain(text), { align: 'left' });
  };
  for (const k of [
    'events',
    'actions',
    'immediate_consequences',
    'met_conditions',
    'result',
    'corrective_measures',
    'reviewer_outcome',
  ] as const)
    section(fieldName(k), r[k]);
  if (rep.Children?.length)
    section(
      t('documents.srRelated'),
      rep.Children.map((c) => `${c.idn ?? t('safety-reports.statusDraft')}  ${c.name}`).join('\n'),
    );
  if (rep.SafetyReportChange?.length) {
    const lines = rep.SafetyReportChange.map(
      (c) =>
        `${stamp(c.created)}  ${t('safety-reports.trailAction', { action: c.action })}  ${c.user?.name ?? '—'}  ${c.fields.map((f) => t('safety-reports.trailField', { field: f.field, label: f.label })).join(', ')}`,
    );
    section(t('documents.srHistory'), lines.join('\n'));
  }
  doc.moveDown(1);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#64748b')
    .text(t('documents.srPrinted', { date: stamp(Date.now() / 1000), name: `${actor.name} ${actor.surname}` }));
  doc.end();
  await done;
  const buf = Buffer.concat(chunks);
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader(
    'Content-Disposition',
    `attachment; filename="safety-report-${String(r.idn ?? 'draft').replace(/\//g, '-')}.pdf"`,
  );
  res.end(buf);
}
