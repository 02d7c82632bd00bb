import { TFile, TFolder, type App } from 'obsidian';
import { ToolError } from '../../errors';
import type { WidgetWriter } from '../../settings/settings';
import type { AccessScope } from '../access/access';
import { hashText } from '../hash';
import type { NotePolicy } from '../note-policy';
import { findEntry } from '../paths/lookup';
import { assertNotDeviceName } from '../paths/note-names';
import { WriteLock } from '../writes/write-lock';
import { AppliedChanges } from '../writes/applied-change';
import { unchangedWrite, type HoldRule, type PreparedWrite } from '../writes/write-types';
import { assertWidgetId, isWidgetId, parseWidgetManifest, type WidgetManifest } from './widget-manifest';

/** The tool that writes widgets; a proposal staged by it is accepted through {@link WidgetStore.acceptStaged}. */
export const WIDGET_WRITE_TOOL = 'widget_write';

/**
 * A widget text about to be written: the widget id, the caller's scope and the new text; on a
 * revert, `restoring` carries the writer record the text put back had when it was replaced or
 * taken away (null: no key's, the user's own; undefined: not known, an entry logged before
 * writers were kept), which becomes the widget's record instead of the reverting scope's key.
 */
export interface WidgetWrite {
  id: string;
  scope: AccessScope;
  text: string;
  restoring?: { writer: WidgetWriter | null | undefined };
}

/** What {@link WidgetProvenance.noteWrite} answers: the widget's record before, and how to put it back when the write fails. */
export interface WidgetWriteTicket {
  /** The record the widget had before this write: the writer of the text being replaced (null: none). */
  before: WidgetWriter | null;
  /** Puts the record back as it was before this write (the write failed). Never throws. */
  undo(): Promise<void>;
}

/**
 * Who wrote each widget text (keys/widget-writers.ts WidgetWriters; WidgetStore's constructor):
 * told before every widget create or replace, asked for a widget's record when it is taken away.
 */
export interface WidgetProvenance {
  /** Records who writes `write.text` as widget `write.id`; when it throws, nothing is written. */
  noteWrite(write: WidgetWrite): Promise<WidgetWriteTicket>;
  /** The record widget `id` has now (its last writer), or null. */
  writerOf(id: string): WidgetWriter | null;
  /**
   * Records that the file at vault path `path` (a replace's backup) now holds `text`, written by
   * `writer` (the replaced widget's record; null: no key's). Never throws (saved in the background).
   */
  noteBackup(path: string, text: string, writer: WidgetWriter | null): void;
}

/** Provenance that records nothing (tests and internal stores without keys). */
const NO_PROVENANCE: WidgetProvenance = {
  noteWrite: async () => ({ before: null, undo: async () => {} }),
  writerOf: () => null,
  noteBackup: () => {},
};

/** One widget as widget_list shows it: metadata only, never the HTML. */
export interface WidgetEntry {
  /** The file name without `.html`. */
  id: string;
  /** From the manifest; null when the manifest is missing or invalid (see `error`). */
  name: string | null;
  description: string | null;
  query: string | null;
  /** Vault path of the widget file. */
  path: string;
  /** SHA-256 hex of the file's text: widget_write's `expected_hash` for a replace. */
  hash: string;
  /** Why the widget cannot be used, one sentence; absent when it is fine. */
  error?: string;
}

/** A widget file read whole (for rendering it), with its manifest when valid. */
export interface WidgetFile {
  id: string;
  path: string;
  html: string;
  hash: string;
  manifest: WidgetManifest | null;
  error?: string;
}

/**
 * What a widget write reports: `{status: 'applied', id, path, hash, replaced, backup?, previous_hash?}`;
 * a replace by the same HTML `{status: 'unchanged', id, path, hash, message}` (write-types.ts unchangedWrite).
 */
export interface WidgetWriteResult {
  status: 'applied' | 'unchanged';
  id: string;
  path: string;
  hash: string;
  /** True when an existing widget was replaced (its old text is in the file `backup` names); absent when unchanged. */
  replaced?: boolean;
  /** Vault path of the backup this replace wrote: `<id>.html.bak`, else `<id>.html.bak.1`, `.bak.2`, ... (the first free name). */
  backup?: string;
  previous_hash?: string;
  [key: string]: unknown;
}

