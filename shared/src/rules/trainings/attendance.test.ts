import { describe, expect, it } from 'vitest';
import {
  attendanceEditRefusal,
  isValidGrade,
  justificationRefusal,
  signRefusal,
  statusAfterJustification,
  unsignRefusal,
} from './attendance.ts';

describe('class attendance rules', () => {
  const teacher = { id: 't', role: 150 };
  const manager = { id: 'm', role: 135 };
  const other = { id: 'o', role: 150 };
  const open = { teacher_id: 't', signed_at: null };
  const signed = { teacher_id: 't', signed_at: 100 };

  it('edit, sign and unsign refusals', () => {
    expect(attendanceEditRefusal(teacher, open)).toBeNull();
    expect(attendanceEditRefusal(manager, open)).toBeNull();
    expect(attendanceEditRefusal(other, open)).toMatch(/Only/);
    expect(attendanceEditRefusal(teacher, signed)).toMatch(/signed/);
    expect(signRefusal(manager, open)).toMatch(/Only the teacher/);
    expect(signRefusal(teacher, signed)).toMatch(/already/);
    expect(unsignRefusal(teacher, signed)).toBeNull();
    expect(unsignRefusal(manager, signed)).toBeNull();
    expect(unsignRefusal(other, signed)).toMatch(/Only/);
    expect(unsignRefusal(teacher, open)).toMatch(/not signed/);
  });

  it('justifications: who may justify until when, and what approval does', () => {
    expect(justificationRefusal('absent', 10, 20)).toBeNull();
    expect(justificationRefusal(null, 10, null)).toBeNull();
    expect(justificationRefusal('attended', 10, 20)?.code).toBe('NOT_ABSENT');
    expect(justificationRefusal('attended_post_class', 10, 20)?.code).toBe('NOT_ABSENT');
    expect(justificationRefusal('absent_justified', 10, 20)?.code).toBe('ALREADY_JUSTIFIED');
    expect(justificationRefusal('absent', 21, 20)?.code).toBe('DEADLINE_PASSED');
    expect(statusAfterJustification('absent', 'approved')).toBe('absent_justified');
    expect(statusAfterJustification('absent', 'rejected')).toBe('absent');
    expect(statusAfterJustification(null, 'approved')).toBeNull();
  });

  it('grades have at most one decimal between 0 and 100', () => {
    for (const ok of [0, 8.5, 87.5, 100]) expect(isValidGrade(ok)).toBe(true);
    for (const bad of [-1, 100.1, 8.25, Number.NaN]) expect(isValidGrade(bad)).toBe(false);
  });
});
