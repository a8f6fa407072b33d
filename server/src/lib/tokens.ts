import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Opaque bearer secrets: a kind prefix and 32 random bytes. Stored only as SHA-256. */
export const newSecret = (prefix: 'ses_' | 'svc_' | 'stm_'): string => prefix + randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
