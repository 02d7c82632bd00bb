import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { vaultWidgetSource } from '../../../src/ui/widgets/widget-block';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt, call, callError, type Json } from '../../harness/edits/write-helpers';

/**
 * Widgets and symbolic links out of the vault (docs/security.md#symbolic-links): a widget file, a
 * backup name or the widgets folder itself whose real path is outside the vault is quarantined
 * on every route (widget_list, widget_write under force and propose keys, the code-block
 * renderer) unless the user trusts that link; its bytes are never read, copied or written through.
 */

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A widget whose manifest has `name`, with `body` in its page. */
function widgetHtml(name: string, body = '<p>hello</p>'): string {
  const manifest = JSON.stringify({ name, description: `${name} board`, query: 'WHERE status exists SORT file.path' });
  return `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body>${body}</body></html>`;
}

/** The widget outside the vault, with a word that must never reach an agent or the vault. */
const OUTSIDE_WIDGET = widgetHtml('Outside', '<p>outsidewidgetsecret</p>');

interface LinkEnv {
  booted: BootedPlugin<VaultMcpPlugin>;
  client: Client;
  root: string;
  vault: string;
  done(): Promise<void>;
}

/**
 * A temp folder holding `outside.html` (a widget), `outdir/` (a folder with a widget) and
 * `vault/`; `setup(vault, root)` makes the vault's entries and links before the plugin boots.
 */
