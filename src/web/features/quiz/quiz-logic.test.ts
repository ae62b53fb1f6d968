import { describe, expect, it } from 'vitest';
import { formatCountdown, makeQuizScore, parseQuizScore, shuffled } from './quiz-logic.ts';

describe('shuffled', () => {
  it('keeps every item exactly once and leaves the input alone', () => {
    const input = Array.from({ length: 16 }, (_, i) => i + 1);
    const output = shuffled(input);
    expect(output).toHaveLength(16);
    expect([...output].sort((a, b) => a - b)).toEqual(input);
    expect(input[0]).toBe(1);
  });

  it('uses the random source it is given', () => {
    // Always 0: every element swaps with the first, a known permutation.
    expect(shuffled([1, 2, 3, 4], () => 0)).toEqual([2, 3, 4, 1]);
  });
});

describe('quiz score', () => {
  it('rounds the percentage', () => {
    expect(makeQuizScore(5, 16)).toEqual({ correct: 5, total: 16, percentage: 31 });
    expect(makeQuizScore(16, 16).percentage).toBe(100);
    expect(makeQuizScore(11, 16).percentage).toBe(69);
  });

  it('accepts only a score that makes sense', () => {
    expect(parseQuizScore({ correct: 3, total: 16, percentage: 99 })).toEqual({
      correct: 3,
      total: 16,
      percentage: 19,
    });
    expect(parseQuizScore(null)).toBeNull();
    expect(parseQuizScore({ correct: 17, total: 16 })).toBeNull();
    expect(parseQuizScore({ correct: 0, total: 0 })).toBeNull();
    expect(parseQuizScore({ correct: '3', total: 16 })).toBeNull();
  });
});

describe('formatCountdown', () => {
  it('shows minutes and two-digit seconds, never below zero', () => {
    expect(formatCountdown(900)).toBe('15:00');
    expect(formatCountdown(899)).toBe('14:59');
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
