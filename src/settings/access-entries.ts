/**
 * Per-entry times of the two access lists (`access.quarantine`, `access.trustedSymlinks`), so a
 * synced data.json is merged entry by entry rather than block by block (docs/settings.md#synced-settings).
 * The settings tab records when the user added (`added`) or removed (`removed`, a tombstone) each
 * entry; on an outside change an entry is present when its latest `added` over both sides is later
 * than its latest `removed` over both sides. A device that never touched an entry has no tombstone
 * for it, so it cannot lift a quarantine (or trust a link again) whatever its clock or its other edits.
 */
import { laterTime, nextStamp, readableStamp, stampMs } from './stamps';

/** When one list entry was last added and last removed here or on a synced device (ISO 8601). */
export interface EntryTime {
  added?: string;
  removed?: string;
}

/** The two access lists whose entries carry times. */
export const TIMED_LISTS = ['quarantine', 'trustedSymlinks'] as const;
/** One of {@link TIMED_LISTS}. */
export type TimedList = (typeof TIMED_LISTS)[number];

/** `access.entryTimes`: per list, path (as the list spells it) → its times. */
export type AccessEntryTimes = Record<TimedList, Record<string, EntryTime>>;

/**
 * How many tombstones (entries removed and not listed) each list keeps, newest first. Each is a
 * path and a time (under 100 bytes); the bound keeps data.json small when a list is edited for
 * years. A tombstone dropped past it only matters to a device offline through that many later
 * removals, whose copy may then list the entry again (docs/settings.md#synced-settings).
 */
export const MAX_TOMBSTONES = 200;

/** The access lists and their times, as the merge reads and returns them. */
export interface TimedAccess {
  quarantine: unknown[];
  trustedSymlinks: unknown[];
  entryTimes?: AccessEntryTimes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads `access.entryTimes` as saved, leniently (a synced or hand-edited file must never stop the
 * load): anything not an object is no times; per list, anything not an object is no times; an
 * entry's `added` / `removed` that is not text reading as a time is dropped (an entry left with
 * neither is dropped). Never throws.
 * @param raw `access.entryTimes` as parsed (anything).
 * @returns a fresh object with both lists (possibly empty).
 */
export function readEntryTimes(raw: unknown): AccessEntryTimes {
  const out: AccessEntryTimes = { quarantine: {}, trustedSymlinks: {} };
  if (!isObject(raw)) return out;
  for (const list of TIMED_LISTS) {
    const given = raw[list];
    if (!isObject(given)) continue;
    for (const [path, entry] of Object.entries(given)) {
      if (!isObject(entry) || path === '__proto__') continue;
      const added = readableStamp(entry.added);
      const removed = readableStamp(entry.removed);
      if (added === undefined && removed === undefined) continue;
      out[list][path] = { ...(added ? { added } : {}), ...(removed ? { removed } : {}) };
    }
  }
  return out;
}

/**
 * Records in `access` that the user added (`added`) or removed (`removed`) `path` of `list` at
 * `now` (or 1 ms after the opposite time recorded here when that is not earlier: a clock set back,
 * the same millisecond, so the user's last action wins), as the settings tab does on each change; tombstones past {@link MAX_TOMBSTONES} are dropped,
 * oldest first.
 * @param access the settings' access block (its `entryTimes` is created when missing).
 * @param now the time of the change (ISO 8601).
 */
export function recordEntryChange(access: TimedAccess, list: TimedList, path: string, change: 'added' | 'removed', now: string): void {
  const times = (access.entryTimes ??= { quarantine: {}, trustedSymlinks: {} });
  // A folder named `__proto__` is listed untimed (added at the epoch) rather than set as the map's prototype.
  if (path === '__proto__') return;
  const entry = own(times[list], path);
  // Never at or before the opposite time recorded here (a clock set back, the same millisecond): the user's last action wins.
  const at = nextStamp(change === 'added' ? entry.removed : entry.added, stampMs(now, -Infinity));
  times[list][path] = { ...entry, [change]: at };
  times[list] = boundTombstones(times[list], new Set(access[list].filter((p): p is string => typeof p === 'string')));
}

