import { describe, it, expect } from 'vitest';
import { formatAbsolute, formatDate, formatRelativeOrDate } from './dates.ts';

// Local-time constructors, so the expectations hold in any time zone the tests run in.
const now = new Date(2026, 10, 21, 15, 5, 0);
const ago = (ms: number) => new Date(now.getTime() - ms);
const minute = 60_000;
const hour = 60 * minute;

describe('formatRelativeOrDate', () => {
  it('says "Unknown time" when there is no date', () => {
    expect(formatRelativeOrDate(null, now)).toBe('Unknown time');
    expect(formatRelativeOrDate(undefined, now)).toBe('Unknown time');
    expect(formatRelativeOrDate('', now)).toBe('Unknown time');
  });

  it('says "Invalid date" for values that are not dates', () => {
    expect(formatRelativeOrDate('not a date', now)).toBe('Invalid date');
    expect(formatRelativeOrDate(Number.NaN, now)).toBe('Invalid date');
    expect(formatRelativeOrDate(new Date('2026-13-45'), now)).toBe('Invalid date');
  });

  it('says "Just now" under a minute, including a little clock skew', () => {
    expect(formatRelativeOrDate(now, now)).toBe('Just now');
    expect(formatRelativeOrDate(ago(59_000), now)).toBe('Just now');
    expect(formatRelativeOrDate(ago(-30_000), now)).toBe('Just now');
  });

  it('counts minutes and hours under 24 hours, with singular and plural', () => {
    expect(formatRelativeOrDate(ago(minute), now)).toBe('1 minute ago');
    expect(formatRelativeOrDate(ago(5 * minute + 59_000), now)).toBe('5 minutes ago');
    expect(formatRelativeOrDate(ago(59 * minute), now)).toBe('59 minutes ago');
    expect(formatRelativeOrDate(ago(hour), now)).toBe('1 hour ago');
    expect(formatRelativeOrDate(ago(3 * hour + 20 * minute), now)).toBe('3 hours ago');
    expect(formatRelativeOrDate(ago(24 * hour - 1), now)).toBe('23 hours ago');
  });

  it('shows the full date from 24 hours on', () => {
    expect(formatRelativeOrDate(ago(24 * hour), now)).toBe('Nov 20, 2026 at 3:05 pm');
    expect(formatRelativeOrDate(new Date(2025, 0, 3, 9, 7), now)).toBe('Jan 3, 2025 at 9:07 am');
  });

  it('shows the full date for timestamps well in the future', () => {
    expect(formatRelativeOrDate(ago(-2 * hour), now)).toBe('Nov 21, 2026 at 5:05 pm');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    const date = new Date(2026, 5, 1, 0, 30);
    expect(formatRelativeOrDate(date.toISOString(), now)).toBe('Jun 1, 2026 at 12:30 am');
    expect(formatRelativeOrDate(date.getTime(), now)).toBe('Jun 1, 2026 at 12:30 am');
    expect(formatRelativeOrDate(ago(2 * hour).toISOString(), now)).toBe('2 hours ago');
  });
});

describe('formatAbsolute', () => {
  it('writes noon as 12 pm and midnight as 12 am, in lowercase', () => {
    expect(formatAbsolute(new Date(2026, 11, 31, 12, 0))).toBe('Dec 31, 2026 at 12:00 pm');
    expect(formatAbsolute(new Date(2026, 11, 31, 0, 0))).toBe('Dec 31, 2026 at 12:00 am');
    expect(formatAbsolute(new Date(2026, 1, 9, 23, 59))).toBe('Feb 9, 2026 at 11:59 pm');
  });
});

describe('formatDate', () => {
  it('shows the day without the time', () => {
    expect(formatDate(new Date(2026, 10, 21, 23, 59))).toBe('Nov 21, 2026');
    expect(formatDate(new Date(2025, 0, 1).toISOString())).toBe('Jan 1, 2025');
  });

  it('says "Unknown time" or "Invalid date" like the other formats', () => {
    expect(formatDate(null)).toBe('Unknown time');
    expect(formatDate('nope')).toBe('Invalid date');
  });
});
