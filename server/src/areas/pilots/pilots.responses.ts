import { z } from 'zod';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the pilots routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** GET /pilots/list{/*named}.json */
export const ZPilotsList = z.strictObject({
  pilots: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      surname: z.string(),
      user_group_id: z.number().nullable(),
      active: z.boolean(),
      pilot: z.boolean(),
    }),
  ),
});

/** GET /pilots/index{/*named}.json */
export const ZPilotsIndex = z.strictObject({
  pilots: z.array(z.record(z.string(), z.unknown())),
  paginate: ZPaginate,
});

/** POST /pilots/create.json */
export const ZPilotsCreate = z.strictObject({
  id: z.string(),
  result: z.boolean(),
  validation: z.object({}),
});

/** POST /pilots/edit.json */
export const ZPilotsEdit = z.strictObject({
  id: z.string(),
  result: z.boolean(),
  errors: z.array(z.string()),
});

/** GET /pilots/view{/:id}.json */
export const ZPilotsView = z.strictObject({
  user: z.record(z.string(), z.unknown()),
});

/** GET /pilots/changes/:userId.json */
export const ZPilotsChanges = z.strictObject({
  changes: z.array(
    z.object({
      UserChange: z.object({
        id: z.string(),
        user_id: z.string(),
        action: z.string(),
        fields: z.array(
          z.object({
            field: z.string(),
            from: z.unknown(),
            to: z.unknown(),
          }),
        ),
        created: z.number(),
      }),
      ChangedBy: z
        .object({
          id: z.string(),
          name: z.string().nullable(),
          surname: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
  paginate: ZPaginate,
});

/** GET /pilots/certificate_types.json */
export const ZPilotsCertificateTypes = z.strictObject({
  certificate_types: z
    .array(
      z.object({
        key: z.string(),
        name: z.string(),
        kind: z.enum(['licence', 'rating', 'medical']),
        authority: z.enum(['EASA', 'FAA']),
      }),
    )
    .readonly(),
});

/** GET /pilots/totals{/:userId}.json */
export const ZPilotsTotals = z.strictObject({
  user: z.object({
    id: z.union([z.string(), z.number()]),
    previous_time: z.number(),
    other_companies: z.number(),
  }),
  average: z.number(),
  total_time: z.number(),
  flight_time: z.number(),
  flight_types: z.record(z.string(), z.number()),
  functions: z.object({
    FI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    PIC: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    SIC: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    DUAL: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    PICUS: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    CRI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    IRI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    FIFI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    SFI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    TRI: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    EXA: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    SUPERVISOR: z.object({
      icon: z.string(),
      time: z.number(),
    }),
  }),
  rules: z.object({
    VFR: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    IFR: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    SIM: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    'Cross Country': z.object({
      icon: z.string(),
      time: z.number(),
    }),
    Night: z.object({
      icon: z.string(),
      time: z.number(),
    }),
    'Multi Engine': z.object({
      icon: z.string(),
      time: z.number(),
    }),
  }),
});

/** GET /pilots/get_currency{/:userId}{/:d1}{/:d2}{/:d3}.json */
export const ZPilotsGetCurrency = z.strictObject({
  windows: z.object({
    landings: z.object({
      days: z.number(),
      count: z.number(),
      required: z.number(),
      current: z.boolean(),
    }),
    night_landings: z.object({
      days: z.number(),
      count: z.number(),
      required: z.number(),
      current: z.boolean(),
    }),
    hours: z.object({
      days: z.number(),
      seconds: z.number(),
      required_seconds: z.number(),
      current: z.boolean(),
    }),
  }),
  current: z.boolean(),
  user_id: z.string(),
  now: z.number(),
  d1: z.number(),
  d2: z.number(),
  d3: z.number(),
  requirements: z.object({
    landings: z.number(),
    night_landings: z.number(),
    hours: z.number(),
  }),
});

/** GET /pilots/currency_requirements.json */
export const ZPilotsCurrencyRequirements = z.strictObject({
  requirements: z.object({
    landings: z.number(),
    night_landings: z.number(),
    hours: z.number(),
  }),
});

/** POST /pilots/currency_requirements.json */
export const ZPilotsCurrencyRequirementsPost = z.strictObject({
  result: z.boolean(),
  requirements: z.object({
    landings: z.number(),
    night_landings: z.number(),
    hours: z.number(),
  }),
});
