import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { vaultWidgetSource } from '../../../src/ui/widgets/widget-block';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnv, bootWriteEnvIn, call, callError, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * Widgets over MCP with the official SDK client over HTTP: widget_list and widget_write under
 * propose and force keys (staging, replace with expected_hash, the .bak archive), bad ids and
 * manifests, note tools refusing the widgets folder, and the data a rendered widget receives.
 */

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A widget whose manifest has `name`, `description` and `query`. */
function widgetHtml(name: string, query = 'WHERE status exists SORT file.path', body = '<p>hello</p>'): string {
  const manifest = JSON.stringify({ name, description: `${name} board`, query });
  return `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body>${body}</body></html>`;
}

describe('widgets over MCP', () => {
  let env: WriteEnv | null = null;
  const disk = (p: string): Promise<string> => fs.readFile(path.join(env!.dir, p), 'utf8');
  const exists = (p: string): Promise<boolean> =>
    fs.access(path.join(env!.dir, p)).then(
      () => true,
      () => false,
    );

  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('a force key creates a widget; widget_list shows its metadata and hash, never the HTML', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    const html = widgetHtml('Status board');
    const written = await call(env.client, 'widget_write', { id: 'status-board', html });
    expect(written).toEqual({
      status: 'applied',
      id: 'status-board',
      path: 'Widgets/status-board.html',
      hash: sha256(html),
      replaced: false,
    });
    expect(await disk('Widgets/status-board.html')).toBe(html);
    const listed = await call(env.client, 'widget_list', {});
    expect(listed).toEqual({
      widgets: [
        {
          id: 'status-board',
          name: 'Status board',
          description: 'Status board board',
          query: 'WHERE status exists SORT file.path',
          path: 'Widgets/status-board.html',
          hash: sha256(html),
        },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain('<p>hello</p>');
  });

  test('replace needs expected_hash; a wrong hash changes nothing; each replace archives the old file under a new name (.bak, .bak.1, ...)', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    const v1 = widgetHtml('Board', undefined, '<p>one</p>');
    const v2 = widgetHtml('Board', undefined, '<p>two</p>');
    const v3 = widgetHtml('Board', undefined, '<p>three</p>');
    await call(env.client, 'widget_write', { id: 'board', html: v1 });
    expect(await callError(env.client, 'widget_write', { id: 'board', html: v2 })).toMatch(
      /^Widget 'board' already exists; to replace it pass expected_hash/,
    );
    expect(await callError(env.client, 'widget_write', { id: 'board', html: v2, expected_hash: sha256('something else') })).toMatch(
      /changed since you listed it \(expected_hash does not match\); nothing was written/,
    );
    expect(await disk('Widgets/board.html')).toBe(v1);
    expect(await exists('Widgets/board.html.bak')).toBe(false);

    const replaced = await call(env.client, 'widget_write', { id: 'board', html: v2, expected_hash: sha256(v1).toUpperCase() });
    expect(replaced).toEqual({
      status: 'applied',
      id: 'board',
      path: 'Widgets/board.html',
      hash: sha256(v2),
      replaced: true,
      backup: 'Widgets/board.html.bak',
      previous_hash: sha256(v1),
    });
    expect(await disk('Widgets/board.html')).toBe(v2);
    expect(await disk('Widgets/board.html.bak')).toBe(v1);
    // A second replace never overwrites the first backup: it takes the next free name; another case of the id names the same widget.
    expect(await call(env.client, 'widget_write', { id: 'BOARD', html: v3, expected_hash: sha256(v2) })).toMatchObject({
      backup: 'Widgets/board.html.bak.1',
      previous_hash: sha256(v2),
    });
    expect(await disk('Widgets/board.html')).toBe(v3);
    expect(await disk('Widgets/board.html.bak')).toBe(v1);
    expect(await disk('Widgets/board.html.bak.1')).toBe(v2);
    expect(((await call(env.client, 'widget_list', {})).widgets as Json[]).map((w) => w.id)).toEqual(['board']);
    // A name taken by anything (a folder, a file in another case) is skipped, never written into.
    await env.booted.app.vault.createFolder('Widgets/board.html.bak.2');
    await env.booted.app.vault.create('Widgets/BOARD.html.bak.3', 'user file\n');
    expect(await call(env.client, 'widget_write', { id: 'board', html: v1, expected_hash: sha256(v3) })).toMatchObject({
      backup: 'Widgets/board.html.bak.4',
    });
    expect(await disk('Widgets/board.html.bak.4')).toBe(v3);
    expect(await disk('Widgets/BOARD.html.bak.3')).toBe('user file\n');
    expect([await disk('Widgets/board.html.bak'), await disk('Widgets/board.html.bak.1'), await disk('Widgets/board.html')]).toEqual([
      v1,
      v2,
      v1,
    ]);
    expect(await callError(env.client, 'widget_write', { id: 'nothing-here', html: v1, expected_hash: sha256(v1) })).toBe(
      "No widget 'nothing-here'; call widget_list to see the widgets, or omit expected_hash to create it.",
    );
  });

  test('a propose key only stages a new widget (nothing on disk until accepted) and cannot replace one', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'propose', label: 'Claude Code' });
    const html = widgetHtml('Reading list');
    const staged = await call(env.client, 'widget_write', { id: 'reading', html });
    expect(staged).toMatchObject({
      status: 'pending',
      proposal_id: expect.stringMatching(/^p_/),
      kind: 'create',
      path: 'Widgets/reading.html',
      id: 'reading',
    });
    expect(await exists('Widgets')).toBe(false);
    expect((await call(env.client, 'widget_list', {})).widgets).toEqual([]);
    expect(await runReviewCommand(env.booted.plugin, `accept ${staged.proposal_id}`)).toMatch(/^Accepted/);
    expect(await disk('Widgets/reading.html')).toBe(html);
    const status = (await call(env.client, 'proposal_status', { id: staged.proposal_id })).proposal as Json;
    expect(status).toMatchObject({ tool: 'widget_write', kind: 'create', status: 'accepted' });

    for (const args of [
      { id: 'reading', html: widgetHtml('Other') },
      { id: 'reading', html: widgetHtml('Other'), expected_hash: sha256(html) },
    ]) {
      expect(await callError(env.client, 'widget_write', args)).toBe(
        "Widget 'reading' already exists; replacing a widget needs a force key and expected_hash (its hash from widget_list). A propose key can only add new widgets.",
      );
    }
    expect(await disk('Widgets/reading.html')).toBe(html);
    expect(await exists('Widgets/reading.html.bak')).toBe(false);
  });

  test('a staged widget whose id was taken before acceptance goes stale instead of overwriting', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'propose' });
    const first = await call(env.client, 'widget_write', { id: 'dup', html: widgetHtml('First') });
    const second = await call(env.client, 'widget_write', { id: 'dup', html: widgetHtml('Second') });
    await runReviewCommand(env.booted.plugin, `accept ${first.proposal_id}`);
    expect(await runReviewCommand(env.booted.plugin, `accept ${second.proposal_id}`)).toMatch(/stale/);
    expect(await disk('Widgets/dup.html')).toBe(widgetHtml('First'));
    expect(env.booted.plugin.proposals.get(second.proposal_id)?.stale_reason).toMatch(/already exists/);
  });

  test('bad ids are refused with the rule, nothing written', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    const html = widgetHtml('X');
    for (const id of ['', '../escape', 'a/b', 'x.html', '.hidden', '-dash', 'con:x', 'spa ce', 'ü', 'a'.repeat(65), 'x\u0000y']) {
      expect(await callError(env.client, 'widget_write', { id, html })).toMatch(
        /^Widget id '.*' is not valid: use 1-64 ASCII letters, digits, '-' or '_'/s,
      );
    }
    // Windows device names: valid characters, but no such file can exist on Windows.
    for (const id of ['con', 'NUL', 'com1', 'Lpt3']) {
      expect(await callError(env.client, 'widget_write', { id, html })).toMatch(/Windows reserves for a device.*choose another name/);
    }
    expect(await exists('Widgets')).toBe(false);
    expect(await exists('escape.html')).toBe(false);
  });

  test('bad manifests are refused with what to fix; a broken file on disk is listed with error, not hidden', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    const cases: Array<[string, RegExp]> = [
      ['<p>no manifest</p>', /^Invalid widget manifest: no manifest: add <script type="application\/json" id="vault-mcp-widget">/],
      ['<script id="vault-mcp-widget">{"name":"x","query":""}</script>', /must have type="application\/json" \(it has none\)/],
      [
        '<script type="text/javascript" id="vault-mcp-widget">{"name":"x","query":""}</script>',
        /must have type="application\/json" \(it has "text\/javascript"\)/,
      ],
      ['<script type="application/json" id="vault-mcp-widget">{"name": "x", </script>', /the manifest is not valid JSON/],
      ['<script type="application/json" id="vault-mcp-widget">["x"]</script>', /must be a JSON object/],
      ['<script type="application/json" id="vault-mcp-widget">{"query":""}</script>', /needs a non-empty string "name"/],
      ['<script type="application/json" id="vault-mcp-widget">{"name":"x"}</script>', /needs a string "query"/],
      [
        '<script type="application/json" id="vault-mcp-widget">{"name":"x","query":"","description":5}</script>',
        /"description" must be a string/,
      ],
      [
        '<script type="application/json" id="vault-mcp-widget">{"name":"x","query":"WHERE status iz 1"}</script>',
        /"query" is not a query_notes query/,
      ],
      [
        '<script type="application/json" id="vault-mcp-widget">{"name":"x","query":""}</script><script type="application/json" id=\'vault-mcp-widget\'>{}</script>',
        /more than one element has id "vault-mcp-widget"/,
      ],
      ['<script type="application/json" id="vault-mcp-widget">{"name":"x","query":""}', /not closed with <\/script>/],
    ];
    for (const [html, message] of cases) expect(await callError(env.client, 'widget_write', { id: 'broken', html })).toMatch(message);
    expect(await exists('Widgets')).toBe(false);

    // Manifest attributes in any order and quoting, `data-id` not taken for `id`.
    const loose = `<SCRIPT data-id="other" ID='vault-mcp-widget' TYPE=application/json>{"name":"Loose","query":""}</SCRIPT>`;
    expect(await call(env.client, 'widget_write', { id: 'loose', html: loose })).toMatchObject({ status: 'applied' });

    const { vault } = env.booted.app;
    await vault.create('Widgets/by-hand.html', '<script type="application/json" id="vault-mcp-widget">{oops}</script>');
    await vault.create('Widgets/Bad Name.html', widgetHtml('Spaces'));
    await vault.create('Widgets/bad-query.html', widgetHtml('Q', 'SORT'));
    const listed = (await call(env.client, 'widget_list', {})).widgets as Json[];
    expect(listed.map((w) => [w.id, w.error ?? null])).toEqual([
      ['Bad Name', expect.stringMatching(/is not a valid widget id/)],
      [
        'bad-query',
        'Invalid widget manifest: "query" is not a query_notes query: Expected a field to sort by, e.g. file.mtime (the query ends there) (at position 5).',
      ],
      ['by-hand', expect.stringMatching(/not valid JSON/)],
      ['loose', null],
    ]);
    expect(listed.find((w) => w.id === 'by-hand')).toMatchObject({
      name: null,
      description: null,
      query: null,
      path: 'Widgets/by-hand.html',
    });
  });

  test('note tools refuse the widgets folder with one sentence naming widget_write; search and lists skip it', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    await call(env.client, 'widget_write', { id: 'w', html: widgetHtml('W') });
    await env.booted.app.vault.create('Widgets/planted.md', '# Planted\nzebraquartz\n');
    await env.booted.app.metadataCache.whenResolved();
    const refusal =
      /is in the widgets folder 'Widgets', which note tools do not use; list widgets with widget_list and write them with widget_write\.$/;
    const calls: Array<[string, Json]> = [
      ['create_note', { path: 'Widgets/x.md', content: 'x' }],
      ['create_note', { path: 'widgets/Sub/x', content: 'x' }],
      ['read_note', { path: 'Widgets/planted.md' }],
      ['read_note', { path: 'Widgets/w.html' }],
      ['write_note', { path: 'Widgets/planted.md', body: 'gone' }],
      ['append_note', { path: 'Widgets/planted', content: 'more' }],
      ['delete_note', { path: 'Widgets/planted.md', confirm: true }],
      ['move_note', { path: 'Ideas.md', to: 'Widgets/Ideas.md' }],
      ['move_note', { path: 'Widgets/planted.md', to: 'Planted.md' }],
      ['create_folder', { path: 'Widgets/Sub' }],
      ['list_notes', { folder: 'Widgets' }],
    ];
    for (const [name, args] of calls) expect(`${name}: ${await callError(env.client, name, args)}`).toMatch(refusal);
    expect(await disk('Widgets/planted.md')).toBe('# Planted\nzebraquartz\n');
    expect(await exists('Widgets/x.md')).toBe(false);
    expect(await exists('Widgets/Ideas.md')).toBe(false);

    const search = await call(env.client, 'search', { query: 'zebraquartz' });
    expect(JSON.stringify(search)).not.toContain('Planted');
    const all = await call(env.client, 'list_notes', { limit: 500 });
    expect(JSON.stringify(all)).not.toContain('Widgets/');
    const folders = await call(env.client, 'list_folders', {});
    expect(JSON.stringify(folders)).not.toContain('Widgets');
    const query = await call(env.client, 'query_notes', { query: 'WHERE file.folder under "Widgets"' });
    expect(query.total).toBe(0);

    // The folder setting changes (the settings tab then rebuilds the index): Widgets/ is an ordinary folder again, search included.
    env.booted.plugin.settings.widgets.folder = 'Boards';
    await env.booted.plugin.search.reindex();
    expect((await call(env.client, 'read_note', { path: 'Widgets/planted.md' })).body).toContain('zebraquartz');
    expect(JSON.stringify(await call(env.client, 'search', { query: 'zebraquartz' }))).toContain('Widgets/planted.md');
    expect(await callError(env.client, 'create_note', { path: 'Boards/x', content: 'x' })).toMatch(/widgets folder 'Boards'/);
  });

  test('the widgets folder is a setting; widgets follow key roots and quarantine', async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force', configure: (s) => (s.widgets.folder = 'Dash/Boards/') });
    expect(await call(env.client, 'widget_write', { id: 'a', html: widgetHtml('A') })).toMatchObject({ path: 'Dash/Boards/a.html' });
    expect(await call(env.client, 'create_note', { path: 'Widgets/plain.md', content: 'an ordinary note now\n' })).toMatchObject({
      status: 'applied',
    });
    expect(await callError(env.client, 'create_note', { path: 'Dash/Boards/x.md', content: 'x' })).toMatch(/widgets folder 'Dash\/Boards'/);
    await env.done();

    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force', roots: ['Projects'] });
    expect(await callError(env.client, 'widget_list', {})).toBe(
      "The widgets folder 'Widgets' is outside the folders this key may use (Projects); widgets need a key whose roots include it.",
    );
    expect(await callError(env.client, 'widget_write', { id: 'a', html: widgetHtml('A') })).toMatch(/outside the folders this key may use/);
    await env.done();

    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force', configure: (s) => (s.widgets.folder = '_private/Widgets') });
    expect(await callError(env.client, 'widget_write', { id: 'a', html: widgetHtml('A') })).toMatch(
      /^The widgets folder '_private\/Widgets' is in a folder agents may not access/,
    );
  });

  test('a widgets folder that is a link to another vault folder (which Obsidian ignores) is refused as taken, nothing written', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    await fs.symlink('Projects', path.join(copy.dir, 'Widgets'));
    env = await bootWriteEnvIn(copy.dir, { mode: 'force' }, () => copy.cleanup());
    expect(await callError(env.client, 'widget_write', { id: 'a', html: widgetHtml('A') })).toBe(
      "The widgets folder 'Widgets' is taken on disk by an entry Obsidian does not list; ask the user to move it or choose another widgets folder.",
    );
    expect(await exists('Projects/a.html')).toBe(false);
  });

  test("a rendered widget gets its query run over the owner's view: private notes and the widgets folder left out", async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode: 'force' });
    const query = 'WHERE file.folder under "Personal" OR status exists SORT file.path COLUMNS status';
    await call(env.client, 'widget_write', { id: 'status', html: widgetHtml('Status', query) });
    await env.booted.app.vault.create('Widgets/status-note.md', '---\nstatus: hidden\n---\n');
    await env.booted.app.metadataCache.whenResolved();
    const source = vaultWidgetSource(env.booted.plugin.notes, env!.booted.plugin.widgetWriters);
    const loaded = await source.load('status');
    expect(loaded).toEqual({
      html: widgetHtml('Status', query),
      query,
      shown: { hash: sha256(widgetHtml('Status', query)), writer: 'runkey' },
    });
    if (!('shown' in loaded)) throw new Error(JSON.stringify(loaded));
    const result = (await source.run(query, 'status', loaded.shown)) as { columns: string[]; rows: unknown[][]; total: number };
    expect(result.columns).toEqual(['file.path', 'status']);
    expect(result.rows).toEqual([
      ['Ideas.md', 'collecting'],
      ['Projects/Alpha/Alpha overview.md', 'active'],
      ['Projects/Beta/Beta overview.md', 'paused'],
    ]);
    expect(await source.load('missing')).toEqual({ error: "No widget 'missing' in the widgets folder." });
    expect(await source.load('../x')).toEqual({ error: expect.stringMatching(/is not valid/) });
  });
});
