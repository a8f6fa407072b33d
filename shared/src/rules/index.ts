// Pure business rules shared by the server and offline clients.
export * from './company/operating-hours.ts';
export * from './flights/flight-times.ts';
export * from './pilots/currency.ts';
export * from './pilots/logbook-totals.ts';
export * from './reports/index.ts';
export * from './schedules/booking.ts';
export * from './uploads/upload-types.ts';
export * from './trainings/progress.ts';
export * from './trainings/grading.ts';
export * from './trainings/attendance.ts';
