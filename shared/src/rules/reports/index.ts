export * from './months.ts';
export * from './scope.ts';
export * from './weather.ts';
export * from './local.ts';
