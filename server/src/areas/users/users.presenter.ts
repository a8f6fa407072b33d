import { mayReadPersonalFields } from '@ops/shared/rules/users/policy';
import { AUDITOR_MASKED_FIELDS, isRole, ROLE_NAMES, ROLES, type Viewer } from '@ops/shared';
import type { UsersTable } from '../../db/core-tables.ts';
import type { TUserRecord } from './users.responses.ts';

/** The login identity's preferences, shared by every company account of the email (Part A 2.6). */
export interface Preferences {
  alerts: boolean;
  message_alerts: boolean;
  newsletter: boolean;
  whatsapp: boolean;
}

export const NO_PREFERENCES: Preferences = { alerts: false, message_alerts: false, newsletter: false, whatsapp: false };

const ROLE_KEYS = Object.fromEntries(Object.entries(ROLES).map(([k, v]) => [v, k.toLowerCase()])) as Record<
  number,
  string
>;

/** Part A 2.6 `UserGroup`: the role number, its name, and a stable key. */
export function presentUserGroup(role: number) {
  return { id: role, name: isRole(role) ? ROLE_NAMES[role] : `Role ${role}`, role: ROLE_KEYS[role] ?? 'custom' };
}

/** Part A 2.6 `User` and `UserDetail` of a company account. */
export function presentUser(u: UsersTable, prefs: Preferences): TUserRecord {
  return {
    User: {
      id: u.id,
      active: !!u.active,
      pilot: !!u.pilot,
      billing: !!u.billing,
      user_group_id: u.user_group_id,
      base_id: u.base_id,
      supervisor_id: u.supervisor_id,
      email: u.email,
      email_status: u.email_status,
      language: u.language,
      api: !!u.api,
      // External auditors always use EMAIL codes, whatever is stored.
      two_factor: u.user_group_id === ROLES.AUDITOR ? 'EMAIL' : u.two_factor,
      newsletter: prefs.newsletter,
      alerts: prefs.alerts,
      message_alerts: prefs.message_alerts,
      whatsapp: prefs.whatsapp,
      created: Number(u.created),
      expiration: u.expiration,
    },
    UserDetail: {
      id: u.id,
      name: u.name,
      surname: u.surname,
      passport: u.passport,
      companyid: u.companyid,
      dob: u.dob,
      phonecode: u.phonecode,
      phone: u.phone,
      phonecode2: u.phonecode2,
      phone2: u.phone2,
      emergency_contact: u.emergency_contact,
      public_phone: !!u.public_phone,
      address: u.address,
      pc: u.pc,
      city: u.city,
      country_id: u.country_id,
      timezone_id: u.timezone_id,
      nationality: u.nationality,
      birthcountry_id: u.birthcountry_id,
      photo: u.photo,
      flight_hours: Number(u.flight_hours),
      color: u.color,
      notes: u.notes,
      modified: Number(u.modified),
    },
    UserGroup: presentUserGroup(u.user_group_id),
  };
}

/**
 * Part A 4.4: an external auditor gets the personal fields of every User and
 * UserDetail record as null, except on their own record. Follows the caller's
 * role, not the target's; the field list is the shared one sync also applies.
 */
export function maskForAuditor<
  R extends { User?: Record<string, unknown> & { id?: unknown }; UserDetail?: Record<string, unknown> },
>(record: R, viewer: Viewer, ownerId: string): R {
  if (mayReadPersonalFields(viewer, ownerId)) return record;
  const out = { ...record };
  for (const part of ['User', 'UserDetail'] as const) {
    const section = out[part];
    if (!section) continue;
    const masked: Record<string, unknown> = { ...section };
    for (const f of AUDITOR_MASKED_FIELDS) if (f in masked) masked[f] = null;
    (out as Record<string, unknown>)[part] = masked;
  }
  return out;
}
