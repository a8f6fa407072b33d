import { describe, expect, it } from 'vitest';
import { attemptAllowed, accessWindowDays, gradeAttempt } from './grading.ts';
import {
  canTransition,
  type ExamNode,
  flownHours,
  indexProgress,
  isFinishedStatus,
  type LessonNode,
  lessonDone,
  theoryAttendance,
  theoryProgress,
} from './progress.ts';

const lesson = (id: string, mandatory = true): LessonNode => ({ id, activityId: `a-${id}`, mandatory });
const exam = (id: string, type: 'ONLINE' | 'ONSITE', lessonId: string | null = null, mandatory = true): ExamNode => ({
  id,
  activityId: `a-${id}`,
  type,
  lessonId,
  mandatory,
});

describe('training progress', () => {
  it('a lesson is done at value 1 with every mandatory gate exam done', () => {
    const l = lesson('l1');
    const gate = exam('g1', 'ONSITE', 'l1');
    const optional = exam('g2', 'ONLINE', 'l1', false);
    expect(lessonDone(l, [gate, optional], indexProgress([{ activityId: 'a-l1', value: 1, resetAt: null }], []))).toBe(
      false,
    );
    expect(
      lessonDone(
        l,
        [gate, optional],
        indexProgress(
          [
            { activityId: 'a-l1', value: 1, resetAt: null },
            { activityId: 'a-g1', value: 1, resetAt: null },
          ],
          [],
        ),
      ),
    ).toBe(true);
    expect(
      lessonDone(
        l,
        [gate],
        indexProgress(
          [
            { activityId: 'a-l1', value: 0.5, resetAt: null },
            { activityId: 'a-g1', value: 1, resetAt: null },
          ],
          [],
        ),
      ),
    ).toBe(false);
  });

  it('counts mandatory lessons plus non-gate exams; online done by a passed attempt after the reset', () => {
    const lessons = [lesson('l1'), lesson('l2'), lesson('opt', false)];
    const exams = [exam('g1', 'ONLINE', 'l1'), exam('s1', 'ONSITE'), exam('o1', 'ONLINE')];
    const idx = indexProgress(
      [
        { activityId: 'a-l1', value: 1, resetAt: null },
        { activityId: 'a-l2', value: 1, resetAt: null },
        { activityId: 'a-opt', value: 1, resetAt: null },
        { activityId: 'a-s1', value: 1, resetAt: null },
        { activityId: 'a-o1', value: 0, resetAt: 100 },
      ],
      [
        { examId: 'g1', start: 10, passed: true, finished: true },
        { examId: 'o1', start: 50, passed: true, finished: true },
      ],
    );
    const p = theoryProgress(lessons, exams, idx);
    expect(p).toEqual({ total: 4, completed: 3, percentage: 75, finished: false });
    const after = indexProgress(
      [...idx.byActivity.values()],
      [...idx.attemptsByExam.values()].flat().concat({ examId: 'o1', start: 150, passed: true, finished: true }),
    );
    expect(theoryProgress(lessons, exams, after)).toEqual({ total: 4, completed: 4, percentage: 100, finished: true });
  });

  it('percentage is floored and zero without items', () => {
    const lessons = [lesson('a'), lesson('b'), lesson('c')];
    expect(
      theoryProgress(lessons, [], indexProgress([{ activityId: 'a-a', value: 1, resetAt: null }], [])).percentage,
    ).toBe(33);
    expect(theoryProgress([], [], indexProgress([], []))).toEqual({
      total: 0,
      completed: 0,
      percentage: 0,
      finished: false,
    });
  });

  it('attendance counts invited past sessions; DISTANCE mirrors progress', () => {
    const rows = [
      { past: true, invited: true, attended: true },
      { past: true, invited: true, attended: false },
      { past: false, invited: true, attended: false },
      { past: true, invited: false, attended: true },
    ];
    const progress = { total: 5, completed: 2, percentage: 40, finished: false };
    expect(theoryAttendance('ONSITE', rows, progress)).toEqual({ given: 2, taken: 1 });
    expect(theoryAttendance('DISTANCE', rows, progress)).toEqual({ given: 5, taken: 2 });
  });

  it('hours round to one decimal; enrollment transitions', () => {
    expect(flownHours(5400)).toBe(1.5);
    expect(flownHours(3725)).toBe(1);
    expect(flownHours(3780)).toBe(1.1);
    expect(canTransition('ACTIVE', 'COMPLETED')).toBe(true);
    expect(canTransition('STOPPED', 'ACTIVE')).toBe(true);
    expect(canTransition('COMPLETED', 'ACTIVE')).toBe(false);
    expect(canTransition('EXPELLED', 'STOPPED')).toBe(false);
    expect(isFinishedStatus('FAILED')).toBe(true);
    expect(isFinishedStatus('STOPPED')).toBe(false);
  });
});

describe('exam grading', () => {
  it('scores with one decimal and passes at the threshold', () => {
    const qs = [
      { questionId: 'q1', chosen: 'a', correct: ['a'] },
      { questionId: 'q2', chosen: 'b', correct: ['c'] },
      { questionId: 'q3', chosen: null, correct: ['x'] },
    ];
    expect(gradeAttempt(qs, 33)).toEqual({ correct: 1, total: 3, score: 33.3, passed: true });
    expect(gradeAttempt(qs, 34)).toMatchObject({ passed: false });
    expect(gradeAttempt([], 0)).toEqual({ correct: 0, total: 0, score: 0, passed: false });
  });

  it('limits attempts and opens scheduled exams from the session start for the window', () => {
    const base = {
      now: 1000,
      attemptsUsed: 0,
      maxAttempts: 2,
      accessMode: 'FREE',
      windowDays: 10,
      sessionStarts: [] as number[],
      alreadyPassed: false,
    };
    expect(attemptAllowed(base)).toEqual({ ok: true });
    expect(attemptAllowed({ ...base, attemptsUsed: 2 })).toEqual({ ok: false, reason: 'NO_ATTEMPTS_LEFT' });
    expect(attemptAllowed({ ...base, maxAttempts: 0, attemptsUsed: 9 })).toEqual({ ok: true });
    expect(attemptAllowed({ ...base, alreadyPassed: true })).toEqual({ ok: false, reason: 'PASSED' });
    const sched = { ...base, accessMode: 'SCHEDULED' };
    expect(attemptAllowed(sched)).toEqual({ ok: false, reason: 'NOT_SCHEDULED' });
    expect(attemptAllowed({ ...sched, sessionStarts: [500] })).toEqual({ ok: true });
    expect(attemptAllowed({ ...sched, sessionStarts: [2000] })).toEqual({ ok: false, reason: 'NOT_YET_OPEN' });
    expect(attemptAllowed({ ...sched, now: 500 + 10 * 86400 + 1, sessionStarts: [500] })).toEqual({
      ok: false,
      reason: 'WINDOW_CLOSED',
    });
    expect(accessWindowDays(0)).toBe(10);
    expect(accessWindowDays(-3)).toBe(10);
    expect(accessWindowDays(undefined)).toBe(10);
    expect(accessWindowDays(4)).toBe(4);
  });
});
