import { type ReferenceDoc, referenceCollection } from '@ops/shared';
import { presentCompanySettings } from '../../areas/company/company.presenter.ts';
import type { ServerCollection, SyncSource } from '../registry.ts';
import { tableSource } from '../table-source.ts';
import { flightReferenceSources } from './flights.ts';
import { companyReferenceSources } from '../../areas/company/company.reference.ts';

const companySource = tableSource({
  tables: ['companies'],
  alias: 'c',
  rows: { kind: 'company' },
  query: (db, companyId) => db.selectFrom('companies as c').selectAll('c').where('c.id', '=', companyId),
  toDoc: (c): ReferenceDoc => ({ id: c.id, type: 'company', name: c.name, data: presentCompanySettings(c), updated: c.modified }),
});

const baseSource = tableSource({
  tables: ['bases'],
  alias: 'b',
  rows: { kind: 'company' },
  query: (db, companyId) => db.selectFrom('bases as b').selectAll('b').where('b.company_id', '=', companyId),
  toDoc: (b): ReferenceDoc => ({
    id: b.id,
    type: 'base',
    name: b.name,
    data: { Base: { id: b.id, name: b.name, default: !!b.is_default, airport_id: b.airport_id, company_id: b.company_id } },
    updated: b.modified,
  }),
});

/** Other areas add their reference sources here (flight types, operating hours...). */
export const referenceSources: SyncSource<ReferenceDoc>[] = [companySource, baseSource, ...flightReferenceSources, ...companyReferenceSources];

export const referenceServerCollection: ServerCollection<ReferenceDoc> = {
  def: referenceCollection,
  sources: referenceSources,
};
