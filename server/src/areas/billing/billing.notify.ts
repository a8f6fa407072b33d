import { uuidv7 } from '@ops/shared';
import { fromCents } from '@ops/shared/rules/billing/money';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { notify } from '../notifications/notifications.notify.ts';
import { emitEntryWebhooks } from './billing.webhooks.ts';
import type { BillingEntriesTable } from './billing.tables.ts';

const KIND_NAMES: Record<string, string> = {
  flight: 'Flight',
  instructor: 'Instructor',
  package: 'Package',
  payment: 'Payment',
  adjustment: 'Adjustment',
  reversal: 'Reversal',
};

/**
 * Tells about new entries in their transaction: one `account.entry_created`
 * webhook per entry, one in-app notification per charged user, and, with
 * `CompanyBillingSetting.send_notification`, one mail per user queued for the
 * `billing.mail` job (written with the entries, so a rolled-back charge mails nobody).
 */
export async function announceEntries(
  uow: UnitOfWork,
  companyId: string,
  entries: readonly BillingEntriesTable[],
): Promise<void> {
  if (!entries.length) return;
  await emitEntryWebhooks(uow, companyId, entries);
  const company = await uow.trx
    .selectFrom('companies')
    .select(['currency', 'billing_send_notification'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const currency = company.currency ?? 'EUR';
  const now = nowSeconds();
  for (const userId of [...new Set(entries.map((e) => e.user_id))]) {
    const mine = entries.filter((e) => e.user_id === userId);
    const total = mine.reduce((s, e) => s + Number(e.amount), 0);
    const title =
      mine.length === 1
        ? `${KIND_NAMES[mine[0].kind] ?? mine[0].kind} on your account: ${fromCents(total).toFixed(2)} ${currency}`
        : `${mine.length} entries on your account: ${fromCents(total).toFixed(2)} ${currency}`;
    const body = mine
      .map(
        (e) =>
          `${KIND_NAMES[e.kind] ?? e.kind}${e.description ? ` (${e.description})` : ''}: ${fromCents(Number(e.amount)).toFixed(2)} ${currency}`,
      )
      .join('\n');
    await notify(uow, { companyId, userIds: [userId], title, body, link: '/billing/account.json' });
    if (company.billing_send_notification) {
      await uow.trx
        .insertInto('billing_mail_queue')
        .values({
          id: uuidv7(),
          company_id: companyId,
          user_id: userId,
          subject: title,
          body,
          created: now,
          sent: null,
        })
        .execute();
    }
  }
}
