import { defineRoute } from '../../http/define-route.ts';
import { notFound } from '../../http/errors.ts';
import { presentCompanySettings } from './company.presenter.ts';
import { permissionsFor } from './permissions.ts';

export const companyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/companies/settings.json',
    area: 'company',
    summary: 'Company, theme, detail, settings and billing settings of the caller’s company (Part A 4.2 item 1)',
    access: {},
    handler: async ({ ctx, actor }) => {
      const row = await ctx.db.selectFrom('companies').selectAll().where('id', '=', actor.companyId).executeTakeFirst();
      if (!row) throw notFound('Company not found');
      return presentCompanySettings(row);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/companies/permissions.json',
    area: 'company',
    summary: 'Permission keys of the caller in the current company (flat map; a missing key is false)',
    access: {},
    handler: ({ ctx, actor }) => permissionsFor(ctx.db, actor.companyId, actor.role),
  }),
];
