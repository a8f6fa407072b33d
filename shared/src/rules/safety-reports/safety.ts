/**
 * Safety reports (Part B 2.5, 3.3, 4.4): enumerations, severity derivation,
 * visibility and edit rights, the ICAO risk matrix and the audit-trail diff.
 * Pure, so the server and offline clients decide the same way.
 */

export const SAFETY_TYPES = ['OCCURRENCE', 'INFORMATION'] as const;
export type SafetyType = (typeof SAFETY_TYPES)[number];

export const SAFETY_SEVERITIES = [
  { key: 'incident', label: 'Incident', color: '#fcd319', type: 'OCCURRENCE' },
  { key: 'accident', label: 'Accident', color: '#ff260a', type: 'OCCURRENCE' },
  { key: 'information', label: 'Information', color: '#1f6ac4', type: 'INFORMATION' },
  { key: 'hazard', label: 'Hazard', color: '#fc19c3', type: 'INFORMATION' },
] as const;
export type SafetySeverity = (typeof SAFETY_SEVERITIES)[number]['key'];

export const SAFETY_STATUSES = [
  { key: 'draft', label: 'Draft', color: '#64748b' },
  { key: 'open', label: 'Open', color: '#ff9900' },
  { key: 'reviewed', label: 'Reviewed', color: '#ffcc00' },
  { key: 'closed', label: 'Closed', color: '#999999' },
  { key: 'published', label: 'Published', color: '#34eb77' },
] as const;
export type SafetyStatus = (typeof SAFETY_STATUSES)[number]['key'];

export const FLIGHT_PHASES = {
  APR: 'Approach',
  EMG: 'Emergency Descent',
  ENR: 'En Route',
  ICL: 'Initial Climb',
  LDG: 'Landing',
  MNV: 'Maneuvering',
  PIM: 'Post-Impact',
  PBT: 'Pushback/Towing',
  STD: 'Standing',
  TOF: 'Takeoff',
  TXI: 'Taxi',
  UND: 'Uncontrolled Descent',
  UNK: 'Unknown',
} as const;
export type FlightPhase = keyof typeof FLIGHT_PHASES;

export const DAMAGES = {
  none: 'None',
  minimal: 'Minimal',
  important: 'Important',
  catastrophic: 'Catastrophic (aircraft destroyed)',
} as const;
export const PERSONAL_DAMAGES = {
  none: 'No injuries',
  injuries: 'Light injuries, no hospitalization',
  serious: 'Serious injuries',
  casualties: 'Loss of life',
} as const;
export const AIR_SPACES = { controlled: 'Controlled', uncontrolled: 'Uncontrolled' } as const;

/** Risk probability keys with their ICAO value (5 most likely). */
export const RISK_PROBABILITIES = {
  likely: { value: 5, label: 'Frequent' },
  probable: { value: 4, label: 'Occasional' },
  possible: { value: 3, label: 'Remote' },
  improbable: { value: 2, label: 'Improbable' },
  remote: { value: 1, label: 'Extremely Improbable' },
} as const;
export type RiskProbability = keyof typeof RISK_PROBABILITIES;

/** Risk severity keys with their ICAO letter (A worst). */
export const RISK_SEVERITIES = {
  catastrophic: { letter: 'A', label: 'Catastrophic' },
  hazardous: { letter: 'B', label: 'Hazardous' },
  critical: { letter: 'C', label: 'Major' },
  marginal: { letter: 'D', label: 'Minor' },
  negligible: { letter: 'E', label: 'Negligible' },
} as const;
export type RiskSeverity = keyof typeof RISK_SEVERITIES;

export type Tolerability = 'intolerable' | 'tolerable' | 'acceptable';

/**
 * A company's risk matrix: the tolerability of each index (`5A` ... `1E`).
 * The default is the ICAO Safety Management Manual (Doc 9859) matrix.
 */
export interface RiskMatrix {
  cells: Record<string, Tolerability>;
}