/**
 * The widgets folder (settings `widgets.folder`, default `Widgets`): one self-contained HTML
 * file per widget, `<folder>/<id>.html`, with a manifest (see widget-manifest.ts). Note tools
 * never reach this folder (NotePolicy.isWidgetPath); this store is how widgets are listed,
 * read, created and replaced. Replacing archives the old text first under the first free
 * backup name (see {@link WidgetStore.replace}); backups are never overwritten.
 * Every call checks the widgets folder against the caller's scope (quarantine, roots), and a
 * widget file closed to every route (quarantined, a symbolic link, below one, or a file with
 * several hard links, judged on the disk at each call: see NotePolicy.isWidgetEntryClosed) is
 * treated as absent: never listed, read, copied or replaced. Every write judges its target on the
 * disk right before it (NotePolicy.isFreeNow), so nothing is written through a link.
 */
export class WidgetStore {
  private readonly lock = new WriteLock();

  /**
   * @param app the Obsidian app. @param policy the vault's path policy (widgets folder, quarantine, roots).
   * @param applied where every applied widget write is reported (the agent activity log listens there).
   * @param provenance told before every create or replace writes (keys/widget-writers.ts records the
   *   writing key, or on a revert the restored text's writer); when it throws, nothing is written, and
   *   when the write then fails its record is put back. Each applied change reports the widget's
   *   record before it (`writerBefore`), so a revert can put that record back with the text.
   */
  constructor(
    private readonly app: App,
    private readonly policy: NotePolicy,
    private readonly applied: AppliedChanges = new AppliedChanges(),
    private readonly provenance: WidgetProvenance = NO_PROVENANCE,
  ) {}

  /**
   * Every `.html` file directly in the widgets folder, by id, with its manifest; a file whose
   * name is not a valid id or whose manifest is missing or invalid is listed with `error`.
   * @returns [] when the folder does not exist yet.
   * @throws ToolError('forbidden') when the widgets folder is closed to `scope`.
   */
  async list(scope: AccessScope): Promise<WidgetEntry[]> {
    const folder = findEntry(this.app.vault, this.policy.widgetsFolderFor(scope));
    if (!(folder instanceof TFolder)) return [];
    const files = folder.children.filter(
      (c): c is TFile => c instanceof TFile && c.extension === 'html' && !this.policy.isWidgetEntryClosed(c.path),
    );
    files.sort((a, b) => a.name.localeCompare(b.name));
    return Promise.all(files.map(async (file) => entryOf(await this.describe(file))));
  }

  /**
   * The widget with `id` (matched ignoring case), read whole.
   * @returns null when there is none.
   * @throws ToolError('invalid_argument') for an invalid id; ToolError('forbidden') when the
   *   widgets folder is closed to `scope`.
   */
  async read(id: string, scope: AccessScope): Promise<WidgetFile | null> {
    const file = this.existing(id, scope);
    return file ? this.describe(file) : null;
  }

  /**
   * Checks a new widget for a propose key: valid id, a valid manifest, the id free.
   * @returns the create to stage (tool {@link WIDGET_WRITE_TOOL}, path `<folder>/<id>.html`).
   * @throws ToolError('invalid_argument') for a bad id or manifest; ToolError('forbidden') when
   *   the folder is closed to `scope` or a widget with this id exists (replacing needs a force key).
   */
  prepareCreate(id: string, html: string, scope: AccessScope): PreparedWrite {
    const path = this.newWidgetPath(id, html, scope);
    return { kind: 'create', tool: WIDGET_WRITE_TOOL, path, proposedText: html };
  }

  /**
   * Creates a new widget (force key), the widgets folder too when missing.
   * @throws as {@link prepareCreate}; the vault's error when the file cannot be written.
   */
  async create(id: string, html: string, scope: AccessScope, restoring?: WidgetWrite['restoring']): Promise<WidgetWriteResult> {
    return this.lock.run(id.toLowerCase(), async () => {
      const path = this.newWidgetPath(id, html, scope);
      const ticket = await this.provenance.noteWrite({ id, scope, text: html, ...(restoring ? { restoring } : {}) });
      await undoneOnFailure(ticket, async () => {
        await this.ensureFolder();
        // Judged on the disk again right before the write: a link put there since is never followed.
        if (!this.policy.isFreeNow(path)) throw widgetTaken(path);
        await this.app.vault.create(path, html);
      });
      this.applied.report({ kind: 'widget', tool: WIDGET_WRITE_TOOL, path, before: null, after: html, writerBefore: ticket.before }, scope);
      return { status: 'applied', id, path, hash: hashText(html), replaced: false };
    });
  }

