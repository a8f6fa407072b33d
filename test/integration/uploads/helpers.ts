import { uuidv7 } from '@ops/shared';
import { expect } from 'vitest';
import type { TestServer } from '../../setup/server.ts';

/** Helpers of the uploads suites. */

export const aircraftId = (s: TestServer, reg = 'EC-ABC') => {
  const id = s.refs.aircraft[reg];
  if (!id) throw new Error(`no aircraft ${reg}`);
  return id;
};

/** PUT raw bytes to a signed URL exactly as the spec says: no Authorization, no other header. */
export async function putBytes(url: string, bytes: Buffer): Promise<number> {
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(bytes) });
  await res.arrayBuffer();
  return res.status;
}

export interface Direct {
  sign: { status: number; body: any };
  put: number;
  complete: { status: number; body: any };
}

/** The whole direct flow: sign, PUT, complete. */
export async function directUpload(
  s: TestServer,
  token: string,
  bytes: Buffer | null,
  o: { filename: string; mime: string; size?: number; model?: string; foreign_key: string },
): Promise<Direct> {
  const sign = await s.api('POST', '/uploads/sign.json', {
    token,
    body: {
      filename: o.filename,
      mime: o.mime,
      size: o.size ?? (bytes?.length || 1),
      model: o.model ?? 'Aircraft',
      foreign_key: o.foreign_key,
    },
  });
  expect(sign.status, JSON.stringify(sign.body)).toBe(200);
  const put = bytes ? await putBytes(sign.body.url, bytes) : 0;
  const complete = await s.api('POST', `/uploads/complete/${sign.body.upload_id}.json`, { token });
  return { sign, put, complete };
}

/** Multipart `create` with the given fields. */
export async function createMultipart(
  s: TestServer,
  token: string | null,
  file: { bytes: Buffer; filename: string; mime: string } | null,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mime }), file.filename);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await fetch(`${s.baseUrl}/uploads/create.json`, { method: 'POST', body: form, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** Fetches a URL without credentials and returns status and bytes (redirects not followed). */
export async function fetchBytes(url: string, opts: { follow?: boolean; token?: string } = {}) {
  const res = await fetch(url, {
    redirect: opts.follow ? 'follow' : 'manual',
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export const uploadRow = (s: TestServer, id: string) =>
  s.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();

/** A certificate of a Skyline pilot, inserted through the data layer (the certificates endpoints belong to another area). */
export async function addCertificate(s: TestServer, email = 'pilot@skyline.test'): Promise<string> {
  const id = uuidv7();
  const t = Math.floor(Date.now() / 1000);
  await s.ctx.db
    .insertInto('user_certificates')
    .values({
      id,
      company_id: s.refs.companies.skyline,
      change_no: 0,
      deleted: 0,
      created: t,
      modified: t,
      user_id: s.userId(email),
      type: 'medical_class_2',
      name: 'Medical',
      issue: '2026-01-01',
      expiration: '2027-01-01',
      comments: null,
      upload_id: null,
    })
    .execute();
  return id;
}
