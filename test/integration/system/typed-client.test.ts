/**
 * The webhooks area through the typed client (openapi-fetch + the generated `test/api/schema.d.ts`):
 * paths, path parameters and request bodies are checked by `tsc` against the OpenAPI document, so a
 * renamed route or a changed body is a type error here, not a runtime surprise. The `@ts-expect-error`
 * lines prove the checking bites (tsc fails if they stop being errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, answer, apiClient } from '../../api/client.ts';
import { DIALECTS } from '../../setup/dialects.ts';
import { startTestServer, type TestServer } from '../../setup/server.ts';

describe.each(DIALECTS)('typed client against webhooks on %s', (dialect) => {
  let s: TestServer;
  let admin: ApiClient;
  let harbor: ApiClient;

  beforeAll(async () => {
    s = await startTestServer(dialect, { env: { JOBS: 'off' } });
    admin = apiClient(s.url, await s.login('admin@skyline.test'));
    harbor = apiClient(s.url, await s.login('admin@harbor.test'));
  });
  afterAll(() => s?.close());

  it('creates, reads and edits an endpoint with typed paths and bodies', async () => {
    const events = await admin.GET('/webhooks/events.json');
    expect(events.response.status).toBe(200);
    expect(answer(events).events).toContain('flight.canceled');

    const add = await admin.POST('/webhooks/add.json', {
      body: { url: 'http://127.0.0.1:9/typed', events: ['flight.canceled', 'mel.raised'], description: 'Typed client' },
    });
    expect(add.response.status).toBe(200);
    const created = answer(add);
    expect(created.secret).toMatch(/^whsec_/);
    const id: string = created.id;

    const view = await admin.GET('/webhooks/view/{id}.json', { params: { path: { id } } });
    expect(answer(view).endpoint).toMatchObject({
      id,
      url: 'http://127.0.0.1:9/typed',
      events: ['flight.canceled', 'mel.raised'],
      active: true,
    });

    const edit = await admin.POST('/webhooks/edit/{id}.json', { params: { path: { id } }, body: { active: false } });
    expect(edit.response.status).toBe(200);
    expect(answer(edit).endpoint.active).toBe(false);

    // Another company: the same typed call is a 404 and changes nothing.
    const foreign = await harbor.POST('/webhooks/edit/{id}.json', { params: { path: { id } }, body: { active: true } });
    expect(foreign.response.status).toBe(404);
    expect(answer(await admin.GET('/webhooks/view/{id}.json', { params: { path: { id } } })).endpoint.active).toBe(
      false,
    );

    const del = await admin.POST('/webhooks/delete/{id}.json', { params: { path: { id } } });
    expect(del.response.status).toBe(200);
  });

  it('the types refuse what the document does not declare; the server refuses it too', async () => {
    // An event type outside the declared enum does not compile; forced through, the server answers 400.
    const bad = await admin.POST('/webhooks/add.json', {
      // @ts-expect-error 'flight.exploded' is not an event type of the document
      body: { url: 'http://127.0.0.1:9/x', events: ['flight.exploded'] },
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ result: false });
    // Typed as the documented 400 (field errors) or the error envelope.
    expect(bad.error && 'errors' in bad.error ? bad.error.errors : null).toBeTypeOf('object');

    // A path the document does not have does not compile; forced through, it is a 404.
    // @ts-expect-error no such operation in the document
    const none = await admin.GET('/webhooks/list.json');
    expect(none.response.status).toBe(404);

    // A missing path parameter does not compile either.
    // @ts-expect-error `id` is required by /webhooks/view/{id}.json
    const noId = admin.GET('/webhooks/view/{id}.json', { params: { path: {} } });
    await noId.catch(() => undefined);
  });
});