  /**
   * Accepts a staged widget creation (a proposal of {@link WIDGET_WRITE_TOOL}): checks again,
   * for the proposing key's scope now, what staging checked, then creates it.
   * @param path the proposal's path, `<folder>/<id>.html`.
   * @throws ToolError when the widget can no longer be created (id taken since, folder closed,
   *   the widgets folder moved in the settings).
   */
  async acceptStaged(path: string, html: string, scope: AccessScope): Promise<WidgetWriteResult> {
    const folder = this.policy.widgetsFolderFor(scope);
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (path !== `${folder}/${name}` || !name.endsWith('.html')) {
      throw new ToolError('forbidden', `'${path}' is no longer in the widgets folder '${folder}'; propose the widget again.`);
    }
    return this.create(name.slice(0, -'.html'.length), html, scope);
  }

  /**
   * Replaces an existing widget (force key). `expectedHash` must be its current hash (from
   * widget_list). The old text is written first to a new backup file, the first free name of
   * `<id>.html.bak`, `<id>.html.bak.1`, `<id>.html.bak.2`, ... (an existing backup is never
   * overwritten, and a name taken by anything, a link out of the vault included, is skipped); then the widget is rewritten in one `vault.process` that checks the hash
   * again, so a change in between refuses instead of being lost. If the backup cannot be
   * written, the widget is untouched. HTML the widget already has writes nothing (no backup,
   * no log entry) and answers `status: 'unchanged'`, as every write that changes nothing.
   * With `hold` (a force key's write: write-gate.ts instructionsHold), a widget at a held path
   * (a file an instruction file imports, `@Widgets/board.html`) is not replaced: a replace cannot
   * be staged for review (only a new widget can), so it is refused, naming why; and a backup name
   * the rule holds (`@Widgets/board.html.bak`) is skipped like a taken one, so no backup lands on
   * agent instructions.
   * @param hold the force key's hold rule; null (the user's own revert) holds nothing.
   * @param restoring on a revert, the writer record of the text put back (see {@link WidgetWrite}).
   * @throws ToolError('invalid_argument') for a bad id or manifest; ToolError('not_found')
   *   when there is no such widget; ToolError('conflict') when the hash differs;
   *   ToolError('forbidden') when `hold` holds the widget's path.
   */
  async replace(
    id: string,
    html: string,
    expectedHash: string,
    scope: AccessScope,
    hold: HoldRule | null = null,
    restoring?: WidgetWrite['restoring'],
  ): Promise<WidgetWriteResult> {
    assertWidgetId(id);
    assertNotDeviceName(id);
    assertManifest(html);
    return this.lock.run(id.toLowerCase(), async () => {
      const file = this.existing(id, scope);
      if (!file)
        throw new ToolError('not_found', `No widget '${id}'; call widget_list to see the widgets, or omit expected_hash to create it.`);
      const old = await this.app.vault.read(file);
      const previous = hashText(old);
      const expected = expectedHash.trim().toLowerCase();
      if (previous !== expected) throw widgetConflict(file.path);
      if (old === html) return { ...unchangedWrite(file.path, previous), id: file.basename };
      if (hold?.(file.path)) throw widgetHeld(file.path);
      const ticket = await this.provenance.noteWrite({ id: file.basename, scope, text: html, ...(restoring ? { restoring } : {}) });
      let backup = '';
      await undoneOnFailure(ticket, async () => {
        backup = await this.freeBackupPath(file.path, hold);
        await this.app.vault.create(backup, old);
        // The backup holds the old text: its writer is the widget's writer before, so renaming the backup back keeps it.
        this.provenance.noteBackup(backup, old, ticket.before);
        // The widget is judged on the disk again right before it is rewritten: a file replaced by a link since is not written through.
        if (this.policy.isWidgetEntryClosed(file.path))
          throw new ToolError('not_found', `No widget '${id}' any more; it was not replaced (its old text is kept in '${backup}').`);
        await this.app.vault.process(file, (current) => {
          // And once more at the last instant before the vault writes (its read of the file lies between).
          if (this.policy.isWidgetEntryClosed(file.path))
            throw new ToolError('not_found', `No widget '${id}' any more; it was not replaced (its old text is kept in '${backup}').`);
          if (hashText(current) !== expected) throw widgetConflict(file.path);
          return html;
        });
      });
      this.applied.report(
        { kind: 'widget', tool: WIDGET_WRITE_TOOL, path: file.path, before: old, after: html, writerBefore: ticket.before },
        scope,
      );
      return {
        status: 'applied',
        id: file.basename,
        path: file.path,
        hash: hashText(html),
        replaced: true,
        backup,
        previous_hash: previous,
      };
    });
  }