const ICAO_INTOLERABLE = ['5A', '5B', '5C', '4A', '4B', '3A'];
const ICAO_ACCEPTABLE = ['3E', '2D', '2E', '1B', '1C', '1D', '1E'];

export function icaoRiskMatrix(): RiskMatrix {
  const cells: Record<string, Tolerability> = {};
  for (const p of [5, 4, 3, 2, 1]) {
    for (const s of ['A', 'B', 'C', 'D', 'E']) {
      const k = `${p}${s}`;
      cells[k] = ICAO_INTOLERABLE.includes(k)
        ? 'intolerable'
        : ICAO_ACCEPTABLE.includes(k)
          ? 'acceptable'
          : 'tolerable';
    }
  }
  return { cells };
}

/** A matrix is complete when it names all 25 indices with a known tolerability. */
export function isRiskMatrix(value: unknown): value is RiskMatrix {
  if (!value || typeof value !== 'object') return false;
  const cells = (value as { cells?: unknown }).cells;
  if (!cells || typeof cells !== 'object') return false;
  const c = cells as Record<string, unknown>;
  return Object.keys(icaoRiskMatrix().cells).every(
    (k) => c[k] === 'intolerable' || c[k] === 'tolerable' || c[k] === 'acceptable',
  );
}

export interface RiskAssessment {
  index: string;
  tolerability: Tolerability;
}

/** Risk index (`4B`) and tolerability of a probability/severity pair; null when either is missing or unknown. */
export function assessRisk(
  probability: string | null | undefined,
  severity: string | null | undefined,
  matrix: RiskMatrix = icaoRiskMatrix(),
): RiskAssessment | null {
  if (!probability || !severity) return null;
  const p = RISK_PROBABILITIES[probability as RiskProbability];
  const s = RISK_SEVERITIES[severity as RiskSeverity];
  if (!p || !s) return null;
  const index = `${p.value}${s.letter}`;
  return { index, tolerability: matrix.cells[index] ?? 'tolerable' };
}

/** Part B 4.4 item 4: OCCURRENCE severity from the damages, INFORMATION from the posted severity. */
export function deriveSeverity(
  type: SafetyType,
  posted: string | null | undefined,
  damages: string | null | undefined,
  personalDamages: string | null | undefined,
): SafetySeverity {
  if (type === 'INFORMATION') return posted === 'hazard' ? 'hazard' : 'information';
  if (
    damages === 'important' ||
    damages === 'catastrophic' ||
    personalDamages === 'serious' ||
    personalDamages === 'casualties'
  )
    return 'accident';
  return 'incident';
}

/** `YYYY/NNNNN` (Part B 2.5). */
export const formatIdn = (year: number, seq: number): string => `${year}/${String(seq).padStart(5, '0')}`;
export const childIdn = (parentIdn: string, n: number): string => `${parentIdn}-${n}`;

/** The tracked fields of the change history, in the spec's order, with labels. */
export const TRACKED_FIELDS: Record<string, { label: string; kind?: 'text' | 'set' }> = {
  idn: { label: 'Number' },
  type: { label: 'Type' },
  status: { label: 'Status' },
  severity: { label: 'Severity' },
  name: { label: 'Name' },
  datetime: { label: 'Date and time' },
  location: { label: 'Location' },
  safety_report_department_id: { label: 'Department' },
  safety_report_category_id: { label: 'Category' },
  flight_phase: { label: 'Flight phase' },
  air_space: { label: 'Air space' },
  damages: { label: 'Damages' },
  personal_damages: { label: 'Personal damages' },
  immediate_consequences: { label: 'Immediate consequences', kind: 'text' },
  flight_id: { label: 'Flight' },
  flight_type_id: { label: 'Flight type' },
  parent_id: { label: 'Parent report' },
  user_id: { label: 'Reporter' },
  reviewer_id: { label: 'Reviewer' },
  reviewer_outcome: { label: 'Reviewer outcome', kind: 'text' },
  risk_probability: { label: 'Risk probability' },
  risk_severity: { label: 'Risk severity' },
  mitigated_risk_probability: { label: 'Mitigated risk probability' },
  mitigated_risk_severity: { label: 'Mitigated risk severity' },
  events: { label: 'Events', kind: 'text' },
  actions: { label: 'Actions', kind: 'text' },
  result: { label: 'Result', kind: 'text' },
  corrective_measures: { label: 'Corrective measures', kind: 'text' },
  met_conditions: { label: 'Meteorological conditions', kind: 'text' },
  involved_users: { label: 'Involved users', kind: 'set' },
  aircraft: { label: 'Aircraft', kind: 'set' },
};

