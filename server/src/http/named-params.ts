import { badRequest } from './errors.ts';

/**
 * CakePHP-style named parameters (`/page:2/from:2024-01-01/.json`) from the
 * segments an Express 5 wildcard captured. An empty value skips the filter
 * (Part A conventions); a segment without `key:` or an unknown key is a 400.
 */
export function parseNamed(
  segments: readonly string[] | string | undefined,
  allowed: readonly string[],
): Record<string, string> {
  const list = segments === undefined ? [] : Array.isArray(segments) ? segments : [segments];
  const out: Record<string, string> = {};
  const errors: Record<string, string[]> = {};
  for (const raw of list) {
    if (raw === '') continue; // the trailing `/.json` of the spec's examples
    const cut = raw.indexOf(':');
    if (cut <= 0) {
      errors[raw] = ['Expected a named parameter `name:value`'];
      continue;
    }
    const key = raw.slice(0, cut);
    const value = raw.slice(cut + 1).trim();
    if (!allowed.includes(key)) {
      errors[key] = [`Unknown parameter; expected one of ${allowed.join(', ')}`];
      continue;
    }
    if (value !== '') out[key] = value;
  }
  if (Object.keys(errors).length) throw badRequest('Invalid named parameters', { errors });
  return out;
}
