import { Readable, PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { fileTypeFromBuffer } from 'file-type';
import {
  contentMatchesDeclared,
  MAX_API_UPLOAD_BYTES,
  MAX_DIRECT_UPLOAD_BYTES,
  PRESIGNED_URL_SECONDS,
  safeFilename,
  signErrors,
  uploadTypeOf,
} from '@ops/shared/rules/uploads/upload-types';
import { mayManageUpload, uploadFileWithheld, uploadVisible } from '@ops/shared/rules/uploads/policy';
import { uuidv7 } from '@ops/shared';
import type { AppContext } from '../../context.ts';
import { fileStore, type FileStore } from '../../files/index.ts';
import { TooLargeError } from '../../files/store.ts';
import type { Actor } from '../../http/actor.ts';
import { badRequest, HttpError, notFound } from '../../http/errors.ts';
import { attachedRecordVisible, uploadModel } from './attachments.service.ts';
import { hasImageFacts, imageFacts } from './image-facts.service.ts';
import type { UploadsTable } from './uploads.tables.ts';
import { pageCountOf, paginate } from '../../http/paging.ts';

/** Lifetime of download and list URLs. */
export const DOWNLOAD_URL_SECONDS = 5 * 60;
export const LIST_URL_SECONDS = 60 * 60;
/** Leading bytes read for sniffing and EXIF. */
const SNIFF_BYTES = 4100;
const EXIF_BYTES = 256 * 1024;

type Row = UploadsTable;

const now = () => Math.floor(Date.now() / 1000);
const str = (n: number | null) => (n === null || n === undefined ? null : String(n));

export const originOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

const keys = (companyId: string, id: string, filename: string) => ({
  final: `${companyId}/${id}/file/${filename}`,
  incoming: `${companyId}/${id}/incoming/${filename}`,
  thumb: `${companyId}/${id}/thumb.jpg`,
});

/** Upload error in the spec's shape: `result: false` with `error` (and `message` like every other 400). */
const uploadError = (status: number, error: string, extra: Record<string, unknown> = {}) =>
  new HttpError(status, { result: false, error, message: error, ...extra });

/**
 * A live upload of the caller's company whose attached record the caller may
 * see (attachedRecordVisible): every endpoint reading one upload by id starts
 * here, so an upload of a record the caller cannot see is a 404 like another
 * company's.
 */
async function findRow(ctx: AppContext, actor: Actor, id: string): Promise<Row | undefined> {
  const row = await ctx.db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', actor.companyId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row || !(await attachedRecordVisible(ctx.db, actor, row.model, row.foreign_key))) return undefined;
  return row;
}

/** A registered model's record must be live in the company and visible to the caller (else 404) before files attach to it or are listed. */
async function checkRecord(ctx: AppContext, actor: Actor, model: string, foreignKey: string): Promise<void> {
  const def = uploadModel(model);
  if (def && !(await def.exists(ctx.db, actor.companyId, foreignKey)))
    throw notFound(`No ${model} ${foreignKey} in your company`);
  if (!(await attachedRecordVisible(ctx.db, actor, model, foreignKey)))
    throw notFound(`No ${model} ${foreignKey} in your company`);
}

export const fileShape = (r: Row) => ({
  id: r.id,
  filename: r.filename,
  type: r.type,
  mime: r.mime,
  size: str(r.size),
  active: r.active === 1,
  model: r.model,
  foreign_key: r.foreign_key,
});

/** Removes stored objects, logging (not failing) on storage errors: the record is already gone. */
export async function removeStoredObjects(ctx: AppContext, objectKeys: readonly string[]): Promise<void> {
  const store = fileStore(ctx);
  for (const key of objectKeys) {
    try {
      await store.delete(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'could not delete a stored upload object');
    }
  }
}

async function tombstone(ctx: AppContext, row: Row): Promise<void> {
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(row.company_id, 'uploads');
    await uow.trx
      .updateTable('uploads')
      .set({ deleted: 1, active: 0, change_no: changeNo, modified: now() })
      .where('id', '=', row.id)
      .where('company_id', '=', row.company_id)
      .execute();
  });
}

// ---------------------------------------------------------------- sign

export interface SignInput {
  filename?: unknown;
  mime?: unknown;
  size?: unknown;
  model?: unknown;
  foreign_key?: unknown;
}

