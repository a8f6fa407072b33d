import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

const config = loadConfig();
const running = await startServer(config);
running.ctx.log.info(`listening on ${running.url}`);
// CONTRACT 1: one plain line when ready.
console.log(`listening on ${running.url}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    running.ctx.log.info({ signal }, 'shutting down');
    running
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        running.ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  });
}

// Memory benches (bench:fanout) read the heap after a full collection: started with `node --expose-gc`,
// SIGUSR2 collects. Without the flag nothing is installed.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc) process.on('SIGUSR2', () => gc());
