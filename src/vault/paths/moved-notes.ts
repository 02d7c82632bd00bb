import { TFile, type App, type EventRef } from 'obsidian';
import { fileAtExactPath } from './lookup';
import { foldPath } from './paths';

/** Most moves remembered; the oldest is forgotten first (a path is a few dozen bytes: about 100 KB at most). */
const MAX_MOVES = 1000;

/** Most moves followed from one path (a note renamed, then moved, then renamed again…); a cycle stops there too. */
const MAX_HOPS = 16;

/**
 * Where Markdown notes went when they were renamed or moved (vault `rename` events, one per note
 * of a moved folder, as Obsidian sends them) since the plugin loaded: an agent that kept a note's
 * old path, from a search or an earlier answer, is told the path the note has now instead of a
 * bare "not found" (session 41's leftover: a moved note was not suggested for its old path). Kept
 * in memory only, at most {@link MAX_MOVES}; paths compared as lookups compare them (foldPath:
 * case and Unicode form).
 */
export class MovedNotes {
  /** Folded old path → the path the note was given. */
  private readonly movedTo = new Map<string, string>();
  /** Folded old name (a renamed note's file name without `.md`) → the path the note was given: a bare name finds it too. */
  private readonly renamedFrom = new Map<string, string>();
  private readonly ref: EventRef;

  /** @param app the Obsidian app whose vault's `rename` events are followed until {@link close}. */
  constructor(private readonly app: App) {
    this.ref = app.vault.on('rename', (file, oldPath) => {
      if (file instanceof TFile && file.extension === 'md') this.record(oldPath, file.path);
    });
  }

  /**
   * Remembers that the note at `oldPath` is now at `newPath`. A move back onto a remembered old
   * path (`A` → `B` → `A`) makes that path a note's again: its entry goes.
   * @param oldPath the vault path before the rename; `newPath` the path after it.
   */
  record(oldPath: string, newPath: string): void {
    const key = foldPath(oldPath);
    this.movedTo.delete(foldPath(newPath));
    this.movedTo.delete(key);
    this.movedTo.set(key, newPath);
    if (this.movedTo.size > MAX_MOVES) this.movedTo.delete(this.movedTo.keys().next().value as string);
    const [oldName, newName] = [nameOf(oldPath), nameOf(newPath)];
    this.renamedFrom.delete(newName);
    if (oldName !== newName) this.renamedFrom.set(oldName, newPath);
    if (this.renamedFrom.size > MAX_MOVES) this.renamedFrom.delete(this.renamedFrom.keys().next().value as string);
  }

  /**
   * The note a remembered old path leads to now, following later moves of the same note.
   * @param path a vault path as the caller typed it (made vault-relative), e.g. `Projects/Old.md`; a bare
   *   name (`Old`, `Old.md`) is also looked up among the old names of renamed notes
   * @returns the note at the end of the moves, or null when `path` is no remembered old path or
   *   no Markdown note is at the end (it was deleted since). The caller judges whether the key may read it.
   */
  noteNowAt(path: string): TFile | null {
    // A bare name (no folder) is also looked up among renamed notes' old names: `Alpha plan` after its rename to `Plan A`.
    let now: string | undefined = path.includes('/') || this.movedTo.has(foldPath(path)) ? undefined : this.renamedFrom.get(nameOf(path));
    let at = foldPath(now ?? path);
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const next = this.movedTo.get(at);
      if (next === undefined) break;
      now = next;
      at = foldPath(next);
    }
    const file = now === undefined ? null : fileAtExactPath(this.app.vault, now);
    return file !== null && file.extension === 'md' ? file : null;
  }

  /** Stops following the vault's events; call when the plugin unloads. */
  close(): void {
    this.app.vault.offref(this.ref);
  }
}

/** A path's file name without `.md`, folded as paths are compared (`Projects/Alpha plan.md` → `alpha plan`). */
function nameOf(path: string): string {
  return foldPath(path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, ''));
}
