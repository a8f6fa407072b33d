/**
 * The company's readiness policy (issue 31): what each check does when it
 * finds a problem, and the numbers the checks compare against. Stored as one
 * JSON document per company; every field has a default so an old or partial
 * document still reads.
 */
import { z } from 'zod';

export const READINESS_CHECKS = [
  'BALANCE',
  'CERTIFICATES',
  'CURRENCY',
  'MAINTENANCE',
  'MEL',
  'DUTY',
  'WEATHER',
] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];

export const POLICY_ACTIONS = ['ignore', 'warn', 'block'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export const ZWeatherMinimums = z.object({
  /** Lowest broken or overcast layer, feet above the airport. */
  ceiling_ft: z.number().int().min(0).max(20_000),
  visibility_m: z.number().int().min(0).max(10_000),
  /** Mean wind or gust, knots. */
  wind_kt: z.number().int().min(0).max(100),
  /** Crosswind component on the best runway, knots (checked only when the runway headings are known). */
  crosswind_kt: z.number().int().min(0).max(100),
});
export type WeatherMinimums = z.infer<typeof ZWeatherMinimums>;

const zAction = z.enum(POLICY_ACTIONS);

export const ZReadinessSettings = z.object({
  checks: z.object(
    Object.fromEntries(READINESS_CHECKS.map((c) => [c, zAction])) as Record<ReadinessCheck, typeof zAction>,
  ),
  /** BALANCE: the least balance (cents) the billed person may have; null: the check is off. */
  balance_minimum: z.number().int().min(-100_000_000).max(100_000_000).nullable(),
  /** CURRENCY: landings the PIC needs in the window before carrying passengers, and night landings for a flight at night. */
  currency: z.object({
    days: z.number().int().min(1).max(999),
    landings: z.number().int().min(0).max(99),
    night_landings: z.number().int().min(0).max(99),
  }),
  /**
   * WEATHER: student minimums. Per flight type and per pilot group where set,
   * else the default; a flight that has both uses the stricter of each number.
   */
  weather: z.object({
    default: ZWeatherMinimums,
    flight_types: z.record(z.string().max(64), ZWeatherMinimums),
    /** By pilot group id (Part A 4.7); a document saved before groups existed reads as none. */
    pilot_groups: z.record(z.string().max(64), ZWeatherMinimums).default({}),
    /** Runway headings (degrees) per ICAO, for the crosswind. */
    runways: z.record(z.string().max(8), z.array(z.number().int().min(1).max(360)).max(8)),
  }),
});
export type ReadinessSettings = z.infer<typeof ZReadinessSettings>;

/** A company that never chose: every check ignored, so nothing changes until a manager turns one on. */
export const DEFAULT_READINESS_SETTINGS: ReadinessSettings = {
  checks: {
    BALANCE: 'ignore',
    CERTIFICATES: 'ignore',
    CURRENCY: 'ignore',
    MAINTENANCE: 'ignore',
    MEL: 'ignore',
    DUTY: 'ignore',
    WEATHER: 'ignore',
  },
  balance_minimum: 0,
  currency: { days: 90, landings: 3, night_landings: 1 },
  weather: {
    default: { ceiling_ft: 1500, visibility_m: 5000, wind_kt: 20, crosswind_kt: 10 },
    flight_types: {},
    pilot_groups: {},
    runways: {},
  },
};

/** A stored (or posted) document read leniently: what fails validation falls back to its default, part by part. */
export function readSettings(raw: unknown): ReadinessSettings {
  const d = DEFAULT_READINESS_SETTINGS;
  const v = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const part = <T>(schema: z.ZodType<T>, value: unknown, fallback: T): T => {
    const r = schema.safeParse(value);
    return r.success ? r.data : fallback;
  };
  const checksIn = (v.checks && typeof v.checks === 'object' ? v.checks : {}) as Record<string, unknown>;
  const checks = { ...d.checks };
  for (const c of READINESS_CHECKS) checks[c] = part(zAction, checksIn[c], d.checks[c]);
  return {
    checks,
    balance_minimum: part(ZReadinessSettings.shape.balance_minimum, v.balance_minimum, d.balance_minimum),
    currency: part(ZReadinessSettings.shape.currency, v.currency, d.currency),
    weather: part(ZReadinessSettings.shape.weather, v.weather, d.weather),
  };
}

/** True when every check is ignored: the server then reads nothing else. */
export const allIgnored = (s: ReadinessSettings): boolean => READINESS_CHECKS.every((c) => s.checks[c] === 'ignore');

export interface ChosenMinimums {
  minimums: WeatherMinimums;
  /** Where they come from: 'flight type', 'pilot group' or both; empty for the company default. */
  from: string[];
}

/**
 * The student minimums of a flight: those of its flight type and of each of
 * the pilot's groups that has its own, combined by taking the stricter of each
 * number (highest ceiling and visibility, lowest wind and crosswind); the
 * company default when none is set.
 */
export function minimumsFor(
  weather: ReadinessSettings['weather'],
  flightTypeId: string | null,
  pilotGroups: readonly string[],
): ChosenMinimums {
  const found: WeatherMinimums[] = [];
  const from: string[] = [];
  const byType = flightTypeId ? weather.flight_types[flightTypeId] : undefined;
  if (byType) {
    found.push(byType);
    from.push('flight type');
  }
  const byGroup = pilotGroups.map((g) => weather.pilot_groups[g]).filter((m): m is WeatherMinimums => !!m);
  if (byGroup.length) {
    found.push(...byGroup);
    from.push('pilot group');
  }
  if (!found.length) return { minimums: weather.default, from };
  return {
    minimums: {
      ceiling_ft: Math.max(...found.map((m) => m.ceiling_ft)),
      visibility_m: Math.max(...found.map((m) => m.visibility_m)),
      wind_kt: Math.min(...found.map((m) => m.wind_kt)),
      crosswind_kt: Math.min(...found.map((m) => m.crosswind_kt)),
    },
    from,
  };
}
