import { ToolError } from '../errors';
import { isLocallyUsable, type KeyRecord } from '../settings/key-record';
import { checkKeyRoots } from '../settings/key-roots';
import type { VaultMcpSettings, WidgetWriter } from '../settings/settings';
import { stampMs } from '../settings/stamps';
import { queryNotesTool } from '../tools/read/lists/query-notes';
import { enabledTools, toolsForKey } from '../tools/registry';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access/access';
import { hashText } from '../vault/hash';
import type { NoteStore } from '../vault/note-store';
import type { WidgetProvenance, WidgetWrite, WidgetWriteTicket } from '../vault/widgets/widget-store';

/**
 * Whose rights a widget's query runs with: a scope, or one sentence on why it shows no data;
 * `unconfirmed` when no record says who wrote the widget's text, so only the user can give it
 * data, by confirming that exact text ({@link WidgetWriters.confirmByUser}).
 */
export type WidgetScopeVerdict =
  { ok: true; scope: AccessScope; writer: WidgetWriter | null } | { ok: false; reason: string; unconfirmed?: true };

/**
 * The `key_id` of a record that names the user, not a key: the user confirmed that exact text in
 * its widget block ("Show with my view"). No minted key has it (key ids are hex).
 */
export const USER_WRITER_ID = '@user';

/** Whether `writer` names the user (a text the user confirmed), not a key. */
export function isUserWriter(writer: WidgetWriter | null | undefined): boolean {
  return writer?.key_id === USER_WRITER_ID;
}

/**
 * How many text records (settings `widgetTexts`) are kept: the newest writes; past it the oldest
 * go first. About 150 bytes each in data.json.
 */
export const MAX_TEXT_RECORDS = 1000;

/** Where a widget's rights come from, beside its records: the live keys, the two records, and whether a key may read now. */
export interface WidgetWritersOptions {
  /** The live key records (KeyRing.list: normalized). */
  keys: () => KeyRecord[];
  /** The live `widgetWriters` record of the settings: by widget id (lower case), or by the path in the widgets folder of another file there. */
  records: () => Record<string, WidgetWriter>;
  /** The live `widgetTexts` record of the settings: by the SHA-256 hex of a text a key wrote. */
  texts: () => Record<string, WidgetWriter>;
  /** Persists the settings after a record was changed in place. */
  save: () => Promise<void>;
  /** The widgets folder, normalized (NotePolicy.widgetsFolder), read at each use. */
  widgetsFolder: () => string;
  /** Why `key` may not run query_notes now (one phrase after "whose key"), or null when it may: {@link widgetReadRefusal}. */
  readRefusal: (key: KeyRecord) => string | null;
}

/**
 * Why `key` cannot run query_notes now, as the server would answer it, or null when it can: a
 * cloud-only key is refused at the loopback door; query_notes switched off in the settings, or
 * outside the key's tool set, is absent from its tools/list and refused (docs/architecture.md#keys).
 * The rule comes from docs/widgets.md: a widget never gets more than its writer could read with
 * query_notes itself, now. @returns a phrase completing "was last written by the key "X", …".
 */
export function widgetReadRefusal(key: KeyRecord, settings: VaultMcpSettings): string | null {
  if (!isLocallyUsable(key)) return 'a cloud-only key, which cannot read this vault';
  if (!enabledTools(settings).includes(queryNotesTool)) return 'and query_notes is switched off in Vault MCP settings';
  if (!toolsForKey([queryNotesTool], key.tools).length) return 'whose tool set does not hold query_notes';
  return null;
}

/**
 * Which key wrote each widget, kept in the plugin's settings (data.json, next to the keys, so it
 * survives restarts and syncs with them), and the rights a widget's query runs with
 * (docs/widgets.md#whose-view-a-widget-shows). The record follows the text, never the caller:
 * - `widgetWriters`, by widget id: the key that last wrote it through widget_write (directly or by
 *   an accepted proposal), with the hash of the text written; a revert that puts back an older
 *   text puts back the record that text had (logged with the change), never the reverting key;
 *   a replace's backup gets the replaced text's record; a rename of any file in the widgets folder
 *   (through any name or subfolder) carries its record.
 * - `widgetTexts`, by the hash of each text a key wrote: a widget whose record does not stand for
 *   its text now (none, or another text's) runs with the rights of the key that wrote that exact
 *   text, so a file renamed through a name outside the widgets folder keeps its writer.
 * A widget written by a key sees only what that key may read with query_notes now (its roots and
 * label judged by the vault's one access policy: `agent_overrides`, `access: private`, quarantine;
 * its tool set and the tool switches: {@link widgetReadRefusal}); a text the user confirmed
 * ({@link confirmByUser}) sees the user's view. A widget with no record at all gets no data until
 * the user confirms it: the records live in data.json and the widget file with the notes, so a
 * device, copy or restore of the vault without them must not read a key's script as the user's
 * (fail closed). A writer deleted, unknown, or unable to read gives no data.
 * The rule comes from the product's promise that no agent may leak a note (docs/security.md).
 */
