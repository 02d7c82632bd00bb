import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access/access';
import type { NoteStore } from '../vault/note-store';
import type { CallerAccess } from './engine/lexical-engine';

/** Access scopes whose per-note read decisions are cached (the most recently used ones). */
const CACHED_SCOPES = 8;

/**
 * NoteStore.canRead per scope (key: roots and label) and note path. A note's readability
 * depends on the scope, the quarantine list (a change of it rebuilds the index, which clears
 * this) and the note's own frontmatter (a change of the note drops its entry), so a search
 * over thousands of matches does not ask the vault layer for each of them again.
 */
export class ReadableCache {
  /**
   * Each scope's decisions by path (null: the note changed since the scope's listing was taken,
   * ask by path), its listing (NoteStore.readableFromScan, or null), and the number its entry was
   * made as (a new entry for a scope gets a new number: see {@link caller}).
   */
  private readonly byScope = new Map<
    string,
    { known: Map<string, boolean | null>; listed: ((path: string) => boolean | undefined) | null; made: number }
  >();
  private made = 0;
  /** The key of the last {@link baseCaller} and the notes of its scan whose access may differ by label; null when none since the last clear. */
  private base: { key: string; asked: readonly string[] } | null = null;

  /** @param notes the vault access layer that decides. */
  constructor(private readonly notes: NoteStore) {}

  /** `canRead(note, scope)` by path, answered from the cache when it can (the scope becomes the most recently used). */
  of(scope: AccessScope): (path: string) => boolean {
    return this.caller(scope, false).allow;
  }

  /**
   * The scope's decisions as the lexical engine's caller (CallerAccess): `allow` as {@link of},
   * and a `key` that stays the same exactly while the scope's decisions are kept (a note's
   * decision changes only when the note changes and its entry is forgotten), so the engine may
   * keep the caller's view and patch it with the notes that change. A scope whose decisions
   * were dropped (cleared, or pushed out by other scopes) gets a new key.
   * @param listed decide from the listing of the build's scan (NoteStore.readableFromScan: a set
   *   lookup and the roots per note, no path lookup, nothing decided ahead), for a caller that
   *   asks about every indexed note at once (a view made afresh); a path it does not list, or
   *   one changed since, is decided by path when asked. A scope first asked without it (during a
   *   build) takes the listing at the first listed call that finds one: the listing is current only
   *   while no note changed since its scan, so it answers every note as the paths would.
   */
  caller(scope: AccessScope, listed = true): { key: string; allow: (path: string) => boolean; narrows?: CallerAccess['narrows'] } {
    const key = scopeKey(scope);
    let entry = this.byScope.get(key);
    if (entry === undefined) {
      entry = { known: new Map(), listed: listed ? this.notes.readableFromScan(scope) : null, made: ++this.made };
      if (this.byScope.size >= CACHED_SCOPES) this.byScope.delete(this.byScope.keys().next().value as string);
    } else {
      this.byScope.delete(key);
      // A scope first asked during a build (unlisted) takes the listing once there is one; what it decided by path stays.
      if (listed && entry.listed === null) entry.listed = this.notes.readableFromScan(scope);
    }
    this.byScope.set(key, entry);
    const { known, listed: fromScan } = entry;
    const allow = (path: string): boolean => {
      let ok = known.get(path);
      if (typeof ok === 'boolean') return ok;
      if (ok === undefined && fromScan !== null) {
        const decided = fromScan(path);
        if (decided !== undefined) return decided;
      }
      ok = this.byPath(path, scope);
      known.set(path, ok);
      return ok;
    };
    const base = this.base;
    if (base === null) return { key: `${key}\u0000${entry.made}`, allow };
    const { roots } = scope;
    const within = roots.length === 0 ? null : (path: string): boolean => this.notes.isWithinRoots(path, roots);
    return { key: `${key}\u0000${entry.made}`, allow, narrows: { base: base.key, within, asked: base.asked } };
  }

  /**
   * The unrestricted scope's decisions from the build's scan (NoteStore.readableFromScan; by path
   * for a note it does not list) as the engine's base caller (LexicalEngine.baseViewSteps), while
   * that scan is current; else null. From then until {@link clear}, every {@link caller} names it
   * in `narrows`: a note unchanged since the scan is read by a scope exactly when the unrestricted
   * scope reads it and it lies within the scope's roots, unless its access may differ by label
   * (NoteStore.byLabelInScan: those are `asked`). Changed notes are the engine's to judge again.
   */
  baseCaller(): CallerAccess | null {
    const listed = this.notes.readableFromScan(UNRESTRICTED_SCOPE);
    const asked = this.notes.byLabelInScan();
    if (listed === null || asked === null) return null;
    const key = `\u0001scan\u0000${++this.made}`;
    this.base = { key, asked };
    return { key, allow: (path) => listed(path) ?? this.byPath(path, UNRESTRICTED_SCOPE) };
  }

  /** `canRead` of the note at `path` (false when there is none), looked up by path. */
  private byPath(path: string, scope: AccessScope): boolean {
    const file = this.notes.fileByPath(path);
    return file !== null && this.notes.canRead(file, scope);
  }

  /** Drops every scope's decision about the note at `path` (it changed): the next is made by path. */
  forget(path: string): void {
    for (const { known, listed } of this.byScope.values()) {
      if (listed === null) known.delete(path);
      else known.set(path, null);
    }
  }

  /** Drops every decision, and the base caller. */
  clear(): void {
    this.byScope.clear();
    this.base = null;
  }
}

/** What a scope's read decisions depend on besides the notes themselves: its label (agent_overrides) and roots (key and client roots). */
export function scopeKey(scope: AccessScope): string {
  return JSON.stringify([scope.label, scope.roots]);
}
