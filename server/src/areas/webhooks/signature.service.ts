import { createHmac } from 'node:crypto';
import { safeEqual } from '../../lib/tokens.ts';

/**
 * `X-Webhook-Signature: v1=<hex>`: HMAC-SHA256 with the endpoint's secret over
 * `<timestamp>.<body>`, where the timestamp is the `X-Webhook-Timestamp`
 * header (unix seconds). Receivers recompute it and refuse old timestamps,
 * which stops replays (docs/integrations.md).
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The check a receiver makes (used by the tests' receiver and shown in the docs). */
export function verifyWebhook(
  secret: string,
  header: string | null,
  timestamp: string | null,
  body: string,
  now: number,
  toleranceSeconds = 300,
): boolean {
  if (!header || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now - Number(timestamp)) > toleranceSeconds) return false;
  return safeEqual(signWebhook(secret, Number(timestamp), body), header);
}
