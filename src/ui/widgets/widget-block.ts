import { debounce, type Plugin } from 'obsidian';
import { parseNotesQuery } from '../../search/query-notes/parse';
import { queryReadableNotes } from '../../tools/read/lists/query-notes';
import { widgetQueryError } from '../../tools/widget-query';
import type { WidgetScopeVerdict } from '../../keys/widget-writers';
import { UNRESTRICTED_SCOPE } from '../../vault/access/access';
import type { NoteStore } from '../../vault/note-store';
import { WidgetFrame, WidgetStopped } from './widget-frame';

/** The code block language that shows a widget: ```` ```vault-mcp-widget ```` with the widget id as its content. */
export const WIDGET_BLOCK_LANGUAGE = 'vault-mcp-widget';

/** How long note changes settle before a shown widget's query runs again, ms. */
const REFRESH_DELAY_MS = 500;

/**
 * What a shown frame was loaded with: the SHA-256 hex of the widget's text and the id of the key
 * whose rights it was given (null: no key's, the user's view). Its data is only ever fed under these.
 */
export interface WidgetShown {
  hash: string;
  writer: string | null;
}

/**
 * A widget that no record says who wrote: its text and where it lies, for the user to read before
 * confirming it ({@link WidgetSource.confirm}); `hash` is the SHA-256 hex of that text.
 */
export interface UnconfirmedWidget {
  path: string;
  html: string;
  hash: string;
}

/** What {@link WidgetSource.load} answers: a widget to show, one sentence on why it cannot be, or a widget to confirm first. */
export type WidgetLoad = { html: string; query: string; shown: WidgetShown } | { error: string } | { unconfirmed: UnconfirmedWidget };

/** Where rendered widgets come from: the widget by id, its query's data, and when data may change. */
export interface WidgetSource {
  /**
   * The widget's HTML, manifest query and what it is shown with; or one sentence on why it cannot
   * be shown; or, for a widget no record says who wrote, its text to confirm (it gets no data until then).
   */
  load(id: string): Promise<WidgetLoad>;
  /**
   * The user chose "Show with my view" for widget `id` holding the text of SHA-256 hex `hash`:
   * records the user as that exact text's writer (WidgetWriters.confirmByUser).
   * @returns null when recorded (or the text has a writer by now), else one sentence on why not.
   */
  confirm(id: string, hash: string): Promise<string | null>;
  /**
   * The result of widget `id`'s query_notes query, as plain data, over the notes the widget may
   * show, for the frame that `load` gave `shown`.
   * @throws WidgetStopped when the widget may show no data any more (its writing key is gone or may
   *   not read), or its file or writer is no longer the one that frame was loaded with (the frame
   *   runs the old script: it is never fed under another writer's rights).
   */
  run(query: string, id: string, shown: WidgetShown): Promise<unknown>;
  /** Calls `listener` when notes change; returns the unsubscribe function. */
  onNotesChanged(listener: () => void): () => void;
}

/** Whose rights a widget runs with (keys/widget-writers.ts WidgetWriters): asked at every load and refresh; and the user's confirmation. */
export interface WidgetRights {
  /** Whose rights widget `id` holding the text of SHA-256 hex `hash` runs with now. */
  scopeFor(id: string, hash: string): WidgetScopeVerdict;
  /** Records the user as the writer of that exact text. @throws Error when it cannot be saved. */
  confirmByUser(id: string, hash: string): Promise<void>;
}

/**
 * The vault's widgets as Obsidian shows them: read from the widgets folder, each query run with
 * the rights of the key that wrote the widget's text (`rights`, keys/widget-writers.ts: its roots
 * and label, so `agent_overrides` apply; private notes, quarantine and the widgets folder left out
 * by the one access policy), or over the user's view (UNRESTRICTED_SCOPE, private notes still left
 * out) for a text the user confirmed. A widget no record says who wrote is given to the user to
 * confirm, with no data meanwhile (docs/widgets.md#whose-view-a-widget-shows). A widget whose
 * writing key is gone or may not read shows why instead of data. Each refresh reads the widget
 * file again: a frame whose file changed since it was loaded (another text, or the same text now
 * under another writer) is stopped, never fed.
 * @param rights whose rights each widget text runs with, and the user's confirmation of one.
 */
