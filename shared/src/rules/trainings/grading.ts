/**
 * Online exam grading (Part B 4.7 item 17): one option per question; an
 * unanswered question is wrong; the score is the percentage of correct answers
 * with one decimal; the attempt passes at or above the exam's `score` threshold.
 */
export interface GradedQuestion {
  questionId: string;
  /** The option the student chose, or null. */
  chosen: string | null;
  /** Ids of the options marked correct. */
  correct: readonly string[];
}

export interface Grade {
  correct: number;
  total: number;
  score: number;
  passed: boolean;
}

export function gradeAttempt(questions: readonly GradedQuestion[], threshold: number): Grade {
  const total = questions.length;
  const correct = questions.filter((q) => q.chosen !== null && q.correct.includes(q.chosen)).length;
  const score = total ? Math.round((correct * 1000) / total) / 10 : 0;
  return { correct, total, score, passed: total > 0 && score >= threshold };
}

/**
 * Whether a new attempt may start (item 17): `attempts` 0 means unlimited; a
 * SCHEDULED exam is open from the session start for `windowDays` days (no
 * session: closed); a FREE exam is always open.
 */
export function attemptAllowed(opts: {
  now: number;
  attemptsUsed: number;
  maxAttempts: number;
  accessMode: string;
  windowDays: number;
  sessionStarts: readonly number[];
  alreadyPassed: boolean;
}):
  | { ok: true }
  | { ok: false; reason: 'PASSED' | 'NO_ATTEMPTS_LEFT' | 'NOT_SCHEDULED' | 'WINDOW_CLOSED' | 'NOT_YET_OPEN' } {
  if (opts.alreadyPassed) return { ok: false, reason: 'PASSED' };
  if (opts.maxAttempts > 0 && opts.attemptsUsed >= opts.maxAttempts) return { ok: false, reason: 'NO_ATTEMPTS_LEFT' };
  if (opts.accessMode !== 'SCHEDULED') return { ok: true };
  if (!opts.sessionStarts.length) return { ok: false, reason: 'NOT_SCHEDULED' };
  const days = opts.windowDays > 0 ? opts.windowDays : 10;
  if (opts.sessionStarts.some((s) => opts.now >= s && opts.now <= s + days * 86400)) return { ok: true };
  return { ok: false, reason: opts.sessionStarts.some((s) => s > opts.now) ? 'NOT_YET_OPEN' : 'WINDOW_CLOSED' };
}

/** `access_window_days` default (Part B 8): 10 when omitted or <= 0. */
export const accessWindowDays = (v: number | null | undefined) => (v && v > 0 ? Math.floor(v) : 10);
