import { GATES } from '@ops/shared';
import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { loadFlights, parseLoadParams, ZLoad } from './load.service.ts';
import { ZCancel, ZConfirm, ZFlightEdit, ZFrat } from './flights.schema.ts';
import { saveFlight } from './flights.service.ts';
import { cancelFlight, confirmFlight, dispatchFlight } from './transitions.service.ts';
import { viewFlight } from './view.presenter.ts';
import { getFrat, saveFrat } from './frat.service.ts';
import {
  ZFlightsView,
  ZFlightsEdit,
  ZFlightsCancel,
  ZFlightsConfirm,
  ZFlightsDispatch,
  ZFlightsFrat,
  ZFlightsFratPost,
  ZFlightsLoad,
} from './flights.responses.ts';

const idParam = z.object({ id: zId });

export const flightsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/flights/load{/*named}.json',
    area: 'flights',
    summary:
      'Flights newest first with Base, Aircraft, FlightType, Pic, Sic; named parameters page, limit (default 20, max 20000), from, to, aircraft, pilot, base, flight_type, status',
    access: { who: GATES.member },
    response: ZFlightsLoad,
    named: ZLoad,
    handler: async ({ ctx, actor, req, res }) =>
      loadFlights(ctx, actor, parseLoadParams((req.params as { named?: string[] }).named), res),
  }),
  defineRoute({
    method: 'GET',
    path: '/flights/view/:id.json',
    area: 'flights',
    summary: 'One flight with related records, history, distance and what the caller may do',
    access: { who: GATES.member },
    params: idParam,
    response: ZFlightsView,
    handler: ({ ctx, actor, params }) => viewFlight(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/flights/edit.json',
    area: 'flights',
    summary:
      'Create (no id) or edit a flight; wall-clock times in the flight time zone; block, flight and night times derived (CONTRACT 4)',
    access: { who: GATES.member },
    body: ZFlightEdit,
    response: ZFlightsEdit,
    handler: async ({ ctx, actor, body }) => {
      const saved = await ctx.tx((uow) => saveFlight(uow, actor, body.Flight));
      return { result: true, id: saved.id };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/flights/cancel.json',
    area: 'flights',
    summary: 'Cancel a flight (LANDED becomes DELETED, others CANCELED); `notify` tells the other crew',
    access: { who: GATES.member },
    body: ZCancel,
    response: ZFlightsCancel,
    handler: async ({ ctx, actor, body }) => {
      const r = await ctx.tx((uow) => cancelFlight(uow, actor, body));
      return { result: true, id: body.id, status: r.status };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/flights/confirm/:id.json',
    area: 'flights',
    summary: 'Confirm a flight (LANDED): block time, aircraft, PIC, Flight.confirm, password when required, no overlap',
    access: { who: GATES.member },
    params: idParam,
    body: ZConfirm,
    response: ZFlightsConfirm,
    handler: async ({ ctx, actor, params, body }) => {
      const r = await ctx.tx((uow) => confirmFlight(uow, actor, params.id, { pass: body.pass }));
      return { result: true, id: params.id, status: r.status, ...(r.warnings.length ? { warnings: r.warnings } : {}) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/flights/dispatch/:id.json',
    noBody: true,
    area: 'flights',
    summary: 'Dispatch a DRAFT or SCHEDULED flight; refused with `result: false` and the reason (MEL, FRAT, ...)',
    access: { who: GATES.member },
    params: idParam,
    response: ZFlightsDispatch,
    handler: async ({ ctx, actor, params }) => {
      const r = await ctx.tx((uow) => dispatchFlight(uow, actor, params.id));
      return { ...r, id: params.id };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/flights/frat/:id.json',
    area: 'flights',
    summary: 'The flight risk assessment of a flight (or null) and the questionnaire',
    access: { who: GATES.member },
    params: idParam,
    response: ZFlightsFrat,
    handler: ({ ctx, actor, params }) => getFrat(ctx.db, actor, params.id),
  }),
  defineRoute({
    method: 'POST',
    path: '/flights/frat/:id.json',
    area: 'flights',
    summary: 'Fill or replace the flight risk assessment (crew or staff, before dispatch)',
    access: { who: GATES.member },
    params: idParam,
    body: ZFrat,
    response: ZFlightsFratPost,
    handler: async ({ ctx, actor, params, body }) => ({
      result: true,
      frat: await ctx.tx((uow) => saveFrat(uow, actor, params.id, body)),
    }),
  }),
];
