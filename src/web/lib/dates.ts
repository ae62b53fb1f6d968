import { commonMessages } from '../../common/messages/shell.ts';

/**
 * Dates as the specification shows them: under 24 hours relative ("5 minutes ago"), otherwise
 * "Nov 21, 2026 at 3:05 pm" in the viewer's time zone. The parts come from Intl in English
 * (the product's language) and are put in the specification's order, so every browser and
 * locale shows the same text.
 */

export type DateInput = Date | string | number | null | undefined;

const absoluteParts = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;
// Server and browser clocks disagree a little; a timestamp this far "in the future" is still
// shown as just now instead of as an absolute date.
const clockSkewMs = minuteMs;

const texts = commonMessages;

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
  const part = partsOf(date);
  return `${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute} ${part.dayPeriod?.toLowerCase()}`;
}

function partsOf(date: Date): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  return Object.fromEntries(
    absoluteParts.formatToParts(date).map(({ type, value }) => [type, value]),
  );
}

/** "Nov 21, 2026" (local date), for dates where the time of day says nothing (member since). */
export function formatDate(value: DateInput): string {
  if (value === null || value === undefined || value === '') return texts.unknownTime;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return texts.invalidDate;
  const part = partsOf(date);
  return `${part.month} ${part.day}, ${part.year}`;
}
