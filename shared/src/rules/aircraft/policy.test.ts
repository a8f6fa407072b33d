import { describe, expect, it } from 'vitest';
import { allows, ALL_ROLES, ROLES } from '../../roles.ts';
import {
  aircraftReportGates,
  canBeReleaser,
  mayChangeAircraftReport,
  mayWriteAircraftReports,
} from '../aircraft-reports/policy.ts';
import { inventoryGates } from '../inventory/policy.ts';
import { mayWriteMaintenanceJobs } from '../maintenance-jobs/policy.ts';
import { mayBook, seesAllBookings } from '../schedules/policy.ts';
import { aircraftGates, mayEditAircraftOffline } from './policy.ts';

const who = (pred: (role: number) => boolean) => ALL_ROLES.filter(pred);

describe('fleet policies', () => {
  it('managers change the fleet; managers and mechanics maintain it', () => {
    expect(who((r) => allows(aircraftGates.manage, r))).toEqual([1, 100, 105, 110]);
    expect(who((r) => mayEditAircraftOffline({ role: r }))).toEqual([1, 100, 105, 110, 300]);
    expect(who((r) => mayWriteMaintenanceJobs({ role: r }))).toEqual([1, 100, 105, 110, 300]);
    expect(who((r) => allows(aircraftReportGates.melManage, r))).toEqual([1, 100, 105, 110, 300]);
    expect(who((r) => allows(inventoryGates.edit, r))).toEqual([1, 100, 105, 110, 300]);
    expect(who((r) => allows(inventoryGates.delete, r))).toEqual([1, 100, 105, 110]);
  });

  it('the auditor writes no aircraft report; the reporter changes their own', () => {
    expect(mayWriteAircraftReports({ role: ROLES.AUDITOR })).toBe(false);
    expect(mayChangeAircraftReport({ userId: 'p', role: ROLES.PILOT }, { user_id: 'p' })).toBe(true);
    expect(mayChangeAircraftReport({ userId: 'p', role: ROLES.PILOT }, { user_id: 'q' })).toBe(false);
    expect(canBeReleaser(ROLES.STUDENT, true)).toBe(false);
  });

  it('auditors and mechanics never book; the office, auditor and mechanics see every booking', () => {
    expect(who((r) => !mayBook(r))).toEqual([250, 300]);
    expect(who(seesAllBookings)).toEqual([1, 100, 105, 110, 120, 170, 250, 300]);
  });
});
