import { mayReadPersonalFields, mayReadRestrictedFields } from '../rules/users/policy.ts';
import { type CollectionDef, s, type Viewer } from './types.ts';

/** The company directory as clients keep it offline. */
export interface UserDoc {
  id: string;
  name: string;
  surname: string;
  user_group_id: number | null;
  active: boolean;
  pilot: boolean;
  email: string | null;
  email_status: string | null;
  expiration: string | null;
  phone: string | null;
  phone2: string | null;
  address: string | null;
  city: string | null;
  pc: string | null;
  passport: string | null;
  base_id: string | null;
  supervisor_id: string | null;
  photo: string | null;
  color: string | null;
}

/** Part A 4.4: an external auditor sees these personal fields as null on everyone but themself. */
export const AUDITOR_MASKED_FIELDS = ['email', 'phone', 'phone2', 'address', 'city', 'pc', 'passport'] as const;
/** Part A 4.8 item 4: a viewer above 150 looking at another person loses these. */
export const RESTRICTED_VIEWER_FIELDS = [
  'email',
  'user_group_id',
  'email_status',
  'expiration',
  'phone',
  'address',
  'city',
  'pc',
  'passport',
  'phone2',
] as const;

export function visibleUser<T extends { id: string }>(doc: T, viewer: Viewer): T {
  if (doc.id === viewer.userId) return doc;
  const out: Record<string, unknown> = { ...doc };
  if (!mayReadPersonalFields(viewer, doc.id)) for (const f of AUDITOR_MASKED_FIELDS) if (f in out) out[f] = null;
  if (!mayReadRestrictedFields(viewer)) for (const f of RESTRICTED_VIEWER_FIELDS) if (f in out) out[f] = null;
  return out as T;
}

export const usersCollection: CollectionDef<UserDoc> = {
  name: 'users',
  version: 0,
  schema: {
    properties: {
      id: s.id,
      name: s.reqStr,
      surname: s.reqStr,
      user_group_id: s.num,
      active: s.bool,
      pilot: s.bool,
      email: s.str,
      email_status: s.str,
      expiration: s.str,
      phone: s.str,
      phone2: s.str,
      address: s.str,
      city: s.str,
      pc: s.str,
      passport: s.str,
      base_id: s.str,
      supervisor_id: s.str,
      photo: s.str,
      color: s.str,
    },
    required: ['id', 'name', 'surname', 'active', 'pilot'],
  },
  rows: { kind: 'company' },
  visible: visibleUser,
  writableFields: [],
  canPush: () => false,
};