export async function signUpload(ctx: AppContext, actor: Actor, input: SignInput, origin: string) {
  const errors = signErrors(input);
  if (Object.keys(errors).length) {
    const first = Object.values(errors)[0]!;
    throw uploadError(
      400,
      errors.mime === 'Unsupported file type'
        ? 'Unsupported file type'
        : errors.size && errors.size !== 'Required'
          ? errors.size
          : first === 'Required'
            ? 'Missing parameters'
            : first,
      { errors },
    );
  }
  const filename = safeFilename(String(input.filename));
  const mime = String(input.mime).trim().toLowerCase().split(';')[0]!.trim();
  const size = Number(input.size);
  const model = String(input.model).trim();
  const foreignKey = String(input.foreign_key).trim();
  await checkRecord(ctx, actor, model, foreignKey);
  const id = uuidv7();
  const k = keys(actor.companyId, id, filename);
  const t = now();
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(actor.companyId, 'uploads');
    await uow.trx
      .insertInto('uploads')
      .values({
        id,
        company_id: actor.companyId,
        change_no: changeNo,
        deleted: 0,
        created: t,
        modified: t,
        user_id: actor.userId,
        model,
        foreign_key: foreignKey,
        filename,
        type: uploadTypeOf(mime)!,
        mime,
        size: null,
        declared_size: size,
        width: null,
        height: null,
        exif: null,
        active: 0,
        verified: 0,
        expiration: null,
        storage_key: k.incoming,
        thumb_key: null,
        tag: null,
      })
      .execute();
  });
  const signed = await fileStore(ctx).signPut(k.incoming, PRESIGNED_URL_SECONDS, origin);
  return { result: true, upload_id: id, url: signed.url, key: k.incoming, expires: signed.expires, error: null };
}

// ---------------------------------------------------------------- verification

interface Verified {
  size: number;
  width: number | null;
  height: number | null;
  exif: string | null;
  thumbKey: string | null;
}

async function sniff(head: Buffer): Promise<string | null> {
  if (head.length === 0) return null;
  return (await fileTypeFromBuffer(head))?.mime ?? null;
}

/** Image facts of a stored object and its thumbnail written beside it. */
async function describeImage(
  store: FileStore,
  key: string,
  thumbKey: string,
  mime: string,
  size: number,
): Promise<Omit<Verified, 'size'>> {
  if (!hasImageFacts(mime)) return { width: null, height: null, exif: null, thumbKey: null };
  const head = await store.readStart(key, Math.min(EXIF_BYTES, size));
  const facts = await imageFacts(await store.read(key), head);
  let stored: string | null = null;
  if (facts.thumbnail) {
    await store.put(thumbKey, Readable.from([facts.thumbnail]), {
      contentType: 'image/jpeg',
      maxBytes: facts.thumbnail.length,
    });
    stored = thumbKey;
  }
  return {
    width: facts.width,
    height: facts.height,
    exif: facts.exif ? JSON.stringify(facts.exif) : null,
    thumbKey: stored,
  };
}

/** Failed verification: the object and the record go (Part A 3), then a 400. */
async function reject(ctx: AppContext, row: Row, key: string, error: string): Promise<never> {
  await removeStoredObjects(ctx, [key]);
  await tombstone(ctx, row);
  throw uploadError(400, error);
}

// ---------------------------------------------------------------- complete

export async function completeUpload(ctx: AppContext, actor: Actor, id: string) {
  const row = await findRow(ctx, actor, id);
  if (!row || row.user_id !== actor.userId) throw uploadError(404, 'Upload not found');
  if (row.verified === 1) return { result: true, file: fileShape(row), error: null };
  const store = fileStore(ctx);
  const head = await store.head(row.storage_key);
  if (!head) return reject(ctx, row, row.storage_key, 'The file was not uploaded');
  if (head.size === 0) return reject(ctx, row, row.storage_key, 'The uploaded file is empty');
  if (head.size > MAX_DIRECT_UPLOAD_BYTES)
    return reject(ctx, row, row.storage_key, 'The uploaded file is larger than 2 GB');
  if (row.declared_size !== null && head.size > Number(row.declared_size))
    return reject(ctx, row, row.storage_key, 'The uploaded file is larger than the size signed for');
  const sniffed = await sniff(await store.readStart(row.storage_key, SNIFF_BYTES));
  if (!contentMatchesDeclared(row.mime, sniffed))
    return reject(ctx, row, row.storage_key, `The file content does not match the declared type ${row.mime}`);

  // Verified: the object moves from its staging key (the presigned URL's) to its final place.
  const k = keys(row.company_id, row.id, row.filename);
  await store.move(row.storage_key, k.final);
  const facts = await describeImage(store, k.final, k.thumb, row.mime, head.size);
  return ctx.tx(async (uow) => {
    // A concurrent repeat of complete may have won: answer with its record.
    const current = await uow.trx
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', row.id)
      .where('company_id', '=', row.company_id)
      .executeTakeFirstOrThrow();
    if (current.verified === 1) return { result: true, file: fileShape(current), error: null };
    const changeNo = await uow.changeNo(row.company_id, 'uploads');
    const patch = {
      size: head.size,
      width: facts.width,
      height: facts.height,
      exif: facts.exif,
      thumb_key: facts.thumbKey,
      storage_key: k.final,
      verified: 1,
      active: 1,
      change_no: changeNo,
      modified: now(),
    };
    await uow.trx
      .updateTable('uploads')
      .set(patch)
      .where('id', '=', row.id)
      .where('company_id', '=', row.company_id)
      .execute();
    return { result: true, file: fileShape({ ...current, ...patch }), error: null };
  });
}

