export * from './safety.ts';
