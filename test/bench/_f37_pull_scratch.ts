import { startTestServer } from '../setup/server.ts';
import { pullAll } from '../setup/sync.ts';
const s = await startTestServer('postgres', { env: { JOBS: 'off' } });
const token = await s.login('mechanic@skyline.test');
const { checkpoint } = await pullAll(s, token, 'fleet');
for (const conc of [7]) {
  const n = 1500;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next++ < n) {
        const r = await s.api('POST', '/sync/fleet/pull.json', { token, body: { checkpoint, limit: 200 } });
        if (r.status !== 200) throw new Error(String(r.status));
      }
    }),
  );
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(`concurrency ${conc}: ${n} pulls in ${wall.toFixed(0)} ms = ${((n / wall) * 1000).toFixed(0)}/s; node CPU (client+server) ${((c.user + c.system) / 1000 / n).toFixed(2)} ms per pull`);
}
await s.close();
process.exit(0);
