import { z } from 'zod';
import { zId } from '../../http/zod.ts';

/** Bodies arrive as JSON or form fields, wrapped in `PilotGroup` or `data[PilotGroup]`, or flat. */
const unwrap = (raw: unknown) => {
  let b = (raw ?? {}) as Record<string, unknown>;
  if (typeof b.data === 'object' && b.data !== null) b = b.data as Record<string, unknown>;
  const inner = b.PilotGroup;
  return typeof inner === 'object' && inner !== null ? inner : b;
};

/** `User` members as `[{id}]`, `[id]` or a form map `{0: {id}}`. */
const zMembers = z.preprocess(
  (v) => {
    if (v === '' || v === null) return [];
    const list = Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v as object) : [v];
    return list
      .map((m) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : m))
      .map((id) => (typeof id === 'number' ? String(id) : id));
  },
  z.array(zId, { error: 'Expected a list of users {id}' }).max(100_000),
);

const zColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Expected a hex colour such as #3788d8')
  .transform((c) => c.toLowerCase());

export const ZPilotGroupAdd = z.preprocess(
  unwrap,
  z.object({
    name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(80, 'At most 80 characters'),
    color: zColor.optional(),
    User: zMembers.optional(),
  }),
);
export type TPilotGroupWrite = z.output<typeof ZPilotGroupAdd>;
export const ZPilotGroupEdit = ZPilotGroupAdd;
