import { uuidv7 } from '@ops/shared';
import { type MessageId, type MessageValues, translator } from '@ops/shared/i18n/index';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './notifications.tables.ts';

/**
 * Rows per statement: 11 columns x 500 rows stays under SQLite's 32766 and
 * PostgreSQL's 65535 bound parameters, so a whole large company can be notified.
 */
const CHUNK = 500;

export interface NotificationMessage {
  companyId: string;
  userIds: readonly string[];
  /** The English title; with `titleId` it is the fallback only. */
  title: string;
  body?: string | null;
  link?: string | null;
  /** A catalogue message for the title, written in each recipient's language (issue 33). */
  titleId?: MessageId;
  titleValues?: MessageValues;
  /** The same for the body (`body` is then the English fallback only). */
  bodyId?: MessageId;
  bodyValues?: MessageValues;
}

/**
 * The one notification service every area calls (aircraft reports, flight
 * cancellations, enrollments, safety reports). Written in the caller's
 * transaction, so a rolled-back action notifies nobody; recipients of another
 * company are ignored. Notifications replicate to their recipient's devices.
 */
export async function notify(uow: UnitOfWork, msg: NotificationMessage): Promise<number> {
  const ids = [...new Set(msg.userIds)];
  if (!ids.length) return 0;
  const recipients: string[] = [];
  const languageOf = new Map<string, string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await uow.trx
      .selectFrom('users')
      .select(['id', 'language'])
      .where('company_id', '=', msg.companyId)
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .where('deleted', '=', 0)
      .execute();
    recipients.push(...rows.map((r) => r.id));
    for (const r of rows) languageOf.set(r.id, r.language);
  }
  if (!recipients.length) return 0;
  const now = nowSeconds();
  const changeNo = await uow.changeNo(msg.companyId, 'notifications');
  const rows = recipients.map((userId) => ({
    id: uuidv7(),
    company_id: msg.companyId,
    change_no: changeNo,
    deleted: 0,
    created: now,
    modified: now,
    user_id: userId,
    title: (msg.titleId ? translator(languageOf.get(userId))(msg.titleId, msg.titleValues) : msg.title).slice(0, 255),
    body: msg.bodyId ? translator(languageOf.get(userId))(msg.bodyId, msg.bodyValues) : (msg.body ?? null),
    link: msg.link ?? null,
    read: 0,
  }));
  for (let i = 0; i < rows.length; i += CHUNK)
    await uow.trx
      .insertInto('notifications')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  return recipients.length;
}
