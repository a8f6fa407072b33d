import { z } from 'zod';

/**
 * Response schemas of the flight-types routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One flight type row (the classification each crew role logs). */
const zFlightType = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  booking: z.boolean(),
  pic_flight_time: z.string(),
  sic_flight_time: z.string(),
  supervisor_flight_time: z.string(),
  order: z.number(),
  deleted: z.boolean(),
  created: z.number(),
  modified: z.number(),
});

/** A certificate type a crew role must hold. */
const zRequiredCertificate = z.object({
  role: z.string(),
  certificate_type: z.string(),
});

/** A flight type with the certificates each role on it needs. */
const zFlightTypeEntry = z.object({
  FlightType: zFlightType,
  RequiredCertificate: z.array(zRequiredCertificate),
});

/** GET /flight_types/index{/:booking}.json */
export const ZFlightTypesIndex = z.strictObject({
  flight_types: z.array(zFlightTypeEntry),
});

/** One logbook classification a flight type role can count as. */
const zClassification = z.object({
  name: z.string(),
  rollup: z.string(),
  value: z.enum(['sup', 'none', 'pic', 'picus', 'sic', 'fi', 'dual', 'cri', 'iri', 'fifi', 'sfi', 'tri', 'exa']),
});

/** GET /flight_types/manager_index.json */
export const ZFlightTypesManagerIndex = z.strictObject({
  flight_types: z.array(zFlightTypeEntry),
  classifications: z.array(zClassification),
});

/** GET /flight_types/view/:id.json */
export const ZFlightTypesView = z.strictObject({
  flight_type: zFlightTypeEntry,
});

/** POST /flight_types/manager_add.json */
export const ZFlightTypesManagerAdd = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  flight_type: zFlightTypeEntry,
  classifications: z.array(zClassification),
});

/** GET /flight_types/manager_edit/:id.json */
export const ZFlightTypesManagerEdit = z.strictObject({
  usage: z.number(),
  requiredCertificates: z.array(zRequiredCertificate),
  classifications: z.array(zClassification),
  ...zFlightTypeEntry.shape,
});

/** [POST, PUT] /flight_types/manager_edit/:id.json */
export const ZFlightTypesManagerEditPost = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  flight_type: zFlightTypeEntry,
});

/** [POST, DELETE] /flight_types/manager_delete/:id.json */
export const ZFlightTypesManagerDelete = z.strictObject({
  result: z.boolean(),
  id: z.string(),
});

/** POST /flight_types/manager_reorder.json */
export const ZFlightTypesManagerReorder = z.strictObject({
  result: z.boolean(),
  items: z.array(z.string()),
});

/** Whether one crew role meets the type's required certificates. */
const zRoleCompliance = z.object({
  compliant: z.boolean(),
  ok: z.array(z.string()),
  required: z.array(z.string()),
  limit: z.number().nullable(),
});

/** GET /flight_types/compliance/:id.json */
export const ZFlightTypesCompliance = z.strictObject({
  flight_type_id: z.string(),
  user_id: z.string(),
  at: z.number(),
  compliance: z.object({
    pic: zRoleCompliance,
    sic: zRoleCompliance,
    supervisor: zRoleCompliance,
  }),
});
