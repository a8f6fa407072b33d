import { GATES } from '@ops/shared';
import { flightTypeGates } from '@ops/shared/rules/flight-types/policy';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId, zUnix } from '../../http/zod.ts';
import { flightTypesRepository } from './flight-types.repository.ts';
import { CLASSIFICATION_LIST, ZFlightTypeAdd, ZFlightTypeEdit } from './flight-types.schema.ts';
import {
  addFlightType,
  deleteFlightType,
  editFlightType,
  flightTypeCompliance,
  listFlightTypes,
  loadFlightType,
  reorderFlightTypes,
} from './flight-types.service.ts';
import {
  ZFlightTypesIndex,
  ZFlightTypesManagerIndex,
  ZFlightTypesView,
  ZFlightTypesManagerAdd,
  ZFlightTypesManagerEdit,
  ZFlightTypesManagerEditPost,
  ZFlightTypesManagerDelete,
  ZFlightTypesManagerReorder,
  ZFlightTypesCompliance,
} from './flight-types.responses.ts';

/** Writes to the company's flight types: managers (docs/areas/flights.md). */
const MANAGERS = { who: flightTypeGates.manage } as const;

export const flightTypesRoutes = [
  defineRoute({
    method: 'GET',
    path: '/flight_types/index{/:booking}.json',
    area: 'flight-types',
    summary: 'Active flight types ordered by display order; `/index/true.json` only those available for booking',
    access: { who: GATES.member },
    params: z.object({ booking: z.string().optional() }),
    response: ZFlightTypesIndex,
    handler: async ({ ctx, actor, params }) => ({
      flight_types: await listFlightTypes(ctx.db, actor.companyId, {
        includeDeleted: false,
        bookingOnly: params.booking === 'true' || params.booking === '1',
      }),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/flight_types/manager_index.json',
    area: 'flight-types',
    summary: 'All flight types of the company including soft-deleted ones (staff)',
    access: { who: GATES.staff },
    response: ZFlightTypesManagerIndex,
    handler: async ({ ctx, actor }) => ({
      flight_types: await listFlightTypes(ctx.db, actor.companyId, { includeDeleted: true, bookingOnly: false }),
      classifications: CLASSIFICATION_LIST,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/flight_types/view/:id.json',
    area: 'flight-types',
    summary: 'One flight type with its required certificates',
    access: { who: GATES.member },
    params: z.object({ id: zId }),
    response: ZFlightTypesView,
    handler: async ({ ctx, actor, params }) => ({
      flight_type: await loadFlightType(ctx.db, actor.companyId, params.id),
    }),
  }),
  defineRoute({
    method: 'POST',
    path: '/flight_types/manager_add.json',
    area: 'flight-types',
    summary: 'Create a flight type; `syncRequiredCertificates` opts in to saving the posted RequiredCertificate list',
    access: MANAGERS,
    body: ZFlightTypeAdd,
    response: ZFlightTypesManagerAdd,
    handler: async ({ ctx, actor, body }) => {
      const id = await ctx.tx((uow) => addFlightType(uow, actor, body));
      return {
        result: true,
        id,
        flight_type: await loadFlightType(ctx.db, actor.companyId, id),
        classifications: CLASSIFICATION_LIST,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/flight_types/manager_edit/:id.json',
    area: 'flight-types',
    summary:
      'A flight type for editing: the record, how many flights use it, and its required certificates as a flat list',
    access: MANAGERS,
    params: z.object({ id: zId }),
    response: ZFlightTypesManagerEdit,
    handler: async ({ ctx, actor, params }) => {
      const t = await loadFlightType(ctx.db, actor.companyId, params.id);
      return {
        ...t,
        usage: await flightTypesRepository.usage(ctx.db, actor.companyId, params.id),
        requiredCertificates: t.RequiredCertificate,
        classifications: CLASSIFICATION_LIST,
      };
    },
  }),
  defineRoute({
    method: ['POST', 'PUT'],
    path: '/flight_types/manager_edit/:id.json',
    area: 'flight-types',
    summary: 'Change a flight type; requirements are replaced only when `syncRequiredCertificates` is true',
    access: MANAGERS,
    params: z.object({ id: zId }),
    body: ZFlightTypeEdit,
    response: ZFlightTypesManagerEditPost,
    handler: async ({ ctx, actor, params, body }) => {
      await ctx.tx((uow) => editFlightType(uow, actor, params.id, body));
      return { result: true, id: params.id, flight_type: await loadFlightType(ctx.db, actor.companyId, params.id) };
    },
  }),
  defineRoute({
    method: ['POST', 'DELETE'],
    path: '/flight_types/manager_delete/:id.json',
    noBody: true,
    area: 'flight-types',
    summary: 'Soft-delete a flight type of the company (flights keep it)',
    access: MANAGERS,
    params: z.object({ id: zId }),
    response: ZFlightTypesManagerDelete,
    handler: async ({ ctx, actor, params }) => {
      await ctx.tx((uow) => deleteFlightType(uow, actor, params.id));
      return { result: true, id: params.id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/flight_types/manager_reorder.json',
    area: 'flight-types',
    summary: 'Set the display order: `items` is the list of type ids in order (roles <= 110)',
    access: MANAGERS,
    body: z.object({ items: z.array(zId).min(1, 'Give the type ids in display order') }),
    response: ZFlightTypesManagerReorder,
    handler: async ({ ctx, actor, body }) => ({
      result: true,
      items: await ctx.tx((uow) => reorderFlightTypes(uow, actor, body.items)),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/flight_types/compliance/:id.json',
    area: 'flight-types',
    summary: 'Per-seat certificate compliance of a user for a flight type (advisory)',
    access: { who: GATES.member },
    params: z.object({ id: zId }),
    query: z.object({ user_id: zId.optional(), at: zUnix.optional() }),
    response: ZFlightTypesCompliance,
    handler: async ({ ctx, actor, params, query }) =>
      flightTypeCompliance(ctx.db, actor, params.id, { userId: query.user_id, at: query.at }),
  }),
];
