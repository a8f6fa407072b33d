import { z } from 'zod';
import { zReadinessLines, zRuleText } from '../readiness/readiness.responses.ts';
import { zDutyWarnings } from '../duty/duty.responses.ts';
import { ZAttachedUpload } from '../uploads/uploads.responses.ts';
import type { presentFlightRow } from './flights.presenter.ts';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the flights routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** The crew member's name. */
const zCrewName = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string().nullable(),
});

/** A pilot's group (role) as the flight view shows it. */
const zCrewGroup = z.object({
  role: z.number(),
  name: z.string(),
});

/** A pilot on a flight, short form. */
const zCrewShort = z.object({
  id: z.string(),
  user_group_id: z.number().nullable(),
  UserDetail: zCrewName,
});

/** A pilot on a flight when the viewer may see the full user. */
const zCrewFull = zCrewShort.extend({
  active: z.boolean(),
  pilot: z.boolean(),
  deleted: z.boolean(),
});

/** A pilot on a flight row: the short form, or the full user when the viewer may see more. */
const zCrewRow = z.union([zCrewShort, zCrewFull]);

/** A pilot on the flight view: as on a row, with the user's group. */
const zCrewMember = z.union([
  zCrewShort.extend({ UserGroup: zCrewGroup.nullable() }),
  zCrewFull.extend({ UserGroup: zCrewGroup.nullable() }),
]);

/** A flight row as presented (times as local HH:MM text next to the epoch values). */
const zFlight = z.object({
  id: z.string(),
  date: z.string(),
  status: z.string(),
  callsign: z.string().nullable(),
  departure_airport: z.string().nullable(),
  landing_airport: z.string().nullable(),
  offblocks_time: z.string().nullable(),
  takeoff_time: z.string().nullable(),
  landing_time: z.string().nullable(),
  onblocks_time: z.string().nullable(),
  offblocks: z.number().nullable(),
  takeoff: z.number().nullable(),
  landing: z.number().nullable(),
  onblocks: z.number().nullable(),
  block_time: z.number(),
  flight_time: z.number(),
  night_flight_time: z.number(),
  ifr_flight_time: z.number(),
  rules: z.string().nullable(),
  crosscountry: z.boolean(),
  multiengine: z.boolean(),
  landings: z.number(),
  night_landings: z.number(),
  engine_starts: z.number(),
  pax: z.number(),
  oil: z.number().nullable(),
  fuel: z.number().nullable(),
  cargo: z.number().nullable(),
  route: z.string().nullable(),
  remarks: z.string().nullable(),
  pf: z.string().nullable(),
  aircraft_id: z.string().nullable(),
  flight_type_id: z.string().nullable(),
  base_id: z.string().nullable(),
  pic_id: z.string().nullable(),
  sic_id: z.string().nullable(),
  supervisor_id: z.string().nullable(),
  user_id: z.string().nullable(),
  confirmed_at: z.number().nullable(),
  confirmed_by: z.string().nullable(),
  dispatched_at: z.number().nullable(),
  dispatched_by: z.string().nullable(),
  created: z.number(),
  modified: z.number(),
});

/** The flight's aircraft with its model. */
const zFlightAircraft = z.object({
  id: z.string(),
  registration: z.string(),
  multiengine: z.boolean(),
  multipilot: z.boolean(),
  simulator: z.boolean(),
  photo: z.string().nullable(),
  adsb: z.string().nullable(),
  active: z.boolean(),
  hours: z.number().nullable(),
  landings: z.number().nullable(),
  AircraftModel: z.object({
    name: z.string().nullable(),
    icao: z.string().nullable(),
    AircraftManufacturer: z.object({
      name: z.string().nullable(),
    }),
  }),
});

/** The flight type as a flight row carries it. */
const zFlightFlightType = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  booking: z.boolean(),
  pic_flight_time: z.string().nullable(),
  sic_flight_time: z.string().nullable(),
  supervisor_flight_time: z.string().nullable(),
  deleted: z.boolean(),
});

/** The base as a flight row carries it. */
const zFlightBase = z.object({
  id: z.string(),
  name: z.string(),
  airport_id: z.string().nullable(),
});

/** An airport as the flight view maps it. */
const zFlightAirport = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  lon: z.number(),
});

/** How the change log shows one kind of change. */
const zChangeAction = z.object({
  icon: z.string(),
  name: z.string(),
  class: z.string(),
});

