import { quiz, quizPercentage } from '../../../common/product/quiz.ts';

/** What the results page reads: kept in session storage under `quizScore`, per tab. */
export interface QuizScore {
  correct: number;
  total: number;
  /** Rounded to a whole percent. */
  percentage: number;
}

/** A new random order (Fisher-Yates), leaving the input as it is. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

export function makeQuizScore(correct: number, total: number): QuizScore {
  return { correct, total, percentage: quizPercentage(correct, total) };
}

export function saveQuizScore(score: QuizScore): void {
  try {
    sessionStorage.setItem(quiz.sessionKeys.score, JSON.stringify(score));
  } catch {
    // Storage can be unavailable (private modes, quotas); the results page then restarts the quiz.
  }
}

/** The stored score, or null when there is none or it is not one we wrote (edited, corrupt). */
export function readQuizScore(): QuizScore | null {
  try {
    const raw = sessionStorage.getItem(quiz.sessionKeys.score);
    return raw ? parseQuizScore(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}

export function parseQuizScore(value: unknown): QuizScore | null {
  if (!value || typeof value !== 'object') return null;
  const { correct, total } = value as Record<string, unknown>;
  if (!Number.isInteger(correct) || !Number.isInteger(total)) return null;
  const c = correct as number;
  const t = total as number;
  if (t <= 0 || c < 0 || c > t) return null;
  // Recomputed rather than trusted, so the figure always matches "x out of y".
  return makeQuizScore(c, t);
}

/** "15:00", "9:05", "0:00". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
