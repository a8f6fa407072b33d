import { toCents, hoursToSeconds } from '@ops/shared/rules/billing/money';
import { appendEntries } from '@ops/server/areas/billing/billing.repository';
import type { TestServer } from '../../setup/server.ts';

/**
 * Books an adjustment (and prepaid hours) through the ledger, so an account
 * has the given balance added: the way other areas' tests give a user a
 * balance now that `users.billing_balance` is gone.
 */
export async function bookBalance(
  s: TestServer,
  companyId: string,
  userId: string,
  balance: number,
  packageHours = 0,
): Promise<void> {
  const amount = toCents(balance);
  const seconds = hoursToSeconds(packageHours);
  if (amount === null || seconds === null)
    throw new Error(`bookBalance: ${balance} / ${packageHours} is not a two-decimal value`);
  const base = {
    tax: 0,
    aircraft_id: null,
    flight_id: null,
    reverses_id: null,
    reference: null,
    description: 'Test balance',
  };
  await s.ctx.tx((uow) =>
    appendEntries(uow, companyId, userId, null, [
      ...(amount ? [{ ...base, kind: 'adjustment', amount, seconds: 0, package_seconds: 0 }] : []),
      ...(seconds ? [{ ...base, kind: 'package', amount: 0, seconds, package_seconds: seconds }] : []),
    ]),
  );
}
