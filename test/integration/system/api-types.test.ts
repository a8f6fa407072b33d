/**
 * Drift check of the typed client: the checked-in `test/api/schema.d.ts` must be exactly what the
 * current OpenAPI document generates (`npm run api:types -- --check` does the same from the shell).
 * A route, parameter or schema change without `npm run api:types` fails here, and the typed calls in
 * typed-client.test.ts then fail `tsc` where the change breaks them.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema, currentDocument, generateSchema } from '../../api/generate.ts';

describe('generated API types', () => {
  it('test/api/schema.d.ts matches the current OpenAPI document', async () => {
    expect(await checkSchema()).toBeNull();
  }, 60_000);

  it('a change of the document changes the generated types (the check can fail)', async () => {
    const doc = currentDocument() as { paths: Record<string, unknown> };
    doc.paths['/webhooks/renamed.json'] = doc.paths['/webhooks/add.json'];
    delete doc.paths['/webhooks/add.json'];
    const changed = await generateSchema(doc);
    expect(changed).toContain('"/webhooks/renamed.json"');
    expect(changed).not.toContain('"/webhooks/add.json"');
  }, 60_000);
});
