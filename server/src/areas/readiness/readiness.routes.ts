import { readinessGates } from '@ops/shared/rules/readiness/policy';
import type { Request } from 'express';
import { defineRoute } from '../../http/define-route.ts';
import { requestLocale, wordReadinessLines } from '../../http/messages.ts';
import { ZReadiness, ZReadinessSettingsAnswer } from './readiness.responses.ts';
import { ZFlightParams, ZReadinessPlan, ZSettingsBody } from './readiness.schema.ts';
import {
  flightReadiness,
  getSettings,
  planReadiness,
  type ReadinessAnswer,
  saveSettings,
} from './readiness.service.ts';

/**
 * The lines' `message` and `fix` in the request's language (issue 33), as a READINESS refusal's are: the answer
 * has no top-level `message`, so the way-out `localize` leaves it alone. `text`/`fix_text` stay for offline readers.
 */
const worded =
  (req: Request) =>
  (answer: ReadinessAnswer): ReadinessAnswer => ({
    ...answer,
    lines: wordReadinessLines(answer.lines, requestLocale(req)),
  });

/**
 * Readiness (issue 31). The two questions sit under the paths of what they
 * are about (flights, schedules) but are routed here; neither collides with
 * `/flights/{verb}/:id.json` since `readiness` is a literal segment no flights
 * route takes.
 */
export const readinessRoutes = [
  defineRoute({
    method: 'GET',
    path: '/flights/readiness/:id.json',
    area: 'readiness',
    summary:
      'Readiness of a flight: one line per check the company does not ignore (balance, certificates, currency, maintenance, MEL, duty, student weather), ok / warn / block',
    access: { who: readinessGates.read },
    params: ZFlightParams,
    response: ZReadiness,
    handler: ({ ctx, actor, params, req }) => flightReadiness(ctx, actor, params.id).then(worded(req)),
  }),
  defineRoute({
    method: 'POST',
    path: '/schedules/readiness.json',
    area: 'readiness',
    summary:
      'Readiness of a booking not made yet (the booking form): the same lines as a flight; self-bookers only for themselves',
    access: { who: readinessGates.read },
    body: ZReadinessPlan,
    response: ZReadiness,
    handler: ({ ctx, actor, body, req }) => planReadiness(ctx, actor, body).then(worded(req)),
  }),
  defineRoute({
    method: 'GET',
    path: '/readiness/settings.json',
    area: 'readiness',
    summary:
      'The company readiness policy: ignore / warn / block per check, the minimum balance, currency and student weather minimums',
    access: { who: readinessGates.read },
    response: ZReadinessSettingsAnswer,
    handler: ({ ctx, actor }) => getSettings(ctx, actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/readiness/settings.json',
    area: 'readiness',
    summary: 'Replace the company readiness policy (company managers, roles <= 105)',
    access: { who: readinessGates.manage },
    body: ZSettingsBody,
    response: ZReadinessSettingsAnswer,
    handler: ({ ctx, actor, body }) => saveSettings(ctx, actor, body),
  }),
];