/** GET /flights/view/:id.json */
export const ZFlightsView = z.strictObject({
  flight: z.object({
    Pic: zCrewMember.nullable(),
    Sic: zCrewMember.nullable(),
    Supervisor: z
      .object({
        id: z.string(),
        user_group_id: z.number(),
        active: z.boolean(),
        pilot: z.boolean(),
        deleted: z.boolean(),
        UserDetail: z.object({
          id: z.string(),
          name: z.string(),
          surname: z.string(),
        }),
        UserGroup: zCrewGroup.nullable(),
      })
      .nullable(),
    DepartureAirport: zFlightAirport.nullable(),
    LandingAirport: zFlightAirport.nullable(),
    FlightChange: z.array(
      z.object({
        id: z.string(),
        flight_id: z.string(),
        user_id: z.string().nullable(),
        action: z.string(),
        fields: z.unknown(),
        comments: z.string().nullable(),
        created: z.number(),
        User: z
          .object({
            id: z.string(),
            UserDetail: z.object({
              name: z.string(),
              surname: z.string().nullable(),
            }),
          })
          .nullable(),
      }),
    ),
    Upload: z.array(ZAttachedUpload),
    SafetyReport: z.array(z.unknown()),
    Flight: zFlight,
    Base: zFlightBase.nullable(),
    Aircraft: zFlightAircraft.nullable(),
    FlightType: zFlightFlightType.nullable(),
  }),
  distance: z.number(),
  canConfirm: z.boolean(),
  canEdit: z.boolean(),
  canCreate: z.boolean(),
  canDelete: z.boolean(),
  changeNames: z.object({
    create: zChangeAction,
    edit: zChangeAction,
    confirm: zChangeAction,
    dispatch: zChangeAction,
    cancel: zChangeAction,
    revert: zChangeAction,
  }),
});

/** POST /flights/edit.json */
export const ZFlightsEdit = z.strictObject({
  result: z.boolean(),
  id: z.string(),
});

/** POST /flights/cancel.json */
export const ZFlightsCancel = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  status: z.string(),
});

/** POST /flights/confirm/:id.json: `warnings` when crew went past a duty limit (CONTRACT 7). */
export const ZFlightsConfirm = ZFlightsCancel.extend({ warnings: zDutyWarnings.optional() });

/** POST /flights/dispatch/:id.json */
export const ZFlightsDispatch = z.union([
  z.object({
    id: z.string(),
    result: z.literal(true),
    status: z.literal('DISPATCHED'),
    readiness: zReadinessLines.optional(),
  }),
  z.object({
    id: z.string(),
    result: z.literal(false),
    message: z.string(),
    code: z.string(),
    /** `message` as a message id and values (issue 33); absent for refusals that have none yet. */
    text: zRuleText.nullable().optional(),
    readiness: zReadinessLines.optional(),
  }),
]);

/** A flight's risk assessment. */
const zFrat = z.object({
  id: z.string(),
  flight_id: z.string(),
  user_id: z.string(),
  answers: z.record(z.string(), z.string()),
  score: z.number(),
  level: z.string(),
  mitigation: z.string().nullable(),
  completed: z.boolean(),
  created: z.number(),
  modified: z.number(),
});

/** GET /flights/frat/:id.json */
export const ZFlightsFrat = z.strictObject({
  frat: zFrat.nullable(),
  factors: z
    .array(
      z.object({
        key: z.string(),
        label: z.string(),
        options: z
          .array(
            z.object({
              key: z.string(),
              label: z.string(),
              points: z.number(),
            }),
          )
          .readonly(),
      }),
    )
    .readonly(),
  levels: z
    .array(
      z.object({
        level: z.enum(['LOW', 'MEDIUM', 'HIGH']),
        min: z.number(),
      }),
    )
    .readonly(),
});

/** POST /flights/frat/:id.json */
export const ZFlightsFratPost = z.strictObject({
  result: z.boolean(),
  frat: zFrat,
});

/** One row of GET /flights/load (presentFlightRow). */
export const ZFlightRow = z.object({
  Flight: zFlight,
  Base: zFlightBase.nullable(),
  Aircraft: zFlightAircraft.nullable(),
  FlightType: zFlightFlightType.nullable(),
  Pic: zCrewRow.nullable(),
  Sic: zCrewRow.nullable(),
});

/** GET /flights/load{/*named}.json: written as text (cached or streamed), so the presenter is checked here instead. */
export const ZFlightsLoad = z.strictObject({ flights: z.array(ZFlightRow), paginate: ZPaginate, time: z.string() });
export const flightRowChecked = (f: ReturnType<typeof presentFlightRow>): z.input<typeof ZFlightRow> => f;
