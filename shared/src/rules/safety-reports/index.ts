export * from './safety.ts';
export * from './policy.ts';
