import { ALL_ROLES, GATES, isStaff, ROLES, TWO_FACTOR_MODES } from '@ops/shared';
import { isPlatformAdmin } from '@ops/shared/rules/users/policy';
import { COUNTRIES, timeZoneNames } from '@ops/shared/reference/index';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zBoolish, zEmail, zId } from '../../http/zod.ts';
import { presentUserGroup } from '../users/users.presenter.ts';
import { ZUserDetailFields } from '../users/users.schema.ts';
import {
  changeEmail,
  changePassword,
  closeSession,
  confirmEmail,
  editProfile,
  loginsAndSessions,
  viewProfile,
} from './profile.service.ts';
import { activateAccount } from './activation.service.ts';
import { requestWhatsappCode, verifyWhatsappCode } from './whatsapp.service.ts';
import {
  ZUsersView,
  ZUsersEmail,
  ZUsersPassword,
  ZUsersActivate,
  ZUsersWhatsapp,
  ZUsersLogins,
  ZUsersClosesession,
  ZUsersUserGroups,
  ZUsersCountries,
} from './profile.responses.ts';

const unwrap = (raw: unknown) => {
  const b = (raw ?? {}) as Record<string, unknown>;
  return typeof b.data === 'object' && b.data !== null ? b.data : b;
};

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .min(1, `${label} is required`)
    .max(1024, 'Too long');

const ZProfileEdit = z.preprocess(
  unwrap,
  z.object({
    User: z
      .object({
        language: z
          .string()
          .trim()
          .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Expected a language code such as en or pt-BR'),
        two_factor: z.enum(TWO_FACTOR_MODES, { error: `Expected one of ${TWO_FACTOR_MODES.join(', ')}` }),
        alerts: zBoolish,
        message_alerts: zBoolish,
        newsletter: zBoolish,
        whatsapp: zBoolish,
      })
      .partial()
      .prefault({}),
    UserDetail: ZUserDetailFields.prefault({}),
  }),
);

const ZWhatsapp = z.preprocess(
  unwrap,
  z.object({
    phone: z.string({ error: 'Expected a phone number' }).trim().max(40, 'Too long').optional(),
    code: z
      .union([z.string(), z.number()], { error: 'Expected the 6-digit code' })
      .transform((v) => String(v).trim())
      .pipe(z.string().regex(/^\d{6}$/, 'Expected the 6-digit code'))
      .optional(),
  }),
);

