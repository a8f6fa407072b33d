/**
 * The prose of the API reference (`GET /docs`): the document's `info.description` and one
 * description per tag (a tag is a route's `area`), each with a runnable curl example.
 * Kept apart from `openapi.ts` so the schema generation and the prose change independently.
 * An area without an entry here still gets a tag with a generated example (see `tagsFor`).
 */
import type { RouteDef } from './define-route.ts';

const CURL_ENV = 'export OPS=http://127.0.0.1:3000/api/v1';

const API_DESCRIPTION = `The REST API of the operations platform, for billing and accounting systems,
regulators' portals, school websites and the platform's own clients. Every operation below is
generated from the server's route registry, so this reference and the server cannot disagree.
The long-form guide (keys, errors, rate limits, versioning, webhooks and their signatures) is
\`docs/integrations.md\` in the repository.

## Authentication

Every request below \`/api/v1\`, except those marked public, carries
\`Authorization: Bearer <token>\`. The token is one of:

- **A session token** from \`POST /login.json\` (\`{email, password}\` as JSON, or the form fields
  \`data[User][email]\`, \`data[User][password]\`). The answer is \`{result: true, token, expires, user}\`,
  or a two-factor challenge finished with \`POST /login/verify.json\`. \`POST /logout.json\` revokes it.
- **An API key** \`svc_…\`, created by a manager (roles up to 110) in an interactive session with
  \`POST /manager/api_keys/add.json\`; the plaintext is shown once. A key acts as the company user it
  is bound to, with that user's role, plan gates and company.

**What an API key may not do.** Operations marked *session only* (the \`x-access.sessionOnly\` flag and
the note in their description) answer **403** to an API key: they need a person signed in. Today:

@@SESSION_ONLY@@

An unknown, expired or revoked token or key is **401** \`{result: false, message}\`. A key never
exceeds its user's role: role, plan and permission gates apply as to that user.

\`\`\`sh
${CURL_ENV}
TOKEN=$(curl -s -X POST "$OPS/login.json" -H 'Content-Type: application/json' \\
  -d '{"email":"admin@skyline.test","password":"…"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')
curl -s "$OPS/users/view.json" -H "Authorization: Bearer $TOKEN"
# an integration uses a key instead of a session:
curl -s "$OPS/aircraft/index.json" -H "Authorization: Bearer svc_…"
\`\`\`

## Conventions

- **Paths end in \`.json\`.** Record ids are path segments (\`/aircraft/view/{id}.json\`).
- **Named parameters** are path segments \`name:value\` after the operation, in any order:
  \`/flights/load/status:LANDED/aircraft:{id}/page:2/limit:50.json\`. Operations that take them say so
  in their summary; other filters are ordinary query parameters (\`?page=2\`).
- **Paging.** Lists answer either a \`paginate\` object in the body
  (\`{page, current, count, prevPage, nextPage, pageCount, limit}\`) or the paging headers
  \`X-Total-Posts\`, \`X-Actual-Page\`, \`X-Paging-limit\`, \`X-Number-Pages\`, as each operation documents.
  Pages start at 1; ask for the next page while \`nextPage\` is true (or \`X-Actual-Page\` <
  \`X-Number-Pages\`).
- **Bodies** are JSON (\`Content-Type: application/json\`) or form-encoded where the operation lists
  \`application/x-www-form-urlencoded\`.
- **Times** are unix seconds, unless the field is a wall clock (\`HH:MM\`) or a date (\`YYYY-MM-DD\`).
- **Errors** are \`{result: false, message}\`; a 400 adds \`errors\` (or \`validation\`): field → messages,
  and nothing was written. 403 is a role, plan or permission gate; **another company's record is 404**,
  never 403; 429 carries \`Retry-After\`; a 500 carries \`request_id\` (also in the \`X-Request-Id\` header).
- **Languages.** \`message\` (errors and refusals) is for a person: in the language of
  \`Accept-Language\` when it names en, es, fr or de (q weights count), else the caller's own language (an
  API key's user), else English; \`Content-Language\` says which. \`code\`, \`text\` (a refusal's message
  id and values) and field names never change: match on \`code\`, send \`Accept-Language: en\` for stable English.
- **Versioning.** \`/api/v1\` only grows: fields and operations are added, never renamed or removed.
  Ignore unknown fields.
`;

