import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * A real HTTP receiver. `fail(n)` answers the next n requests with 500;
 * `failRate(p, seed)` answers each request with 500 with probability p (a
 * seeded generator, so a run is repeatable). `got` holds the accepted ones.
 */
export async function receiver() {
  const got: Received[] = [];
  let failNext = 0;
  let rate = 0;
  let state = 1;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const stats = { requests: 0, refused: 0 };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      stats.requests++;
      if (failNext > 0 || (rate > 0 && random() < rate)) {
        if (failNext > 0) failNext--;
        stats.refused++;
        res.writeHead(500).end('down');
        return;
      }
      got.push({ path: req.url ?? '', body, headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    got,
    stats,
    fail(n: number) {
      failNext = n;
    },
    failRate(p: number, seed = 1) {
      rate = p;
      state = seed;
    },
    /** Accepted events as parsed payloads. */
    events(): Array<{ id: string; type: string; model: string; company_id: string; data: any }> {
      return got.map((g) => JSON.parse(g.body));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
