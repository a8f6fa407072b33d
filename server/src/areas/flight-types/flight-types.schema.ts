import { z } from 'zod';
import {
  CLASSIFICATIONS,
  type Classification,
  isClassification,
  type REMOVED_CLASSIFICATIONS,
} from '@ops/shared/rules/pilots/logbook-totals';
import { zBoolish } from '../../http/zod.ts';

/** Part B 2.6: what each classification means and how the logbook rolls it up (the values are the shared rules'). */
const CLASSIFICATION_INFO: Record<Classification, { name: string; rollup: string }> = {
  pic: { name: 'Pilot in command', rollup: 'PIC total' },
  picus: { name: 'PIC under supervision', rollup: 'PIC total; reported separately' },
  sic: { name: 'Second in command', rollup: 'SIC total, only on multipilot aircraft' },
  fi: { name: 'Flight instructor', rollup: 'PIC and FI totals; reported separately' },
  dual: { name: 'Dual received', rollup: 'DUAL total' },
  cri: { name: 'Class rating instructor', rollup: 'PIC and FI; separate' },
  iri: { name: 'Instrument rating instructor', rollup: 'PIC and FI; separate' },
  fifi: { name: 'Instructor of instructors', rollup: 'PIC and FI; separate' },
  sfi: { name: 'Synthetic flight instructor', rollup: 'PIC and FI; separate' },
  tri: { name: 'Type rating instructor', rollup: 'PIC and FI; separate' },
  exa: { name: 'Examiner', rollup: 'PIC and FI; separate' },
  sup: { name: 'Supervisor', rollup: 'Separate only, not in PIC or FI' },
  none: { name: 'None', rollup: 'Not logged' },
};
/** The reference list returned by manager_add and manager_edit. */
export const CLASSIFICATION_LIST = CLASSIFICATIONS.map((value) => ({ value, ...CLASSIFICATION_INFO[value] }));

/** Part B 9.2: removed values are refused with the replacement named, never silently stored. */
const RETIRED: Record<(typeof REMOVED_CLASSIFICATIONS)[number], string> = {
  copic: '`copic` was removed; use `sic` (credited only on multipilot aircraft)',
  tre: '`tre` was renamed; use `exa`',
};

export const zClassification = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((v, ctx) => {
    if (v in RETIRED) ctx.addIssue({ code: 'custom', message: RETIRED[v as keyof typeof RETIRED] });
    else if (!isClassification(v))
      ctx.addIssue({ code: 'custom', message: `Expected one of ${CLASSIFICATIONS.join(', ')}` });
  })
  .transform((v) => v as Classification);

export const SEATS = ['pic', 'sic', 'supervisor'] as const;
export type Seat = (typeof SEATS)[number];

/**
 * Bodies come as JSON `{FlightType: {...}}`, flat JSON, or form fields
 * `data[FlightType][name]` (parsed to `{data: {FlightType: ...}}`): one shape for the schema.
 */
export function unwrapModel(model: string, siblings: readonly string[] = []) {
  return (raw: unknown): unknown => {
    if (!raw || typeof raw !== 'object') return raw;
    const top = raw as Record<string, unknown>;
    const data = top.data && typeof top.data === 'object' ? (top.data as Record<string, unknown>) : {};
    const merged: Record<string, unknown> = { ...data, ...top };
    delete merged.data;
    if (merged[model] && typeof merged[model] === 'object') return merged;
    // Flat body: the model's fields at the top level, beside the named sibling keys.
    const inner: Record<string, unknown> = {};
    const out: Record<string, unknown> = { [model]: inner };
    for (const [k, v] of Object.entries(merged)) {
      if (siblings.includes(k)) out[k] = v;
      else inner[k] = v;
    }
    return out;
  };
}

const zColor = z
  .string()
  .trim()
  .regex(/^#?[0-9a-fA-F]{6}$/, 'Expected a hex color such as #1f6ac4')
  .transform((v) => (v.startsWith('#') ? v : `#${v}`).toLowerCase());

const fields = {
  name: z.string().trim().min(1, 'Required').max(100, 'At most 100 characters'),
  color: z.union([zColor, z.literal('').transform(() => null), z.null()]).optional(),
  booking: zBoolish.optional(),
  pic_flight_time: zClassification.optional(),
  sic_flight_time: zClassification.optional(),
  supervisor_flight_time: zClassification.optional(),
};

/** Certificate rows arrive as an array or, from forms, an object keyed by index; validated one by one in the service. */
const zCertificateList = z
  .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .transform((v) => (Array.isArray(v) ? v : Object.values(v)));

const certificateSync = {
  syncRequiredCertificates: zBoolish.optional(),
  RequiredCertificate: zCertificateList.optional(),
};

const SIBLINGS = Object.keys(certificateSync);

export const ZFlightTypeAdd = z.preprocess(
  unwrapModel('FlightType', SIBLINGS),
  z.object({ FlightType: z.object(fields), ...certificateSync }),
);
export const ZFlightTypeEdit = z.preprocess(
  unwrapModel('FlightType', SIBLINGS),
  z.object({ FlightType: z.object({ ...fields, name: fields.name.optional() }), ...certificateSync }),
);
export type TFlightTypeAdd = z.output<typeof ZFlightTypeAdd>;
export type TFlightTypeEdit = z.output<typeof ZFlightTypeEdit>;
