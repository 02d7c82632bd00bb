/**
 * The one check of a date an agent writes (`list_notes` since, `query_notes` values, search's
 * `[prop:>value]`): a value that starts like an ISO 8601 date, `YYYY-MM-DD`, must name a real
 * calendar day. `Date.parse` does not check this (it reads `2026-02-30` as 2 March), so a
 * mistyped day would quietly filter by another one.
 */

/** `YYYY-MM-DD` at the start of a value, not followed by another digit. */
const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})(?!\d)/;

/**
 * True when `value` starts like a date (`YYYY-MM-DD`, alone or followed by a time) but names no
 * calendar day: month outside 01–12, or a day the month does not have (`2026-02-29`, `2026-04-31`;
 * leap years by the Gregorian rule). False for real dates and for values that are not dates.
 */
export function namesNoCalendarDay(value: string): boolean {
  const m = DATE_PREFIX.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day;
}

/**
 * What may follow a date in a compared value: a time of day `THH:MM`, `THH:MM:SS` or `THH:MM:SS.fff`,
 * as Obsidian's date & time property writes it, with a `Z` after it as the tools' own timestamps
 * (`file.mtime`, list_notes' `mtime`) end (a newcomer's pasted `mtime` was refused, session 43).
 */
const TIME_OF_DAY = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?Z?$/;

/**
 * What is wrong with a compared value that starts like a date, as search's `[prop:>value]` and
 * query_notes' comparisons take it: `'day'` when the date names no calendar day
 * ({@link namesNoCalendarDay}), `'time'` when a time follows whose hour, minute or second is out of
 * range (`T25:00`), `'text'` when anything else follows the date (`2026-03-01 OR <2020-01-01`,
 * `2026-03-01 10:00`); null for a valid date or date-time, and for values that do not start like a date.
 */
export function dateValueFault(value: string): 'day' | 'time' | 'text' | null {
  const m = DATE_PREFIX.exec(value);
  if (!m) return null;
  if (namesNoCalendarDay(value)) return 'day';
  const rest = value.slice(m[0].length);
  if (rest === '') return null;
  const time = TIME_OF_DAY.exec(rest);
  if (time === null) return 'text';
  return Number(time[1]) > 23 || Number(time[2]) > 59 || Number(time[3] ?? 0) > 59 ? 'time' : null;
}

/** A year and a month, `YYYY-MM`: a date to a month's precision. */
const YEAR_MONTH = /^(\d{4})-(\d{2})$/;

/**
 * True when `wanted` is a date to some precision that comparisons take: a year (`2026`), a month
 * (`2026-03`, month 01–12), a calendar day (`2026-03-01`) or a date-time (`2026-03-01T09:30`,
 * seconds optional); see {@link dateValueFault} for what is refused.
 */
export function isDateAtSomePrecision(wanted: string): boolean {
  if (/^\d{4}$/.test(wanted)) return true;
  const month = YEAR_MONTH.exec(wanted);
  if (month) return Number(month[2]) >= 1 && Number(month[2]) <= 12;
  return DATE_PREFIX.test(wanted) && dateValueFault(wanted) === null;
}

/**
 * How a stored `value` that starts with a date (`YYYY-MM-DD`, a time or more may follow) compares
 * with a `wanted` date ({@link isDateAtSomePrecision}), at the precision of the less precise of
 * the two: their texts up to the shorter one's length. So `2026` holds every day of that year
 * (`> 2026` is 2027 on), `2026-03-01` every time of that day (`> 2026-03-01` leaves out
 * `2026-03-01T09:00`, and a bare date equals any time on its day). Both of search's
 * `[prop:>value]` and query_notes' comparisons use it.
 * @returns -1, 0 or 1; null when `value` starts with no date or `wanted` is no date (nor starts like one)
 */
export function compareDates(value: string, wanted: string): number | null {
  // A quoted value that starts like a date but names no day (`"2026-02-30"`) is compared as text, the same way.
  if (!DATE_PREFIX.test(value) || !(isDateAtSomePrecision(wanted) || DATE_PREFIX.test(wanted))) return null;
  const length = Math.min(value.length, wanted.length);
  const a = value.slice(0, length);
  const b = wanted.slice(0, length);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Words an agent may write for a date that comparisons would take as text (`due < today`). */
const RELATIVE_DAYS: Record<string, number> = { yesterday: -1, today: 0, now: 0, tomorrow: 1 };

/**
 * The date `word` means when it is `today`, `tomorrow`, `yesterday` or `now` (any case), as
 * `YYYY-MM-DD` in this computer's time zone, for a refusal to name the date to write; null for any
 * other word. Comparisons take no such words: a query's meaning would change from day to day.
 */
export function relativeDayDate(word: string, now = new Date()): string | null {
  const offset = RELATIVE_DAYS[word.toLowerCase()];
  if (offset === undefined) return null;
  return localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset));
}

/** Two digits, zero-padded: a month, day, hour or minute as ISO 8601 writes it. */
export function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}

/** `date`'s calendar day in this computer's time zone, `YYYY-MM-DD`. */
export function localDate(date: Date): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
}
