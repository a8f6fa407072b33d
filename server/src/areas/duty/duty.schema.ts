import { z } from 'zod';
import { zId } from '../../http/zod.ts';

/** Dates are checked by the rule (`rangeProblem`) so the 400 names the field and the reason. */
const zDay = z.string({ error: 'Required: a date YYYY-MM-DD' }).trim().max(10, 'Expected a date YYYY-MM-DD');

export const ZDutyParams = z.object({ userId: zId });
export const ZDutyQuery = z.object({ from: zDay, to: zDay });
export const ZBoardQuery = z.object({ from: zDay.optional() });