/** `times` with at most {@link MAX_TOMBSTONES} entries not in `listed`, the newest removals kept. */
function boundTombstones(times: Record<string, EntryTime>, listed: Set<string>): Record<string, EntryTime> {
  const stones = Object.keys(times).filter((p) => !listed.has(p));
  if (stones.length <= MAX_TOMBSTONES) return times;
  const drop = new Set(
    stones.sort((a, b) => stampMs(times[b].removed, -Infinity) - stampMs(times[a].removed, -Infinity)).slice(MAX_TOMBSTONES),
  );
  return Object.fromEntries(Object.entries(times).filter(([p]) => !drop.has(p)));
}

/** The times `map` holds for `path` itself (never an inherited property), or none. */
function own(map: Record<string, EntryTime>, path: string): EntryTime {
  return Object.hasOwn(map, path) ? map[path] : {};
}

/** The result of {@link mergeAccessLists}. */
export interface MergedAccess {
  quarantine: unknown[];
  trustedSymlinks: unknown[];
  entryTimes: AccessEntryTimes;
  /** True when the result holds an entry, or a time, that the synced side lacked (data.json should be saved again). */
  keptMine: boolean;
  /** True when a list differs from this device's (the search index and agents' views must be rebuilt). */
  changed: boolean;
}

/**
 * Merges this device's access lists (`mine`) with a synced file's (`theirs`, as migrated) entry by
 * entry: each list holds every path either side lists or has times for whose latest `added` (over
 * both sides; a path listed with no `added` counts as added at the epoch) is later than its latest
 * `removed` (over both sides). Both sides' times are kept (the later of each), tombstones bounded by
 * {@link MAX_TOMBSTONES}. Entries that are not text (a hand edit) are kept as listed on either side
 * (quarantine.ts names them). Order: this device's entries first, then the synced ones new here.
 * Never throws. Rule: docs/settings.md#synced-settings.
 * @returns the merged lists and times, and whether anything of this device's was kept.
 */
export function mergeAccessLists(mine: TimedAccess, theirs: TimedAccess): MergedAccess {
  const mineTimes = readEntryTimes(mine.entryTimes);
  const theirTimes = readEntryTimes(theirs.entryTimes);
  const entryTimes: AccessEntryTimes = { quarantine: {}, trustedSymlinks: {} };
  let keptMine = false;
  let changed = false;
  const out: Pick<MergedAccess, TimedList> = { quarantine: [], trustedSymlinks: [] };
  for (const list of TIMED_LISTS) {
    const mineList = Array.isArray(mine[list]) ? mine[list] : [];
    const theirList = Array.isArray(theirs[list]) ? theirs[list] : [];
    // A Set keeps the first place of each entry (insertion order) in one pass, whatever the lists' length.
    const candidates = new Set<unknown>([...mineList, ...theirList, ...Object.keys(mineTimes[list]), ...Object.keys(theirTimes[list])]);
    const times: Record<string, EntryTime> = {};
    const result: unknown[] = [];
    const listedHere = new Set<unknown>([...mineList, ...theirList]);
    for (const p of candidates) {
      if (typeof p !== 'string') {
        result.push(p);
        continue;
      }
      const a = own(mineTimes[list], p);
      const b = own(theirTimes[list], p);
      const merged: EntryTime = {};
      const added = laterTime(a.added, b.added);
      const removed = laterTime(a.removed, b.removed);
      if (added) merged.added = added;
      if (removed) merged.removed = removed;
      if ((added || removed) && p !== '__proto__') times[p] = merged;
      const listed = listedHere.has(p);
      // A missing or unreadable time never happened (-Infinity); a listed entry was added at the epoch at least.
      const addedAt = Math.max(stampMs(added, -Infinity), listed ? 0 : -Infinity);
      if (addedAt > stampMs(removed, -Infinity)) result.push(p);
      if ((added !== undefined && added !== b.added) || (removed !== undefined && removed !== b.removed)) keptMine = true;
    }
    entryTimes[list] = boundTombstones(times, new Set(result.filter((p): p is string => typeof p === 'string')));
    out[list] = result;
    if (!sameMembers(result, theirList)) keptMine = true;
    if (!sameMembers(result, mineList)) changed = true;
  }
  return { ...out, entryTimes, keptMine, changed };
}

/** Whether two lists hold the same entries, order aside (as many of them, each in both). */
function sameMembers(a: unknown[], b: unknown[]): boolean {
  const inA = new Set(a);
  const inB = new Set(b);
  return a.length === b.length && inA.size === inB.size && [...inA].every((x) => inB.has(x));
}