/** Part A 4.5: the caller's own profile and sessions; every signed-in role. */
export const profileRoutes = [
  defineRoute({
    method: 'GET',
    path: '/users/view.json',
    area: 'profile',
    summary: 'The caller’s User (with login preferences), UserDetail and UserGroup',
    access: { who: GATES.member },
    response: ZUsersView,
    handler: ({ ctx, actor }) => viewProfile(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/edit.json',
    area: 'profile',
    summary:
      'Change any subset of the own profile and preferences (alerts, message_alerts, newsletter; whatsapp only off); answers the profile',
    access: { who: GATES.member },
    body: ZProfileEdit,
    response: ZUsersView,
    handler: ({ ctx, actor, body }) => editProfile(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/email.json',
    area: 'profile',
    summary:
      'Change the own address: new_email, new_email_repeat, password; unconfirmed until the mailed link is confirmed',
    access: { who: GATES.member },
    body: z.object({
      new_email: z.string({ error: 'New email is required' }).trim().min(1, 'New email is required').pipe(zEmail),
      new_email_repeat: z.string({ error: 'Repeat the new email' }).trim().toLowerCase().min(1, 'Repeat the new email'),
      password: required('Password'),
    }),
    response: ZUsersEmail,
    handler: ({ ctx, actor, body, req }) => changeEmail(ctx, actor, body, req.ip ?? null),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/confirm_email.json',
    area: 'profile',
    summary: 'Confirm the own new address with the token of the confirmation mail',
    access: { who: GATES.member },
    body: z.object({ token: z.string({ error: 'Token is required' }).trim().min(10, 'Token is required').max(200) }),
    response: ZUsersEmail,
    handler: ({ ctx, actor, body }) => confirmEmail(ctx, actor, body.token),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/password.json',
    area: 'profile',
    summary:
      'Change the own password (password, newpassword, newpasswordrepeat); other sessions of the login end; answers `{result, message, sessions_closed}`',
    access: { who: GATES.member },
    body: z.object({
      password: required('Current password'),
      newpassword: required('New password'),
      newpasswordrepeat: required('Repeat the new password'),
    }),
    response: ZUsersPassword,
    handler: ({ ctx, actor, body, req }) => changePassword(ctx, actor, body, req.ip ?? null),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/activate.json',
    area: 'profile',
    summary:
      'Set the password of a login created by an administrator with the token of its activation mail (public: the token is the credential); answers `{result, message, email}`',
    access: { public: true },
    body: z.object({
      token: required('Token').pipe(z.string().max(200, 'Unknown activation link')),
      password: required('Password'),
      passwordrepeat: required('Repeat the password'),
    }),
    response: ZUsersActivate,
    handler: ({ ctx, body }) => activateAccount(ctx, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/whatsapp.json',
    area: 'profile',
    summary:
      'Switch WhatsApp messages on: `{phone?}` sends a 6-digit code (10 minutes, single use) to that E.164 number or the profile phone; `{code}` checks it and turns the login’s `whatsapp` preference on',
    access: { who: GATES.member },
    body: ZWhatsapp,
    response: ZUsersWhatsapp,
    handler: ({ ctx, actor, body }) =>
      body.code !== undefined
        ? verifyWhatsappCode(ctx, actor, body.code)
        : requestWhatsappCode(ctx, actor, body.phone || undefined),
  }),
  defineRoute({
    method: 'GET',
    path: '/users/logins.json',
    area: 'profile',
    summary: 'Recent sign-ins (`logins`), open sessions (`sessions`) and the presenting session id (`currentSession`)',
    access: { who: GATES.member },
    response: ZUsersLogins,
    handler: ({ ctx, actor }) => loginsAndSessions(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/closesession/:sessionId.json',
    noBody: true,
    area: 'profile',
    summary: 'End one of the caller’s sessions (remote logout)',
    access: { who: GATES.member },
    params: z.object({ sessionId: zId }),
    response: ZUsersClosesession,
    handler: ({ ctx, actor, params }) => closeSession(ctx, actor, params.sessionId),
  }),
  defineRoute({
    method: 'GET',
    path: '/users/user_groups{/:staff}.json',
    area: 'profile',
    summary: 'Roles of the company as `user_groups: [{UserGroup{id, name, role}}]`; `/1` only staff roles (<= 170)',
    access: { who: GATES.member },
    params: z.object({ staff: z.enum(['0', '1'], { error: 'Expected 1 (staff only) or 0' }).optional() }),
    response: ZUsersUserGroups,
    handler: ({ actor, params }) => {
      // The platform administrator role is not a company role; only role 1 sees it.
      const roles = ALL_ROLES.filter((r) => r !== ROLES.PLATFORM_ADMIN || isPlatformAdmin(actor)).filter(
        (r) => params.staff !== '1' || isStaff(r),
      );
      return { user_groups: roles.map((r) => ({ UserGroup: presentUserGroup(r) })) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/users/countries.json',
    area: 'profile',
    summary: 'Map of ISO 3166 alpha-2 code to country name',
    access: { who: GATES.member },
    response: ZUsersCountries,
    handler: () => COUNTRIES,
  }),
  defineRoute({
    method: 'GET',
    path: '/users/timezones.json',
    area: 'profile',
    summary: 'Map of time zone id to IANA name (ids are the names)',
    access: { who: GATES.member },
    response: ZUsersCountries,
    handler: () => Object.fromEntries(timeZoneNames().map((zone) => [zone, zone])),
  }),
];
