declare module '../../db/schema.ts' {
  interface DB {
    webhook_endpoints: {
      id: string;
      company_id: string;
      url: string;
      description: string | null;
      secret: string;
      /** JSON array of event types. */
      events: string;
      active: number;
      deleted: number;
      created_by: string | null;
      created: number;
      modified: number;
    };
    webhook_events: {
      id: string;
      company_id: string;
      type: string;
      model: string;
      record_id: string;
      payload: string;
      created: number;
    };
    webhook_deliveries: {
      id: string;
      company_id: string;
      endpoint_id: string;
      event_id: string;
      record_id: string;
      /** pending, delivered, failed */
      status: string;
      attempts: number;
      next_attempt: number;
      last_attempt: number | null;
      response_status: number | null;
      error: string | null;
      delivered: number | null;
      created: number;
    };
    /** An MEL/CDL item's expiry published (`mel.expired`), once per deadline: `extended` 0 before the extension, 1 after. */
    mel_expiry_marks: {
      mel_item_id: string;
      extended: number;
      company_id: string;
      aircraft_report_id: string;
      created: number;
    };
    /** The block state last published for an aircraft (`aircraft.blocked` / `aircraft.unblocked`); no row reads as not blocked. */
    aircraft_block_marks: { aircraft_id: string; company_id: string; blocked: number; modified: number };
  }
}
export {};
