export * from './mel.ts';