async function boot(setup: (vault: string, root: string) => Promise<void>, options: Partial<BootOptions> = {}): Promise<LinkEnv> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-widget-links-'));
  const vault = nodePath.join(root, 'vault');
  await fsp.mkdir(nodePath.join(root, 'outdir'), { recursive: true });
  await fsp.mkdir(vault);
  await fsp.writeFile(nodePath.join(root, 'outside.html'), OUTSIDE_WIDGET);
  await fsp.writeFile(nodePath.join(root, 'outdir', 'far.html'), OUTSIDE_WIDGET);
  await fsp.writeFile(nodePath.join(vault, 'Home.md'), 'home\n');
  await setup(vault, root);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault, mode: 'force', allowWrites: true, ...options });
  const client = await connectClient(booted.url, booted.token);
  return {
    booted,
    client,
    root,
    vault,
    done: async () => {
      await client.close();
      await booted.stop();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

/** Widgets/ok.html (a real widget) and Widgets/outw.html → outside.html. */
async function linkedWidget(vault: string, root: string): Promise<void> {
  await fsp.mkdir(nodePath.join(vault, 'Widgets'));
  await fsp.writeFile(nodePath.join(vault, 'Widgets', 'ok.html'), widgetHtml('Ok'));
  await fsp.symlink(nodePath.join(root, 'outside.html'), nodePath.join(vault, 'Widgets', 'outw.html'), 'file');
}

describe('widgets and symbolic links out of the vault', () => {
  let env: LinkEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('a widget file linked out is not listed, not replaced, not created over, not rendered; nothing is read or copied', async () => {
    env = await boot(linkedWidget);
    const { client, vault, root } = env;
    const listed = await call(client, 'widget_list', {});
    expect((listed.widgets as Json[]).map((w) => w.id)).toEqual(['ok']);
    expect(JSON.stringify(listed)).not.toContain(sha256(OUTSIDE_WIDGET));

    const html = widgetHtml('Mine');
    expect(await callError(client, 'widget_write', { id: 'outw', html, expected_hash: sha256(OUTSIDE_WIDGET) })).toBe(
      "No widget 'outw'; call widget_list to see the widgets, or omit expected_hash to create it.",
    );
    expect(await callError(client, 'widget_write', { id: 'OUTW', html, expected_hash: sha256(OUTSIDE_WIDGET) })).toMatch(
      /^No widget 'OUTW'/,
    );
    expect(await callError(client, 'widget_write', { id: 'outw', html })).toBe(
      "'Widgets/outw.html' is taken or unavailable; choose another widget id.",
    );

    expect(await vaultWidgetSource(env.booted.plugin.notes, env!.booted.plugin.widgetWriters).load('outw')).toEqual({
      error: "No widget 'outw' in the widgets folder.",
    });
    expect(await vaultWidgetSource(env.booted.plugin.notes, env!.booted.plugin.widgetWriters).load('ok')).toMatchObject({
      unconfirmed: { html: widgetHtml('Ok') },
    }); // read (a plain file); the user's own, so it asks to be confirmed

    expect((await fsp.readdir(nodePath.join(vault, 'Widgets'))).sort()).toEqual(['ok.html', 'outw.html']);
    expect((await fsp.lstat(nodePath.join(vault, 'Widgets', 'outw.html'))).isSymbolicLink()).toBe(true);
    expect(await fsp.readFile(nodePath.join(root, 'outside.html'), 'utf8')).toBe(OUTSIDE_WIDGET);
  });

  test('a propose key cannot stage a widget over a link out either', async () => {
    env = await boot(linkedWidget, { mode: 'propose' });
    const got = await attempt(env.client, 'widget_write', { id: 'outw', html: widgetHtml('Mine') });
    expect(got).toEqual({ ok: false, message: "'Widgets/outw.html' is taken or unavailable; choose another widget id." });
    expect(env.booted.plugin.proposals.all()).toEqual([]);
  });

  test('a link the user trusts in settings is a widget like any other', async () => {
    env = await boot(linkedWidget, { configure: (s) => void (s.access.trustedSymlinks = ['Widgets/outw.html']) });
    const listed = (await call(env.client, 'widget_list', {})).widgets as Json[];
    expect(listed.map((w) => [w.id, w.hash])).toEqual([
      ['ok', sha256(widgetHtml('Ok'))],
      ['outw', sha256(OUTSIDE_WIDGET)],
    ]);
  });

  test('backup names that are links out (dangling or not) are skipped, never written through', async () => {
    env = await boot(async (vault, root) => {
      await fsp.mkdir(nodePath.join(vault, 'Widgets'));
      await fsp.writeFile(nodePath.join(vault, 'Widgets', 'ok.html'), widgetHtml('Ok'));
      await fsp.symlink(nodePath.join(root, 'made-by-write.html'), nodePath.join(vault, 'Widgets', 'ok.html.bak'), 'file');
      await fsp.symlink(nodePath.join(root, 'outside.html'), nodePath.join(vault, 'Widgets', 'ok.html.bak.1'), 'file');
    });
    const { client, vault, root } = env;
    const written = await call(client, 'widget_write', {
      id: 'ok',
      html: widgetHtml('Ok', '<p>two</p>'),
      expected_hash: sha256(widgetHtml('Ok')),
    });
    expect(written).toMatchObject({ replaced: true, backup: 'Widgets/ok.html.bak.2' });
    expect(await fsp.readFile(nodePath.join(vault, 'Widgets', 'ok.html.bak.2'), 'utf8')).toBe(widgetHtml('Ok'));
    expect((await fsp.readdir(root)).sort()).toEqual(['outdir', 'outside.html', 'vault']);
    expect(await fsp.readFile(nodePath.join(root, 'outside.html'), 'utf8')).toBe(OUTSIDE_WIDGET);
    for (const name of ['ok.html.bak', 'ok.html.bak.1'])
      expect((await fsp.lstat(nodePath.join(vault, 'Widgets', name))).isSymbolicLink()).toBe(true);
  });

  test('a dangling link is outside too: note writes aimed at it never create its target', async () => {
    env = await boot(async (vault, root) => {
      await fsp.symlink(nodePath.join(root, 'ghost-target.md'), nodePath.join(vault, 'ghost.md'), 'file');
    });
    for (const [tool, args] of [
      ['create_note', { path: 'ghost', content: 'X\n' }],
      ['write_note', { path: 'ghost.md', body: 'X\n' }],
      ['append_note', { path: 'ghost', content: 'X' }],
    ] as const) {
      expect({ tool, ok: (await attempt(env.client, tool, args)).ok }).toEqual({ tool, ok: false });
    }
    expect((await fsp.readdir(env.root)).sort()).toEqual(['outdir', 'outside.html', 'vault']);
  });

  test('a widgets folder that is a link out is closed to every route', async () => {
    env = await boot(async (vault, root) => {
      await fsp.symlink(nodePath.join(root, 'outdir'), nodePath.join(vault, 'Widgets'), 'dir');
    });
    const closed =
      "The widgets folder 'Widgets' is in a folder agents may not access; the user can choose another widgets folder in the settings.";
    expect(await callError(env.client, 'widget_list', {})).toBe(closed);
    expect(
      await callError(env.client, 'widget_write', { id: 'far', html: widgetHtml('Mine'), expected_hash: sha256(OUTSIDE_WIDGET) }),
    ).toBe(closed);
    expect(await callError(env.client, 'widget_write', { id: 'new', html: widgetHtml('Mine') })).toBe(closed);
    expect(await vaultWidgetSource(env.booted.plugin.notes, env!.booted.plugin.widgetWriters).load('far')).toEqual({
      error: closed,
    });
    expect((await fsp.readdir(nodePath.join(env.root, 'outdir'))).sort()).toEqual(['far.html']);
    expect(await fsp.readFile(nodePath.join(env.root, 'outdir', 'far.html'), 'utf8')).toBe(OUTSIDE_WIDGET);
  });
});
