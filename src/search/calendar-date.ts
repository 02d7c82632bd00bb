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

/** What may follow a date in a compared value: a time of day `THH:MM`, `THH:MM:SS` or `THH:MM:SS.fff`, as Obsidian's date & time property writes it. */
const TIME_OF_DAY = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;

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