export class WidgetWriters implements WidgetProvenance {
  /** @param options the keys, the two records, how to save them, and whether a key may read now. */
  constructor(private readonly options: WidgetWritersOptions) {}

  /**
   * Records who writes widget `write.id` before the file is written (so a failed save stops the
   * write): the caller's key, for the id and for the text's hash; on a revert (`restoring`), the
   * writer the restored text had (none: the record is dropped, so the text's own record decides:
   * a text the user confirmed shows the user's view, one nobody recorded asks again; unknown: a
   * record naming no key, so it shows no data), and no text record.
   * A scope without a key behind it (`actor` absent: an internal caller) records nothing.
   * @returns the id's record before, and `undo` to put it back when the write then fails.
   * @throws ToolError('unavailable') when the settings cannot be saved (the widget is then not written; the records are as before).
   */
  async noteWrite(write: WidgetWrite, now = new Date()): Promise<WidgetWriteTicket> {
    const id = write.id.toLowerCase();
    const records = this.options.records();
    const texts = this.options.texts();
    const before = records[id] ?? null;
    const hash = hashText(write.text);
    const textBefore = texts[hash];
    const undo = async (): Promise<void> => {
      if (before) records[id] = before;
      else delete records[id];
      if (textBefore) texts[hash] = textBefore;
      else if (!write.restoring) delete texts[hash];
      await this.options.save().catch(() => undefined);
    };
    if (write.restoring) {
      const writer = write.restoring.writer;
      if (writer === null) delete records[id];
      else records[id] = { ...(writer ?? { key_id: '', key_label: '', written_at: now.toISOString() }), hash };
    } else {
      const keyId = write.scope.actor?.keyId;
      if (keyId === undefined) return { before, undo: async () => {} };
      const key = this.options.keys().find((k) => k.id === keyId);
      const writer: WidgetWriter = { key_id: keyId, key_label: key?.label ?? write.scope.label, written_at: now.toISOString(), hash };
      records[id] = writer;
      delete texts[hash]; // re-added last: the newest writes are kept longest
      texts[hash] = { key_id: keyId, key_label: writer.key_label, written_at: writer.written_at };
      pruneTexts(texts);
    }
    try {
      await this.options.save();
    } catch (err) {
      await undo();
      throw new ToolError(
        'unavailable',
        `Widget '${write.id}' was not written: the plugin could not save which key wrote it (${(err as Error).message}); try again later.`,
      );
    }
    return { before, undo };
  }

  /**
   * Gives the file a replace just wrote at vault path `path` (its backup) the replaced text's
   * record, so renaming the backup back to a widget name keeps that writer; with no writer (the
   * user's own text) any old record under that name is dropped. Saved in the background.
   */
  noteBackup(path: string, text: string, writer: WidgetWriter | null): void {
    const key = this.keyOf(path);
    if (key === null) return;
    const records = this.options.records();
    if (writer) records[key] = { ...writer, hash: hashText(text) };
    else delete records[key];
    void this.options.save().catch(() => undefined); // kept in memory meanwhile; saved with the next settings save
  }

  /**
   * Keeps a file's record with it when it is renamed or moved in the widgets folder (by the user:
   * no tool renames widgets), through any name or subfolder (`board.html` → `board.txt` →
   * `team.html`), so the key's script runs with the key's rights under its new name, not the
   * user's view. The old name's record stays (a widget written there later by the user keeps the
   * stricter rights, the safe side). A file moved out of the widgets folder and back gets its
   * writer from its text's record (see {@link scopeFor}).
   * @returns a function that stops following.
   */
  followRenames(notes: NoteStore): () => void {
    return notes.onFileRename((change) => {
      if (change.oldPath === undefined) return;
      const from = this.keyOf(change.oldPath);
      const to = this.keyOf(change.path);
      const writer = from === null ? undefined : this.options.records()[from];
      if (to === null || writer === undefined || to === from) return;
      this.options.records()[to] = { ...writer };
      void this.options.save().catch(() => undefined); // kept in memory meanwhile; saved with the next settings save
    });
  }

