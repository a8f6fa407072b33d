import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the uploads routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** A file attached to a record (flight, safety report, aircraft report), as those views list it. */
export const ZAttachedUpload = z.object({
  id: z.string(),
  filename: z.string(),
  type: z.string(),
  mime: z.string(),
  size: z.string().nullable(),
  width: z.string().nullable(),
  height: z.string().nullable(),
  created: z.number(),
  user_id: z.string(),
});

/** GET /uploads/index/:model/:foreignKey{/*named}.json */
export const ZUploadsIndex = z.strictObject({
  uploads: z.array(z.record(z.string(), z.unknown())),
  paginate: ZPaginate,
});

/** GET /uploads/view/:id.json */
export const ZUploadsView = z.strictObject({
  upload: z.object({
    id: z.string(),
    user_id: z.string(),
    company_id: z.string(),
    foreign_key: z.string().nullable(),
    type: z.string(),
    model: z.string().nullable(),
    mime: z.string(),
    size: z.string().nullable(),
    active: z.boolean(),
    filename: z.string(),
    exif: z.record(z.string(), z.unknown()).nullable(),
    expiration: z.string().nullable(),
    width: z.string().nullable(),
    height: z.string().nullable(),
    created: z.string(),
  }),
});

/** POST /uploads/sign.json */
export const ZUploadsSign = z.strictObject({
  result: z.boolean(),
  upload_id: z.string(),
  url: z.string(),
  key: z.string(),
  expires: z.number(),
  error: z.null(),
});

/** POST /uploads/complete/:id.json */
export const ZUploadsComplete = z.strictObject({
  result: z.boolean(),
  file: z.object({
    id: z.string(),
    filename: z.string(),
    type: z.string(),
    mime: z.string(),
    size: z.string().nullable(),
    active: z.boolean(),
    model: z.string().nullable(),
    foreign_key: z.string().nullable(),
  }),
  error: z.null(),
});

/** POST /uploads/confirm/:id.json */
export const ZUploadsConfirm = z.strictObject({
  result: z.boolean(),
  Upload: z.object({
    id: z.string(),
    filename: z.string(),
    active: z.boolean(),
    model: z.string(),
    foreign_key: z.string(),
  }),
});

/** POST /uploads/expiration/:id.json */
export const ZUploadsExpiration = z.strictObject({
  result: z.boolean(),
  file: z.object({
    Upload: z.object({
      id: z.string(),
      filename: z.string(),
      company_id: z.string(),
      model: z.string().nullable(),
      user_id: z.string(),
      expiration: z.string().nullable(),
    }),
  }),
});

/** GET /uploads/delete/:id.json */
export const ZUploadsDelete = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  filename: z.string(),
});

/** [GET, PUT] ${LOCAL_FILE_PATH}/:token */
/** PUT to the local store: the bytes received. */
export const ZLocalFile = z.strictObject({
  result: z.boolean(),
  size: z.number(),
});
