import { messages } from '../../common/messages.ts';

/**
 * Dates as the specification shows them: under 24 hours relative ("5 minutes ago"), otherwise
 * "Nov 21, 2026 at 3:05 pm" in the viewer's time zone. Written by hand rather than with
 * Intl.DateTimeFormat so the output is the same in every browser and locale.
 */

export type DateInput = Date | string | number | null | undefined;

const monthAbbreviations = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
// Server and browser clocks disagree a little; a timestamp this far "in the future" is still
// shown as just now instead of as an absolute date.
const clockSkewMs = minuteMs;

const texts = messages.common;

/** `now` is a parameter so tests (and lists rendered in one pass) use one clock. */
export function formatRelativeOrDate(value: DateInput, now: Date = new Date()): string {
  if (value === null || value === undefined || value === '') return texts.unknownTime;
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  if (Number.isNaN(date.getTime())) return texts.invalidDate;

  const elapsedMs = now.getTime() - date.getTime();
  if (elapsedMs >= -clockSkewMs && elapsedMs < dayMs) return formatRelative(elapsedMs);
  return formatAbsolute(date);
}

function formatRelative(elapsedMs: number): string {
  if (elapsedMs < minuteMs) return texts.relativeTime.justNow;
  if (elapsedMs < hourMs) return texts.relativeTime.minutesAgo(Math.floor(elapsedMs / minuteMs));
  return texts.relativeTime.hoursAgo(Math.floor(elapsedMs / hourMs));
}

/** "Nov 21, 2026 at 3:05 pm" (local time). */
export function formatAbsolute(date: Date): string {
  const month = monthAbbreviations[date.getMonth()];
  const hours24 = date.getHours();
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const meridiem = hours24 < 12 ? 'am' : 'pm';
  return `${month} ${date.getDate()}, ${date.getFullYear()} at ${hours12}:${minutes} ${meridiem}`;
}

/** "Nov 21, 2026" (local date), for dates where the time of day says nothing (member since). */
export function formatDate(value: DateInput): string {
  if (value === null || value === undefined || value === '') return texts.unknownTime;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return texts.invalidDate;
  return `${monthAbbreviations[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}
