import { MAX_REVOKED_KEYS, NEVER_CHANGED, type RevokedKey } from './settings';

/** True for a plain object (not null, not an array). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** When a revocation was made, ms since the epoch; unreadable counts as the oldest. */
function revokedAt(entry: RevokedKey): number {
  const at = Date.parse(entry.revoked_at);
  return Number.isFinite(at) ? at : 0;
}

/**
 * The revocations to keep (settings `revokedKeys`) from one list or several (this device's and a
 * synced data.json's), read leniently: an entry with no id (not text, or empty) is dropped, one
 * with an id but no readable `revoked_at` is kept dated the epoch (a revocation is never forgotten
 * for a bad date; it is the first to go when the list is full). One entry per id, the latest; the
 * newest {@link MAX_REVOKED_KEYS}, oldest first. Anything but an array counts as no list.
 * @param lists raw values from data.json (or lists already read).
 * @returns a fresh list, sorted by `revoked_at` (ties keep their order).
 */
export function mergeRevokedKeys(...lists: unknown[]): RevokedKey[] {
  const byId = new Map<string, RevokedKey>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!isObject(raw) || typeof raw.id !== 'string' || raw.id === '') continue;
      const entry: RevokedKey = {
        id: raw.id,
        revoked_at: typeof raw.revoked_at === 'string' && Number.isFinite(Date.parse(raw.revoked_at)) ? raw.revoked_at : NEVER_CHANGED,
      };
      const known = byId.get(entry.id);
      if (known === undefined || revokedAt(known) < revokedAt(entry)) byId.set(entry.id, entry);
    }
  }
  const sorted = [...byId.values()].sort((a, b) => revokedAt(a) - revokedAt(b));
  return sorted.slice(Math.max(0, sorted.length - MAX_REVOKED_KEYS));
}
