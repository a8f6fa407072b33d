import { z } from 'zod';
import { ZAttachedUpload } from '../uploads/uploads.responses.ts';
import { ZPaginate } from '../../http/responses.ts';

/**
 * Response schemas of the safety-reports routes: the 200 bodies as the handlers return them (each route's
 * `response`). The handler's return type is checked against these at compile time and every answer
 * of the integration suite against the document they produce (the contract test).
 */

/** One safety report row as presented (the involved users and aircraft as id lists). */
const zSafetyReport = z.object({
  deleted: z.boolean(),
  involved_users: z.array(z.string()),
  aircraft_ids: z.array(z.string()),
  idn: z.string().nullable(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
  severity: z.string(),
  datetime: z.string(),
  location: z.string(),
  events: z.string().nullable(),
  actions: z.string().nullable(),
  result: z.string().nullable(),
  corrective_measures: z.string().nullable(),
  met_conditions: z.string().nullable(),
  immediate_consequences: z.string().nullable(),
  flight_phase: z.string().nullable(),
  safety_report_category_id: z.string().nullable(),
  safety_report_department_id: z.string().nullable(),
  flight_id: z.string().nullable(),
  flight_type_id: z.string().nullable(),
  parent_id: z.string().nullable(),
  user_id: z.string().nullable(),
  reviewer_id: z.string().nullable(),
  reviewer_outcome: z.string().nullable(),
  damages: z.string().nullable(),
  personal_damages: z.string().nullable(),
  air_space: z.string().nullable(),
  risk_probability: z.string().nullable(),
  risk_severity: z.string().nullable(),
  mitigated_risk_probability: z.string().nullable(),
  mitigated_risk_severity: z.string().nullable(),
  reported: z.number().nullable(),
  id: z.string(),
  company_id: z.string(),
  created: z.number(),
  modified: z.number(),
});

/** The option lists of the report form; the stats answer them too. */
const safetyReportOptions = {
  status: z
    .array(
      z.union([
        z.object({
          key: z.literal('draft'),
          label: z.literal('Draft'),
          color: z.literal('#64748b'),
        }),
        z.object({
          key: z.literal('open'),
          label: z.literal('Open'),
          color: z.literal('#ff9900'),
        }),
        z.object({
          key: z.literal('reviewed'),
          label: z.literal('Reviewed'),
          color: z.literal('#ffcc00'),
        }),
        z.object({
          key: z.literal('closed'),
          label: z.literal('Closed'),
          color: z.literal('#999999'),
        }),
        z.object({
          key: z.literal('published'),
          label: z.literal('Published'),
          color: z.literal('#34eb77'),
        }),
      ]),
    )
    .readonly(),
  severity: z
    .array(
      z.union([
        z.object({
          key: z.literal('incident'),
          label: z.literal('Incident'),
          color: z.literal('#fcd319'),
          type: z.literal('OCCURRENCE'),
        }),
        z.object({
          key: z.literal('accident'),
          label: z.literal('Accident'),
          color: z.literal('#ff260a'),
          type: z.literal('OCCURRENCE'),
        }),
        z.object({
          key: z.literal('information'),
          label: z.literal('Information'),
          color: z.literal('#1f6ac4'),
          type: z.literal('INFORMATION'),
        }),
        z.object({
          key: z.literal('hazard'),
          label: z.literal('Hazard'),
          color: z.literal('#fc19c3'),
          type: z.literal('INFORMATION'),
        }),
      ]),
    )
    .readonly(),
  type: z.array(z.enum(['OCCURRENCE', 'INFORMATION'])).readonly(),
  flight_phase: z.array(
    z.object({
      key: z.string(),
      label: z.enum([
        'Approach',
        'Emergency Descent',
        'En Route',
        'Initial Climb',
        'Landing',
        'Maneuvering',
        'Post-Impact',
        'Pushback/Towing',
        'Standing',
        'Takeoff',
        'Taxi',
        'Uncontrolled Descent',
        'Unknown',
      ]),
    }),
  ),
  damages: z.array(
    z.object({
      key: z.string(),
      label: z.enum(['None', 'Minimal', 'Important', 'Catastrophic (aircraft destroyed)']),
    }),
  ),
  personal_damages: z.array(
    z.object({
      key: z.string(),
      label: z.enum(['No injuries', 'Light injuries, no hospitalization', 'Serious injuries', 'Loss of life']),
    }),
  ),
  air_space: z.array(
    z.object({
      key: z.string(),
      label: z.enum(['Controlled', 'Uncontrolled']),
    }),
  ),
  risk_probability: z.array(
    z.union([
      z.object({
        value: z.literal(5),
        label: z.literal('Frequent'),
        key: z.string(),
      }),
      z.object({
        value: z.literal(4),
        label: z.literal('Occasional'),
        key: z.string(),
      }),
      z.object({
        value: z.literal(3),
        label: z.literal('Remote'),
        key: z.string(),
      }),
      z.object({
        value: z.literal(2),
        label: z.literal('Improbable'),
        key: z.string(),
      }),
      z.object({
        value: z.literal(1),
        label: z.literal('Extremely Improbable'),
        key: z.string(),
      }),
    ]),
  ),
  risk_severity: z.array(
    z.union([
      z.object({
        letter: z.literal('A'),
        label: z.literal('Catastrophic'),
        key: z.string(),
      }),
      z.object({
        letter: z.literal('B'),
        label: z.literal('Hazardous'),
        key: z.string(),
      }),
      z.object({
        letter: z.literal('C'),
        label: z.literal('Major'),
        key: z.string(),
      }),
      z.object({
        letter: z.literal('D'),
        label: z.literal('Minor'),
        key: z.string(),
      }),
      z.object({
        letter: z.literal('E'),
        label: z.literal('Negligible'),
        key: z.string(),
      }),
    ]),
  ),
};

/** A person a report names (reporter, reviewer). */
const zPerson = z.object({
  id: z.string(),
  name: z.string(),
  surname: z.string(),
});

/** GET /safety_reports/${file}{/*named}.json */
export const ZSafetyReports$ = z.strictObject({
  result: z.boolean(),
  year: z.number().nullable(),
  data: z.array(
    z.object({
      key: z.string().nullable(),
      label: z.string().nullable(),
      count: z.number(),
    }),
  ),
  total: z.number(),
});

/** GET /safety_reports/index{/*named}.json */
export const ZSafetyReportsIndex = z.strictObject({
  result: z.boolean(),
  reports: z.array(
    z.object({
      SafetyReport: zSafetyReport,
      SafetyReportCategory: z
        .object({
          id: z.string(),
          name: z.string().nullable(),
        })
        .nullable(),
      SafetyReportDepartment: z
        .object({
          id: z.string(),
          name: z.string().nullable(),
        })
        .nullable(),
      User: z
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

/** GET /safety_reports/view/:id.json */
export const ZSafetyReportsView = z.strictObject({
  result: z.boolean(),
  report: z.object({
    SafetyReport: zSafetyReport,
    Flight: z
      .object({
        registration: z.string().nullable(),
        id: z.string(),
        date: z.string(),
        supervisor_id: z.string().nullable(),
        aircraft_id: z.string().nullable(),
        status: z.string(),
        pic_id: z.string().nullable(),
        sic_id: z.string().nullable(),
        departure_airport: z.string().nullable(),
        landing_airport: z.string().nullable(),
      })
      .nullable(),
    Aircraft: z.union([
      z.array(z.never()),
      z.array(
        z.object({
          id: z.string(),
          registration: z.string(),
        }),
      ),
    ]),
    User: zPerson.nullable(),
    Reviewer: zPerson.nullable(),
    SafetyReportCategory: z
      .object({
        id: z.string(),
        name: z.string(),
      })
      .nullable(),
    SafetyReportDepartment: z
      .object({
        id: z.string(),
        name: z.string(),
      })
      .nullable(),
    Parent: z
      .object({
        id: z.string(),
        name: z.string(),
        idn: z.string().nullable(),
      })
      .nullable(),
    Children: z.array(zSafetyReport),
    Upload: z.array(ZAttachedUpload),
    Risk: z.object({
      before: z
        .object({
          index: z.string(),
          tolerability: z.enum(['intolerable', 'tolerable', 'acceptable']),
        })
        .nullable(),
      after: z
        .object({
          index: z.string(),
          tolerability: z.enum(['intolerable', 'tolerable', 'acceptable']),
        })
        .nullable(),
    }),
    SafetyReportChange: z
      .array(
        z.object({
          id: z.string(),
          action: z.string(),
          user: z
            .object({
              id: z.string(),
              name: z.string().nullable(),
            })
            .nullable(),
          comments: z.string().nullable(),
          fields: z.array(
            z.object({
              field: z.string(),
              label: z.string(),
              kind: z.enum(['set', 'text']).optional(),
              from: z.unknown(),
              to: z.unknown(),
              from_label: z.string().nullable().optional(),
              to_label: z.string().nullable().optional(),
            }),
          ),
          created: z.number(),
        }),
      )
      .optional(),
  }),
  allowEdit: z.boolean(),
});

/** POST path */
export const ZPath = z.strictObject({
  result: z.boolean(),
  id: z.string(),
  idn: z.string().nullable(),
  status: z.string(),
  message: z.string(),
});

/** GET /safety_reports/delete/:id.json */
export const ZSafetyReportsDelete = z.strictObject({
  result: z.boolean(),
  deleted: z.number(),
  message: z.string(),
});

/** GET /safety_reports/stats.json */
export const ZSafetyReportsStats = z.strictObject({
  result: z.boolean(),
  ...safetyReportOptions,
});

/** GET /safety_reports/reports_by_month{/:months}.json */
export const ZSafetyReportsReportsByMonth = z.strictObject({
  result: z.boolean(),
  months: z.number(),
  data: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
});

/** GET /safety_reports/form_options.json */
export const ZSafetyReportsFormOptions = z.strictObject({
  ...safetyReportOptions,
  result: z.boolean(),
  departments: z.array(
    z.object({
      SafetyReportDepartment: z.object({
        id: z.string(),
        name: z.string(),
      }),
      SafetyReportCategory: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
        }),
      ),
    }),
  ),
  riskMatrix: z.object({
    cells: z.record(z.string(), z.enum(['intolerable', 'tolerable', 'acceptable'])),
  }),
});
