/**
 * Flight risk assessment (FRAT): a short fixed questionnaire filled before
 * dispatch. Every factor is answered with one option; option points add up to
 * a score and a level. A HIGH result needs a written mitigation to count as
 * completed. Kept deliberately small: the spec only asks that dispatch can
 * require a completed one (Part B 4.6 item 5, `schedule_dispatch_frat`).
 */
export interface FratOption {
  key: string;
  label: string;
  points: number;
}
export interface FratFactor {
  key: string;
  label: string;
  options: readonly FratOption[];
}

export const FRAT_FACTORS: readonly FratFactor[] = [
  {
    key: 'pilot_recency',
    label: 'Pilot recency on type',
    options: [
      { key: 'current', label: 'Flown within 30 days', points: 0 },
      { key: 'over_30_days', label: 'Last flown 30 to 90 days ago', points: 3 },
      { key: 'over_90_days', label: 'Last flown more than 90 days ago', points: 5 },
    ],
  },
  {
    key: 'weather',
    label: 'Weather',
    options: [
      { key: 'good', label: 'VMC, stable forecast', points: 0 },
      { key: 'marginal', label: 'Marginal VMC or gusty wind', points: 3 },
      { key: 'poor', label: 'IMC or deteriorating forecast', points: 5 },
    ],
  },
  {
    key: 'light',
    label: 'Light conditions',
    options: [
      { key: 'day', label: 'Day', points: 0 },
      { key: 'night', label: 'Night or dusk', points: 3 },
    ],
  },
  {
    key: 'fatigue',
    label: 'Crew rest',
    options: [
      { key: 'rested', label: 'Well rested', points: 0 },
      { key: 'some', label: 'Some fatigue', points: 3 },
      { key: 'tired', label: 'Tired or ill', points: 5 },
    ],
  },
  {
    key: 'aircraft',
    label: 'Aircraft condition',
    options: [
      { key: 'serviceable', label: 'No deferred items', points: 0 },
      { key: 'deferred', label: 'Flying with deferred MEL or CDL items', points: 2 },
    ],
  },
  {
    key: 'airport',
    label: 'Airports',
    options: [
      { key: 'familiar', label: 'Familiar', points: 0 },
      { key: 'unfamiliar', label: 'Unfamiliar', points: 2 },
      { key: 'challenging', label: 'Short, high or obstacle-rich', points: 4 },
    ],
  },
];

export type FratLevel = 'LOW' | 'MEDIUM' | 'HIGH';
/** Score bands: 0–7 LOW, 8–14 MEDIUM, 15 and more HIGH. */
export const FRAT_LEVELS: ReadonlyArray<{ level: FratLevel; min: number }> = [
  { level: 'HIGH', min: 15 },
  { level: 'MEDIUM', min: 8 },
  { level: 'LOW', min: 0 },
];

export type FratScore = { ok: true; score: number; level: FratLevel } | { ok: false; errors: Record<string, string[]> };

/** Validates the answers (every factor, known options) and scores them. */
export function scoreFrat(answers: Record<string, string>, mitigation: string | null): FratScore {
  const errors: Record<string, string[]> = {};
  let score = 0;
  for (const f of FRAT_FACTORS) {
    const chosen = answers[f.key];
    const option = f.options.find((o) => o.key === chosen);
    if (!option) errors[`answers.${f.key}`] = [`Choose one of ${f.options.map((o) => o.key).join(', ')}`];
    else score += option.points;
  }
  for (const key of Object.keys(answers))
    if (!FRAT_FACTORS.some((f) => f.key === key)) errors[`answers.${key}`] = ['Unknown factor'];
  if (Object.keys(errors).length) return { ok: false, errors };
  const level = FRAT_LEVELS.find((l) => score >= l.min)?.level ?? 'LOW';
  if (level === 'HIGH' && !mitigation?.trim())
    return { ok: false, errors: { mitigation: ['A high-risk assessment needs the mitigation in words'] } };
  return { ok: true, score, level };
}
