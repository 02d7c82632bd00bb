import { TFile, TFolder, type App, type EventRef } from 'obsidian';
import type { NotePolicy } from './note-policy';

/** A note change, reported after the metadata cache has caught up with it. */
export interface NoteChange {
  type: 'create' | 'modify' | 'delete' | 'rename';
  /** The note's vault path (the new path for a rename). */
  path: string;
  /** The previous path, for a rename only. */
  oldPath?: string;
}

/**
 * Subscribes to note changes (Markdown files only): create/modify once the metadata cache
 * has re-parsed the note (`metadataCache` 'changed'; a 'changed' for a path the vault just
 * reported in 'create' is a create), delete and rename from the vault's events, and a
 * 'modify' when an unparseable frontmatter block has been read, or a note whose rules may have
 * changed was changed, before the metadata cache parsed it (`policy.onAccessLearned`: its
 * access may differ now). Readability is not filtered here: listeners check it themselves.
 * @returns a function that unsubscribes.
 */
export function followNoteChanges(
  app: App,
  policy: Pick<NotePolicy, 'onAccessLearned'>,
  listener: (change: NoteChange) => void,
): () => void {
  const { vault, metadataCache } = app;
  const created = new Set<string>();
  const refs: Array<{ source: { offref(ref: EventRef): void }; ref: EventRef }> = [
    {
      source: vault,
      ref: vault.on('create', (file) => {
        if (file instanceof TFile && file.extension === 'md') created.add(file.path);
      }),
    },
    {
      source: metadataCache,
      ref: metadataCache.on('changed', (file) => {
        const type = created.delete(file.path) ? 'create' : 'modify';
        listener({ type, path: file.path });
      }),
    },
    {
      source: vault,
      ref: vault.on('delete', (file) => {
        if (!(file instanceof TFile) || file.extension !== 'md') return;
        created.delete(file.path);
        listener({ type: 'delete', path: file.path });
      }),
    },
    {
      source: vault,
      ref: vault.on('rename', (file, oldPath) => {
        if (!(file instanceof TFile) || (file.extension !== 'md' && !oldPath.endsWith('.md'))) return;
        if (created.delete(oldPath)) created.add(file.path);
        listener({ type: 'rename', path: file.path, oldPath });
      }),
    },
  ];
  const unlearn = policy.onAccessLearned((path) => listener({ type: 'modify', path }));
  return () => {
    unlearn();
    for (const { source, ref } of refs) source.offref(ref);
  };
}

/**
 * Subscribes to the files other than notes being created, deleted or renamed (the vault's
 * `create`, `delete` and `rename` events for a file that is not Markdown before or after; a
 * note's own changes come from {@link followNoteChanges}). Their text is not followed: what
 * depends on them is the list of files (a skill's prompt names the other files of its folder).
 * @returns a function that unsubscribes.
 */
export function followOtherFiles(app: App, listener: (change: NoteChange) => void): () => void {
  const { vault } = app;
  const other = (file: unknown): file is TFile => file instanceof TFile && file.extension !== 'md';
  const refs = [
    vault.on('create', (file) => other(file) && listener({ type: 'create', path: file.path })),
    vault.on('delete', (file) => other(file) && listener({ type: 'delete', path: file.path })),
    vault.on(
      'rename',
      (file, oldPath) => other(file) && !oldPath.endsWith('.md') && listener({ type: 'rename', path: file.path, oldPath }),
    ),
  ];
  return () => {
    for (const ref of refs) vault.offref(ref);
  };
}

/**
 * Subscribes to every file rename or move, notes and other files alike (the vault's `rename`
 * event for a `TFile`; a folder's rename fires it for each file in it): where a widget's writer
 * record follows its text (keys/widget-writers.ts), even through a name that is not a widget's.
 * @returns a function that unsubscribes.
 */
export function followFileRenames(app: App, listener: (change: NoteChange) => void): () => void {
  const { vault } = app;
  const ref = vault.on('rename', (file, oldPath) => {
    if (file instanceof TFile) listener({ type: 'rename', path: file.path, oldPath });
  });
  return () => vault.offref(ref);
}

/**
 * Subscribes to folders being created, deleted or renamed (the vault's `create`, `delete` and
 * `rename` events for a `TFolder`; Obsidian fires them for folders as for files). A folder's
 * path decides whether a create_folder, or a move onto that path, can still be made.
 * @returns a function that unsubscribes.
 */
export function followFolders(app: App, listener: (change: NoteChange) => void): () => void {
  const { vault } = app;
  const refs = [
    vault.on('create', (entry) => entry instanceof TFolder && listener({ type: 'create', path: entry.path })),
    vault.on('delete', (entry) => entry instanceof TFolder && listener({ type: 'delete', path: entry.path })),
    vault.on('rename', (entry, oldPath) => entry instanceof TFolder && listener({ type: 'rename', path: entry.path, oldPath })),
  ];
  return () => {
    for (const ref of refs) vault.offref(ref);
  };
}
