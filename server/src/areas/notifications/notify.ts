import { uuidv7 } from '@ops/shared';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import './notifications.tables.ts';

export interface NotificationMessage {
  companyId: string;
  userIds: readonly string[];
  title: string;
  body?: string | null;
  link?: string | null;
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
  const recipients = await uow.trx
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', msg.companyId)
    .where('id', 'in', ids)
    .where('deleted', '=', 0)
    .execute();
  if (!recipients.length) return 0;
  const now = nowSeconds();
  const changeNo = await uow.changeNo(msg.companyId, 'notifications');
  await uow.trx
    .insertInto('notifications')
    .values(
      recipients.map((r) => ({
        id: uuidv7(),
        company_id: msg.companyId,
        change_no: changeNo,
        deleted: 0,
        created: now,
        modified: now,
        user_id: r.id,
        title: msg.title.slice(0, 255),
        body: msg.body ?? null,
        link: msg.link ?? null,
        read: 0,
      })),
    )
    .execute();
  return recipients.length;
}
