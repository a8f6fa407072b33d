import { describe, expect, it } from 'vitest';
import {
  mayAssignSafetyReviewer,
  mayEditSafetyReport,
  mayManageSafetyReports,
  mayReviewSafetyReport,
  maySeeSafetyReport,
  type SafetyAccessRow,
} from './policy.ts';

const row = (o: Partial<SafetyAccessRow> = {}): SafetyAccessRow => ({
  status: 'open',
  author_id: 'a',
  reviewer_id: null,
  crew_pic_id: null,
  crew_sic_id: null,
  crew_supervisor_id: null,
  ...o,
});

describe('safety report policy', () => {
  it('keeps drafts to their author and applies the role table', () => {
    const draft = row({ status: 'draft' });
    expect(maySeeSafetyReport({ userId: 'a', role: 190 }, draft)).toBe(true);
    expect(maySeeSafetyReport({ userId: 'm', role: 100 }, draft)).toBe(false);
    expect(maySeeSafetyReport({ userId: 'x', role: 150 }, row())).toBe(true);
    expect(maySeeSafetyReport({ userId: 'x', role: 170 }, row())).toBe(false);
    expect(maySeeSafetyReport({ userId: 'x', role: 200 }, row({ status: 'published' }))).toBe(true);
    expect(maySeeSafetyReport({ userId: 'x', role: 200 }, row({ crew_sic_id: 'x' }))).toBe(true);
    expect(maySeeSafetyReport({ userId: 'x', role: 300 }, row({ reviewer_id: 'x' }))).toBe(true);
    expect(mayEditSafetyReport({ userId: 'x', role: 190 }, row({ crew_pic_id: 'x' }))).toBe(false);
    expect(mayEditSafetyReport({ userId: 'x', role: 135 }, row({ reviewer_id: 'x' }))).toBe(true);
    expect(mayEditSafetyReport({ userId: 'x', role: 135 }, row())).toBe(false);
    expect(mayEditSafetyReport({ userId: 'x', role: 110 }, row())).toBe(true);
    expect(mayEditSafetyReport({ userId: 'x', role: 100 }, row({ deleted: 1 }))).toBe(false);
  });

  it('lets only roles <= 110 manage', () => {
    expect(mayManageSafetyReports({ role: 110 })).toBe(true);
    expect(mayManageSafetyReports({ role: 120 })).toBe(false);
  });

  it('lets managers and the assigned reviewer review, classify and close; never a draft', () => {
    expect(mayReviewSafetyReport({ userId: 'm', role: 100 }, row())).toBe(true);
    expect(mayReviewSafetyReport({ userId: 'm', role: 110 }, row({ status: 'closed' }))).toBe(true);
    expect(mayReviewSafetyReport({ userId: 'x', role: 150 }, row())).toBe(false);
    expect(mayReviewSafetyReport({ userId: 'x', role: 150 }, row({ reviewer_id: 'x' }))).toBe(true);
    expect(mayReviewSafetyReport({ userId: 'a', role: 190 }, row())).toBe(false);
    expect(mayReviewSafetyReport({ userId: 'a', role: 100 }, row({ status: 'draft' }))).toBe(false);
    expect(mayReviewSafetyReport({ userId: 'm', role: 100 }, row({ deleted: 1 }))).toBe(false);
    expect(mayAssignSafetyReviewer({ role: 110 })).toBe(true);
    expect(mayAssignSafetyReviewer({ role: 150 })).toBe(false);
  });
});
