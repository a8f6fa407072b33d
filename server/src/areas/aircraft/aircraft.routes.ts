import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { notFound } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { presentAircraft } from './aircraft.presenter.ts';
import { aircraftRepository } from './aircraft.repository.ts';

export const aircraftRoutes = [
  defineRoute({
    method: 'GET',
    path: '/aircraft/index.json',
    area: 'aircraft',
    summary: 'Aircraft of the company with model and manufacturer (CONTRACT 4)',
    access: {},
    handler: async ({ ctx, actor }) => ({ aircraft: (await aircraftRepository.list(ctx.db, actor.companyId)).map(presentAircraft) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/aircraft/view/:id.json',
    area: 'aircraft',
    summary: 'One aircraft with its model and base (CONTRACT 4)',
    access: {},
    params: z.object({ id: zId }),
    handler: async ({ ctx, actor, params }) => {
      const row = await aircraftRepository.find(ctx.db, actor.companyId, params.id);
      if (!row) throw notFound('Aircraft not found');
      const base = row.base_id
        ? await ctx.db.selectFrom('bases').select(['id', 'name', 'is_default', 'airport_id', 'company_id']).where('company_id', '=', actor.companyId).where('id', '=', row.base_id).executeTakeFirst()
        : undefined;
      return {
        ...presentAircraft(row),
        Base: base ? { id: base.id, name: base.name, default: !!base.is_default, airport_id: base.airport_id, company_id: base.company_id } : null,
      };
    },
  }),
];
