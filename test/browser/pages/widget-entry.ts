/**
 * Browser entry for the widget test: a host Plugin with the real `vault-mcp-widget` code block
 * processor (registerWidgetBlocks, set up by widget-page.ts) over an in-memory widget source
 * whose queries run through the real query_notes engine (parseNotesQuery + runNotesQuery) on
 * fixed note facts. A note
 * rendered into `#note` holds one widget block; the page's post processors turn it into the
 * sandboxed frame. The widget itself records, inside its frame, what it received and whether
 * it could reach the parent page or the network (`window.vaultMcpWidgetPort`: a local HTTP
 * server the test started). `window.vaultMcpWidget` exposes the context to unload the section.
 */
import { runNotesQuery, type NoteFacts } from '../../../src/search/query-notes/evaluate';
import { parseNotesQuery } from '../../../src/search/query-notes/parse';
import type { WidgetSource } from '../../../src/ui/widgets/widget-block';
import { renderWidgetNote } from './widget-page';

const QUERY = 'WHERE tags contains "book" SORT rating desc COLUMNS title, author, status, rating';

const day = (d: number): number => Date.UTC(2026, 10, d);
const book = (name: string, author: string, status: string, rating: number, d: number): NoteFacts => ({
  path: `Reading/${name}.md`,
  mtime: day(d),
  ctime: day(1),
  size: 400 + d,
  tags: ['#book'],
  frontmatter: { title: name, author, status, rating, tags: ['book'] },
});

/** The notes the owner may read (a private note would not be among them: the vault source leaves it out). */
const FACTS: NoteFacts[] = [
  book('Piranesi', 'Susanna Clarke', 'finished', 5, 3),
  book('The Dispossessed', 'Ursula K. Le Guin', 'reading', 4, 20),
  book('Dune', 'Frank Herbert', 'finished', 4, 12),
  book('Klara and the Sun', 'Kazuo Ishiguro', 'to read', 3, 25),
  { path: 'Inbox.md', mtime: day(28), ctime: day(1), size: 90, tags: [], frontmatter: {} },
];

/** The widget: a reading board drawn from the data it is sent, plus probes of what the sandbox allows. */
function widgetHtml(port: number): string {
  const target = `http://127.0.0.1:${port}`;
  return `<!doctype html>
<html><head><meta charset="utf-8">
<script type="application/json" id="vault-mcp-widget">{"name": "Reading board", "description": "Books by rating", "query": ${JSON.stringify(QUERY)}}</script>
<style>
  body { margin: 0; padding: 14px 16px; font: 14px/1.4 -apple-system, "Segoe UI", Roboto, sans-serif; color: #dadada; background: #1e1e1e; }
  h2 { margin: 0 0 10px; font-size: 15px; font-weight: 600; }
  .count { color: #8a8a8a; font-weight: 400; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #363636; }
  th { color: #9a9a9a; font-weight: 500; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
  .status { padding: 1px 8px; border-radius: 10px; font-size: 12px; background: #2f2f2f; }
  .finished { background: rgba(68,207,110,.18); color: #44cf6e; }
  .reading { background: rgba(138,92,245,.22); color: #b69cff; }
  .stars { color: #e9973f; letter-spacing: 1px; }
  #probes { margin-top: 10px; font-size: 11px; color: #7a7a7a; }
</style></head>
<body>
<h2>Reading board <span class="count" id="count"></span></h2>
<table><thead><tr><th>Title</th><th>Author</th><th>Status</th><th>Rating</th></tr></thead><tbody id="rows"></tbody></table>
<div id="probes"></div>
<script>
  const probes = {};
  const note = (name, value) => { probes[name] = value; document.getElementById('probes').dataset.results = JSON.stringify(probes); };
  try { note('parentDocument', 'reached: ' + window.parent.document.title); } catch (e) { note('parentDocument', 'blocked: ' + e.name); }
  try { note('topLocation', 'reached: ' + window.top.location.href); } catch (e) { note('topLocation', 'blocked: ' + e.name); }
  try { localStorage.setItem('x', '1'); note('storage', 'reached'); } catch (e) { note('storage', 'blocked: ' + e.name); }
  fetch(${JSON.stringify(`${target}/fetch`)}, { mode: 'no-cors' }).then(() => note('fetch', 'reached'), (e) => note('fetch', 'blocked: ' + e.name));
  const img = new Image();
  img.onload = () => note('image', 'reached');
  img.onerror = () => note('image', 'blocked');
  img.src = ${JSON.stringify(`${target}/image.png`)};
  try { navigator.sendBeacon(${JSON.stringify(`${target}/beacon`)}, 'x'); note('beacon', 'sent'); } catch (e) { note('beacon', 'blocked: ' + e.name); }
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || data.type !== 'vault-mcp-widget-data') return;
    note('messages', (probes.messages || 0) + 1);
    const { columns, rows, total } = data.result;
    const at = (row, name) => row[columns.indexOf(name)];
    const body = document.getElementById('rows');
    body.replaceChildren();
    for (const row of rows) {
      const tr = body.insertRow();
      tr.insertCell().textContent = at(row, 'title');
      tr.insertCell().textContent = at(row, 'author');
      const status = document.createElement('span');
      status.className = 'status ' + String(at(row, 'status')).replace(/\\s+/g, '-');
      status.textContent = at(row, 'status');
      tr.insertCell().append(status);
      const stars = tr.insertCell();
      stars.className = 'stars';
      stars.textContent = '★'.repeat(at(row, 'rating')) + '☆'.repeat(5 - at(row, 'rating'));
    }
    document.getElementById('count').textContent = total + ' books';
    document.body.dataset.received = JSON.stringify(data);
    parent.postMessage({ type: 'vault-mcp-widget-height', height: document.documentElement.scrollHeight }, '*');
  });
</script>
</body></html>`;
}

async function main(): Promise<void> {
  let dataChanged: (() => void) | null = null;
  const source: WidgetSource = {
    async load(id) {
      return id === 'reading-board'
        ? { html: widgetHtml(window.vaultMcpWidgetPort), query: QUERY, shown: { hash: 'h', writer: null } }
        : { error: `No widget '${id}' in the widgets folder.` };
    },
    async confirm() {
      return null;
    },
    async run(query) {
      return runNotesQuery(parseNotesQuery(query), FACTS);
    },
    onNotesChanged(listener) {
      dataChanged = listener;
      return () => (dataChanged = null);
    },
  };
  const ctx = await renderWidgetNote(source, 'Reading.md', (note) => {
    note.createEl('h1', { text: 'Reading' });
    note.createEl('p', { text: 'What I am reading this autumn, drawn by a widget from the notes tagged #book.' });
    for (const id of ['reading-board', 'no-such-widget'])
      note.createEl('pre').createEl('code', { cls: 'language-vault-mcp-widget', text: `${id}\n` });
  });
  window.vaultMcpWidget = { ctx, changed: () => dataChanged?.() };
}

void main();
