import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the weather providers, answering in their public formats
 * (docs/areas/reports.md "Weather providers"):
 * - aviationweather.gov data API: GET `/api/data/metar|taf?ids=&format=json[&hours=&date=][&time=issue]`,
 *   JSON arrays of `{icaoId, obsTime, reportTime, rawOb, ...}` / `{icaoId, issueTime, validTimeFrom, validTimeTo, rawTAF, ...}`,
 *   204 with no body when nothing matches.
 * - Iowa Environmental Mesonet: GET `/cgi-bin/request/asos.py?station=&data=metar&sts=&ets=&format=onlycomma`
 *   (CSV `station,valid,metar`) and `/cgi-bin/request/taf.py?station=&sts=&ets=&fmt=csv`
 *   (CSV `station,valid,fx_valid,fx_valid_end,raw`, one line per forecast group).
 */

export interface FakeReport {
  station: string;
  time: number;
  raw: string;
}

export type FakeMode = 'up' | 'down' | 'error' | 'slow' | 'garbage';

export interface WeatherFake {
  url: string;
  aviationUrl: string;
  archiveUrl: string;
  metars: FakeReport[];
  tafs: FakeReport[];
  /** Per provider: `aviation` (data API) and `archive` (IEM). */
  mode: { aviation: FakeMode; archive: FakeMode };
  /** Per path (`/api/data/taf`): a mode that overrides the provider's, and a wait before answering. */
  paths: Record<string, { mode?: FakeMode; delayMs?: number }>;
  /** Paths with query of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const isoZ = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const iemTime = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 16).replace('T', ' ');
/** `2024-06-10T12:00Z`, `2024-06-10T12:00:00Z`, `20240610_1200Z`. */
function parseWhen(v: string | null): number | null {
  if (!v) return null;
  const m = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})Z?$/.exec(v);
  const ms = m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!) : Date.parse(v);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

export async function startWeatherFake(): Promise<WeatherFake> {
  const fake = {
    metars: [] as FakeReport[],
    tafs: [] as FakeReport[],
    mode: { aviation: 'up' as FakeMode, archive: 'up' as FakeMode },
    paths: {} as WeatherFake['paths'],
    requests: [] as string[],
  };
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push(`${u.pathname}${u.search}`);
    const provider = u.pathname.startsWith('/api/data/') ? 'aviation' : 'archive';
    const path = fake.paths[u.pathname];
    const mode = path?.mode ?? fake.mode[provider];
    if (path?.delayMs) await new Promise((r) => setTimeout(r, path.delayMs));
    if (mode === 'down') {
      req.socket.destroy();
      return;
    }
    if (mode === 'slow') return; // never answers: the client's timeout decides
    if (mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (mode === 'garbage') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(provider === 'aviation' ? '<html>maintenance</html>' : 'oops,nothing\n1,2\n');
      return;
    }
    const q = u.searchParams;
    if (u.pathname === '/api/data/metar' || u.pathname === '/api/data/taf') {
      const isMetar = u.pathname.endsWith('metar');
      const ids = (q.get('ids') ?? '').toUpperCase().split(',').filter(Boolean);
      const end = parseWhen(q.get('date')) ?? Math.floor(Date.now() / 1000);
      const hours = Number(q.get('hours') ?? (isMetar ? 1.5 : 0));
      const list = (isMetar ? fake.metars : fake.tafs).filter((r) => ids.includes(r.station));
      let rows: FakeReport[];
      if (!q.get('hours') && !q.get('date')) {
        // Latest per station.
        rows = ids.flatMap((id) => {
          const mine = list.filter((r) => r.station === id && r.time <= end).sort((a, b) => b.time - a.time);
          return mine.slice(0, 1);
        });
      } else rows = list.filter((r) => r.time <= end && r.time >= end - hours * 3600).sort((a, b) => b.time - a.time);
      if (!rows.length) {
        res.writeHead(204).end();
        return;
      }
      const body = rows.map((r) =>
        isMetar
          ? {
              icaoId: r.station,
              receiptTime: isoZ(r.time + 120),
              obsTime: r.time,
              reportTime: isoZ(r.time),
              temp: 15,
              dewp: 9,
              wdir: 270,
              wspd: 8,
              visib: '6+',
              altim: 1015,
              metarType: 'METAR',
              rawOb: r.raw,
              lat: 40.47,
              lon: -3.56,
              elev: 609,
              name: `${r.station} airport`,
            }
          : {
              icaoId: r.station,
              dbPopTime: isoZ(r.time + 60),
              bulletinTime: isoZ(r.time),
              issueTime: isoZ(r.time),
              validTimeFrom: r.time + 3600,
              validTimeTo: r.time + 31 * 3600,
              rawTAF: r.raw,
              mostRecent: 1,
              remarks: '',
              lat: 40.47,
              lon: -3.56,
              elev: 609,
              name: `${r.station} airport`,
              fcsts: [],
            },
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    if (u.pathname === '/cgi-bin/request/asos.py' || u.pathname === '/cgi-bin/request/taf.py') {
      const isMetar = u.pathname.endsWith('asos.py');
      const station = (q.get('station') ?? '').toUpperCase();
      const sts = parseWhen(q.get('sts')) ?? 0;
      const ets = parseWhen(q.get('ets')) ?? Number.MAX_SAFE_INTEGER;
      // The archive keys the contiguous US by the 3-letter identifier.
      const rows = (isMetar ? fake.metars : fake.tafs)
        .filter(
          (r) =>
            (r.station === station || (r.station.startsWith('K') && r.station.slice(1) === station)) &&
            r.time >= sts &&
            r.time <= ets,
        )
        .sort((a, b) => a.time - b.time);
      const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
      let text: string;
      if (isMetar)
        text = `station,valid,metar\n${rows.map((r) => `${station},${iemTime(r.time)},${quote(r.raw)}`).join('\n')}${rows.length ? '\n' : ''}`;
      else
        text = `station,valid,fx_valid,fx_valid_end,raw\n${rows
          .flatMap((r) =>
            [0, 6].map(
              (h) =>
                `${r.station},${iemTime(r.time)},${iemTime(r.time + h * 3600)},${iemTime(r.time + (h + 6) * 3600)},${quote(r.raw)}`,
            ),
          )
          .join('\n')}${rows.length ? '\n' : ''}`;
      res.writeHead(200, { 'content-type': 'text/csv' }).end(text);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    aviationUrl: `${url}/api/data`,
    archiveUrl: `${url}/cgi-bin/request`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}
