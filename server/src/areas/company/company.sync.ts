import { type ReferenceDoc, referenceCollection } from '@ops/shared';
import { defineCollection } from '../../sync/registry.ts';
import { tableSource } from '../../sync/table-source.ts';
import { presentCompanySettings } from './company.presenter.ts';
import { companyReferenceSources } from './reference.sync.ts';

/**
 * The company's own `reference` documents: its settings (`company`), and the
 * documents assembled from several rows (permissions, operating hours). Other
 * areas register their reference sources the same way (bases, flight types, airports).
 */
export const companyReference = defineCollection<ReferenceDoc>({
  def: referenceCollection,
  sources: [
    tableSource({
      tables: ['companies'],
      alias: 'c',
      rows: { kind: 'company' },
      query: (db, companyId) => db.selectFrom('companies as c').selectAll('c').where('c.id', '=', companyId),
      toDoc: (c): ReferenceDoc => ({
        id: c.id,
        type: 'company',
        name: c.name,
        data: presentCompanySettings(c),
        updated: c.modified,
      }),
    }),
    ...companyReferenceSources,
  ],
});
