import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { emitWebhook } from '../webhooks/outbox.service.ts';
import { presentEntry } from './billing.presenter.ts';
import type { BillingEntriesTable } from './billing.tables.ts';

/** `account.entry_created`: the new entry as `GET /billing/account.json` lists it. */
export async function emitEntryWebhooks(
  uow: UnitOfWork,
  companyId: string,
  entries: readonly BillingEntriesTable[],
): Promise<void> {
  for (const e of entries)
    await emitWebhook(uow, companyId, 'account.entry_created', 'Entry', e.id, async () => ({ Entry: presentEntry(e) }));
}
