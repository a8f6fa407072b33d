import { GATES } from '@ops/shared';
import { pipeline } from 'node:stream/promises';
import { MAX_DIRECT_UPLOAD_BYTES } from '@ops/shared/rules/uploads/upload-types';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { fileStore } from '../../files/index.ts';
import { LOCAL_FILE_PATH, type LocalFileStore } from '../../files/local-store.ts';
import { contentDisposition, TooLargeError } from '../../files/store.ts';
import { PAGING_HEADERS } from '../../http/responses.ts';
import { defineRoute, reply } from '../../http/define-route.ts';
import { notFound } from '../../http/errors.ts';
import { parseNamed } from '../../http/named-params.ts';
import {
  completeUpload,
  confirmUpload,
  createUpload,
  deleteUpload,
  downloadUrl,
  listUploads,
  originOf,
  setExpiration,
  signUpload,
  viewUpload,
} from './uploads.service.ts';
import './uploads.tables.ts';
import './uploads.alerts.ts';
import './uploads.jobs.ts';
import './uploads.sync.ts';
import {
  ZUploadsIndex,
  ZUploadsView,
  ZUploadsSign,
  ZUploadsComplete,
  ZUploadsConfirm,
  ZUploadsExpiration,
  ZUploadsDelete,
  ZLocalFile,
} from './uploads.responses.ts';

const idParams = z.object({ id: z.string().trim().min(1).max(64) });
const PAGE_DEFAULT = 50;
const PAGE_MAX = 1000;

const positiveInt = (v: string | undefined, fallback: number, max: number, name: string) => {
  if (v === undefined || v === '') return fallback;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw Object.assign(new Error(), { field: name });
  return Math.min(Number(v), max);
};

/** `expiration`: a date string, a date-time string or unix seconds; empty clears. Stored as the company-local date. */
const zExpiration = z
  .union([z.string(), z.number(), z.null()], { error: 'Required: a date, unix seconds, or empty to clear' })
  .optional();

// Upload bodies are read by the service (its own error answers, multipart streaming); `bodyDoc` documents them.
const ZSignBody = z.object({
  filename: z.string(),
  mime: z.string(),
  size: z.union([z.number().int(), z.string()]).meta({ description: 'Bytes, at most 2 GB' }),
  model: z.string(),
  foreign_key: z.string(),
});
const ZCreateBody = z.object({
  file: z.string().meta({ format: 'binary', description: 'The file, at most 100 MB' }),
  active: z.enum(['1', 'true', 'on', '0', 'false', 'off']).optional(),
  model: z.string().max(64).optional(),
  id: z.string().max(64).optional().meta({ description: 'Id of the attached record (`foreign_key` also accepted)' }),
  foreign_key: z.string().max(64).optional(),
});
const ZRawBytes = z.string().meta({ format: 'binary', description: 'The file’s bytes' });

