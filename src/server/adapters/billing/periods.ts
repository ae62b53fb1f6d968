import type { BillingInterval } from '../../../common/product/plans.ts';

/**
 * Calendar arithmetic of billing periods, in UTC, the way providers count them: a month after
 * 31 January is the last day of February (the day is clamped, the time of day kept).
 */
export function addMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(date);
  result.setUTCDate(1);
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
  return result;
}

export function addInterval(date: Date, interval: BillingInterval, count = 1): Date {
  return addMonths(date, interval === 'year' ? 12 * count : count);
}

/** Whole months from `start` to `at` (0 in the first month). */
export function monthsElapsed(start: Date, at: Date): number {
  if (at < start) return 0;
  let months = (at.getUTCFullYear() - start.getUTCFullYear()) * 12;
  months += at.getUTCMonth() - start.getUTCMonth();
  while (months > 0 && addMonths(start, months) > at) months -= 1;
  while (addMonths(start, months + 1) <= at) months += 1;
  return months;
}
