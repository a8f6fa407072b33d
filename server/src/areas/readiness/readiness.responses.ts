import { READINESS_CHECKS, ZReadinessSettings } from '@ops/shared/rules/readiness/settings';
import { z } from 'zod';

const zTextPart = z.object({
  id: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Dates as unix seconds, shown in `zone`. */
  dates: z.record(z.string(), z.number()).optional(),
  /** Amounts in cents with their currency, formatted in the reader's language. */
  money: z.record(z.string(), z.object({ cents: z.number(), currency: z.string() })).optional(),
  /** Decimal hours, formatted in the reader's language. */
  hours: z.record(z.string(), z.number()).optional(),
});
/** A sentence nesting `depth` levels of sentences in its list values, spelled out (OpenAPI has no recursive $ref here). */
function zNested(depth: number): typeof zTextPart {
  if (depth === 0) return zTextPart;
  return zTextPart.extend({
    lists: z.record(z.string(), z.array(zNested(depth - 1))).optional(),
    /** The separator of a list value ("; " when absent). */
    joins: z.record(z.string(), z.string()).optional(),
    zone: z.string().optional(),
  });
}
/**
 * A sentence as a catalogue message id and its values; list values are sentences of their own, joined with "; "
 * or `joins` (three levels: a booking refusal naming a grounding report naming its details is the deepest).
 */
export const zRuleText = zNested(3);

/** One check's line: green (`ok`), amber (`warn`) or red (`block`), with the reason and what would fix it. */
export const zReadinessLine = z.object({
  code: z.enum(READINESS_CHECKS),
  level: z.enum(['ok', 'warn', 'block']),
  message: z.string(),
  detail: z.string().nullable(),
  fix: z.string().nullable(),
  /** `message` as a message id with its values, so a screen shows it in its reader's language (issue 33). */
  text: zRuleText.nullable().optional(),
  /** `fix` the same way. */
  fix_text: zRuleText.nullable().optional(),
});
export const zReadinessLines = z.array(zReadinessLine);

/** GET /flights/readiness/:id.json and POST /schedules/readiness.json */
export const ZReadiness = z.object({
  result: z.literal(true),
  /** False when a line blocks. */
  ready: z.boolean(),
  lines: zReadinessLines,
  /** The METAR and TAF the WEATHER line used (raw), kept by devices for offline answers; absent when not checked. */
  weather: z.object({ icao: z.string(), metar: z.string().nullable(), taf: z.string().nullable() }).optional(),
});

/** GET and POST /readiness/settings.json */
export const ZReadinessSettingsAnswer = z.object({
  result: z.literal(true),
  settings: ZReadinessSettings,
});
