import { GATES } from '@ops/shared';
import { companyGates } from '@ops/shared/rules/company/policy';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { badRequest } from '../../http/errors.ts';
import { requestLocale } from '../../http/messages.ts';
import { zBoolish, zId, zIntish } from '../../http/zod.ts';
import { ALERT_TYPES, type AlertType, companyAlerts } from './alerts/alerts.service.ts';
import { ZCompanyEdit } from './company.schema.ts';
import { editCompany, managerSettings, publicSettings } from './company.service.ts';
import { listOperatingHours, resolvedHours, saveOperatingHours } from './operating-hours.service.ts';
import { permissionMatrix, permissionsFor } from './permissions.repository.ts';
import { setRolePermissions } from './permissions.service.ts';
import {
  ZCompaniesSettings,
  ZManagerCompaniesSettings,
  ZManagerCompaniesEdit,
  ZManagerCompaniesOperatingHours,
  ZManagerCompaniesSaveOperatingHours,
  ZCompaniesHours,
  ZCompaniesPermissions,
  ZManagerCompaniesPermissions,
  ZManagerCompaniesPermissionsPost,
  ZCompaniesAlerts,
} from './company.responses.ts';

/** Company managers (rules/company/policy.ts): settings, operating hours and the permission matrix. */
const manager = { who: companyGates.manage } as const;

/** `data[base_id]` and `data[rows][n][...]` (form), or the same JSON with or without `data`. */
const ZSaveHours = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.data === 'object' && b.data !== null ? b.data : b;
  },
  z.object({
    base_id: z
      .union([z.string().trim(), z.null()])
      .optional()
      .transform((v) => (v ? v : null))
      .pipe(z.union([zId, z.null()])),
    rows: z.unknown().optional(),
  }),
);

const ZPermissionsEdit = z.preprocess(
  (raw) => {
    const b = (raw ?? {}) as Record<string, unknown>;
    return typeof b.data === 'object' && b.data !== null ? b.data : b;
  },
  z.object({
    role: zIntish,
    permissions: z.record(z.string(), zBoolish, { error: 'Expected a map of permission key to boolean' }),
  }),
);

const zDateParam = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date YYYY-MM-DD');

/** `from`/`to` of the alerts query: unix seconds or a company calendar date (from its start, to its end). */
function alertBound(v: string | undefined, edge: 'start' | 'end', zone: string, field: string): number | null {
  if (v === undefined || v === '') return null;
  if (/^\d+$/.test(v)) return Number(v);
  const d = DateTime.fromISO(v, { zone });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || !d.isValid)
    throw badRequest(`Invalid ${field}`, { errors: { [field]: ['Expected unix seconds or a date YYYY-MM-DD'] } });
  return edge === 'start' ? d.startOf('day').toUnixInteger() : d.endOf('day').toUnixInteger();
}