export const uploadsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/uploads/index/:model/:foreignKey{/*named}.json',
    area: 'uploads',
    summary:
      'Active uploads of one record, newest first, 50 per page (named or query `page`, `limit`); paging in `paginate` and the X-… headers. External auditors get no `url`/`thumb_url` on UserCertificate rows',
    access: { who: GATES.member },
    response: ZUploadsIndex,
    headers: {
      ...PAGING_HEADERS,
      'X-Paging-recs': { description: 'Records on this page', type: 'integer' },
      'X-Paging-Prev-Page': { description: '`true` when a previous page exists' },
      'X-Paging-Next-Page': { description: '`true` when a next page exists' },
    },
    handler: async ({ ctx, actor, req, res }) => {
      const p = req.params as { model: string; foreignKey: string; named?: string[] };
      const named = parseNamed(p.named, ['page', 'limit']);
      const q = req.query as Record<string, unknown>;
      const pick = (k: string) => named[k] ?? (typeof q[k] === 'string' ? (q[k] as string) : undefined);
      let page: number;
      let limit: number;
      try {
        page = positiveInt(pick('page'), 1, 1_000_000, 'page');
        limit = positiveInt(pick('limit'), PAGE_DEFAULT, PAGE_MAX, 'limit');
      } catch (err) {
        const field = (err as { field: string }).field;
        return reply(400, {
          result: false,
          message: 'Validation failed',
          errors: { [field]: ['Expected a positive integer'] },
        });
      }
      if (p.model.length > 64 || p.foreignKey.length > 64)
        return reply(400, { result: false, message: 'Validation failed', errors: { model: ['Too long'] } });
      const out = await listUploads(ctx, actor, p.model, p.foreignKey, { page, limit }, originOf(req));
      const g = out.paginate;
      res.setHeader('X-Total-Posts', String(g.count));
      res.setHeader('X-Actual-Page', String(g.page));
      res.setHeader('X-Paging-recs', String(g.current));
      res.setHeader('X-Paging-limit', String(g.limit));
      res.setHeader('X-Paging-Prev-Page', String(g.prevPage));
      res.setHeader('X-Paging-Next-Page', String(g.nextPage));
      res.setHeader('X-Number-Pages', String(g.pageCount));
      return out;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/uploads/view/:id.json',
    area: 'uploads',
    summary: 'One upload with its EXIF (images); 404 outside the company',
    access: { who: GATES.member },
    params: idParams,
    response: ZUploadsView,
    handler: ({ ctx, actor, params }) => viewUpload(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/uploads/download/:id.json',
    area: 'uploads',
    summary: 'Redirect (302) to a short-lived signed storage URL of the file; company-scoped',
    redirect: true,
    access: { who: GATES.member },
    params: idParams,
    handler: async ({ ctx, actor, params, req, res }) => {
      res.redirect(302, await downloadUrl(ctx, actor, params.id, originOf(req)));
      return undefined;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/uploads/sign.json',
    bodyDoc: ZSignBody,
    area: 'uploads',
    summary:
      'Direct upload step 1: validates filename, mime, size (<= 2 GB), model, foreign_key and returns a presigned PUT URL valid 15 minutes; 404 without an authenticated user',
    // Part A 4.9: no authenticated user is a 404 here, not a 401.
    access: { public: true },
    response: ZUploadsSign,
    handler: async ({ ctx, actor, body, req }) => {
      if (!actor) return reply(404, { result: false, error: 'Not found', message: 'Not found' });
      return signUpload(ctx, actor, (body ?? {}) as Record<string, unknown>, originOf(req));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/uploads/complete/:id.json',
    noBody: true,
    area: 'uploads',
    summary:
      'Direct upload step 3: verifies the stored object (exists, not empty, within the signed size and 2 GB, leading bytes match the type), reads size, dimensions, EXIF, makes a thumbnail; failures delete object and record',
    access: { who: GATES.member },
    params: idParams,
    otherMethods: 405,
    response: ZUploadsComplete,
    handler: ({ ctx, actor, params }) => completeUpload(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/uploads/create.json',
    bodyDoc: ZCreateBody,
    bodyMedia: ['multipart/form-data'],
    area: 'uploads',
    summary:
      'Multipart upload through the API (`file`, optional `active`, `model`, `id`, `acl`), streamed to storage, at most 100 MB',
    access: { who: GATES.member },
    response: ZUploadsComplete,
    handler: ({ ctx, actor, req }) => createUpload(ctx, actor, req),
  }),
  defineRoute({
    method: 'POST',
    path: '/uploads/confirm/:id.json',
    area: 'uploads',
    summary: 'Attaches the caller’s own verified upload to a record (`model`, `foreign_key`) and activates it',
    access: { who: GATES.member },
    params: idParams,
    body: z.object({
      model: z.string().trim().min(1, 'Required').max(64),
      foreign_key: z.string().trim().min(1, 'Required').max(64),
    }),
    response: ZUploadsConfirm,
    handler: ({ ctx, actor, params, body }) => confirmUpload(ctx, actor, params.id, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/uploads/expiration/:id.json',
    area: 'uploads',
    summary:
      'Sets or clears (empty) the expiration date; group <= 170 any upload of the company, others only their own',
    access: { who: GATES.member },
    params: idParams,
    body: z.object({ expiration: zExpiration }),
    response: ZUploadsExpiration,
    handler: ({ ctx, actor, params, body }) => {
      const raw = body.expiration;
      if (raw === undefined)
        return reply(400, {
          result: false,
          message: 'Validation failed',
          errors: { expiration: ['Required: a date, unix seconds, or empty to clear'] },
        });
      let date: string | null = null;
      const text = typeof raw === 'number' ? String(raw) : (raw ?? '').trim();
      if (text !== '') {
        const zone = actor.company.timezone || 'UTC';
        const dt = /^\d+$/.test(text)
          ? DateTime.fromSeconds(Number(text), { zone })
          : DateTime.fromISO(text.replace(' ', 'T'), { zone });
        if (!dt.isValid || dt.year < 1900 || dt.year > 2999)
          return reply(400, {
            result: false,
            message: 'Validation failed',
            errors: { expiration: ['Expected a date (YYYY-MM-DD), a date-time or unix seconds'] },
          });
        date = dt.toISODate();
      }
      return setExpiration(ctx, actor, params.id, date);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/uploads/delete/:id.json',
    area: 'uploads',
    summary: 'Deletes the record and its file; group <= 170 any upload of the company, others only their own',
    access: { who: GATES.member },
    params: idParams,
    response: ZUploadsDelete,
    handler: ({ ctx, actor, params }) => deleteUpload(ctx, actor, params.id),
  }),
  defineRoute({
    method: ['GET', 'PUT'],
    path: `${LOCAL_FILE_PATH}/:token`,
    bodyDoc: ZRawBytes,
    bodyMedia: ['application/octet-stream'],
    area: 'uploads',
    summary:
      'Local disk store only: the signed URL of a direct upload (PUT raw bytes, no Authorization) or of a download (GET); HMAC-signed and expiring, 403 otherwise',
    access: { public: true },
    response: ZLocalFile,
    file: { mediaType: '*/*' },
    handler: async ({ ctx, req, res }) => {
      const store = fileStore(ctx);
      if (store.kind !== 'local') throw notFound();
      const token = (req.params as { token: string }).token;
      const grant = await (store as LocalFileStore).verify(token);
      const op = req.method === 'PUT' ? 'put' : 'get';
      if (!grant || grant.op !== op)
        return reply(403, { result: false, message: 'This link is invalid or has expired' });
      if (op === 'put') {
        // Only a direct upload still waiting for its bytes accepts them; a completed one is final.
        const [companyId, uploadId] = grant.key.split('/');
        const row = await ctx.db
          .selectFrom('uploads')
          .select(['id'])
          .where('id', '=', uploadId ?? '')
          .where('company_id', '=', companyId ?? '')
          .where('storage_key', '=', grant.key)
          .where('verified', '=', 0)
          .where('deleted', '=', 0)
          .executeTakeFirst();
        if (!row) return reply(403, { result: false, message: 'This upload no longer accepts a file' });
        try {
          const put = await store.put(grant.key, req, {
            contentType: 'application/octet-stream',
            maxBytes: MAX_DIRECT_UPLOAD_BYTES,
          });
          return { result: true, size: put.size };
        } catch (err) {
          if (err instanceof TooLargeError) return reply(413, { result: false, message: 'File is larger than 2 GB' });
          throw err;
        }
      }
      const head = await store.head(grant.key);
      if (!head) throw notFound('File not found');
      res.setHeader('Content-Type', grant.contentType ?? 'application/octet-stream');
      res.setHeader('Content-Length', String(head.size));
      res.setHeader('Content-Disposition', contentDisposition(grant.filename ?? 'file', grant.inline));
      res.setHeader('Cache-Control', 'private, max-age=300');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await pipeline(await store.read(grant.key), res);
      return undefined;
    },
  }),
];
