export * from './roles.ts';
export * from './ids.ts';
export * from './enums.ts';
export * from './permissions.ts';
export * from './collections/index.ts';
export * from './rules/aircraft-reports/blockers.ts';
