import { GATES } from '@ops/shared';
import { aircraftGates } from '@ops/shared/rules/aircraft/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { underModel } from '../../http/body-doc.ts';
import { notFound } from '../../http/errors.ts';
import { zId } from '../../http/zod.ts';
import { ZCreate, ZEdit } from './aircraft.schema.ts';
import { createAircraft, deactivateAircraft, editAircraft } from './manage.service.ts';
import { presentAircraft, presentAircraftDetails } from './aircraft.presenter.ts';
import { aircraftRepository } from './aircraft.repository.ts';
import {
  ZAircraftIndex,
  ZAircraftView,
  ZAircraftModels,
  ZAircraftManufacturers,
  ZManagerAircraftAdd,
} from './aircraft.responses.ts';

export const aircraftRoutes = [
  defineRoute({
    method: 'GET',
    path: '/aircraft/index.json',
    area: 'aircraft',
    summary: 'Aircraft of the company with model and manufacturer (CONTRACT 4)',
    access: { who: GATES.member },
    response: ZAircraftIndex,
    handler: async ({ ctx, actor }) => ({
      aircraft: (await aircraftRepository.list(ctx.db, actor.companyId)).map(presentAircraft),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/aircraft/view/:id.json',
    area: 'aircraft',
    summary: 'One aircraft with its model and base (CONTRACT 4), plus certificate expiry dates',
    access: { who: GATES.member },
    params: z.object({ id: zId }),
    response: ZAircraftView,
    handler: async ({ ctx, actor, params }) => {
      const row = await aircraftRepository.find(ctx.db, actor.companyId, params.id);
      if (!row) throw notFound('Aircraft not found');
      const base = row.base_id
        ? await ctx.db
            .selectFrom('bases')
            .select(['id', 'name', 'is_default', 'airport_id', 'company_id'])
            .where('company_id', '=', actor.companyId)
            .where('id', '=', row.base_id)
            .executeTakeFirst()
        : undefined;
      const presented = presentAircraft(row);
      return {
        ...presented,
        Aircraft: { ...presented.Aircraft, ...presentAircraftDetails(row) },
        Base: base
          ? {
              id: base.id,
              name: base.name,
              default: !!base.is_default,
              airport_id: base.airport_id,
              company_id: base.company_id,
            }
          : null,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/aircraft/models.json',
    area: 'aircraft',
    summary: 'Aircraft models with their manufacturer, by name',
    access: { who: GATES.member },
    response: ZAircraftModels,
    handler: async ({ ctx }) => {
      const rows = await ctx.db
        .selectFrom('aircraft_models as m')
        .innerJoin('aircraft_manufacturers as f', 'f.id', 'm.manufacturer_id')
        .select(['m.id', 'm.name', 'm.icao', 'm.manufacturer_id', 'f.name as manufacturer_name'])
        .orderBy('m.name')
        .orderBy('m.id')
        .execute();
      return {
        models: rows.map((m) => ({
          AircraftModel: { id: m.id, name: m.name, icao: m.icao, manufacturer_id: m.manufacturer_id },
          AircraftManufacturer: { id: m.manufacturer_id, name: m.manufacturer_name },
        })),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/aircraft/manufacturers.json',
    area: 'aircraft',
    summary: 'Aircraft manufacturers, by name',
    access: { who: GATES.member },
    response: ZAircraftManufacturers,
    handler: async ({ ctx }) => ({
      manufacturers: await ctx.db
        .selectFrom('aircraft_manufacturers')
        .select(['id', 'name'])
        .orderBy('name')
        .orderBy('id')
        .execute(),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/aircraft/add.json',
    // Validated by the service (fields under `Aircraft` or at the top level); documented here.
    bodyDoc: underModel('Aircraft', ZCreate, true),
    area: 'aircraft',
    summary: 'Add an aircraft (managers); body Aircraft{registration, model_id | model_name, ...}',
    access: { who: aircraftGates.manage },
    response: ZManagerAircraftAdd,
    handler: async ({ ctx, actor, req }) => {
      const { id } = await ctx.tx((uow) => createAircraft(uow, actor, req.body));
      return { result: true, id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/aircraft/edit/:id.json',
    bodyDoc: underModel('Aircraft', ZEdit, true),
    area: 'aircraft',
    summary: 'Edit an aircraft (managers); partial Aircraft{...}',
    access: { who: aircraftGates.manage },
    params: z.object({ id: zId }),
    response: ZManagerAircraftAdd,
    handler: async ({ ctx, actor, params, req }) => {
      await ctx.tx((uow) => editAircraft(uow, actor, params.id, req.body));
      return { result: true, id: params.id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/manager/aircraft/deactivate/:id.json',
    noBody: true,
    area: 'aircraft',
    summary: 'Deactivate an aircraft (managers); it stays in history and can be reactivated by edit',
    access: { who: aircraftGates.manage },
    params: z.object({ id: zId }),
    response: ZManagerAircraftAdd,
    handler: async ({ ctx, actor, params }) => {
      await ctx.tx((uow) => deactivateAircraft(uow, actor, params.id));
      return { result: true, id: params.id };
    },
  }),
];
