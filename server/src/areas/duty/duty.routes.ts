import { dutyGates } from '@ops/shared/rules/duty/policy';
import { defineRoute } from '../../http/define-route.ts';
import { ZDutyBoard, ZDutyView } from './duty.responses.ts';
import { ZBoardQuery, ZDutyParams, ZDutyQuery } from './duty.schema.ts';
import { dutyBoard, dutyOf } from './duty.service.ts';

export const dutyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/duty/board.json',
    area: 'duty',
    summary:
      'Crew duty board: every crew member’s week from `from` (default this week), flown and planned duty, year flight hours, levels against the limits (roles <= 170)',
    access: { who: dutyGates.board },
    query: ZBoardQuery,
    response: ZDutyBoard,
    handler: ({ ctx, actor, query }) => dutyBoard(ctx, actor, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/duty/:userId.json',
    area: 'duty',
    summary:
      'Duty days, calendar-year flight time and rolling totals of a user for from..to (YYYY-MM-DD, at most 400 days); own or roles <= 170 (CONTRACT 7)',
    access: { who: dutyGates.read },
    params: ZDutyParams,
    query: ZDutyQuery,
    response: ZDutyView,
    handler: ({ ctx, actor, params, query }) => dutyOf(ctx, actor, params.userId, query),
  }),
];