export const companyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/companies/settings.json',
    area: 'company',
    summary: 'Company, theme, detail, settings and billing settings of the caller’s company (Part A 4.2 item 1)',
    access: { who: GATES.member },
    response: ZCompaniesSettings,
    handler: ({ ctx, actor }) => publicSettings(ctx, actor),
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/companies/settings.json',
    area: 'company',
    summary:
      'The settings payload plus `Admin` (user, pilot, base and API key counts, plan pilot limit, customised hours) for managers (roles <= 105)',
    access: manager,
    response: ZManagerCompaniesSettings,
    handler: ({ ctx, actor }) => managerSettings(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/companies/edit.json',
    area: 'company',
    summary:
      'Change profile, theme, formats, time zones, flags and billing settings (partial; roles <= 105); answers the manager settings',
    access: manager,
    body: ZCompanyEdit,
    response: ZManagerCompaniesEdit,
    handler: ({ ctx, actor, body }) => editCompany(ctx, actor, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/companies/operating_hours.json',
    area: 'company',
    summary:
      'Weekly operating-hours rows of every scope and dated overrides from 7 days ago to 365 days ahead (roles <= 105)',
    access: manager,
    response: ZManagerCompaniesOperatingHours,
    handler: ({ ctx, actor }) => listOperatingHours(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/companies/save_operating_hours.json',
    area: 'company',
    summary:
      'Replace the whole row set of one scope (company or a base); validated first, atomic; rejections carry `rows` messages',
    access: manager,
    body: ZSaveHours,
    response: ZManagerCompaniesSaveOperatingHours,
    // The row messages in the caller's language (Accept-Language, else the user's).
    handler: ({ ctx, actor, body, req }) =>
      saveOperatingHours(ctx, actor, { base_id: body.base_id, rows: body.rows }, requestLocale(req)),
  }),
  defineRoute({
    method: 'GET',
    path: '/companies/hours/:scope/:from/:to.json',
    area: 'company',
    summary:
      'Resolved operating hours of a base (or `company`) for each date from..to (at most 366 days), with unix instants',
    access: { who: GATES.member },
    params: z.object({ scope: zId, from: zDateParam, to: zDateParam }),
    response: ZCompaniesHours,
    handler: ({ ctx, actor, params }) => resolvedHours(ctx, actor, params.scope, params.from, params.to),
  }),
  defineRoute({
    method: 'GET',
    path: '/companies/permissions.json',
    area: 'company',
    summary: 'Permission keys of the caller in the current company (flat map; a missing key is false)',
    access: { who: GATES.member },
    response: ZCompaniesPermissions,
    handler: ({ ctx, actor }) => permissionsFor(ctx.db, actor.companyId, actor.role),
  }),
  defineRoute({
    method: 'GET',
    path: '/manager/companies/permissions.json',
    area: 'company',
    summary:
      'Permission matrix of every role in the company, with the keys that differ from the defaults (roles <= 105)',
    access: manager,
    response: ZManagerCompaniesPermissions,
    handler: async ({ ctx, actor }) => ({ roles: await permissionMatrix(ctx.db, actor.companyId) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/companies/permissions.json',
    area: 'company',
    summary:
      'Set permission keys of one role: `role`, `permissions` {key: bool} (roles <= 100; not roles above the caller’s)',
    access: { who: companyGates.permissions },
    body: ZPermissionsEdit,
    response: ZManagerCompaniesPermissionsPost,
    handler: ({ ctx, actor, body }) => setRolePermissions(ctx, actor, body.role, body.permissions),
  }),
  defineRoute({
    method: 'GET',
    path: '/companies/alerts.json',
    area: 'company',
    summary:
      'Expiring items sorted by date: `from`, `to` (unix or YYYY-MM-DD), `types` (comma list), `user_id` (clamped to what the caller may see)',
    access: { who: GATES.member },
    query: z.object({
      from: z.string().trim().optional(),
      to: z.string().trim().optional(),
      types: z
        .string()
        .optional()
        .transform((v, ctx) => {
          const list = (v ?? '')
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean);
          const bad = list.filter((t) => !(ALERT_TYPES as readonly string[]).includes(t));
          if (bad.length) {
            ctx.addIssue({
              code: 'custom',
              message: `Unknown alert types ${bad.join(', ')}; expected ${ALERT_TYPES.join(', ')}`,
            });
            return z.NEVER;
          }
          return list as AlertType[];
        }),
      user_id: z.string().trim().max(64).optional(),
    }),
    response: ZCompaniesAlerts,
    handler: async ({ ctx, actor, query, req }) => {
      const zone = actor.company.timezone;
      return companyAlerts(
        ctx,
        actor,
        {
          from: alertBound(query.from, 'start', zone, 'from'),
          to: alertBound(query.to, 'end', zone, 'to'),
          types: query.types,
          user_id: query.user_id || null,
        },
        requestLocale(req),
      );
    },
  }),
];
