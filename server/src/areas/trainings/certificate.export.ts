import { english } from '../../http/messages.ts';
import { maySeeEnrollment } from '@ops/shared/rules/trainings/policy';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Response } from 'express';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, forbidden } from '../../http/errors.ts';
import { num, requireEnrollment } from './trainings.repository.ts';
import { translator } from '@ops/shared/i18n/index';

/**
 * GET /trainings/trainings/certificate/{enrollmentId}.json (Part B 4.7 item 19):
 * a one-page A4 landscape PDF certificate of a COMPLETED enrollment, for its
 * student and for instructors and managers (<= 150). Drawn with pdfkit and the
 * DejaVu fonts the safety report PDF uses (accented names on any host).
 */

const FONTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/fonts');
const REGULAR = path.join(FONTS, 'DejaVuSans.ttf');
const BOLD = path.join(FONTS, 'DejaVuSans-Bold.ttf');

export async function sendCertificate(
  ctx: AppContext,
  actor: Actor,
  enrollmentId: string,
  res: Response,
): Promise<undefined> {
  const e = await requireEnrollment(ctx.db, actor.companyId, enrollmentId);
  if (!maySeeEnrollment(actor, e)) throw forbidden(english('trainings.errNotYourEnrollment'));
  if (e.status !== 'COMPLETED')
    throw badRequest(english('trainings.errCertificateCompleted'), { code: 'NOT_COMPLETED' });
  const db = ctx.db;
  const student = await db
    .selectFrom('users')
    .select(['name', 'surname'])
    .where('id', '=', e.user_id)
    .where('company_id', '=', actor.companyId)
    .executeTakeFirst();
  const full = await db
    .selectFrom('training_enrollments')
    .select(['status_changed_at', 'status_changed_by'])
    .where('id', '=', e.id)
    .executeTakeFirstOrThrow();
  const signer = full.status_changed_by
    ? await db
        .selectFrom('users')
        .select(['name', 'surname'])
        .where('id', '=', full.status_changed_by)
        .where('company_id', '=', actor.companyId)
        .executeTakeFirst()
    : undefined;
  const subjects = await db
    .selectFrom('training_subjects as s')
    .leftJoin('training_lessons as l', (j) => j.onRef('l.subject_id', '=', 's.id').on('l.deleted', '=', 0))
    .select(['s.id', 's.name', 's.position'])
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('l.minutes'), eb.val(0)).as('minutes'))
    .where('s.training_id', '=', e.training_id)
    .where('s.deleted', '=', 0)
    .groupBy(['s.id', 's.name', 's.position'])
    .orderBy('s.position')
    .orderBy('s.name')
    .execute();
  const attended = await db
    .selectFrom('training_session_students as ss')
    .innerJoin('training_sessions as c', (j) => j.onRef('c.id', '=', 'ss.session_id').on('c.deleted', '=', 0))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ss.company_id', '=', actor.companyId)
    .where('ss.enrollment_id', '=', e.id)
    .where('ss.deleted', '=', 0)
    .where('ss.attended', '=', 1)
    .executeTakeFirstOrThrow();
  const tz = actor.company.timezone || 'UTC';
  const day = (t: number) => DateTime.fromSeconds(t, { zone: tz }).toFormat('d LLLL yyyy');
  const completedAt = full.status_changed_at ? num(full.status_changed_at) : num(e.created);
  const name = [student?.name, student?.surname].filter(Boolean).join(' ');

  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 50,
    info: { Title: `Certificate: ${e.training_name} — ${name}`, Author: actor.company.name },
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const W = doc.page.width;
  const H = doc.page.height;
  doc
    .lineWidth(3)
    .strokeColor('#1e3a8a')
    .rect(24, 24, W - 48, H - 48)
    .stroke();
  doc
    .lineWidth(0.8)
    .strokeColor('#93c5fd')
    .rect(32, 32, W - 64, H - 64)
    .stroke();
  const center = (text: string, y: number, font: string, size: number, color = '#111111') => {
    doc
      .font(font)
      .fontSize(size)
      .fillColor(color)
      .text(text, 60, y, { width: W - 120, align: 'center' });
  };
  const t = translator(actor.language);
  center(actor.company.name.toUpperCase(), 62, 'bold', 12, '#475569');
  center(t('documents.certificateTitle'), 96, 'bold', 32, '#1e3a8a');
  center(t('documents.certificateCertifies'), 160, 'regular', 13, '#334155');
  center(name || '—', 184, 'bold', 28);
  center(t('documents.certificateCompleted'), 232, 'regular', 13, '#334155');
  center(e.training_name, 256, 'bold', 20);
  center(
    `${e.training_type.charAt(0)}${e.training_type.slice(1).toLowerCase()} training · completed on ${day(completedAt)} · enrolled ${day(num(e.created))}`,
    290,
    'regular',
    11,
    '#475569',
  );

  // Subjects with their ground hours, in two columns when long.
  const list = subjects.map((s) => `${s.name}  ${(num(s.minutes) / 60).toFixed(1)} h`);
  const totalHours = subjects.reduce((a, s) => a + num(s.minutes), 0) / 60;
  let y = 326;
  if (list.length) {
    center(
      `Subjects (${totalHours.toFixed(1)} ground hours, ${num(attended.n)} classes attended)`,
      y,
      'bold',
      11,
      '#334155',
    );
    y += 20;
    const half = Math.ceil(Math.min(list.length, 16) / 2);
    const colW = (W - 200) / 2;
    list.slice(0, 16).forEach((line, i) => {
      const col = i < half ? 0 : 1;
      const row = i < half ? i : i - half;
      doc
        .font('regular')
        .fontSize(10)
        .fillColor('#111111')
        .text(`• ${line}`, 100 + col * colW, y + row * 15, { width: colW - 10 });
    });
    if (list.length > 16) center(`and ${list.length - 16} more`, y + half * 15 + 4, 'regular', 9, '#64748b');
  }

  // Signature and reference.
  const sy = H - 120;
  doc
    .lineWidth(0.8)
    .strokeColor('#334155')
    .moveTo(W - 300, sy)
    .lineTo(W - 80, sy)
    .stroke();
  doc
    .font('regular')
    .fontSize(10)
    .fillColor('#334155')
    .text(signer ? `${signer.name} ${signer.surname}` : actor.company.name, W - 300, sy + 6, {
      width: 220,
      align: 'center',
    });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#64748b')
    .text(t('documents.certificateSigner'), W - 300, sy + 20, { width: 220, align: 'center' });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor('#64748b')
    .text(`Certificate no. ${e.id}`, 80, sy + 6);
  doc.text(`Issued ${day(Math.floor(Date.now() / 1000))}`, 80, sy + 20);
  doc.end();
  await done;
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', `attachment; filename="certificate-${e.id}.pdf"`);
  res.end(Buffer.concat(chunks));
  return undefined;
}
