import type { CorpusView, TermIndex } from './term-index';

/** Callers whose {@link CorpusView} is kept (the most recently used ones). */
const CACHED_VIEWS = 8;
/**
 * Documents added or removed since a kept view was made that it takes as a patch; past this
 * many (a build, a folder moved) the view is made again over every document. A patch judges
 * only these and copies the view's flags (a few µs per thousand documents); a view made again
 * asks the caller's access rule about every document (tens of ms at 100k notes).
 */
const MAX_PATCHED = 4096;

/** A kept view: the index version it is valid at, and the documents changed since (null: too many to patch). */
interface KeptView {
  version: number;
  view: CorpusView;
  changed: number[] | null;
}

/**
 * The {@link CorpusView} of each recent caller, kept across index changes: a note edit adds
 * one document and removes another, and the caller's view is then patched
 * (TermIndex.patched: those documents judged again) rather than made again over every
 * document. A caller is known by its key: the same key must mean the same access rule, with
 * the same answer for every document the index did not change since (a rule whose answers may
 * change otherwise must come under a new key). The owner reports every document it adds or
 * removes ({@link changed}) and drops every view when it replaces or clears the index.
 */
export class CorpusViews {
  private readonly views = new Map<string, KeptView>();

  /** @param index the index the views are of (the owner's current one: it may replace it, then calls {@link clear}). */
  constructor(private readonly index: () => TermIndex) {}

  /** Notes that document `doc` was just added to the index or removed from it (the index's version moved by one). */
  changed(doc: number): void {
    for (const kept of this.views.values()) {
      if (kept.changed === null) continue;
      if (kept.changed.length >= MAX_PATCHED) kept.changed = null;
      else kept.changed.push(doc);
    }
  }

  /** Drops every view (the index was cleared or replaced). */
  clear(): void {
    this.views.clear();
  }

  /**
   * The view of the caller known by `key` at the index's current version: the kept one, patched
   * with the documents changed since when there are few, else made by TermIndex.view.
   * @param allow by doc id; for a patch it is asked only about the changed documents
   */
  of(key: string, allow: (doc: number) => boolean): CorpusView {
    const index = this.index();
    const version = index.version;
    const kept = this.views.get(key);
    this.views.delete(key);
    let view: CorpusView;
    if (kept !== undefined && kept.version === version) view = kept.view;
    // Every version step is one document added or removed: a count that disagrees means a change not reported, and the view is made again.
    else if (kept !== undefined && kept.changed !== null && version - kept.version === kept.changed.length)
      view = index.patched(kept.view, kept.changed, allow);
    else view = index.view(allow);
    this.views.set(key, { version, view, changed: [] });
    if (this.views.size > CACHED_VIEWS) this.views.delete(this.views.keys().next().value as string);
    return view;
  }
}