/** The introduction, with the session-only operations listed from the registry (so the list cannot go stale). */
export function apiDescription(routes: RouteDef[]): string {
  const lines = routes
    .filter((r) => !r.access.public && r.access.sessionOnly)
    .map((r) => `- \`${(Array.isArray(r.method) ? r.method : [r.method]).join(', ')} ${r.path}\`: ${r.summary}`);
  return API_DESCRIPTION.replace('@@SESSION_ONLY@@', lines.length ? lines.join('\n') : '- (none)');
}

/** Hand-written description and example per area (tag). `$OPS` and `$TOKEN` as set up in the introduction. */
export const AREA_DOCS: Record<string, { name: string; text: string; example: string }> = {
  system: {
    name: 'System',
    text: 'Server version and the machine-readable document this page renders (`/openapi.json`, public).',
    example: 'curl -s "$OPS/home/version.json"',
  },
  accounts: {
    name: 'Sign-in and API keys',
    text: 'Sessions (sign-in, two-factor, sign-out, company switch) and the company API keys. Managing keys is session only.',
    example: `curl -s -X POST "$OPS/login.json" -H 'Content-Type: application/json' -d '{"email":"admin@skyline.test","password":"…"}'`,
  },
  profile: {
    name: 'Own profile',
    text: "The caller's own account: profile, e-mail, password, sessions.",
    example: 'curl -s "$OPS/users/view.json" -H "Authorization: Bearer $TOKEN"',
  },
  users: {
    name: 'Users',
    text: "The company's accounts, for managers. Totals in the paging headers when a page is asked for.",
    example: 'curl -s -D - "$OPS/manager/users/list.json?page=1&limit=50" -H "Authorization: Bearer $TOKEN"',
  },
  company: {
    name: 'Company',
    text: 'Company settings, operating hours and opening times.',
    example: 'curl -s "$OPS/companies/settings.json" -H "Authorization: Bearer $TOKEN"',
  },
  bases: {
    name: 'Bases',
    text: "The company's bases (home airports) and their crews.",
    example: 'curl -s "$OPS/bases/index.json" -H "Authorization: Bearer $TOKEN"',
  },
  aircraft: {
    name: 'Aircraft',
    text: 'The fleet: aircraft with their state, models and manufacturers.',
    example: 'curl -s "$OPS/aircraft/index.json" -H "Authorization: Bearer $TOKEN"',
  },
  'flight-types': {
    name: 'Flight types',
    text: 'Kinds of flight (school, solo, rental…) a booking or flight is made with.',
    example: 'curl -s "$OPS/flight_types/index.json" -H "Authorization: Bearer $TOKEN"',
  },
  flights: {
    name: 'Flights',
    text: 'Flights from draft to dispatched, confirmed or canceled. The list takes named parameters (`page`, `limit`, `from`, `to`, `aircraft`, `pilot`, `base`, `flight_type`, `status`).',
    example: 'curl -s "$OPS/flights/load/status:LANDED/page:1/limit:20.json" -H "Authorization: Bearer $TOKEN"',
  },
  pilots: {
    name: 'Pilots',
    text: 'Pilot directory and records; lists take named parameters and answer `paginate`.',
    example: 'curl -s "$OPS/pilots/list/page:1.json" -H "Authorization: Bearer $TOKEN"',
  },
  certificates: {
    name: 'Certificates',
    text: 'Licences, ratings and medicals of a pilot, with their validity.',
    example: 'curl -s "$OPS/pilots/certificates.json" -H "Authorization: Bearer $TOKEN"',
  },
  'pilot-groups': {
    name: 'Pilot groups',
    text: 'Groups of pilots (courses, clubs) for managers.',
    example: 'curl -s "$OPS/pilot_groups/manager_index.json" -H "Authorization: Bearer $TOKEN"',
  },
  airports: {
    name: 'Airports',
    text: 'Airport search and sunrise/sunset (public), night time along a route.',
    example: 'curl -s "$OPS/airports/search.json?q=LEC"',
  },
  'aircraft-reports': {
    name: 'Aircraft reports and MEL',
    text: 'Defect reports and MEL items on an aircraft (paid plans). Lists are POST with the filters in the body.',
    example: `curl -s -X POST "$OPS/maintenance/aircraft_reports/index.json" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{}'`,
  },
  'maintenance-jobs': {
    name: 'Maintenance jobs',
    text: 'Work orders on an aircraft, linked to the reports they close (paid plans).',
    example: 'curl -s "$OPS/maintenance/jobs/index.json" -H "Authorization: Bearer $TOKEN"',
  },
  'maintenance-plans': {
    name: 'Maintenance plans',
    text: 'Recurring inspections per aircraft with their due dates and hours (paid plans).',
    example: `curl -s -X POST "$OPS/maintenance/plans/index.json" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{}'`,
  },
  inventory: {
    name: 'Inventory',
    text: 'Parts and consumables in stock (paid plans).',
    example: 'curl -s "$OPS/maintenance/inventory/available.json" -H "Authorization: Bearer $TOKEN"',
  },
  news: {
    name: 'News',
    text: 'Company news (public reading) and read-and-sign notices.',
    example: 'curl -s "$OPS/news.json"',
  },
  notifications: {
    name: 'Notifications',
    text: "The caller's notifications, newest first, `?page=N`.",
    example: 'curl -s "$OPS/notifications.json?unread=1" -H "Authorization: Bearer $TOKEN"',
  },
  sync: {
    name: 'Offline sync',
    text: "Replication of the offline clients (RxDB pull/push and a live stream); integrations normally use the areas' own operations instead.",
    example: 'curl -s "$OPS/sync/collections.json" -H "Authorization: Bearer $TOKEN"',
  },
  webhooks: {
    name: 'Webhooks',
    text: 'Endpoints that receive signed events (HMAC-SHA256 over `<timestamp>.<body>`, header `X-Webhook-Signature: v1=…`), their delivery log and redelivery. Verification and delivery guarantees: `docs/integrations.md`.',
    example: `curl -s -X POST "$OPS/webhooks/add.json" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\\n  -d '{"url":"https://example.test/hook","events":["flight.canceled"]}'`,
  },
};