// ---------------------------------------------------------------- create (multipart)

interface MultipartResult {
  fields: Record<string, string>;
  file: { filename: string; declaredMime: string; size: number; head: Buffer } | null;
}

/** Streams the single `file` part to `key` (never buffering it), collecting the text fields and its first bytes. */
function receiveMultipart(
  req: Request,
  store: FileStore,
  keyFor: (filename: string) => string,
): Promise<MultipartResult & { key: string | null }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 20, fieldSize: 4096, fileSize: MAX_API_UPLOAD_BYTES + 1, parts: 30 },
      });
    } catch {
      reject(badRequest('Send the file as multipart/form-data with a `file` part'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: MultipartResult['file'] = null;
    let key: string | null = null;
    let writing: Promise<void> | null = null;
    let failed: unknown = null;
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume();
        return;
      }
      const filename = safeFilename(info.filename ?? 'file');
      const chunks: Buffer[] = [];
      let headLen = 0;
      const tap = new PassThrough();
      tap.on('data', (c: Buffer) => {
        if (headLen < SNIFF_BYTES) {
          chunks.push(c.subarray(0, SNIFF_BYTES - headLen));
          headLen += Math.min(c.length, SNIFF_BYTES - headLen);
        }
      });
      key = keyFor(filename);
      const k = key;
      const entry = { filename, declaredMime: (info.mimeType ?? '').toLowerCase(), size: 0, head: Buffer.alloc(0) };
      file = entry;
      writing = (async () => {
        try {
          const body = new PassThrough();
          stream.pipe(tap).pipe(body);
          const put = await store.put(k, body, {
            contentType: entry.declaredMime || 'application/octet-stream',
            maxBytes: MAX_API_UPLOAD_BYTES,
          });
          entry.size = put.size;
          entry.head = Buffer.concat(chunks);
        } catch (err) {
          failed = err;
          stream.resume();
        }
      })();
    });
    bb.on('error', (err) => reject(badRequest(`Malformed multipart body: ${(err as Error).message}`)));
    bb.on('close', async () => {
      await writing;
      if (failed) {
        if (key) await store.delete(key).catch(() => {});
        reject(failed instanceof TooLargeError ? uploadError(400, 'File is larger than 100 MB') : failed);
        return;
      }
      resolve({ fields, file, key });
    });
    pipeline(req, bb).catch(() => {});
  });
}

