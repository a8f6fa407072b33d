/**
 * `npm run bench:fanout-write` (issue 34): what writing one change event to N
 * open streams costs the server, the fan-out's last step alone, without a
 * database or a cluster (seconds, not minutes). One process: a plain Node HTTP
 * server holding N streaming responses (chunked, as `GET /sync/stream.json`)
 * and N raw client sockets reading them. Each round builds one change event
 * (a page of documents, as the fan-out does once per viewer) and writes it to
 * every stream, alternately:
 *
 * - `res.write`: the text written with `res.write` per stream (before f40/f41);
 * - `frame`: one `SseFrame` (sse-frame.ts) encoded once and written with
 *   `writeFrame` (one socket write per stream when nothing is queued);
 * - `socket`: the floor, the same pre-encoded chunk written with
 *   `res.socket.write` and no checks (one socket write per stream, Node's
 *   stream machinery and the kernel's send and nothing else).
 *
 * Printed: µs per delivery (median and p90 over rounds: the write loop and
 * the sends `res.write` leaves to the next tick), the share of `frame` writes
 * that went straight to the socket, and whether the bytes each client received
 * are identical for the two ways (chunk framing included; the head's Date line
 * aside). Exits 1 if not.
 *
 *   npm run bench:fanout-write -- [--streams 1000] [--rounds 200] [--documents 3]
 */
import http from 'node:http';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { sseEvent, writeFrame } from '../../server/src/sync/sse-frame.ts';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '200' },
    documents: { type: 'string', default: '3' },
  },
});
const STREAMS = Math.min(20_000, Math.max(1, Number(values.streams)));
const ROUNDS = Math.min(10_000, Math.max(2, Number(values.rounds)));
const DOCUMENTS = Math.min(500, Math.max(1, Number(values.documents)));
type Mode = 'res.write' | 'frame' | 'socket';

/** A change event like the fan-out's: a page of flight documents with a checkpoint. */
const event = (round: number) =>
  sseEvent('change', {
    collection: 'flights',
    documents: Array.from({ length: DOCUMENTS }, (_, i) => ({
      id: `0193a5f0-0000-7000-8000-${String(round * DOCUMENTS + i).padStart(12, '0')}`,
      aircraftId: '0193a5f0-1111-7000-8000-000000000001',
      pilotId: '0193a5f0-2222-7000-8000-000000000002',
      startsAt: '2026-11-26T09:00:00.000Z',
      endsAt: '2026-11-26T10:30:00.000Z',
      remarks: `round ${round}: crosswind ’ circuits`,
      status: 'planned',
      _deleted: false,
    })),
    checkpoint: { seq: round, id: '0193a5f0-0000-7000-8000-000000000000', fp: 'u:dispatch' },
  });

async function streams(mode: Mode) {
  const responses: http.ServerResponse[] = [];
  let opened: () => void = () => {};
  const allOpen = new Promise<void>((r) => {
    opened = r;
  });
  const server = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.flushHeaders();
    responses.push(res);
    if (responses.length === STREAMS) opened();
  });
  // A backlog for thousands of connects in a burst (the default 511 resets some of them).
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, r));
  const { port } = server.address() as net.AddressInfo;
  let received = 0;
  const first: Buffer[] = [];
  const clients: net.Socket[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const c = net.connect(port, '127.0.0.1');
    c.on('data', (b: Buffer) => {
      received += b.length;
      if (i === 0) first.push(b);
    });
    c.write(`GET /${mode} HTTP/1.1\r\nHost: x\r\n\r\n`);
    clients.push(c);
    // A few at a time: the listen backlog.
    if (i % 200 === 199) await new Promise((r) => setTimeout(r, 20));
  }
  await allOpen;
  return {
    responses,
    received: () => received,
    firstBytes: () => Buffer.concat(first),
    async close() {
      for (const c of clients) c.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

type Streams = Awaited<ReturnType<typeof streams>>;
/** `frame` writes that went straight to the socket. */
let direct = 0;

/**
 * One round: the event built once, written to every stream; its duration in µs, up to a tick queued after the
 * loop: `res.write` corks the socket and sends on the next tick (its uncork queued during the loop runs first).
 */
function round(mode: Mode, s: Streams, n: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const frame = event(n);
  if (mode === 'res.write') for (const res of s.responses) res.write(frame.text);
  else if (mode === 'socket') for (const res of s.responses) res.socket?.write(frame.chunk);
  else for (const res of s.responses) if (writeFrame(res, frame)) direct++;
  return new Promise((resolve) => process.nextTick(() => resolve(Number(process.hrtime.bigint() - t0) / 1000)));
}

/** Until every client has what was written (so the next round starts with nothing queued, as an idle stream). */
async function drained(s: Streams, expected: number): Promise<void> {
  for (let i = 0; s.received() < expected; i++) {
    if (i > 10_000) throw new Error(`clients received ${s.received()} of ${expected} bytes`);
    await new Promise((r) => setImmediate(r));
  }
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

const modes: Mode[] = ['res.write', 'frame', 'socket'];
const all = {
  'res.write': await streams('res.write'),
  frame: await streams('frame'),
  socket: await streams('socket'),
};
const times: Record<Mode, number[]> = { 'res.write': [], frame: [], socket: [] };
// What each client has before the first round: the response head.
await new Promise((r) => setTimeout(r, 200));
const expected = {
  'res.write': all['res.write'].received(),
  frame: all.frame.received(),
  socket: all.socket.received(),
};
for (let n = 0; n < ROUNDS; n++)
  for (const mode of n % 2 ? [...modes].reverse() : modes) {
    const s = all[mode];
    times[mode].push((await round(mode, s, n)) / STREAMS);
    expected[mode] += event(n).chunk.length * STREAMS;
    await drained(s, expected[mode]);
  }

const noDate = (b: Buffer) => b.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
const same =
  noDate(all['res.write'].firstBytes()) === noDate(all.frame.firstBytes()) &&
  noDate(all.frame.firstBytes()) === noDate(all.socket.firstBytes());
console.log(
  `bench:fanout-write: ${STREAMS} streams, ${ROUNDS} rounds, ${DOCUMENTS} documents per event (${event(0).chunk.length} bytes on the wire)`,
);
for (const mode of modes)
  console.log(
    `  ${mode.padEnd(9)}  ${percentile(times[mode], 50).toFixed(2)} µs per delivery (p90 ${percentile(times[mode], 90).toFixed(2)})`,
  );
console.log(`  frame writes straight to the socket: ${direct} of ${STREAMS * ROUNDS}`);
console.log(`  bytes on the wire identical: ${same ? 'yes' : 'NO'}`);
await Promise.all(modes.map((m) => all[m].close()));
process.exit(same ? 0 : 1);
