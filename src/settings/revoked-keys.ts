import { MAX_REVOKED_KEYS, NEVER_CHANGED, type RevokedKey } from './settings';
import { stampMs } from './stamps';

/** True for a plain object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** When a revocation was made, ms since the epoch; unreadable counts as the oldest. */
function revokedAt(entry: RevokedKey): number {
  return stampMs(entry.revoked_at, 0);
}

/**
 * The revocations to keep (settings `revokedKeys`) from one list or several (this device's and a
 * synced data.json's), read leniently ({@link readRevocations}): one entry per id, the latest; the
 * newest {@link MAX_REVOKED_KEYS}, oldest first. A `revoked_at` later than `now` is kept as `now`: a
 * device whose clock runs ahead (or a hand-edited file) cannot date entries so late that a
 * revocation made here afterwards is the first to go. Only what is stored is bounded: what a list
 * revokes is applied whole ({@link revokedIdsIn}) before the bound drops anything.
 * @param lists raw values from data.json (or lists already read).
 * @returns a fresh list, sorted by `revoked_at` (ties keep their order).
 */
export function mergeRevokedKeys(...lists: unknown[]): RevokedKey[] {
  const sorted = [...readRevocations(lists, Date.now()).values()].sort((a, b) => revokedAt(a) - revokedAt(b));
  return sorted.slice(Math.max(0, sorted.length - MAX_REVOKED_KEYS));
}

/**
 * Every key id the lists revoke, however many (no bound: a synced file's revocations are applied
 * whole, then stored bounded by {@link mergeRevokedKeys}).
 * @param lists raw values from data.json (anything but an array counts as no list).
 */
export function revokedIdsIn(...lists: unknown[]): Set<string> {
  return new Set(readRevocations(lists, Date.now()).keys());
}

/**
 * The entries of `lists` by id, the latest of each: an entry with no id (not text, or empty) is
 * dropped, one with an id but no readable `revoked_at` is kept dated the epoch (a revocation is
 * never forgotten for a bad date), and one dated after `now` (ms) is dated `now`.
 */
function readRevocations(lists: readonly unknown[], now: number): Map<string, RevokedKey> {
  const byId = new Map<string, RevokedKey>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '') continue;
      const at = stampMs(raw.revoked_at, NaN);
      const entry: RevokedKey = {
        id: raw.id,
        revoked_at: !Number.isFinite(at) ? NEVER_CHANGED : at > now ? new Date(now).toISOString() : (raw.revoked_at as string),
      };
      const known = byId.get(entry.id);
      if (known === undefined || revokedAt(known) < revokedAt(entry)) byId.set(entry.id, entry);
    }
  }
  return byId;
}
