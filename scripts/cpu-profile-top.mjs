/**
 * Top self-time functions of a V8 CPU profile (`node --cpu-prof`, e.g.
 * `bench:fanout -- --cpu-prof DIR`), self and inclusive, optionally over its last seconds only
 * (the write burst of a bench comes last, after the connect herd).
 *
 *   node scripts/cpu-profile-top.mjs FILE.cpuprofile [--last 12] [--top 30]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { last: { type: 'string' }, top: { type: 'string', default: '30' } },
});
const profile = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
// Sample i was taken at startTime + sum of timeDeltas[0..i] (µs).
const times = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) {
  t += d;
  times.push(t);
}
const from = values.last ? profile.endTime - Number(values.last) * 1e6 : profile.startTime;
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${f.lineNumber + 1}`;
const self = new Map();
/** Inclusive time: the sample counted once for every distinct function on its stack. */
const inclusive = new Map();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (times[i] < from) continue;
  // The sample's weight: the time until the next one.
  const w = (times[i + 1] ?? profile.endTime) - times[i];
  const n = nodes.get(profile.samples[i]);
  const key = keyOf(n.callFrame);
  self.set(key, (self.get(key) ?? 0) + w);
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) seen.add(keyOf(nodes.get(id).callFrame));
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + w);
  total += w;
}
const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
console.log(
  `${positionals[0]}: ${(total / 1e6).toFixed(2)} s sampled${values.last ? ` (last ${values.last} s)` : ''}, busy ${((total - idle) / 1e6).toFixed(2)} s`,
);
const top = (m) => {
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`${(v / 1000).toFixed(1).padStart(9)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
};
console.log('self time:');
top(self);
console.log('inclusive time (self and callees):');
top(inclusive);
