import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type VaultMcpPlugin from '../../../src/main';
import { vaultWidgetSource, WIDGET_BLOCK_LANGUAGE } from '../../../src/ui/widgets/widget-block';
import { WidgetStopped, type WidgetFrameOptions } from '../../../src/ui/widgets/widget-frame';
import { createHostElement } from '../../host/ui/dom';
import { HostPostProcessorContext } from '../../host/workspace/markdown-render-child';
import { connectClient } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnvIn, call, callError, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A widget's writer record follows its text (docs/widgets.md#whose-view-a-widget-shows), through
 * every route that writes or moves widget text: a revert puts back the writer the restored text
 * had (never the reverting entry's key), renames through any name keep it, a backup carries the
 * replaced text's writer, a failed write leaves the record as it was; a writer that may not run
 * query_notes now gives no data; and a frame on screen is never fed under a writer other than the
 * one whose text it loaded. Through the real plugin over HTTP, with the verifier's keys: KeyA
 * (the booted key, whole vault) and KeyB (roots Projects, Widgets).
 */

const QUERY = 'WHERE status exists SORT file.path COLUMNS status, secretfield LIMIT 1000';

function widgetHtml(name: string, query = QUERY): string {
  const manifest = JSON.stringify({ name, description: 'Open items', query });
  return `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body>${name}</body></html>`;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const NOTES = {
  'Secret/S1.md': '---\nstatus: open\nsecretfield: outside the roots\n---\nS1\n',
  'Projects/Open.md': '---\nstatus: open\nsecretfield: fine\n---\nOpen\n',
};

/** What a frame of a widget by KeyB (or a key with its roots) gets: notes under Projects only (Open.md among them), never Secret/S1.md. */
function expectNarrow(paths: unknown): void {
  expect(paths).toContain('Projects/Open.md');
  expect(paths).not.toContain('Secret/S1.md');
  for (const p of paths as unknown[]) expect(String(p)).toMatch(/^Projects\//);
}

type Rows = { columns: string[]; rows: unknown[][]; total: number };

describe("a widget's writer follows its text", () => {
  let env: WriteEnv | null = null;
  let b: Client | null = null;
  let keyB = '';

  afterEach(async () => {
    await b?.close();
    b = null;
    await env?.done();
    env = null;
  });

  /** Boots KeyA (force, `roots`: whole vault unless given) and mints KeyB (force, Projects and Widgets) with its client. */
  async function boot(roots: string[] = []): Promise<void> {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, NOTES);
    env = await bootWriteEnvIn(dir, { label: 'KeyA', mode: 'force', roots }, () => fs.rm(dir, { recursive: true, force: true }));
    await env.booted.app.metadataCache.whenResolved();
    const minted = await plugin().keyRing.mint({ label: 'KeyB', mode: 'force', roots: ['Projects', 'Widgets'] });
    keyB = minted.record.id;
    b = await connectClient(env.booted.url, minted.token);
  }

  const plugin = (): VaultMcpPlugin => env!.booted.plugin;
  const source = () => vaultWidgetSource(plugin().notes, plugin().widgetWriters);
  /** The paths a frame showing widget `id` now gets (loaded, then its data), or the sentence shown instead. */
  async function shows(id: string): Promise<unknown[] | string> {
    const loaded = await source().load(id);
    if ('error' in loaded) return loaded.error;
    if ('unconfirmed' in loaded) return 'unconfirmed';
    return ((await source().run(QUERY, id, loaded.shown)) as Rows).rows.map((r) => r[0]);
  }
  const rename = async (from: string, to: string) =>
    env!.booted.app.fileManager.renameFile(env!.booted.app.vault.getAbstractFileByPath(from)!, to);
  const hashOf = async (client: Client, id: string): Promise<string> =>
    ((await call(client, 'widget_list')).widgets as Json[]).find((w) => w.id === id)!.hash as string;

  test("reverting a broad key's replace of a narrow key's widget gives the restored text its writer back, not the broad key", async () => {
    await boot();
    const bHtml = widgetHtml('B board');
    await call(b!, 'widget_write', { id: 'board', html: bHtml });
    expectNarrow(await shows('board'));
    await call(env!.client, 'widget_write', {
      id: 'board',
      html: widgetHtml('A board'),
      expected_hash: await hashOf(env!.client, 'board'),
    });
    expect(await shows('board')).toContain('Secret/S1.md'); // A's own text: A's view
    const aEntry = plugin()
      .activity.all()
      .find((e) => e.kind === 'widget' && e.key_label === 'KeyA')!;
    expect((await plugin().reverts.revert(aEntry.id)).reverted).toBe(true);
    expect(await fs.readFile(`${env!.dir}/Widgets/board.html`, 'utf8')).toBe(bHtml);
    expectNarrow(await shows('board')); // B's text again, with B's rights: not A's whole vault
    expect(plugin().settings.widgetWriters.board).toMatchObject({ key_id: keyB, key_label: 'KeyB', hash: sha256(bHtml) });
    expect(aEntry.writer_before).toMatchObject({ key_id: keyB, key_label: 'KeyB' }); // logged with A's change
    // Reverting the revert puts A's text back, with A as its writer.
    const revertEntry = plugin()
      .activity.all()
      .find((e) => e.reverts === aEntry.id)!;
    expect((await plugin().reverts.revert(revertEntry.id)).reverted).toBe(true);
    expect(plugin().settings.widgetWriters.board).toMatchObject({ key_id: 'runkey', key_label: 'KeyA' });
    expect(await shows('board')).toContain('Secret/S1.md');
  });

  test('a revert of an entry logged without the writer (before it was kept) gives the restored text no known writer: no data', async () => {
    await boot();
    // The user's own widget text (no key wrote it), edited by hand after KeyB wrote it, so no text record knows it.
    await call(b!, 'widget_write', { id: 'board', html: widgetHtml('B board') });
    await env!.booted.app.vault.modify(env!.booted.app.vault.getFileByPath('Widgets/board.html')!, widgetHtml('B board, edited'));
    await call(env!.client, 'widget_write', {
      id: 'board',
      html: widgetHtml('A board'),
      expected_hash: await hashOf(env!.client, 'board'),
    });
    const aEntry = plugin()
      .activity.all()
      .find((e) => e.kind === 'widget' && e.key_label === 'KeyA')!;
    delete aEntry.writer_before; // as an entry logged by an older version
    expect((await plugin().reverts.revert(aEntry.id)).reverted).toBe(true);
    expect(await shows('board')).toMatch(/^Widget 'board' has no known writer/);
  });

  test("a revert that puts back the user's own confirmed text (no key wrote it) gives it the user's view again, not the reverting key's", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, { ...NOTES, 'Widgets/mine.html': widgetHtml('Mine') });
    env = await bootWriteEnvIn(dir, { label: 'KeyA', mode: 'force', roots: ['Projects', 'Widgets'] }, () =>
      fs.rm(dir, { recursive: true, force: true }),
    );
    await env.booted.app.metadataCache.whenResolved();
    expect(await shows('mine')).toBe('unconfirmed'); // no record says who wrote it: the user confirms it once
    expect(await source().confirm('mine', sha256(widgetHtml('Mine')))).toBeNull();
    expect(await shows('mine')).toContain('Secret/S1.md');
    await call(env.client, 'widget_write', { id: 'mine', html: widgetHtml('Mine v2'), expected_hash: await hashOf(env.client, 'mine') });
    expectNarrow(await shows('mine'));
    const entry = plugin()
      .activity.all()
      .find((e) => e.kind === 'widget')!;
    expect((await plugin().reverts.revert(entry.id)).reverted).toBe(true);
    expect(await shows('mine')).toContain('Secret/S1.md');
    expect(plugin().settings.widgetWriters.mine).toBeUndefined();
    expect(entry.writer_before).toBeNull();
  });

  test('a key whose current rights do not hold query_notes gets no data through its widget, with why', async () => {
    await boot();
    const { token, record } = await plugin().keyRing.mint({ label: 'WriteOnly', mode: 'force', roots: [], tools: ['widget_write'] });
    const w = await connectClient(env!.booted.url, token);
    try {
      await expect(w.callTool({ name: 'query_notes', arguments: { query: QUERY } })).rejects.toThrow(
        /not in the tool set of key "WriteOnly"/,
      );
      expect((await call(w, 'widget_write', { id: 'wo', html: widgetHtml('wo') })).status).toBe('applied');
    } finally {
      await w.close();
    }
    expect(await shows('wo')).toMatch(
      /^Widget 'wo' was last written by the key "WriteOnly", whose tool set does not hold query_notes, so it shows no data/,
    );
    await expect(source().run(QUERY, 'wo', { hash: sha256(widgetHtml('wo')), writer: record.id })).rejects.toBeInstanceOf(WidgetStopped);
    // A read-only tool set holds query_notes: the widget shows the key's view.
    await plugin().keyRing.setTools(record.id, 'read');
    expect(await shows('wo')).toContain('Secret/S1.md');
    // query_notes switched off for every key: no key's widget gets data (the user's own would).
    plugin().settings.tools.enabled.query_notes = false;
    expect(await shows('wo')).toMatch(/query_notes is switched off/);
    plugin().settings.tools.enabled.query_notes = true;
    // A key made cloud-only cannot read this vault over the loopback door.
    await plugin().keyRing.setScope(record.id, 'cloud');
    expect(await shows('wo')).toMatch(/cloud-only key/);
  });

  test("the note's widget block feeds its frame only while the widget is what it loaded", async () => {
    await boot();
    await call(b!, 'widget_write', { id: 'board', html: widgetHtml('B board') });
    const processor = (
      plugin() as unknown as { codeBlockProcessors: Map<string, (...a: unknown[]) => Promise<void>> }
    ).codeBlockProcessors.get(WIDGET_BLOCK_LANGUAGE)!;
    // The frame itself is not loaded here (no DOM window): its data closure is what every refresh calls.
    const added: Array<{ options: WidgetFrameOptions }> = [];
    const ctx = new HostPostProcessorContext('Notes/board.md');
    ctx.addChild = (child) => void added.push(child as unknown as { options: WidgetFrameOptions });
    await processor('board\n', createHostElement('div'), ctx);
    const frame = added[0]!;
    expectNarrow(((await frame.options.data()) as Rows).rows.map((r) => r[0]));
    await call(env!.client, 'widget_write', {
      id: 'board',
      html: widgetHtml('A board'),
      expected_hash: await hashOf(env!.client, 'board'),
    });
    await expect(frame.options.data()).rejects.toBeInstanceOf(WidgetStopped);
  });

  test('a frame on screen stops, never fed under another writer, when another key replaces its widget', async () => {
    await boot();
    await call(b!, 'widget_write', { id: 'board', html: widgetHtml('B board') });
    const loaded = await source().load('board');
    if (!('shown' in loaded)) throw new Error(JSON.stringify(loaded));
    expectNarrow(((await source().run(loaded.query, 'board', loaded.shown)) as Rows).rows.map((r) => r[0]));
    await call(env!.client, 'widget_write', {
      id: 'board',
      html: widgetHtml('A board'),
      expected_hash: await hashOf(env!.client, 'board'),
    });
    // The frame still runs B's script: its refresh stops it instead of sending A's view.
    await expect(source().run(loaded.query, 'board', loaded.shown)).rejects.toThrow(
      new WidgetStopped(
        "Widget 'board' changed since it was shown (its file is not the one loaded), so this copy gets no more data; reopen the note to show it as it is now.",
      ),
    );
    expect(loaded.shown).toEqual({ hash: sha256(widgetHtml('B board')), writer: keyB });
    // Same text, another writer (its record rewritten): stopped too.
    const again = await source().load('board');
    if (!('shown' in again)) throw new Error(JSON.stringify(again));
    plugin().settings.widgetWriters.board = { ...plugin().settings.widgetWriters.board!, key_id: keyB, key_label: 'KeyB' };
    await expect(source().run(again.query, 'board', again.shown)).rejects.toThrow(/its file's writer is not the one loaded/);
  });

  test("renames through other names, subfolders or out of the widgets folder keep a key's widget under its key's rights", async () => {
    await boot(['Projects', 'Widgets']);
    await call(env!.client, 'widget_write', { id: 'board', html: widgetHtml('Board') });
    await rename('Widgets/board.html', 'Widgets/board.txt');
    await rename('Widgets/board.txt', 'Widgets/team.html');
    expectNarrow(await shows('team'));
    await env!.booted.app.vault.createFolder('Widgets/sub');
    await rename('Widgets/team.html', 'Widgets/sub/team.html');
    await rename('Widgets/sub/team.html', 'Widgets/other.html');
    expectNarrow(await shows('other'));
    // Out of the widgets folder and back: the text's own record names its writer.
    await env!.booted.app.vault.createFolder('Elsewhere');
    await rename('Widgets/other.html', 'Elsewhere/other.md');
    await rename('Elsewhere/other.md', 'Widgets/back.html');
    expectNarrow(await shows('back'));
  });

  test("a replace's backup keeps the replaced text's writer, even for a text the user edited since", async () => {
    await boot();
    await call(b!, 'widget_write', { id: 'board', html: widgetHtml('B board') });
    await env!.booted.app.vault.modify(env!.booted.app.vault.getFileByPath('Widgets/board.html')!, widgetHtml('B board, edited'));
    expectNarrow(await shows('board')); // a key's widget the user edited keeps the key's rights
    const replaced = await call(env!.client, 'widget_write', {
      id: 'board',
      html: widgetHtml('A board'),
      expected_hash: await hashOf(env!.client, 'board'),
    });
    expect(replaced.backup).toBe('Widgets/board.html.bak');
    await rename('Widgets/board.html.bak', 'Widgets/board-old.html');
    expectNarrow(await shows('board-old'));
    expect(await shows('board')).toContain('Secret/S1.md');
  });

  test('a replace refused after its writer was recorded (the user changed the widget meanwhile) leaves the record as it was', async () => {
    await boot();
    await call(b!, 'widget_write', { id: 'board', html: widgetHtml('B board') });
    const hash = await hashOf(env!.client, 'board');
    const vault = env!.booted.app.vault;
    const original = vault.process.bind(vault);
    const edited = widgetHtml('B board, edited by the user meanwhile');
    // The user saves the widget between the backup and the rewrite: the replace is refused as a conflict.
    vault.process = async (file, fn, options) => {
      await vault.modify(file, edited);
      return original(file, fn, options);
    };
    try {
      expect(await callError(env!.client, 'widget_write', { id: 'board', html: widgetHtml('A board'), expected_hash: hash })).toMatch(
        /changed since you listed it/,
      );
    } finally {
      vault.process = original;
    }
    expect(await fs.readFile(`${env!.dir}/Widgets/board.html`, 'utf8')).toBe(edited);
    expectNarrow(await shows('board')); // the user's edit of B's text, with B's rights: not A's whole vault
    expect(plugin().settings.widgetWriters.board).toMatchObject({ key_id: keyB });
  });
});
