import type { WidgetWriter } from '../../settings/settings';
import type { AccessScope } from '../access/access';

/**
 * A change the vault's write primitives have just made, as plain data, for the agent activity
 * log (docs/architecture.md#agent-activity): the texts around it, so what undoes it can be kept.
 * `before`/`after` are a note's (or widget's) whole text before and after; a move names the
 * old path in `from` and the new one in `path`, and in `linkers` the notes whose text Obsidian's
 * link updates changed with it (at their paths after the move; empty when none); a folder `removed` is an empty folder taken away
 * (undoing a logged create_folder); a widget's `before` is null when it was created, its `after`
 * null when it was removed, and its `writerBefore` the widget's writer record before the change
 * (keys/widget-writers.ts; null: none), which a revert puts back with the text. A delete's `notUtf8` says the note's bytes were not UTF-8, so
 * `before` is them decoded with replacement characters, not the note (its intact copy is in the trash).
 * `created`, on an edit, a create and a move, is the note's (a moved folder's) creation time
 * after the change (`vault.adapter.stat`, ms since the epoch; absent where the vault does not know
 * it), and `inode` the number of the note's file on disk (absent where writes are not seen to keep
 * the file; NoteWriter): what tells a revert that the note at `path` is still the one changed,
 * not another put there since.
 */
export type AppliedChange =
  | { kind: 'edit' | 'properties'; tool: string; path: string; before: string; after: string; created?: number; inode?: string }
  | { kind: 'create'; tool: string; path: string; after: string; created?: number; inode?: string }
  | { kind: 'delete'; tool: string; path: string; before: string; notUtf8?: true }
  | { kind: 'move'; tool: string; from: string; path: string; folder: boolean; linkers: string[]; created?: number; inode?: string }
  | { kind: 'folder'; tool: string; path: string; removed?: true }
  | { kind: 'widget'; tool: string; path: string; before: string | null; after: string | null; writerBefore: WidgetWriter | null };

/** Called after each applied change, with the scope the write ran for (its `actor` says who). */
export type AppliedChangeListener = (change: AppliedChange, scope: AccessScope) => void;

/**
 * The one place the write primitives (NoteWriter, WidgetStore) report what they applied.
 * Listeners run synchronously after the write; one that throws is logged and never undoes
 * or fails the write.
 */
export class AppliedChanges {
  private readonly listeners = new Set<AppliedChangeListener>();

  /** Adds a listener. @returns the function that removes it. */
  on(listener: AppliedChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener about `change`, made for `scope`. */
  report(change: AppliedChange, scope: AccessScope): void {
    for (const listener of this.listeners) {
      try {
        listener(change, scope);
      } catch (err) {
        console.error('[vault-mcp] an applied-change listener failed', err);
      }
    }
  }
}
