import { type ReferenceDoc, referenceCollection } from '@ops/shared';
import { DEFAULT_READINESS_SETTINGS } from '@ops/shared/rules/readiness/settings';
import { defineCollection, type SourceRow, type SyncSource } from '../../sync/registry.ts';
import { membersOf, settingsRow } from './readiness.repository.ts';

/** The one `readiness` reference document of a company. */
export const readinessDocId = (companyId: string) => `${companyId}:readiness`;

/**
 * The company's readiness policy as a read-only `readiness` reference
 * document, so a device decides offline with it even if it never opened a
 * panel online. `data.settings` is the policy (the defaults, every check
 * ignored, before a manager chose: change number 0, so a first pull carries
 * it); `data.pilot_groups` the members of each group that has its own weather
 * minimums (ids only), which the device needs to pick a student's minimums.
 */
const readinessSource: SyncSource<ReferenceDoc> = {
  tables: ['readiness_settings'],
  async read(db, companyId, after) {
    const id = readinessDocId(companyId);
    const row = await settingsRow(db, companyId);
    const seq = row?.change_no ?? 0;
    if (!(seq > after.seq || (seq === after.seq && id > after.id))) return [];
    const settings = row?.settings ?? DEFAULT_READINESS_SETTINGS;
    const pilot_groups = await membersOf(db, companyId, Object.keys(settings.weather.pilot_groups));
    const out: SourceRow<ReferenceDoc> = {
      seq,
      id,
      deleted: false,
      scope: {},
      doc: {
        id,
        type: 'readiness',
        name: 'Readiness policy',
        data: { settings, pilot_groups },
        updated: row?.modified ?? 0,
      },
    };
    return [out];
  },
  // Always one document (the defaults before a manager chose), part of a load when written by its snap.
  async count(db, companyId, upTo) {
    const row = await settingsRow(db, companyId);
    return (row?.change_no ?? 0) <= upTo ? 1 : 0;
  },
};

export const readinessReference = defineCollection<ReferenceDoc>({
  def: referenceCollection,
  sources: [readinessSource],
});
