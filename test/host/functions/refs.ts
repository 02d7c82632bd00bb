import type * as O from 'obsidian';

/** The API version the host implements (the installed type definitions'). */
export const HOST_API_VERSION = '1.13.1';

/** Version of the Obsidian API the host reports; tests of feature-checked fallbacks lower it with `setHostApiVersion`. */
export let apiVersion = HOST_API_VERSION;

/**
 * Host only: makes `apiVersion` and `requireApiVersion` answer as an app of `version` (x.y.z)
 * would, so a test can run the fallback of a feature check; call with no argument to restore.
 */
export function setHostApiVersion(version: string = HOST_API_VERSION): void {
  apiVersion = version;
}

/** Obsidian's `requireApiVersion`: true when `version` (x.y.z) is at most `apiVersion`. */
export function requireApiVersion(version: string): boolean {
  const a = apiVersion.split('.').map(Number);
  const b = version.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Obsidian's `iterateRefs`: calls `cb` per reference until it returns true; returns whether it did. */
export function iterateRefs(refs: O.Reference[], cb: (ref: O.Reference) => boolean | void): boolean {
  for (const ref of refs) if (cb(ref)) return true;
  return false;
}

/** Obsidian's `iterateCacheRefs`: iterateRefs over a cache's links, then its embeds. */
export function iterateCacheRefs(cache: O.CachedMetadata, cb: (ref: O.ReferenceCache) => boolean | void): boolean {
  return iterateRefs([...(cache.links ?? []), ...(cache.embeds ?? [])], cb as (ref: O.Reference) => boolean | void);
}
