import { isWithinRoots } from '../../../../src/vault/access/access-rules';
import type { TFile } from 'obsidian';
import type { AccessScope } from '../../../../src/vault/access/access';
import type { NoteStore } from '../../../../src/vault/note-store';
import { ReadableCache } from '../../../../src/search/readable-cache';

const SCOPE: AccessScope = { label: 'Agent', roots: [] };

/** A NoteStore whose scan listing is a snapshot of `readable` when asked, and whose by-path answers read `readable` now. */
class Notes {
  readable = new Map<string, boolean>([
    ['a.md', true],
    ['b.md', false],
    ['c.md', true],
  ]);
  /** Null: no current scan. */
  scanCurrent = true;
  byPath: string[] = [];
  listings = 0;

  get store(): NoteStore {
    return this as unknown as NoteStore;
  }
  readableFromScan(): ((path: string) => boolean | undefined) | null {
    if (!this.scanCurrent) return null;
    this.listings++;
    const snapshot = new Map(this.readable);
    return (path) => snapshot.get(path);
  }
  byLabelInScan(): string[] | null {
    return this.scanCurrent ? ['c.md'] : null;
  }
  fileByPath(path: string): TFile | null {
    this.byPath.push(path);
    return this.readable.has(path) ? ({ path } as TFile) : null;
  }
  isWithinRoots(path: string, roots: readonly string[]): boolean {
    return isWithinRoots(path, roots);
  }
  canRead(file: TFile): boolean {
    return this.readable.get(file.path) === true;
  }
}

describe('ReadableCache: decisions from the build scan listing, by path for what changed since', () => {
  test('a listed caller answers from the listing without a path lookup', () => {
    const notes = new Notes();
    const cache = new ReadableCache(notes.store);
    const { allow } = cache.caller(SCOPE);
    expect(['a.md', 'b.md', 'c.md'].map(allow)).toEqual([true, false, true]);
    expect(notes.byPath).toEqual([]);
    expect(notes.listings).toBe(1);
  });

  test('a note changed since the listing is decided by path, with the same key; the others still from the listing', () => {
    const notes = new Notes();
    const cache = new ReadableCache(notes.store);
    const first = cache.caller(SCOPE);
    expect(first.allow('a.md')).toBe(true);
    // a.md turns private, b.md opens: only a.md's change is reported so far.
    notes.readable.set('a.md', false);
    notes.readable.set('b.md', true);
    cache.forget('a.md');
    const again = cache.caller(SCOPE);
    expect(again.key).toBe(first.key);
    expect(again.allow('a.md')).toBe(false);
    expect(notes.byPath).toEqual(['a.md']);
    expect(again.allow('b.md')).toBe(false);
    cache.forget('b.md');
    expect(again.allow('b.md')).toBe(true);
    // Decided by path once, then kept until the next change.
    expect(again.allow('b.md')).toBe(true);
    expect(notes.byPath).toEqual(['a.md', 'b.md']);
    expect(notes.listings).toBe(1);
  });

  test('a path the listing does not hold is decided by path and kept', () => {
    const notes = new Notes();
    const cache = new ReadableCache(notes.store);
    const { allow } = cache.caller(SCOPE);
    notes.readable.set('new.md', true);
    expect(allow('new.md')).toBe(true);
    expect(allow('new.md')).toBe(true);
    expect(allow('gone.md')).toBe(false);
    expect(notes.byPath).toEqual(['new.md', 'gone.md']);
  });

  test('a scope first asked during a build takes the listing at its first listed call, keeping its key and what it decided by path', () => {
    const notes = new Notes();
    notes.scanCurrent = false;
    const cache = new ReadableCache(notes.store);
    const during = cache.caller(SCOPE, false);
    expect(during.allow('a.md')).toBe(true);
    // Still no current scan: by path.
    expect(cache.caller(SCOPE).allow('b.md')).toBe(false);
    notes.scanCurrent = true;
    const after = cache.caller(SCOPE);
    expect(after.key).toBe(during.key);
    expect(['a.md', 'b.md', 'c.md'].map(after.allow)).toEqual([true, false, true]);
    expect(notes.byPath).toEqual(['a.md', 'b.md']);
    expect(notes.listings).toBe(1);
    // From then on a change is decided by path, not by the listing.
    notes.readable.set('c.md', false);
    cache.forget('c.md');
    expect(cache.caller(SCOPE).allow('c.md')).toBe(false);
    expect(notes.listings).toBe(1);
  });

  test('without a current scan, or for `of` and an unlisted caller, every note is decided by path', () => {
    const notes = new Notes();
    notes.scanCurrent = false;
    const cache = new ReadableCache(notes.store);
    expect(['a.md', 'b.md'].map(cache.caller(SCOPE).allow)).toEqual([true, false]);
    notes.scanCurrent = true;
    const other: AccessScope = { label: 'Other', roots: [] };
    expect(cache.of(other)('c.md')).toBe(true);
    expect(cache.caller({ label: 'Third', roots: [] }, false).allow('a.md')).toBe(true);
    expect(notes.byPath).toEqual(['a.md', 'b.md', 'c.md', 'a.md']);
    expect(notes.listings).toBe(0);
  });

  test('the base caller: the unrestricted decisions from the listing (by path for a path it does not hold), named by every later caller until a clear', () => {
    const notes = new Notes();
    const cache = new ReadableCache(notes.store);
    expect(cache.caller(SCOPE).narrows).toBeUndefined();
    const base = cache.baseCaller()!;
    expect(['a.md', 'b.md', 'c.md'].map(base.allow)).toEqual([true, false, true]);
    expect(notes.byPath).toEqual([]);
    notes.readable.set('new.md', true);
    expect(base.allow('new.md')).toBe(true);
    expect(notes.byPath).toEqual(['new.md']);
    const rooted = cache.caller({ label: 'Agent', roots: ['Projects'] });
    expect(rooted.narrows?.base).toBe(base.key);
    expect(rooted.narrows?.asked).toEqual(['c.md']);
    expect(['Projects/x.md', 'Projectsx/y.md', 'a.md'].map((p) => rooted.narrows?.within?.(p))).toEqual([true, false, false]);
    expect(cache.caller(SCOPE).narrows).toEqual({ base: base.key, within: null, asked: ['c.md'] });
    expect(cache.baseCaller()!.key).not.toBe(base.key);
    cache.clear();
    expect(cache.caller(SCOPE).narrows).toBeUndefined();
    notes.scanCurrent = false;
    expect(cache.baseCaller()).toBeNull();
    expect(cache.caller(SCOPE).narrows).toBeUndefined();
  });
});
