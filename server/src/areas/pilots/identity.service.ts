import { uuidv7 } from '@ops/shared';
import type { UsersTable } from '../../db/core-tables.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import type { Actor } from '../../http/actor.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { activationPending, createPendingIdentity, issueToken } from '../users/identities.repository.ts';

export type EmailStatus = 'confirmed' | 'unconfirmed' | 'pending';

/**
 * The login of an address for a new pilot account. An existing login is
 * shared: `confirmed` when one of its accounts already confirmed the address,
 * `pending` while its owner never set a password, else `unconfirmed`. A new
 * address gets a pending login (`pending`).
 */
export async function loginForNewAccount(
  uow: UnitOfWork,
  email: string,
): Promise<{ identityId: string; status: EmailStatus; needsPassword: boolean }> {
  const existing = await uow.trx.selectFrom('identities').select('id').where('email', '=', email).executeTakeFirst();
  if (!existing) {
    const created = await createPendingIdentity(uow.trx, email);
    return { identityId: created.id, status: 'pending', needsPassword: true };
  }
  const confirmed = await uow.trx
    .selectFrom('users')
    .select('id')
    .where('identity_id', '=', existing.id)
    .where('email_status', '=', 'confirmed')
    .where('deleted', '=', 0)
    .executeTakeFirst();
  const pending = await activationPending(uow.trx, existing.id);
  return {
    identityId: existing.id,
    status: confirmed ? 'confirmed' : pending ? 'pending' : 'unconfirmed',
    needsPassword: pending,
  };
}

/**
 * Part A 6: the staff confirmation mail of POST /pilots/create.json. Its link
 * carries an activation token when the login has no password yet (setting one
 * proves the address), else a confirmation token for this account.
 */
export async function staffConfirmMail(
  uow: UnitOfWork,
  actor: Actor,
  user: { id: string; name: string; email: string; identityId: string; needsPassword: boolean },
): Promise<OutgoingMail> {
  const token = await issueToken(uow.trx, {
    purpose: user.needsPassword ? 'activate' : 'confirm',
    identityId: user.identityId,
    userId: user.needsPassword ? null : user.id,
    companyId: actor.companyId,
    email: user.email,
  });
  return {
    to: user.email,
    template: 'staff_confirm',
    data: { name: user.name, company: actor.company.name, token, page: user.needsPassword ? 'activate' : 'confirm' },
    companyId: actor.companyId,
  };
}

/**
 * Part A 4.8 item 5: a manager changed a pilot's email. The account moves to
 * the login of the new address and its status is recomputed:
 * - no address: the account has no login any more (`pending`);
 * - an existing login: shared (`confirmed` if one of its accounts confirmed it);
 * - a new address, the old login serving only this account: the login is
 *   renamed, the person keeps their password (`unconfirmed`);
 * - a new address, the old login shared with other companies: a new login with
 *   the same password and preferences (`unconfirmed`), the others keep theirs;
 * - a new address and no login before: a pending login (`pending`).
 * When `notify`, a `confirm` mail goes to an unconfirmed address, an
 * `activation` mail to a login without password; a confirmed one gets none.
 */
export async function moveToEmail(
  uow: UnitOfWork,
  actor: Actor,
  target: Pick<UsersTable, 'id' | 'name' | 'identity_id'>,
  email: string | null,
  notify: boolean,
  mails: OutgoingMail[],
): Promise<{ email: string | null; identity_id: string | null; email_status: EmailStatus }> {
  if (email === null) return { email: null, identity_id: null, email_status: 'pending' };
  const trx = uow.trx;
  const now = nowSeconds();
  let identityId: string;
  let status: EmailStatus;
  const existing = await trx.selectFrom('identities').select('id').where('email', '=', email).executeTakeFirst();
  if (existing) {
    const login = await loginForNewAccount(uow, email);
    identityId = login.identityId;
    status = login.status;
  } else if (target.identity_id) {
    const shared = await trx
      .selectFrom('users')
      .select('id')
      .where('identity_id', '=', target.identity_id)
      .where('id', '!=', target.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    const pending = await activationPending(trx, target.identity_id);
    if (!shared) {
      await trx.updateTable('identities').set({ email, modified: now }).where('id', '=', target.identity_id).execute();
      identityId = target.identity_id;
    } else if (pending) {
      identityId = (await createPendingIdentity(trx, email)).id;
    } else {
      const old = await trx
        .selectFrom('identities')
        .selectAll()
        .where('id', '=', target.identity_id)
        .executeTakeFirstOrThrow();
      identityId = uuidv7();
      await trx
        .insertInto('identities')
        .values({ ...old, id: identityId, email, created: now, modified: now })
        .execute();
    }
    status = pending ? 'pending' : 'unconfirmed';
  } else {
    identityId = (await createPendingIdentity(trx, email)).id;
    status = 'pending';
  }
  if (notify && status !== 'confirmed') {
    const purpose = status === 'pending' ? 'activate' : 'confirm';
    const token = await issueToken(trx, {
      purpose,
      identityId,
      userId: purpose === 'confirm' ? target.id : null,
      companyId: actor.companyId,
      email,
    });
    mails.push(
      purpose === 'confirm'
        ? { to: email, template: 'confirm', data: { name: target.name, email, token }, companyId: actor.companyId }
        : {
            to: email,
            template: 'activation',
            data: { name: target.name, company: actor.company.name, token },
            companyId: actor.companyId,
          },
    );
  }
  return { email, identity_id: identityId, email_status: status };
}