/** Visible length of a narrative: markup tags and entities removed, whitespace collapsed. */
export function textSize(v: unknown): number {
  if (v === null || v === undefined) return 0;
  const plain = String(v)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, 'x')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length;
}

/** Markup removed, for comparing narratives (a change of markup alone is no change). */
export function plainText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return String(v)
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface TrailEntry {
  field: string;
  label: string;
  kind?: 'text' | 'set';
  from: unknown;
  to: unknown;
  from_label?: string | null;
  to_label?: string | null;
}

const sortedSet = (v: unknown): string[] => (Array.isArray(v) ? [...new Set(v.map(String))].sort() : []);

/**
 * The tracked fields that moved between two versions of a report. Narratives
 * compare without markup and log character counts; sets log sorted id arrays;
 * everything else logs the plain value. `labels(field, value)` resolves a
 * value's label at write time (category name, user name...).
 */
export function trailDiff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  labels: (field: string, value: unknown) => string | null = () => null,
): TrailEntry[] {
  const out: TrailEntry[] = [];
  for (const [field, def] of Object.entries(TRACKED_FIELDS)) {
    if (!(field in after)) continue;
    const a = before ? before[field] : undefined;
    const b = after[field];
    if (def.kind === 'text') {
      if (plainText(a) === plainText(b)) continue;
      out.push({ field, label: def.label, kind: 'text', from: before ? textSize(a) : null, to: textSize(b) });
    } else if (def.kind === 'set') {
      const sa = sortedSet(a);
      const sb = sortedSet(b);
      if (sa.join(',') === sb.join(',')) continue;
      out.push({ field, label: def.label, kind: 'set', from: before ? sa : null, to: sb });
    } else {
      const na = a === undefined || a === '' ? null : a;
      const nb = b === undefined || b === '' ? null : b;
      if (String(na ?? '') === String(nb ?? '')) continue;
      out.push({
        field,
        label: def.label,
        from: na,
        to: nb,
        from_label: na === null ? null : labels(field, na),
        to_label: nb === null ? null : labels(field, nb),
      });
    }
  }
  return out;
}

/** Clock difference between a device and the server that still counts as "now" (seconds). */
export const EVENT_FUTURE_SLACK_SECONDS = 15 * 60;
export const EVENT_IN_FUTURE = 'The event date cannot be in the future';

/**
 * A report describes something that happened: its event date and time
 * (`YYYY-MM-DD HH:MM:SS` or ISO, UTC when it has no offset) may not lie after
 * now, beyond a small clock slack. Null when acceptable (or not a date: the
 * format check answers that).
 */
export function eventDateProblem(datetime: string, nowMs: number = Date.now()): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(datetime.trim());
  if (!m) return null;
  const rest = datetime.trim().slice(m[0].length);
  const offset = /([+-])(\d{2}):?(\d{2})$/.exec(rest);
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  let t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  if (offset) t -= (offset[1] === '-' ? -1 : 1) * (+offset[2] * 60 + +offset[3]) * 60_000;
  return t > nowMs + EVENT_FUTURE_SLACK_SECONDS * 1000 ? EVENT_IN_FUTURE : null;
}