  /**
   * Takes a widget away (to the system trash, else the vault's `.trash`), if its text is still
   * the one whose SHA-256 is `expectedHash`: how a logged widget creation is undone.
   * @throws ToolError('not_found') when there is no such widget; ToolError('conflict') when it
   *   changed since (nothing is removed); as {@link existing} for the id and folder.
   */
  async remove(id: string, expectedHash: string, scope: AccessScope): Promise<{ status: 'applied'; path: string }> {
    return this.lock.run(id.toLowerCase(), async () => {
      const file = this.existing(id, scope);
      if (!file) throw new ToolError('not_found', `No widget '${id}' any more.`);
      const text = await this.app.vault.read(file);
      if (hashText(text) !== expectedHash)
        throw new ToolError('conflict', `Widget '${file.path}' changed since it was written, so it was left as it is.`);
      const away = this.policy.localTrashRefusal();
      if (away !== null) throw away;
      try {
        await this.app.vault.trash(file, true);
      } catch {
        await this.app.vault.trash(file, false);
      }
      const writerBefore = this.provenance.writerOf(file.basename);
      this.applied.report({ kind: 'widget', tool: WIDGET_WRITE_TOOL, path: file.path, before: text, after: null, writerBefore }, scope);
      return { status: 'applied', path: file.path };
    });
  }

  /**
   * The existing widget file with `id` (ignoring case), or null.
   * @throws ToolError('invalid_argument') for an invalid id; ToolError('forbidden') when the folder is closed to `scope`.
   */
  existing(id: string, scope: AccessScope): TFile | null {
    assertWidgetId(id);
    const entry = findEntry(this.app.vault, `${this.policy.widgetsFolderFor(scope)}/${id}.html`);
    return entry instanceof TFile && !this.policy.isWidgetEntryClosed(entry.path) ? entry : null;
  }