const block = (text: string, example: string) => `${text}\n\n\`\`\`sh\n${example}\n\`\`\``;

/** A curl line for an area nobody wrote an example for: its first GET, else its first operation. */
function generatedExample(routes: RouteDef[]): string {
  const methods = (r: RouteDef) => (Array.isArray(r.method) ? r.method : [r.method]) as string[];
  const r = routes.find((x) => methods(x).includes('GET')) ?? routes[0];
  const path = r.path.replace(/\{[^{}]*\}/g, '').replace(/:(\w+)/g, '{$1}');
  const auth = r.access.public ? '' : ' -H "Authorization: Bearer $TOKEN"';
  const m = methods(r)[0];
  return m === 'GET'
    ? `curl -s "$OPS${path}"${auth}`
    : `curl -s -X ${m} "$OPS${path}"${auth} -H 'Content-Type: application/json' -d '{}'`;
}

/** One OpenAPI tag per area present in the registry, in registry order, each with prose and a curl example. */
export function tagsFor(routes: RouteDef[]): { name: string; 'x-displayName': string; description: string }[] {
  const byArea = new Map<string, RouteDef[]>();
  for (const r of routes) byArea.set(r.area, [...(byArea.get(r.area) ?? []), r]);
  return [...byArea].map(([area, rs]) => {
    const doc = AREA_DOCS[area];
    const description = doc
      ? block(doc.text, doc.example)
      : block(`Operations of the ${area} area.`, generatedExample(rs));
    return { name: area, 'x-displayName': doc?.name ?? area, description };
  });
}

/** The note on a session-only operation, so the rule shows next to the operation itself. */
export const SESSION_ONLY_NOTE = '**Session only**: an API key (`svc_…`) is refused with 403.';
