import { debounce, type Plugin } from 'obsidian';
import { parseNotesQuery } from '../../search/query-notes/parse';
import { queryReadableNotes } from '../../tools/read/lists/query-notes';
import { widgetQueryError } from '../../tools/widget-query';
import { UNRESTRICTED_SCOPE } from '../../vault/access/access';
import type { NoteStore } from '../../vault/note-store';
import { WidgetFrame } from './widget-frame';

/** The code block language that shows a widget: ```` ```vault-mcp-widget ```` with the widget id as its content. */
export const WIDGET_BLOCK_LANGUAGE = 'vault-mcp-widget';

/** How long note changes settle before a shown widget's query runs again, ms. */
const REFRESH_DELAY_MS = 500;

/** Where rendered widgets come from: the widget by id, its query's data, and when data may change. */
export interface WidgetSource {
  /** The widget's HTML and manifest query, or one sentence on why it cannot be shown. */
  load(id: string): Promise<{ html: string; query: string } | { error: string }>;
  /** The result of a query_notes query, as plain data. */
  run(query: string): Promise<unknown>;
  /** Calls `listener` when notes change; returns the unsubscribe function. */
  onNotesChanged(listener: () => void): () => void;
}

/**
 * The vault's widgets as the vault owner sees them in Obsidian: read from the widgets folder,
 * their queries run over the notes of UNRESTRICTED_SCOPE (no key roots; quarantined notes,
 * notes marked `access: private` and the widgets folder excluded, so a widget never shows
 * a private note even to its owner).
 */
export function vaultWidgetSource(notes: NoteStore): WidgetSource {
  return {
    async load(id) {
      try {
        const widget = await notes.widgets.read(id, UNRESTRICTED_SCOPE);
        if (!widget) return { error: `No widget '${id}' in the widgets folder.` };
        if (!widget.manifest) return { error: widget.error ?? `Widget '${id}' has no valid manifest.` };
        const queryError = widgetQueryError(widget.manifest.query);
        if (queryError) return { error: queryError };
        return { html: widget.html, query: widget.manifest.query };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    async run(query) {
      return queryReadableNotes(parseNotesQuery(query), notes, UNRESTRICTED_SCOPE);
    },
    onNotesChanged: (listener) => notes.onNoteChange(listener),
  };
}

/**
 * Registers the `vault-mcp-widget` code block processor (Plugin.registerMarkdownCodeBlockProcessor):
 * the block's text is a widget id; the widget is shown in a {@link WidgetFrame} added to the
 * section's context, so it unloads with it, and a widget that cannot be shown becomes one
 * line saying why.
 */
export function registerWidgetBlocks(plugin: Plugin, source: WidgetSource): void {
  plugin.registerMarkdownCodeBlockProcessor(WIDGET_BLOCK_LANGUAGE, async (text, el, ctx) => {
    const id = text.trim();
    const widget = await source.load(id);
    if ('error' in widget) {
      el.createDiv({ cls: 'vault-mcp-widget-error', text: `Vault MCP widget: ${widget.error}` });
      return;
    }
    ctx.addChild(
      new WidgetFrame(el, {
        id,
        html: widget.html,
        query: widget.query,
        data: () => source.run(widget.query),
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