  /**
   * The first backup name of `path` with nothing at it (no vault entry, ignoring case; nothing
   * on disk, not even a symbolic link whose target is missing, judged last and with no cached
   * answer: NotePolicy.isFreeNow) and not held by `hold` (agent instructions import it):
   * `<path>.bak`, then `<path>.bak.1`, `<path>.bak.2`, ... The caller writes it at once (no await in between).
   */
  private async freeBackupPath(path: string, hold: HoldRule | null): Promise<string> {
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? `${path}.bak` : `${path}.bak.${n}`;
      if (hold?.(candidate)) continue;
      if (findEntry(this.app.vault, candidate) || (await this.app.vault.adapter.exists(candidate))) continue;
      if (this.policy.isFreeNow(candidate)) return candidate;
    }
  }

  /** Validates a new widget and returns its path. @throws as {@link prepareCreate}. */
  private newWidgetPath(id: string, html: string, scope: AccessScope): string {
    assertWidgetId(id);
    assertNotDeviceName(id);
    assertManifest(html);
    const taken = this.existing(id, scope);
    if (taken) {
      throw new ToolError(
        'forbidden',
        `Widget '${taken.basename}' already exists; replacing a widget needs a force key and expected_hash (its hash from widget_list). A propose key can only add new widgets.`,
      );
    }
    const path = `${this.policy.widgetsFolderFor(scope)}/${id}.html`;
    if (findEntry(this.app.vault, path)) throw widgetTaken(path);
    // Anything on the disk there, judged now (a dangling link is unlisted); a widgets folder the vault does not list is named.
    if (!this.policy.isFreeNow(path)) throw this.folderUnavailable() ?? widgetTaken(path);
    return path;
  }

  /**
   * The refusal naming the widgets folder when it is not a folder the vault lists and cannot be
   * made one: a file is there, or the disk holds an entry the vault does not list (a folder link
   * into another vault folder, which Obsidian ignores: help.obsidian.md/symlinks; a dangling
   * link); null when it is a listed folder or nothing is there yet.
   */
  private folderUnavailable(): ToolError | null {
    const folder = this.policy.widgetsFolder();
    const entry = findEntry(this.app.vault, folder);
    if (entry instanceof TFolder) return null;
    if (entry) return folderTaken(folder, 'a file');
    return this.policy.isFreeNow(folder) ? null : folderTaken(folder, 'taken on disk by an entry Obsidian does not list');
  }

  /**
   * Creates the widgets folder (and its parents) when it is missing. A folder the disk holds there but the vault does not
   * list (a folder link into another vault folder, which Obsidian ignores: help.obsidian.md/symlinks) makes createFolder
   * fail: that is the folder being unavailable, answered as a file in its place is, not an internal error.
   */
  private async ensureFolder(): Promise<void> {
    const folder = this.policy.widgetsFolder();
    const entry = findEntry(this.app.vault, folder);
    if (entry instanceof TFolder) return;
    if (entry) throw folderTaken(folder, 'a file');
    await this.app.vault.createFolder(folder).catch(() => {
      if (!(findEntry(this.app.vault, folder) instanceof TFolder))
        throw folderTaken(folder, 'taken on disk by an entry Obsidian does not list');
    });
  }

  /** Reads one widget file and its manifest. */
  private async describe(file: TFile): Promise<WidgetFile> {
    const html = await this.app.vault.cachedRead(file);
    const base = { id: file.basename, path: file.path, html, hash: hashText(html) };
    if (!isWidgetId(file.basename)) {
      return {
        ...base,
        manifest: null,
        error: `The file name '${file.name}' is not a valid widget id (1-64 ASCII letters, digits, '-' or '_'); rename it.`,
      };
    }
    const parsed = parseWidgetManifest(html);
    return parsed.ok ? { ...base, manifest: parsed.manifest } : { ...base, manifest: null, error: parsed.error };
  }
}

/**
 * Runs `write` (the file writes of one widget create or replace); when it throws, the widget's
 * writer record is put back as it was (`ticket.undo`), so a write that did not happen leaves no
 * record naming its key on a text that key did not write. @throws what `write` throws.
 */
async function undoneOnFailure(ticket: WidgetWriteTicket, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    await ticket.undo();
    throw err;
  }
}

/** A widget file as widget_list shows it (the HTML left out). */
function entryOf(widget: WidgetFile): WidgetEntry {
  const { manifest } = widget;
  return {
    id: widget.id,
    name: manifest?.name ?? null,
    description: manifest?.description ?? null,
    query: manifest?.query ?? null,
    path: widget.path,
    hash: widget.hash,
    ...(widget.error ? { error: widget.error } : {}),
  };
}

/** @throws ToolError('invalid_argument') with the manifest's problem when `html` has no valid manifest. */
function assertManifest(html: string): void {
  const parsed = parseWidgetManifest(html);
  if (!parsed.ok) throw new ToolError('invalid_argument', `${parsed.error} Nothing was written.`);
}

/** The refusal of a widgets folder that is `what` (a file, an entry the vault does not list) instead of a folder. */
function folderTaken(folder: string, what: string): ToolError {
  return new ToolError('exists', `The widgets folder '${folder}' is ${what}; ask the user to move it or choose another widgets folder.`);
}

/** The refusal of a new widget's path that is taken: by a widget, a file the caller may not see, or anything on the disk (a link). */
function widgetTaken(path: string): ToolError {
  return new ToolError('exists', `'${path}' is taken or unavailable; choose another widget id.`);
}

/** The refusal of a force key's replace of a widget that agent instructions import (see {@link WidgetStore.replace}). */
function widgetHeld(path: string): ToolError {
  return new ToolError(
    'forbidden',
    `'${path}' is imported by agent instructions (an @path in a CLAUDE.md, GEMINI.md or the like), which the user reviews, and a widget replace cannot be staged for review; nothing was written. Write it under a new widget id, or ask the user to change it.`,
  );
}

function widgetConflict(path: string): ToolError {
  return new ToolError(
    'conflict',
    `Widget '${path}' changed since you listed it (expected_hash does not match); nothing was written. Call widget_list for its current hash.`,
  );
}
