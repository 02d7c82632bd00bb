/**
 * Reading and making the ISO 8601 stamps data.json carries (`changed_at`, `fieldTimes`, access
 * `entryTimes`, `revoked_at`): one reading for every caller, each with its own fallback for a
 * stamp that is missing or reads as no time.
 */

/** `fieldTimes` (settings/field-times.ts): a field's name → when it was last changed (ISO 8601), here or on a synced device. */
export type FieldTimes = Record<string, string>;

/**
 * A stamp as ms since the epoch.
 * @param stamp anything read from data.json; only text that `Date.parse` reads is a time.
 * @param fallback what a missing, non-text or unreadable stamp counts as (ms; `-Infinity` for
 *   "never happened", 0 for "the oldest time", NaN to tell it apart).
 */
export function stampMs(stamp: unknown, fallback: number): number {
  const at = typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return Number.isFinite(at) ? at : fallback;
}

/** `raw` when it is text that reads as a time, else undefined. */
export function readableStamp(raw: unknown): string | undefined {
  return Number.isFinite(stampMs(raw, NaN)) ? (raw as string) : undefined;
}

/**
 * The stamp of a change made now that replaces `previous`: `now`, or 1 ms after `previous` when
 * that is not earlier (a stamp from a device whose clock runs ahead, a clock set back here, the
 * same millisecond), so the change made here always beats the stamp it replaced.
 * @param previous the stamp replaced (missing or unreadable: none).
 * @param now the time of the change, ms since the epoch.
 * @returns an ISO 8601 time.
 */
export function nextStamp(previous: unknown, now: number = Date.now()): string {
  return new Date(Math.max(now, stampMs(previous, -Infinity) + 1)).toISOString();
}

/**
 * The later of two stamps (either may be missing; a missing or unreadable one counts as the
 * oldest; `a` on a tie), as the sync merge keeps the later of two `changed_at` or entry times.
 */
export function laterTime(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return stampMs(b, -Infinity) > stampMs(a, -Infinity) ? b : a;
}
