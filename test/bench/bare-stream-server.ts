/**
 * The floor of what an idle live stream costs a Node process (issue 34): a bare
 * `node:http` server, no Express, no database, that answers every request as
 * `GET /sync/stream.json` does on the wire (the same head, the `resync` frame,
 * then a ping every 25 s through `writeFrame`) and holds the response. Started
 * by `bench:stream-memory -- --floor`; prints `listening <url>` once it listens.
 * `GET /metrics` answers the V8 heap as the server's `/metrics` names it, and
 * SIGUSR2 collects when started with `--expose-gc` (as server/src/main.ts), so
 * both are measured the same way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pingFrame, resyncFrame, writeFrame } from '../../server/src/sync/sse-frame.ts';

const streams = new Set<http.ServerResponse>();
const server = http.createServer((req, res) => {
  if (req.url === '/metrics') {
    res.setHeader('Content-Type', 'text/plain');
    const m = process.memoryUsage();
    res.end(
      `nodejs_heap_size_used_bytes ${m.heapUsed}\nnodejs_heap_size_total_bytes ${m.heapTotal}\nsync_streams_open ${streams.size}\n`,
    );
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  streams.add(res);
  writeFrame(res, resyncFrame());
  res.once('close', () => streams.delete(res));
});
// One timer for every stream, as the fan-out's.
setInterval(() => {
  for (const res of streams) writeFrame(res, pingFrame());
}, 25_000).unref();
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) process.on('SIGUSR2', () => gc());
process.on('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
