import type { AccessScope } from '../vault/access/access';
import type { NoteStore } from '../vault/note-store';

/** Access scopes whose per-note read decisions are cached (the most recently used ones). */
const CACHED_SCOPES = 8;

/**
 * NoteStore.canRead per scope (key: roots and label) and note path. A note's readability
 * depends on the scope, the quarantine list (a change of it rebuilds the index, which clears
 * this) and the note's own frontmatter (a change of the note drops its entry), so a search
 * over thousands of matches does not ask the vault layer for each of them again.
 */
export class ReadableCache {
  private readonly byScope = new Map<string, Map<string, boolean>>();

  /** @param notes the vault access layer that decides. */
  constructor(private readonly notes: NoteStore) {}

  /** `canRead(note, scope)` by path, answered from the cache when it can (the scope becomes the most recently used). */
  of(scope: AccessScope): (path: string) => boolean {
    const key = scopeKey(scope);
    let known = this.byScope.get(key);
    if (known === undefined) {
      known = new Map();
      if (this.byScope.size >= CACHED_SCOPES) this.byScope.delete(this.byScope.keys().next().value as string);
    } else this.byScope.delete(key);
    this.byScope.set(key, known);
    const cache = known;
    return (path) => {
      let ok = cache.get(path);
      if (ok === undefined) {
        const file = this.notes.fileByPath(path);
        ok = file !== null && this.notes.canRead(file, scope);
        cache.set(path, ok);
      }
      return ok;
    };
  }

  /** Drops every scope's decision about the note at `path` (it changed). */
  forget(path: string): void {
    for (const known of this.byScope.values()) known.delete(path);
  }

  /** Drops every decision. */
  clear(): void {
    this.byScope.clear();
  }
}

/** What a scope's read decisions depend on besides the notes themselves: its label (agent_overrides) and roots (key and client roots). */
export function scopeKey(scope: AccessScope): string {
  return JSON.stringify([scope.label, scope.roots]);
}
