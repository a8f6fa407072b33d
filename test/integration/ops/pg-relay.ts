import net from 'node:net';
import { PG_URL } from '../../setup/dialects.ts';

/**
 * A TCP relay in front of PostgreSQL that a test can cut: every connection
 * through it is dropped and new ones are refused until `restore()`. To the
 * server processes behind it this looks like a database restart, without
 * disturbing anyone else who uses the same PostgreSQL.
 */
export async function startPgRelay() {
  const target = new URL(PG_URL);
  const sockets = new Set<net.Socket>();
  let open = true;
  const relay = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on('close', () => sockets.delete(sock));
      sock.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  const url = new URL(PG_URL);
  url.hostname = '127.0.0.1';
  url.port = String((relay.address() as net.AddressInfo).port);
  return {
    url: url.href,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((r) => relay.close(() => r())),
  };
}
