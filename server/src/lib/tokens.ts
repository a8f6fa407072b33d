import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Opaque bearer secrets: a kind prefix and 32 random bytes. Stored only as SHA-256. */
export const newSecret = (prefix: 'ses_' | 'svc_' | 'stm_'): string => prefix + randomBytes(32).toString('base64url');
// One-shot crypto.hash: no Hash object per call (a fifth of the time; every authenticated request hashes its token).
export const sha256 = (value: string): string => hash('sha256', value, 'hex');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
