import { z } from 'zod';

/**
 * Input helpers for bodies that arrive as JSON or as form fields (where every
 * value is a string): booleans and numbers are accepted in both spellings.
 */
export const zId = z.string().trim().min(1, 'Required').max(64, 'Too long');

export const zBoolish = z.union([z.boolean(), z.number(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === '1' || v === 'true' || v === 'on') return true;
  if (v === 0 || v === '0' || v === 'false' || v === '' || v === 'off') return false;
  ctx.addIssue({ code: 'custom', message: 'Expected a boolean' });
  return z.NEVER;
});

export const zIntish = z.union([z.number(), z.string().trim().regex(/^-?\d+$/, 'Expected an integer')]).transform(Number).pipe(z.number().int());

/** Unix seconds, as a number or numeric string. */
export const zUnix = zIntish.pipe(z.number().int().nonnegative('Expected unix seconds'));

export const zEmail = z.string().trim().toLowerCase().pipe(z.email('Invalid email address'));
