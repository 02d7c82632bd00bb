import { ToolError } from '../errors';
import type { KeyRecord } from '../settings/key-record';
import { checkKeyRoots } from '../settings/key-roots';
import type { WidgetWriter } from '../settings/settings';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access/access';
import type { NoteStore } from '../vault/note-store';

/** Whose rights a widget's query runs with: a scope, or one sentence on why it shows no data. */
export type WidgetScopeVerdict = { ok: true; scope: AccessScope; writer: WidgetWriter | null } | { ok: false; reason: string };

/**
 * Which key last wrote each widget, kept in the plugin's settings (data.json `widgetWriters`, next
 * to the keys, so it survives restarts and syncs with them), and the rights a widget's query runs
 * with (docs/widgets.md#whose-view-a-widget-shows): a widget written by a key sees only what that
 * key may read (its roots and label, judged by the vault's one access policy like every tool call:
 * `agent_overrides`, `access: private`, quarantine); a widget no key ever wrote (the user's own)
 * sees the user's view. A writer that is deleted, or whose roots cannot be read, gives no data.
 * The rule comes from the product's promise that no agent may leak a note (docs/security.md).
 */
export class WidgetWriters {
  /**
   * @param keys the live key records (KeyRing.list: normalized).
   * @param records the live `widgetWriters` record of the settings.
   * @param save persists the settings after `records()` was changed in place.
   */
  constructor(
    private readonly keys: () => KeyRecord[],
    private readonly records: () => Record<string, WidgetWriter>,
    private readonly save: () => Promise<void>,
  ) {}

  /**
   * Records that the caller of `scope` is writing widget `id`, before the file is written (so a
   * failed save stops the write, and a crash in between leaves the stricter record, never none).
   * A scope without a key behind it (`actor` absent: an internal caller) records nothing.
   * @param id the widget id (any case).
   * @throws ToolError('unavailable') when the settings cannot be saved (the widget is then not written).
   */
  async noteWrite(id: string, scope: AccessScope, now = new Date()): Promise<void> {
    const keyId = scope.actor?.keyId;
    if (keyId === undefined) return;
    const key = this.keys().find((k) => k.id === keyId);
    this.records()[id.toLowerCase()] = { key_id: keyId, key_label: key?.label ?? scope.label, written_at: now.toISOString() };
    try {
      await this.save();
    } catch (err) {
      throw new ToolError(
        'unavailable',
        `Widget '${id}' was not written: the plugin could not save which key wrote it (${(err as Error).message}); try again later.`,
      );
    }
  }

  /**
   * Keeps a key's record with its widget when the file is renamed in the widgets folder (by the
   * user: no tool renames widgets), so `board.html` renamed to `team-board.html` still runs with
   * the key's rights, not the user's view. The old id's record stays (a widget written there later
   * by the user keeps the stricter rights, the safe side).
   * @returns a function that stops following.
   */
  followRenames(notes: NoteStore): () => void {
    const idIn = (path: string): string | null => {
      const folder = notes.policy.widgetsFolder();
      const name = path.toLowerCase().startsWith(`${folder.toLowerCase()}/`) ? path.slice(folder.length + 1) : '';
      return name.endsWith('.html') && !name.includes('/') ? name.slice(0, -'.html'.length) : null;
    };
    return notes.onOtherFileChange((change) => {
      if (change.type !== 'rename' || change.oldPath === undefined) return;
      const from = idIn(change.oldPath);
      const to = idIn(change.path);
      const writer = from === null ? null : this.writerOf(from);
      if (to === null || writer === null || to.toLowerCase() === from?.toLowerCase()) return;
      this.records()[to.toLowerCase()] = { ...writer };
      void this.save().catch(() => undefined); // kept in memory meanwhile; saved with the next settings save
    });
  }

  /** The key that last wrote widget `id` (any case), or null when no key ever wrote it. */
  writerOf(id: string): WidgetWriter | null {
    return this.records()[id.toLowerCase()] ?? null;
  }

  /**
   * The rights widget `id`'s query runs with now: its writing key's label and roots (read afresh,
   * so a key narrowed or deleted since is felt on the next refresh), or UNRESTRICTED_SCOPE (the
   * user's view; private notes and quarantine still left out by the policy) when no key wrote it.
   * @returns `{ok: false, reason}` when the writer's key is gone or its roots break the roots rule.
   */
  scopeFor(id: string): WidgetScopeVerdict {
    const writer = this.writerOf(id);
    if (!writer) return { ok: true, scope: UNRESTRICTED_SCOPE, writer: null };
    const name = writer.key_label ? `the key "${writer.key_label}"` : 'a key';
    const key = writer.key_id ? this.keys().find((k) => k.id === writer.key_id) : undefined;
    const advice =
      'so it shows no data (a widget sees only what the key that wrote it may read). Read the widget file; to show it with ' +
      'your own view, save a copy under a new id yourself, or have another key rewrite it.';
    if (!key) return { ok: false, reason: `Widget '${id}' was last written by ${name}, which no longer exists, ${advice}` };
    const roots = checkKeyRoots(key.roots);
    if (!roots.ok)
      return { ok: false, reason: `Widget '${id}' was last written by the key "${key.label}", whose folders cannot be read, ${advice}` };
    return { ok: true, scope: { label: key.label, roots: roots.roots }, writer };
  }
}
