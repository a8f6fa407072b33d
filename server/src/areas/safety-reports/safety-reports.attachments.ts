import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Actor } from '../../http/actor.ts';
import { registerUploadModel } from '../uploads/attachments.ts';
import { safetyVisible, viewerOf } from './safety-reports.access.ts';
import './safety-reports.tables.ts';

/**
 * Files attached to safety reports (issue 15 item 5; docs/areas/uploads.md):
 * uploads attach to a live report of the company, and whoever may see the
 * report (`safetyVisible`, the rule REST and sync share; drafts only their
 * author) sees its files.
 */
export const SAFETY_REPORT_MODEL = 'SafetyReport';

registerUploadModel(SAFETY_REPORT_MODEL, {
  async exists(db, companyId, id) {
    const row = await db.selectFrom('safety_reports').select('id').where('id', '=', id).where('company_id', '=', companyId).where('deleted', '=', 0).executeTakeFirst();
    return !!row;
  },
  async visibleTo(db: Kysely<DB>, actor: Actor, foreignKeys: readonly string[]) {
    if (foreignKeys.length === 0) return new Set<string>();
    const rows = await db
      .selectFrom('safety_reports')
      .select(['id', 'status', 'author_id', 'reviewer_id', 'crew_pic_id', 'crew_sic_id', 'crew_supervisor_id'])
      .where('company_id', '=', actor.companyId)
      .where('id', 'in', [...new Set(foreignKeys)])
      .execute();
    const viewer = viewerOf(actor);
    return new Set(rows.filter((r) => safetyVisible(r, viewer)).map((r) => r.id));
  },
});
