export * from './countries.ts';
export * from './timezones.ts';
