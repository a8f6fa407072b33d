import { CERTIFICATE_TYPES } from '@ops/shared/reference/certificate-types';
import { GATES } from '@ops/shared';
import { pilotGates } from '@ops/shared/rules/pilots/policy';
import { z } from 'zod';
import { MEDIA } from '../../http/responses.ts';
import { defineRoute } from '../../http/define-route.ts';
import { zId } from '../../http/zod.ts';
import { listPilots, pilotIndex } from './directory.repository.ts';
import { userChanges } from './history.repository.ts';
import { currencyRequirements, pilotCurrency, pilotTotals, saveCurrencyRequirements } from './logbook.service.ts';
import { ZCurrencyRequirements, ZPilotCreate, ZPilotIndex, ZPilotList } from './pilots.schema.ts';
import { createPilot, editPilot } from './pilots.service.ts';
import { viewPilot } from './pilots.presenter.ts';
import {
  ZPilotsList,
  ZPilotsIndex,
  ZPilotsCreate,
  ZPilotsEdit,
  ZPilotsView,
  ZPilotsChanges,
  ZPilotsCertificateTypes,
  ZPilotsTotals,
  ZPilotsGetCurrency,
  ZPilotsCurrencyRequirements,
  ZPilotsCurrencyRequirementsPost,
} from './pilots.responses.ts';

type Named = { named?: string[] };
const zPage = z.coerce
  .number({ error: 'Expected a page number' })
  .int('Expected a page number')
  .min(1, 'Pages start at 1')
  .max(1_000_000)
  .default(1);

export const pilotsRoutes = [
  defineRoute({
    method: 'GET',
    path: '/pilots/list{/*named}.json',
    area: 'pilots',
    summary:
      'Minimal list of the company’s live accounts by role, name, surname; named parameters active:{1|0|all} (default 1), pilot:{1|0|all} (default 1)',
    access: { who: GATES.member },
    response: ZPilotsList,
    named: ZPilotList,
    handler: ({ ctx, actor, req }) => listPilots(ctx, actor, (req.params as Named).named),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/index{/*named}.json',
    area: 'pilots',
    summary:
      'Pilot directory with `paginate`; named parameters page, search, user_group_id (150 = all <= 150), pilot_group, base_id, active, pilot, limit (50, max 100000), excel:1 (an .xlsx file)',
    access: { who: GATES.member },
    response: ZPilotsIndex,
    file: { mediaType: MEDIA.xlsx },
    named: ZPilotIndex,
    handler: ({ ctx, actor, req, res }) => pilotIndex(ctx, actor, (req.params as Named).named, res),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilots/create.json',
    area: 'pilots',
    summary:
      'Create a pilot: User{user_group_id (190; >= 150), email, active, created, send_email}, UserDetail{name, surname, timezone_id}; answers {id, result, validation}',
    access: { who: pilotGates.admin },
    body: ZPilotCreate,
    validationKey: 'validation',
    response: ZPilotsCreate,
    handler: ({ ctx, actor, body }) => createPilot(ctx, actor, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilots/edit.json',
    area: 'pilots',
    summary:
      'Edit a pilot: User (id required), UserDetail, AttributedAircraft, FlightType, PilotGroup maps; answers {id, result, errors[]}',
    access: { who: pilotGates.admin },
    // Parsed by the service: failures answer the flat `errors[]` list of this endpoint.
    body: z.unknown(),
    response: ZPilotsEdit,
    handler: ({ ctx, actor, body }) => editPilot(ctx, actor, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/view{/:id}.json',
    area: 'pilots',
    summary:
      'A pilot (default: the caller) with groups, aircraft, flight types, certificates and logins, by the viewer’s visibility',
    access: { who: GATES.member },
    params: z.object({ id: zId.optional() }),
    response: ZPilotsView,
    handler: ({ ctx, actor, params }) => viewPilot(ctx, actor, params.id),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/changes/:userId.json',
    area: 'pilots',
    summary: 'Change history of an account, newest first (`page`, `limit` 50, max 500); roles <= 150, others their own',
    access: { who: GATES.member },
    params: z.object({ userId: zId }),
    query: z.object({ page: zPage, limit: z.coerce.number().int().min(1).max(500).default(50) }),
    response: ZPilotsChanges,
    handler: ({ ctx, actor, params, query }) => userChanges(ctx, actor, params.userId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/certificate_types.json',
    area: 'pilots',
    summary: 'Catalog of certificate types {key, name, kind (licence|rating|medical), authority (EASA|FAA)}',
    access: { who: GATES.member },
    response: ZPilotsCertificateTypes,
    handler: () => ({ certificate_types: CERTIFICATE_TYPES }),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/totals{/:userId}.json',
    area: 'pilots',
    summary:
      'Logbook totals from LANDED flights (default: the caller); staff anyone, others themselves and their students',
    access: { who: GATES.member },
    params: z.object({ userId: zId.optional() }),
    response: ZPilotsTotals,
    handler: ({ ctx, actor, params }) => pilotTotals(ctx, actor, params.userId),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/get_currency{/:userId}{/:d1}{/:d2}{/:d3}.json',
    area: 'pilots',
    // The threshold is read from the staff gate (roles.ts), the rule the handler applies.
    summary: `Currency against the company requirements: d1 days for landings (30, max 999), d2 night landings (90), d3 hours (90); userId forced to the caller when null or role > ${GATES.staff.maxRole}`,
    access: { who: GATES.member },
    params: z.object({
      userId: z.string().max(64).optional(),
      d1: z.string().max(12).optional(),
      d2: z.string().max(12).optional(),
      d3: z.string().max(12).optional(),
    }),
    response: ZPilotsGetCurrency,
    handler: ({ ctx, actor, params }) => pilotCurrency(ctx, actor, params),
  }),
  defineRoute({
    method: 'GET',
    path: '/pilots/currency_requirements.json',
    area: 'pilots',
    summary: 'The company’s currency requirements {landings, night_landings, hours}',
    access: { who: GATES.member },
    response: ZPilotsCurrencyRequirements,
    handler: async ({ ctx, actor }) => ({ requirements: await currencyRequirements(ctx.db, actor.companyId) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/pilots/currency_requirements.json',
    area: 'pilots',
    summary: 'Set the company’s currency requirements {landings, night_landings, hours} (roles <= 110)',
    access: { who: pilotGates.currency },
    body: ZCurrencyRequirements,
    response: ZPilotsCurrencyRequirementsPost,
    handler: ({ ctx, actor, body }) => saveCurrencyRequirements(ctx, actor, body),
  }),
];
