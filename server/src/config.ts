import path from 'node:path';

export type SeedMode = 'fixtures' | 'demo' | 'none';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema (search_path); tests and multi-tenant hosting put one deployment per schema. */
  databaseSchema: string | null;
  seed: SeedMode;
  smtpUrl: string | null;
  mailFrom: string;
  s3: {
    endpoint: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  } | null;
  logLevel: string;
  /** Public origin used in links inside mails. */
  publicUrl: string;
  /** Weather providers (Part A 4.11; docs/areas/reports.md): aviation weather data API and the surface-observation archive. */
  weather: { aviationUrl: string; archiveUrl: string; timeoutMs: number };
  /** Periodic jobs (cleanups, deliveries) run in this process; `JOBS=off` leaves it out. */
  jobs: boolean;
  /** How long a resolved credential is trusted in this process (`AUTH_CACHE_MS`, 0 off, at most 1000). */
  authCacheMs: number;
  /** Sync pulls run at once per process (`SYNC_PULL_CONCURRENCY`; default: the pool size minus 3). */
  syncPullConcurrency: number | null;
  /** Sync pulls waiting per process before a new one is refused with 503 (`SYNC_PULL_QUEUE`, default 5000). */
  syncPullQueue: number | null;
  /** Days sync tombstones are kept (`SYNC_TOMBSTONE_DAYS`, default 90; docs/sync.md). */
  syncTombstoneDays: number;
  /** Billing (docs/areas/billing.md): the payment provider's API base (`STRIPE_API_URL`) and the key sealing its secrets (`SECRETS_KEY`, 32 bytes base64 or hex; null: keys cannot be stored). */
  billing: { stripeApiUrl: string; secretsKey: string | null };
}

/** Environment variables per CONTRACT section 1. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const seedRaw = env.SEED?.trim();
  const seed: SeedMode =
    seedRaw === 'fixtures' || seedRaw === 'demo' || seedRaw === 'none' ? seedRaw : databaseUrl ? 'none' : 'demo';
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '127.0.0.1';
  const s3 =
    env.S3_ENDPOINT && env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT,
          bucket: env.S3_BUCKET,
          region: env.S3_REGION ?? 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
        }
      : null;
  return {
    port,
    host,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    databaseSchema: env.DATABASE_SCHEMA?.trim() || null,
    seed,
    smtpUrl: env.SMTP_URL?.trim() || null,
    mailFrom: env.MAIL_FROM ?? 'Ops Platform <no-reply@ops.local>',
    s3,
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    publicUrl: env.PUBLIC_URL ?? `http://${host}:${port}`,
    // Tests never reach the public providers: without a URL they get a closed local port (a quick 503).
    weather: {
      aviationUrl: (
        env.WEATHER_AVIATION_URL?.trim() ||
        (env.NODE_ENV === 'test' ? 'http://127.0.0.1:9/api/data' : 'https://aviationweather.gov/api/data')
      ).replace(/\/+$/, ''),
      archiveUrl: (
        env.WEATHER_ARCHIVE_URL?.trim() ||
        (env.NODE_ENV === 'test'
          ? 'http://127.0.0.1:9/cgi-bin/request'
          : 'https://mesonet.agron.iastate.edu/cgi-bin/request')
      ).replace(/\/+$/, ''),
      timeoutMs: Number(env.WEATHER_TIMEOUT_MS ?? 5000) || 5000,
    },
    jobs: env.JOBS !== 'off',
    authCacheMs: Math.min(1000, Math.max(0, Number(env.AUTH_CACHE_MS ?? 500) || 0)),
    syncPullConcurrency: Number(env.SYNC_PULL_CONCURRENCY) >= 1 ? Math.floor(Number(env.SYNC_PULL_CONCURRENCY)) : null,
    syncPullQueue:
      Number(env.SYNC_PULL_QUEUE) >= 0 && env.SYNC_PULL_QUEUE ? Math.floor(Number(env.SYNC_PULL_QUEUE)) : null,
    syncTombstoneDays: Number(env.SYNC_TOMBSTONE_DAYS) > 0 ? Number(env.SYNC_TOMBSTONE_DAYS) : 90,
    billing: {
      stripeApiUrl: (env.STRIPE_API_URL?.trim() || 'https://api.stripe.com').replace(/\/+$/, ''),
      secretsKey: env.SECRETS_KEY?.trim() || null,
    },
  };
}
