export * from './night-time.ts';
