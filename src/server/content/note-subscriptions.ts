import type { NoteChange } from '../../vault/note-store';
import { noteUri, pathOfNoteUri, type NoteResources } from './note-resources';

/**
 * The note URIs one viewer is subscribed to (a session's `resources/subscribe`, or the
 * `subscriptions/listen` streams of one key in the 2026-07-28 era), each with whether the viewer
 * could read that note when it was last judged: when subscribed, on each change of the note, and
 * on each {@link recheck} (the key's label or roots, the client's roots or the access settings
 * changed). That memory is what decides for a note whose rules can no longer be read: a deleted
 * note, or the old path of a renamed one, is reported only to a viewer that could read it, so a
 * key never learns when a note it could not read is changed, renamed or deleted
 * (docs/resources-and-prompts.md). A note leaving the viewer's view gets one update, as a
 * deletion would; one entering it gets one too. One edit is told once, though the vault may report
 * it twice (a note naming access rules: once when its new rules are read from the file, again when
 * the metadata cache has parsed it): a note still readable and still the version (modification
 * time and size) last told is not told again.
 */
export class NoteSubscriptions {
  /** By the URI as the client spelled it (`vault-mcp://note/SUB1.md`): updates go out under that spelling (MCP 2025-11-25, resources/subscribe). */
  private readonly held = new Map<string, { canonical: string; readable: boolean; holders: number; told?: string | null }>();
  /** The spellings held for each canonical URI (the note's own, as resources/list gives it). */
  private readonly spellings = new Map<string, Set<string>>();

  /** True when no URI is held. */
  get empty(): boolean {
    return this.held.size === 0;
  }

  /**
   * Adds one holder of `uri` (a second subscription of the same URI counts twice) and records whether
   * the viewer may read it now.
   * @param uri the URI as the client spelled it; updates are sent under it.
   * @param readable the viewer's verdict now (true for a URI that is no note URI, an add-on's).
   * @param canonical the note's own URI when the client spelled it otherwise (case, `%20` for a space);
   *   vault changes are matched by it. Default `uri`.
   */
  hold(uri: string, readable: boolean, canonical = uri): void {
    const entry = this.held.get(uri);
    if (entry !== undefined && entry.canonical !== canonical) this.release(uri, true);
    this.held.set(uri, { canonical, readable, holders: (this.held.get(uri)?.holders ?? 0) + 1 });
    const spelt = this.spellings.get(canonical) ?? new Set<string>();
    this.spellings.set(canonical, spelt.add(uri));
  }

  /** Drops one holder of `uri` as the client spelled it (every holder with `all`, as `resources/unsubscribe` does); forgotten at none. */
  release(uri: string, all = false): void {
    const entry = this.held.get(uri);
    if (!entry) return;
    if (!all && --entry.holders > 0) return;
    this.held.delete(uri);
    const spelt = this.spellings.get(entry.canonical);
    spelt?.delete(uri);
    if (spelt?.size === 0) this.spellings.delete(entry.canonical);
  }

  /**
   * The held URIs a vault change must be reported to, each as the client spelled it: a note's URI
   * (its new one after a rename) that the viewer may read after the change, or that it could read
   * before and that changed, was deleted or renamed away (a removed note's path must still lie in
   * the viewer's quarantine and roots). Records the new verdicts.
   * @param view what the viewer may read now; null when it may read nothing (then nothing is reported).
   */
  changed(change: NoteChange, view: NoteResources | null): string[] {
    const paths = change.oldPath === undefined ? [change.path] : [change.path, change.oldPath];
    const told: string[] = [];
    for (const path of paths) {
      for (const uri of this.spellings.get(noteUri(path)) ?? []) {
        const entry = this.held.get(uri);
        if (!entry) continue;
        const was = entry.readable;
        const removed = change.type === 'delete' || path === change.oldPath;
        // A removed note has no rules left to judge: its last verdict stands, if its path is still in view.
        entry.readable = !removed && view !== null && view.canReadPath(path);
        const version = entry.readable && view ? view.versionOf(path) : null;
        const again = was && entry.readable && version !== null && version === entry.told;
        if (view && !again && (entry.readable || (was && (!removed || view.admitsPath(path))))) told.push(uri);
        entry.told = version;
      }
    }
    return told;
  }

  /**
   * Judges every held note URI again (the viewer's access changed while its notes did not).
   * @param view what the viewer may read now; null when nothing.
   * @returns the URIs, as the client spelled them, whose verdict changed: a note that left or entered the viewer's view.
   */
  recheck(view: NoteResources | null): string[] {
    const told: string[] = [];
    for (const [uri, entry] of this.held) {
      const path = pathOfNoteUri(entry.canonical);
      if (path === null) continue;
      const readable = view !== null && view.canReadPath(path);
      if (readable !== entry.readable && view) told.push(uri);
      if (readable !== entry.readable) entry.told = null;
      entry.readable = readable;
    }
    return told;
  }
}