export async function createUpload(ctx: AppContext, actor: Actor, req: Request) {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType))
    throw uploadError(400, 'Send the file as multipart/form-data with a `file` part');
  const store = fileStore(ctx);
  const id = uuidv7();
  const got = await receiveMultipart(req, store, (filename) => keys(actor.companyId, id, filename).final);
  const fail = async (error: string, status = 400): Promise<never> => {
    if (got.key) await store.delete(got.key).catch(() => {});
    throw uploadError(status, error);
  };
  if (!got.file || !got.key) return fail('The `file` part is required');
  const { file } = got;
  if (file.size === 0) return fail('The uploaded file is empty');
  const sniffed = await sniff(file.head);
  // The part's declared type when specific, else what the bytes say.
  const declared =
    file.declaredMime && file.declaredMime !== 'application/octet-stream'
      ? file.declaredMime
      : (sniffed ?? 'application/octet-stream');
  const type = uploadTypeOf(declared);
  if (!type) return fail('Unsupported file type');
  if (!contentMatchesDeclared(declared, sniffed))
    return fail(`The file content does not match the declared type ${declared}`);

  const f = got.fields;
  const activeAsked = ['1', 'true', 'on'].includes((f.active ?? '').trim().toLowerCase());
  const model = (f.model ?? '').trim() || null;
  const foreignKey = (f.id ?? f.foreign_key ?? '').trim() || null;
  if ((model && model.length > 64) || (foreignKey && foreignKey.length > 64))
    return fail('`model` and `id` are at most 64 characters');
  if (model && foreignKey) {
    try {
      await checkRecord(ctx, actor, model, foreignKey);
    } catch (err) {
      await store.delete(got.key).catch(() => {});
      throw err;
    }
  }
  const confirm = activeAsked && !!model && !!foreignKey;
  const k = keys(actor.companyId, id, file.filename);
  const facts = await describeImage(store, k.final, k.thumb, declared, file.size);
  const t = now();
  const row: Row = {
    id,
    company_id: actor.companyId,
    change_no: 0,
    deleted: 0,
    created: t,
    modified: t,
    user_id: actor.userId,
    model,
    foreign_key: foreignKey,
    filename: file.filename,
    type,
    mime: declared,
    size: file.size,
    declared_size: null,
    width: facts.width,
    height: facts.height,
    exif: facts.exif,
    active: confirm ? 1 : 0,
    verified: 1,
    expiration: null,
    storage_key: k.final,
    thumb_key: facts.thumbKey,
    tag: null,
  };
  await ctx.tx(async (uow) => {
    row.change_no = await uow.changeNo(actor.companyId, 'uploads');
    await uow.trx.insertInto('uploads').values(row).execute();
  });
  return { result: true, file: fileShape(row), error: null };
}

// ---------------------------------------------------------------- confirm, expiration, delete

export async function confirmUpload(
  ctx: AppContext,
  actor: Actor,
  id: string,
  body: { model: string; foreign_key: string },
) {
  const row = await findRow(ctx, actor, id);
  if (!row || row.user_id !== actor.userId) throw notFound('Upload not found');
  if (row.verified !== 1) throw badRequest('Complete the upload before confirming it');
  await checkRecord(ctx, actor, body.model, body.foreign_key);
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(actor.companyId, 'uploads');
    await uow.trx
      .updateTable('uploads')
      .set({ active: 1, model: body.model, foreign_key: body.foreign_key, change_no: changeNo, modified: now() })
      .where('id', '=', id)
      .where('company_id', '=', actor.companyId)
      .execute();
  });
  return {
    result: true,
    Upload: { id: row.id, filename: row.filename, active: true, model: body.model, foreign_key: body.foreign_key },
  };
}

/** The upload when the caller may manage it: staff (group <= 170) any of the company, others their own; else 404. */
async function managed(ctx: AppContext, actor: Actor, id: string): Promise<Row> {
  const row = await findRow(ctx, actor, id);
  if (!row || !mayManageUpload(actor, row)) throw notFound('Upload not found');
  return row;
}

export async function setExpiration(ctx: AppContext, actor: Actor, id: string, expiration: string | null) {
  const row = await managed(ctx, actor, id);
  await ctx.tx(async (uow) => {
    const changeNo = await uow.changeNo(actor.companyId, 'uploads');
    await uow.trx
      .updateTable('uploads')
      .set({ expiration, change_no: changeNo, modified: now() })
      .where('id', '=', id)
      .where('company_id', '=', actor.companyId)
      .execute();
  });
  return {
    result: true,
    file: {
      Upload: {
        id: row.id,
        filename: row.filename,
        company_id: row.company_id,
        model: row.model,
        user_id: row.user_id,
        expiration,
      },
    },
  };
}

export async function deleteUpload(ctx: AppContext, actor: Actor, id: string) {
  const row = await managed(ctx, actor, id);
  await tombstone(ctx, row);
  await removeStoredObjects(ctx, [row.storage_key, ...(row.thumb_key ? [row.thumb_key] : [])]);
  return { result: true, id: row.id, filename: row.filename };
}

// ---------------------------------------------------------------- reads

const datetime = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 19).replace('T', ' ');

