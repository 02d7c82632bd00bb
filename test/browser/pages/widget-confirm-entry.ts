/**
 * Browser entry for the widget confirm test: the real `vault-mcp-widget` code block processor
 * (registerWidgetBlocks, set up by widget-page.ts) over an in-memory widget source in which no
 * record says who wrote widget `board` (as on a device whose data.json lacks the widget records):
 * `load` gives it to confirm until `confirm` is called with its hash, then gives it with the
 * user's view. Widget `stuck` cannot be confirmed (its save fails). The widget's script reports
 * what it received on its body (`data-received`). `window.vaultMcpWidget.confirmed` lists the
 * confirm calls.
 */
import type { WidgetSource } from '../../../src/ui/widgets/widget-block';
import { renderWidgetNote } from './widget-page';

declare global {
  interface Window {
    vaultMcpConfirmed: Array<[string, string]>;
  }
}

const QUERY = 'WHERE status exists SORT file.path COLUMNS status';

/** A small board that draws the rows it is sent. */
function widgetHtml(name: string): string {
  return (
    `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">` +
    `{"name": ${JSON.stringify(name)}, "description": "Open items", "query": ${JSON.stringify(QUERY)}}</script>` +
    `<style>body{margin:0;padding:10px 14px;font:14px sans-serif;color:#dadada;background:#1e1e1e}</style></head>` +
    `<body><b>${name}</b><ul id="rows"></ul><script>addEventListener('message',(e)=>{` +
    `if(!e.data||e.data.type!=='vault-mcp-widget-data')return;document.body.dataset.received=JSON.stringify(e.data.result);` +
    `for(const r of e.data.result.rows){const li=document.createElement('li');li.textContent=r.join(' · ');rows.append(li)}` +
    `parent.postMessage({type:'vault-mcp-widget-height',height:document.documentElement.scrollHeight},'*')})</script></body></html>`
  );
}

async function main(): Promise<void> {
  window.vaultMcpConfirmed = [];
  const confirmed = new Set<string>();
  const hashOf = (id: string): string => `hash-of-${id}`;
  const source: WidgetSource = {
    async load(id) {
      if (id !== 'board' && id !== 'stuck') return { error: `No widget '${id}' in the widgets folder.` };
      const html = widgetHtml(id === 'board' ? 'Open items' : 'Stuck');
      if (!confirmed.has(id)) return { unconfirmed: { path: `Widgets/${id}.html`, html, hash: hashOf(id) } };
      return { html, query: QUERY, shown: { hash: hashOf(id), writer: '@user' } };
    },
    async confirm(id, hash) {
      window.vaultMcpConfirmed.push([id, hash]);
      if (id === 'stuck') return "Widget 'stuck' is not shown: the plugin could not save your choice (disk full); try again.";
      if (hash === hashOf(id)) confirmed.add(id);
      return null;
    },
    async run() {
      return {
        columns: ['file.path', 'status'],
        rows: [
          ['Projects/Open.md', 'open'],
          ['Secret/S1.md', 'open'],
        ],
        total: 2,
      };
    },
    onNotesChanged: () => () => undefined,
  };
  const ctx = await renderWidgetNote(source, 'Notes/board.md', (note) => {
    note.createEl('h1', { text: 'Board' });
    for (const id of ['board', 'stuck']) {
      const holder = note.createDiv({ attr: { id: `holder-${id}` } });
      holder.createEl('pre').createEl('code', { cls: 'language-vault-mcp-widget', text: `${id}\n` });
    }
  });
  window.vaultMcpWidget = { ctx, changed: () => undefined };
}

void main();
