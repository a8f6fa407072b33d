/** Lists write routes (POST/PUT/DELETE) whose request body is not documented: no `body`, `bodyDoc` or `noBody`. */
import { allRoutes } from '../server/src/areas/index.ts';
import { methodsOf } from '../server/src/http/router.ts';

const writes = allRoutes().filter((r) => methodsOf(r).some((m) => m !== 'GET'));
const missing = writes.filter(
  (r) => !r.body && !(r as { bodyDoc?: unknown }).bodyDoc && !(r as { noBody?: unknown }).noBody,
);
for (const r of missing) console.log(`${methodsOf(r).join(',')}\t${r.area}\t${r.path}`);
console.log(`${missing.length} of ${writes.length} write routes document no request body`);