  /** The record of widget `id` (any case), its last writer, or null when it has none. */
  writerOf(id: string): WidgetWriter | null {
    return this.options.records()[id.toLowerCase()] ?? null;
  }

  /**
   * The writer of widget `id` holding the text whose SHA-256 hex is `hash`: its id's record when
   * that record stands for this text (unless it names no key and the text's writer is known); else
   * the writer of this exact text (a key, or the user who confirmed it); else its id's record when
   * that names a key (a key's widget the user edited since keeps the key's rights: the script may
   * still be the key's; the user's confirmation holds for its own text only); else null (no
   * record: unconfirmed, no data).
   */
  writerFor(id: string, hash: string): WidgetWriter | null {
    const record = this.writerOf(id);
    const text = this.options.texts()[hash.toLowerCase()];
    if (record && record.hash === hash.toLowerCase() && (record.key_id || !text)) return record;
    if (text) return text;
    return record && !isUserWriter(record) ? record : null;
  }

  /**
   * Records the user as the writer of the text whose SHA-256 hex is `hash`, shown as widget `id`:
   * the user chose "Show with my view" in its block, so that exact text runs with the user's view
   * from now on (any other text, an edit included, asks again). Does nothing when the text has a
   * writer by now (a key's record, or the user's): a confirmation never replaces a key's record.
   * Kept in `widgetTexts` like a key's text (the newest {@link MAX_TEXT_RECORDS}).
   * @throws Error when the settings cannot be saved (the record is then taken back: no data).
   */
  async confirmByUser(id: string, hash: string, now = new Date()): Promise<void> {
    if (this.writerFor(id, hash) !== null) return;
    const texts = this.options.texts();
    const key = hash.toLowerCase();
    texts[key] = { key_id: USER_WRITER_ID, key_label: '', written_at: now.toISOString() };
    pruneTexts(texts);
    try {
      await this.options.save();
    } catch (err) {
      delete texts[key];
      throw new Error(`Widget '${id}' is not shown: the plugin could not save your choice (${(err as Error).message}); try again.`);
    }
  }

  /**
   * The rights widget `id`, holding the text whose SHA-256 hex is `hash`, runs with now: its
   * writer's ({@link writerFor}) label and roots, read afresh with its tool set and the tool
   * switches (so a key narrowed, deleted or denied query_notes since is felt on the next refresh),
   * or UNRESTRICTED_SCOPE (the user's view; private notes and quarantine still left out by the
   * policy) when the user confirmed this exact text.
   * @returns `{ok: false, reason, unconfirmed: true}` when no record says who wrote the text (the
   *   user may confirm it); `{ok: false, reason}` when the writer is unknown or its key is gone,
   *   its roots break the roots rule, or it may not run query_notes now ({@link widgetReadRefusal}).
   */
  scopeFor(id: string, hash: string): WidgetScopeVerdict {
    const writer = this.writerFor(id, hash);
    if (!writer)
      return {
        ok: false,
        unconfirmed: true,
        reason:
          `Widget '${id}' has no record of who wrote it (a key whose record did not reach this copy of the vault's settings, or you), ` +
          'so it shows no data until you read it and choose "Show with my view" in its place.',
      };
    if (isUserWriter(writer)) return { ok: true, scope: UNRESTRICTED_SCOPE, writer };
    const advice =
      'so it shows no data (a widget sees only what the key that wrote it may read with query_notes). Read the widget file; to show ' +
      'it with your own view, save a copy under a new id yourself (and confirm it there), or have another key rewrite it.';
    if (!writer.key_id)
      return {
        ok: false,
        reason: `Widget '${id}' has no known writer (its record is damaged, or a revert logged before writers were kept put its text back), ${advice}`,
      };
    const key = this.options.keys().find((k) => k.id === writer.key_id);
    const name = writer.key_label ? `the key "${writer.key_label}"` : 'a key';
    if (!key) return { ok: false, reason: `Widget '${id}' was last written by ${name}, which no longer exists, ${advice}` };
    const roots = checkKeyRoots(key.roots);
    if (!roots.ok)
      return { ok: false, reason: `Widget '${id}' was last written by the key "${key.label}", whose folders cannot be read, ${advice}` };
    const refusal = this.options.readRefusal(key);
    if (refusal !== null) return { ok: false, reason: `Widget '${id}' was last written by the key "${key.label}", ${refusal}, ${advice}` };
    return { ok: true, scope: { label: key.label, roots: roots.roots }, writer };
  }