export function vaultWidgetSource(notes: NoteStore, rights: WidgetRights): WidgetSource {
  return {
    async load(id) {
      try {
        const widget = await notes.widgets.read(id, UNRESTRICTED_SCOPE);
        if (!widget) return { error: `No widget '${id}' in the widgets folder.` };
        if (!widget.manifest) return { error: widget.error ?? `Widget '${id}' has no valid manifest.` };
        const queryError = widgetQueryError(widget.manifest.query);
        if (queryError) return { error: queryError };
        const verdict = rights.scopeFor(widget.id, widget.hash);
        if (!verdict.ok && verdict.unconfirmed) return { unconfirmed: { path: widget.path, html: widget.html, hash: widget.hash } };
        if (!verdict.ok) return { error: verdict.reason };
        return { html: widget.html, query: widget.manifest.query, shown: { hash: widget.hash, writer: verdict.writer?.key_id ?? null } };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    async run(query, id, shown) {
      const widget = await notes.widgets.read(id, UNRESTRICTED_SCOPE).catch(() => null);
      if (!widget) throw new WidgetStopped(`Widget '${id}' is no longer in the widgets folder, so it gets no more data.`);
      const verdict = rights.scopeFor(widget.id, widget.hash);
      if (!verdict.ok) throw new WidgetStopped(verdict.reason);
      if (widget.hash !== shown.hash || (verdict.writer?.key_id ?? null) !== shown.writer)
        throw new WidgetStopped(
          `Widget '${id}' changed since it was shown (its file${widget.hash === shown.hash ? "'s writer" : ''} is not the one loaded), ` +
            'so this copy gets no more data; reopen the note to show it as it is now.',
        );
      return queryReadableNotes(parseNotesQuery(query), notes, verdict.scope);
    },
    async confirm(id, hash) {
      try {
        await rights.confirmByUser(id, hash);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    },
    onNotesChanged: (listener) => notes.onNoteChange(listener),
  };
}

/**
 * Registers the `vault-mcp-widget` code block processor (Plugin.registerMarkdownCodeBlockProcessor):
 * the block's text is a widget id; the widget is shown in a {@link WidgetFrame} added to the
 * section's context, so it unloads with it, and a widget that cannot be shown becomes one
 * line saying why. A widget no record says who wrote shows, instead of its frame (nothing of it
 * runs), what it would be given, its code to read and a "Show with my view" button
 * ({@link showConfirm}); once confirmed the block is drawn again.
 */
export function registerWidgetBlocks(plugin: Plugin, source: WidgetSource): void {
  plugin.registerMarkdownCodeBlockProcessor(WIDGET_BLOCK_LANGUAGE, async function render(text, el, ctx): Promise<void> {
    const id = text.trim();
    const widget = await source.load(id);
    if ('error' in widget) {
      el.createDiv({ cls: 'vault-mcp-widget-error', text: `Vault MCP widget: ${widget.error}` });
      return;
    }
    if ('unconfirmed' in widget)
      return showConfirm(el, id, widget.unconfirmed, async () => {
        const problem = await source.confirm(id, widget.unconfirmed.hash);
        if (problem === null) {
          el.empty();
          await render(text, el, ctx);
        }
        return problem;
      });
    ctx.addChild(
      new WidgetFrame(el, {
        id,
        html: widget.html,
        query: widget.query,
        data: () => source.run(widget.query, id, widget.shown),
        onDataChanged: (listener) => {
          const later = debounce(listener, REFRESH_DELAY_MS, true);
          const off = source.onNotesChanged(later);
          return () => {
            off();
            later.cancel();
          };
        },
      }),
    );
  });
}

/**
 * Fills `el` with the confirm state of a widget no record says who wrote: why it shows nothing,
 * what "Show with my view" gives its script (every note the user can read, which it can send out),
 * its code (folded) and the button, which calls `confirm` and, on failure, says why beside it.
 * @param confirm records the user's choice; resolves to null, or one sentence on why it failed.
 */
function showConfirm(el: HTMLElement, id: string, widget: UnconfirmedWidget, confirm: () => Promise<string | null>): void {
  const box = el.createDiv({ cls: 'vault-mcp-widget-confirm' });
  box.createDiv({ cls: 'vault-mcp-widget-confirm-title', text: `Widget '${id}' is not shown yet` });
  box.createEl('p', {
    text:
      `Nothing on this device records who wrote ${widget.path}: an agent's key (its record did not reach this copy of ` +
      "Vault MCP's settings) or you. Shown with your view, its script gets every note you can read (not private notes or " +
      'quarantined folders) and can send them out of Obsidian. Show it only if you wrote it or have read its code; any later ' +
      'change to the file asks again.',
  });
  const code = box.createEl('details', { cls: 'vault-mcp-widget-confirm-code' });
  code.createEl('summary', { text: 'Read its code' });
  code.createEl('pre', { text: widget.html });
  const button = box.createEl('button', { cls: 'mod-warning', text: 'Show with my view' });
  const problem = box.createDiv({ cls: 'vault-mcp-widget-error' });
  button.addEventListener('click', () => {
    button.disabled = true;
    void confirm().then((why) => {
      if (why === null) return;
      problem.setText(`Vault MCP widget: ${why}`);
      button.disabled = false;
    });
  });
}
