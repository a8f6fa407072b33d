export { startServer, type RunningServer } from './server.ts';
export { loadConfig, type Config } from './config.ts';
export type { AppContext } from './context.ts';