  /**
   * The record key of vault path `path`: a widget's id (lower case) for `<folder>/<id>.html`, the
   * lower-case path inside the widgets folder for any other file there (a widget id holds no `.`,
   * so the two never meet), null outside it.
   */
  private keyOf(path: string): string | null {
    const folder = this.options.widgetsFolder();
    if (!path.toLowerCase().startsWith(`${folder.toLowerCase()}/`)) return null;
    const name = path.slice(folder.length + 1).toLowerCase();
    return /^[^/.]+\.html$/.test(name) ? name.slice(0, -'.html'.length) : name;
  }
}

/** Drops the oldest text records (insertion order: {@link WidgetWriters.noteWrite} re-adds a text last) past {@link MAX_TEXT_RECORDS}. */
function pruneTexts(texts: Record<string, WidgetWriter>): void {
  const hashes = Object.keys(texts);
  for (const hash of hashes.slice(0, Math.max(0, hashes.length - MAX_TEXT_RECORDS))) delete texts[hash];
}

/** A record's time (its `written_at`, ms since the epoch); a damaged or unreadable one counts as the oldest. */
function writtenAt(writer: WidgetWriter): number {
  return stampMs(writer.written_at, 0);
}

/** `mine` and `theirs` by record key, the newer of two records for one key winning (on a tie, `theirs`). */
function newestOf(mine: Record<string, WidgetWriter>, theirs: Record<string, WidgetWriter>): Record<string, WidgetWriter> {
  const out: Record<string, WidgetWriter> = { ...theirs };
  for (const [key, record] of Object.entries(mine)) {
    const other = out[key];
    if (!other || writtenAt(record) > writtenAt(other)) out[key] = record;
  }
  return out;
}

/**
 * The widget records to keep when a data.json written elsewhere replaces this device's settings
 * (Plugin.onExternalSettingsChange: a sync from a device that never saw this one's latest widget
 * writes, or an older copy put back): per widget id or path (`widgetWriters`) and per text hash
 * (`widgetTexts`), the newer of the two records wins (by `written_at`; on a tie, the synced one),
 * and a record either side has is kept. A widget record only ever confines a widget (without one a
 * widget gets no data until the user confirms it), so dropping the newer one would put a key's
 * script under an older writer's rights, or ask the user about a widget this device knows.
 * `widgetTexts` keeps its newest {@link MAX_TEXT_RECORDS}, in the order they were written.
 * @param current this device's settings now. @param synced the settings read from the synced data.json.
 * @returns the merged records, and `added`: whether they hold anything `synced` did not (so data.json should be saved).
 */
export function mergeWidgetRecords(
  current: Pick<VaultMcpSettings, 'widgetWriters' | 'widgetTexts'>,
  synced: Pick<VaultMcpSettings, 'widgetWriters' | 'widgetTexts'>,
): { widgetWriters: Record<string, WidgetWriter>; widgetTexts: Record<string, WidgetWriter>; added: boolean } {
  const widgetWriters = newestOf(current.widgetWriters, synced.widgetWriters);
  const byTime = Object.entries(newestOf(current.widgetTexts, synced.widgetTexts)).sort(([, a], [, b]) => writtenAt(a) - writtenAt(b));
  const widgetTexts = Object.fromEntries(byTime.slice(Math.max(0, byTime.length - MAX_TEXT_RECORDS)));
  const differs = (a: Record<string, WidgetWriter>, b: Record<string, WidgetWriter>): boolean =>
    Object.keys(a).length !== Object.keys(b).length || Object.entries(a).some(([k, v]) => JSON.stringify(v) !== JSON.stringify(b[k]));
  return { widgetWriters, widgetTexts, added: differs(widgetWriters, synced.widgetWriters) || differs(widgetTexts, synced.widgetTexts) };
}
