import { INBOX_TYPES, inboxCollection, type NotificationDoc, notificationsCollection } from '@ops/shared';
import type { Kysely } from 'kysely';
import './notifications.tables.ts';
import type { DB } from '../../db/schema.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { recordType } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';

const query = (db: Kysely<DB>, companyId: string) =>
  db.selectFrom('notifications as n').selectAll('n').where('n.company_id', '=', companyId);
type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];
const toDoc = (n: Row): NotificationDoc => ({
  id: n.id,
  user_id: n.user_id,
  title: n.title,
  body: n.body,
  link: n.link,
  read: !!n.read,
  created: n.created,
});

/** The `notification` record type of `inbox` (own scope). */
export const notificationRecords = recordType<NotificationDoc>(inboxCollection, {
  types: [INBOX_TYPES.notification],
  sources: [tableSource({ tables: ['notifications'], alias: 'n', rows: notificationsCollection.rows, query, toDoc })],
  async load(db, companyId, id) {
    const row = await query(db, companyId).where('n.id', '=', id).executeTakeFirst();
    return row ? { ...toDoc(row), _deleted: !!row.deleted } : null;
  },
  /** A device may only mark its own notifications read (offline, e.g. opened in the hangar). */
  async write(ctx, actor, next, master) {
    if (!master || master.user_id !== actor.userId)
      return { ok: false, reason: 'Notifications are created by the server' };
    if (!next.read) return { ok: false, reason: 'A read notification cannot become unread' };
    if (master.read) return { ok: true };
    await ctx.tx(async (uow) => {
      await uow.trx
        .updateTable('notifications')
        .set({ read: 1, modified: nowSeconds(), change_no: await uow.changeNo(actor.companyId, 'notifications') })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', next.id)
        .execute();
    });
    return { ok: true };
  },
});

/** A deleted row is only a tombstone here: purged after the retention horizon. */
