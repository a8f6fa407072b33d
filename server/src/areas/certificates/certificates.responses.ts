import { z } from 'zod';

/**
 * Response schemas of the certificates routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** A pilot's certificate with its type and scans. */
const zUserCertificate = z.object({
  id: z.string(),
  user_id: z.string(),
  type: z.string(),
  name: z.string().nullable(),
  issue: z.string().nullable(),
  expiration: z.string().nullable(),
  comments: z.string().nullable(),
  Upload: z
    .union([
      z.object({
        id: z.string(),
        filename: z.string(),
        type: z.string(),
        mime: z.string(),
        size: z.string().nullable(),
      }),
      z.object({
        id: z.string(),
        filename: z.undefined().optional(),
        type: z.undefined().optional(),
        mime: z.undefined().optional(),
        size: z.undefined().optional(),
      }),
    ])
    .nullable(),
});

/** POST /pilots/certificates/edit.json */
export const ZPilotsCertificatesEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  UserCertificate: zUserCertificate,
});

/** POST /pilots/certificates/delete/:id.json */
export const ZPilotsCertificatesDelete = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  message: z.string(),
});

/** GET /pilots/certificates{/:userId}.json */
export const ZPilotsCertificates = z.strictObject({
  certificates: z.array(zUserCertificate),
});
