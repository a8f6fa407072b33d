export * from './duty.ts';
export * from './policy.ts';
