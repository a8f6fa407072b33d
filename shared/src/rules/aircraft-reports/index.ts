export * from './mel.ts';
export * from './blockers.ts';
