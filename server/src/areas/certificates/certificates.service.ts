import { uuidv7 } from '@ops/shared';
import { getCertificateType } from '@ops/shared/reference/certificate-types';
import { mayManageCertificatesOf } from '@ops/shared/rules/certificates/policy';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { UserCertificatesTable } from '../../db/domain-tables.ts';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound, validationFailed } from '../../http/errors.ts';
import { nowSeconds } from '../../lib/tokens.ts';
import { type UploadSummary, uploadsOf } from '../uploads/attachments.service.ts';
import type { TCertificateEdit } from './certificates.schema.ts';

/** Roles up to this number manage and read every company user's certificates (Part A 4.8 item 4, CONTRACT 4). */

type CertificateRow = Pick<
  UserCertificatesTable,
  'id' | 'user_id' | 'type' | 'name' | 'issue' | 'expiration' | 'comments' | 'upload_id'
>;

/**
 * Part A 2.10 `UserCertificate`. `Upload` is the certificate's scan (id, filename,
 * type, mime, size): the newest active upload attached with model `UserCertificate`,
 * else the one named by `upload_id`; null when there is none.
 */
export const presentCertificate = (c: CertificateRow, uploads: Map<string, UploadSummary[]> = new Map()) => ({
  id: c.id,
  user_id: c.user_id,
  type: c.type,
  name: c.name,
  issue: c.issue,
  expiration: c.expiration,
  comments: c.comments,
  Upload: certificateUpload(c, uploads),
});

function certificateUpload(c: CertificateRow, uploads: Map<string, UploadSummary[]>) {
  const list = uploads.get(c.id) ?? [];
  const u = list.find((x) => x.id === c.upload_id) ?? list[list.length - 1];
  if (u) return { id: u.id, filename: u.filename, type: u.type, mime: u.mime, size: u.size };
  // Callers without the upload rows (the offline document) keep the reference.
  return c.upload_id ? { id: c.upload_id } : null;
}

/** The attached uploads of these certificates, in one query. */
const uploadsOfCertificates = (db: Kysely<DB>, companyId: string, rows: readonly CertificateRow[]) =>
  uploadsOf(
    db,
    companyId,
    'UserCertificate',
    rows.map((r) => r.id),
  );

const COLUMNS = ['id', 'user_id', 'type', 'name', 'issue', 'expiration', 'comments', 'upload_id'] as const;

async function companyUser(db: Kysely<DB>, companyId: string, id: string) {
  const u = await db
    .selectFrom('users')
    .select(['id'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!u) throw notFound('User not found');
  return u;
}

/** Another person's certificates: instructors and above only (certificates/policy.ts). A refusal is 403, not an empty list that would read as "holds none". */
function requireAccess(actor: Actor, userId: string, verb: 'see' | 'change'): void {
  if (!mayManageCertificatesOf(actor, userId))
    throw forbidden(
      verb === 'see' ? 'You can only see your own certificates' : 'You can only change your own certificates',
    );
}

/** Live certificates of one user, by type (one indexed query). */
export async function certificatesOf(db: Kysely<DB>, companyId: string, userId: string) {
  const rows = await db
    .selectFrom('user_certificates')
    .select([...COLUMNS])
    .where('company_id', '=', companyId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .orderBy('type')
    .orderBy('id')
    .execute();
  const uploads = await uploadsOfCertificates(db, companyId, rows);
  return rows.map((r) => presentCertificate(r, uploads));
}

/** GET /pilots/certificates/{userId}.json (userId defaults to the caller). */
export async function listCertificates(ctx: AppContext, actor: Actor, userId: string | undefined) {
  const target = await companyUser(ctx.db, actor.companyId, userId ?? actor.userId);
  requireAccess(actor, target.id, 'see');
  return { certificates: await certificatesOf(ctx.db, actor.companyId, target.id) };
}

async function findCertificate(db: Kysely<DB>, companyId: string, id: string) {
  const row = await db
    .selectFrom('user_certificates')
    .select([...COLUMNS])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound('Certificate not found');
  return row;
}

/**
 * POST /pilots/certificates/edit.json: creates (no id) or changes a
 * certificate. A certificate never moves to another person. The name defaults
 * to the catalog name of its type.
 */
export async function saveCertificate(ctx: AppContext, actor: Actor, input: TCertificateEdit) {
  const target = await companyUser(ctx.db, actor.companyId, input.user_id);
  requireAccess(actor, target.id, 'change');
  const existing = input.id ? await findCertificate(ctx.db, actor.companyId, input.id) : null;
  if (existing) {
    requireAccess(actor, existing.user_id, 'change');
    if (existing.user_id !== target.id)
      throw validationFailed({ user_id: ['A certificate cannot move to another person'] });
  }
  const issue = input.issue === undefined ? (existing?.issue ?? null) : input.issue;
  const expiration = input.expiration === undefined ? (existing?.expiration ?? null) : input.expiration;
  if (issue && expiration && expiration < issue)
    throw validationFailed({ expiration: ['The expiration cannot be before the issue date'] });
  const catalogName = getCertificateType(input.type)?.name ?? input.type;
  const name =
    input.name === undefined
      ? existing && existing.type === input.type
        ? existing.name
        : catalogName
      : (input.name ?? catalogName);
  const comments = input.comments === undefined ? (existing?.comments ?? null) : input.comments;
  const id = existing?.id ?? uuidv7();
  await ctx.tx(async (uow) => {
    const now = nowSeconds();
    const changeNo = await uow.changeNo(actor.companyId, 'user_certificates');
    if (existing) {
      await uow.trx
        .updateTable('user_certificates')
        .set({ type: input.type, name, issue, expiration, comments, change_no: changeNo, modified: now })
        .where('company_id', '=', actor.companyId)
        .where('id', '=', id)
        .execute();
    } else {
      await uow.trx
        .insertInto('user_certificates')
        .values({
          id,
          company_id: actor.companyId,
          change_no: changeNo,
          deleted: 0,
          created: now,
          modified: now,
          user_id: target.id,
          type: input.type,
          name,
          issue,
          expiration,
          comments,
          upload_id: null,
        })
        .execute();
    }
  });
  const saved = await findCertificate(ctx.db, actor.companyId, id);
  return {
    result: true,
    id,
    UserCertificate: presentCertificate(saved, await uploadsOfCertificates(ctx.db, actor.companyId, [saved])),
  };
}

/** POST /pilots/certificates/delete/{id}.json: a tombstone (replicated to the owner's devices). */
export async function deleteCertificate(ctx: AppContext, actor: Actor, id: string) {
  const row = await findCertificate(ctx.db, actor.companyId, id);
  requireAccess(actor, row.user_id, 'change');
  await ctx.tx(async (uow) => {
    await uow.trx
      .updateTable('user_certificates')
      .set({ deleted: 1, change_no: await uow.changeNo(actor.companyId, 'user_certificates'), modified: nowSeconds() })
      .where('company_id', '=', actor.companyId)
      .where('id', '=', row.id)
      .execute();
  });
  return { result: true, id: row.id, message: 'Certificate deleted' };
}
