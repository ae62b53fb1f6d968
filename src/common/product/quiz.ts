// Quiz funnel and its offer.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const quiz = {
  imageCount: 16,
  aiImageCount: 9,
  realImageCount: 7,
  answerPauseMs: 1500,
  redirectDelayMs: 2000,
  /** Below lowBelow: 'most people struggle'; below highFrom: 'good skills'; else 'impressive'. */
  thresholds: { lowBelow: 40, highFrom: 70 },
  sessionKeys: { score: 'quizScore', redirectAfterAuth: 'redirectAfterAuth' },
} as const;

export type QuizFeedbackLevel = 'low' | 'medium' | 'high';

export function quizPercentage(correct: number, total: number): number {
  return total > 0 ? Math.round((correct / total) * 100) : 0;
}

export function quizFeedbackLevel(percentage: number): QuizFeedbackLevel {
  if (percentage < quiz.thresholds.lowBelow) return 'low';
  if (percentage < quiz.thresholds.highFrom) return 'medium';
  return 'high';
}

export const offer = {
  countdownMinutes: 15,
  countdownSeconds: 15 * 60,
  moneyBackGuaranteeDays: 30,
} as const;