export async function viewUpload(ctx: AppContext, actor: Actor, id: string) {
  const r = await findRow(ctx, actor, id);
  if (!r || !uploadVisible(r, actor)) throw notFound('Upload not found');
  let exif: Record<string, unknown> | null = null;
  if (r.exif) {
    try {
      exif = JSON.parse(r.exif) as Record<string, unknown>;
    } catch {
      exif = null;
    }
  }
  return {
    upload: {
      id: r.id,
      user_id: r.user_id,
      company_id: r.company_id,
      foreign_key: r.foreign_key,
      type: r.type,
      model: r.model,
      mime: r.mime,
      size: str(r.size),
      active: r.active === 1,
      filename: r.filename,
      exif,
      expiration: r.expiration,
      width: str(r.width),
      height: str(r.height),
      created: datetime(Number(r.created)),
    },
  };
}

/** Signed storage URL of an upload (redirect target of download). */
export async function downloadUrl(ctx: AppContext, actor: Actor, id: string, origin: string): Promise<string> {
  const r = await findRow(ctx, actor, id);
  if (!r) throw notFound('Upload not found');
  if (r.verified !== 1 || !uploadVisible(r, actor)) throw notFound('Upload not found');
  if (uploadFileWithheld(r, actor))
    throw new HttpError(403, { result: false, message: 'External auditors cannot download certificate files' });
  return (
    await fileStore(ctx).signGet(r.storage_key, DOWNLOAD_URL_SECONDS, origin, {
      filename: r.filename,
      contentType: r.mime,
    })
  ).url;
}

export interface Paging {
  page: number;
  limit: number;
}

export async function listUploads(
  ctx: AppContext,
  actor: Actor,
  model: string,
  foreignKey: string,
  paging: Paging,
  origin: string,
) {
  // Same gate as findRow: the files (and thumbnails) of a record the caller cannot see are a 404.
  if (!(await attachedRecordVisible(ctx.db, actor, model, foreignKey))) throw notFound('Upload not found');
  const base = ctx.db
    .selectFrom('uploads')
    .where('uploads.company_id', '=', actor.companyId)
    .where('uploads.model', '=', model)
    .where('uploads.foreign_key', '=', foreignKey)
    .where('uploads.deleted', '=', 0)
    .where('uploads.active', '=', 1);
  const count = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const pageCount = pageCountOf(count, paging.limit);
  const page = Math.min(Math.max(1, paging.page), pageCount);
  const rows = await base
    .leftJoin('users', (j) =>
      j.onRef('users.id', '=', 'uploads.user_id').onRef('users.company_id', '=', 'uploads.company_id'),
    )
    .selectAll('uploads')
    .select(['users.name as u_name', 'users.surname as u_surname'])
    .orderBy('uploads.created', 'desc')
    .orderBy('uploads.id', 'desc')
    .limit(paging.limit)
    .offset((page - 1) * paging.limit)
    .execute();
  const hideUrls = uploadFileWithheld({ model }, actor);
  const store = fileStore(ctx);
  const extras = (await uploadModel(model)?.listExtras?.(ctx.db, actor.companyId, [foreignKey]))?.get(foreignKey) ?? {};
  const uploads = await Promise.all(
    rows.map(async (r) => {
      const name = [r.u_name, r.u_surname].filter(Boolean).join(' ').trim();
      const row: Record<string, unknown> = {
        id: r.id,
        user_id: r.user_id,
        company_id: r.company_id,
        model: r.model,
        foreign_key: r.foreign_key,
        filename: r.filename,
        type: r.type,
        mime: r.mime,
        size: str(r.size),
        width: str(r.width),
        height: str(r.height),
        active: r.active === 1,
        expiration: r.expiration,
        created: Number(r.created),
        user_name: name || null,
        ...(r.tag === 'SessionClasswork' || r.tag === 'SessionJustification'
          ? { deadline: r.deadline == null ? null : Number(r.deadline), late: Number(r.late) === 1, ...extras }
          : {}),
      };
      if (!hideUrls) {
        row.url = (
          await store.signGet(r.storage_key, LIST_URL_SECONDS, origin, { filename: r.filename, contentType: r.mime })
        ).url;
        row.thumb_url = r.thumb_key
          ? (
              await store.signGet(r.thumb_key, LIST_URL_SECONDS, origin, {
                filename: 'thumb.jpg',
                contentType: 'image/jpeg',
                inline: true,
              })
            ).url
          : null;
      }
      return row;
    }),
  );
  return {
    uploads,
    paginate: paginate(page, paging.limit, count, uploads.length),
  };
}
