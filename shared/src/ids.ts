/**
 * UUID version 7 (RFC 9562): time-ordered, so client-generated ids of offline
 * records still index well on the server. Ids made by one process are strictly
 * increasing: within one millisecond the 12-bit `rand_a` field is a counter
 * (RFC 9562 method 1), so "oldest first" orderings by id are deterministic.
 * Uses Web Crypto, present in Node 20, browsers and Electron.
 */
let lastMs = 0;
let counter = 0;

export function uuidv7(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let ms = now;
  if (ms <= lastMs) {
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      // Counter exhausted within one millisecond: borrow the next one.
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    // Start low in the range so the counter has room to grow.
    counter = bytes[6] & 0x07;
  }
  const t = BigInt(ms);
  for (let i = 0; i < 6; i++) bytes[i] = Number((t >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);
