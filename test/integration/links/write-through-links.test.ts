import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { vaultWidgetSource } from '../../../src/ui/widgets/widget-block';
import type { BootOptions } from '../../harness/boot-plugin';
import { attempt, bootWriteEnvIn, call, callError, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * Symbolic links in the widgets folder and at paths the server already looked up (verifier,
 * session 28; docs/security.md#symbolic-links). A widget file that is a link (out of the vault,
 * dangling, into a quarantined folder, onto a read-only or private note or an AGENTS.md) or a hard
 * link is neither listed, read nor written; and every write that creates a file (create_note, a
 * move's target, an accepted create proposal, a widget, a revert that puts a note back) judges its
 * target on the disk right before it, so a dangling link put at a path whose answer was cached
 * before is never followed. Real links in a real temp folder, through the MCP routes.
 */

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A widget whose manifest has `name`. */
function widgetHtml(name: string): string {
  const manifest = JSON.stringify({ name, description: `${name} board`, query: 'WHERE status exists' });
  return `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body><p>${name}</p></body></html>`;
}

const LOCKED = '---\naccess: read-only\n---\nlockedword stays as it is.\n';
/** A private note that holds a widget manifest: widget_list must show nothing of it. */
const PRIVATE = `---\naccess: private\n---\n${widgetHtml('Privatenamesecret')}\n`;
const AGENTS = 'Agents: never run rm.\n';

interface Env extends WriteEnv {
  root: string;
  vault: string;
}

/** A temp folder with `vault/` (Journal quarantined) and nothing else; `setup` adds links before the boot. */
async function boot(setup: (vault: string, root: string) => Promise<void>, options: Partial<BootOptions> = {}): Promise<Env> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-write-links-'));
  const vault = nodePath.join(root, 'vault');
  await writeVaultFiles(vault, {
    'Home.md': 'home\n',
    'Journal/j.md': 'journal\n',
    'ro/locked.md': LOCKED,
    'pv/secret.md': PRIVATE,
    'AGENTS.md': AGENTS,
    'Widgets/ok.html': widgetHtml('Ok'),
    'dg6/s.md': 's\n',
  });
  await setup(vault, root);
  const env = await bootWriteEnvIn(vault, { configure: (s) => void (s.access.quarantine = ['Journal']), ...options }, () =>
    fsp.rm(root, { recursive: true, force: true }),
  );
  return { ...env, root, vault };
}

const exists = (full: string): Promise<boolean> =>
  fsp.lstat(full).then(
    () => true,
    () => false,
  );

/** Polls `check` every 20 ms until it is true (at most 2 s). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
}

/** The widgets folder's links: dangling ones (outside, into quarantine, an agent-instruction file) and ones onto notes. */
async function widgetLinks(vault: string, root: string): Promise<void> {
  const w = (name: string): string => nodePath.join(vault, 'Widgets', name);
  await fsp.symlink(nodePath.join(root, 'outside-target.html'), w('evil.html'), 'file');
  await fsp.symlink('../Journal/planted.md', w('q.html'), 'file');
  await fsp.symlink('../CLAUDE.md', w('c.html'), 'file');
  await fsp.symlink('../ro/locked.md', w('ro.html'), 'file');
  await fsp.symlink('../pv/secret.md', w('pv.html'), 'file');
  await fsp.symlink('../AGENTS.md', w('ag.html'), 'file');
  await fsp.link(nodePath.join(vault, 'ro', 'locked.md'), w('hard.html'));
}

describe('widget files that are links', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('widget_list and the renderer show nothing of a linked or hard-linked file: no id, no hash, no manifest', async () => {
    env = await boot(widgetLinks);
    const listed = await call(env.client, 'widget_list', {});
    expect((listed.widgets as Json[]).map((w) => w.id)).toEqual(['ok']);
    const text = JSON.stringify(listed);
    for (const secret of [sha256(LOCKED), sha256(PRIVATE), sha256(AGENTS), 'Privatenamesecret']) expect(text).not.toContain(secret);
    for (const id of ['ro', 'pv', 'ag', 'hard'])
      expect(await vaultWidgetSource(env.booted.plugin.notes, env!.booted.plugin.widgetWriters).load(id)).toEqual({
        error: `No widget '${id}' in the widgets folder.`,
      });
  });

  test('widget_write never creates through a dangling link: outside the vault, in quarantine, an agent-instruction file', async () => {
    env = await boot(widgetLinks);
    for (const id of ['evil', 'q', 'c'])
      expect(await callError(env.client, 'widget_write', { id, html: widgetHtml('Mine') })).toBe(
        `'Widgets/${id}.html' is taken or unavailable; choose another widget id.`,
      );
    expect(await exists(nodePath.join(env.root, 'outside-target.html'))).toBe(false);
    expect(await exists(nodePath.join(env.vault, 'Journal', 'planted.md'))).toBe(false);
    expect(await exists(nodePath.join(env.vault, 'CLAUDE.md'))).toBe(false);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });

  test('widget_write never replaces a read-only or private note, an AGENTS.md or a hard link through the widgets folder', async () => {
    env = await boot(widgetLinks);
    const html = widgetHtml('Mine');
    for (const [id, before] of [
      ['ro', LOCKED],
      ['pv', PRIVATE],
      ['ag', AGENTS],
      ['hard', LOCKED],
    ]) {
      expect(await callError(env.client, 'widget_write', { id, html, expected_hash: sha256(before) })).toBe(
        `No widget '${id}'; call widget_list to see the widgets, or omit expected_hash to create it.`,
      );
      expect(await callError(env.client, 'widget_write', { id, html })).toBe(
        `'Widgets/${id}.html' is taken or unavailable; choose another widget id.`,
      );
    }
    expect(await fsp.readFile(nodePath.join(env.vault, 'ro', 'locked.md'), 'utf8')).toBe(LOCKED);
    expect(await fsp.readFile(nodePath.join(env.vault, 'pv', 'secret.md'), 'utf8')).toBe(PRIVATE);
    expect(await fsp.readFile(nodePath.join(env.vault, 'AGENTS.md'), 'utf8')).toBe(AGENTS);
    expect((await fsp.readdir(nodePath.join(env.vault, 'Widgets'))).filter((n) => n.includes('.bak'))).toEqual([]);
    // A plain widget still replaces.
    expect(await call(env.client, 'widget_write', { id: 'ok', html, expected_hash: sha256(widgetHtml('Ok')) })).toMatchObject({
      replaced: true,
      backup: 'Widgets/ok.html.bak',
    });
  });

  test('a propose key: staging over a link is refused, and a link put there before the accept is not followed', async () => {
    env = await boot(async (vault) => fsp.symlink('../Journal/viaprop.md', nodePath.join(vault, 'Widgets', 'pl.html'), 'file'), {
      mode: 'propose',
    });
    expect(await callError(env.client, 'widget_write', { id: 'pl', html: widgetHtml('Mine') })).toBe(
      "'Widgets/pl.html' is taken or unavailable; choose another widget id.",
    );
    const staged = await call(env.client, 'widget_write', { id: 'pw', html: widgetHtml('Mine') });
    await fsp.symlink('../Journal/viaprop.md', nodePath.join(env.vault, 'Widgets', 'pw.html'), 'file');
    const outcome = await env.booted.plugin.review.accept(String(staged.proposal_id));
    expect(outcome).toMatchObject({ applied: 0, stale: 1 });
    expect(outcome.proposal.stale_reason).toBe(
      "Its path 'Widgets/pw.html' is now taken or not available to the key, so it can no longer be applied.",
    );
    expect(await exists(nodePath.join(env.vault, 'Journal', 'viaprop.md'))).toBe(false);
    expect((await fsp.lstat(nodePath.join(env.vault, 'Widgets', 'pw.html'))).isSymbolicLink()).toBe(true);
  });

  test('a widget file replaced by a link after it was listed is not written through', async () => {
    env = await boot(async () => undefined);
    await call(env.client, 'widget_list', {});
    const file = nodePath.join(env.vault, 'Widgets', 'ok.html');
    // A sync tool's swap: the link is made aside and renamed over the file (the vault reports a modify).
    await fsp.symlink('../ro/locked.md', `${file}.tmp`, 'file');
    await fsp.rename(`${file}.tmp`, file);
    expect(
      await callError(env.client, 'widget_write', { id: 'ok', html: widgetHtml('Mine'), expected_hash: sha256(widgetHtml('Ok')) }),
    ).toMatch(/^No widget 'ok'/);
    expect(await fsp.readFile(nodePath.join(env.vault, 'ro', 'locked.md'), 'utf8')).toBe(LOCKED);
  });
});

describe('a dangling link put at a path the server already looked up', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('create_note never writes through it, into quarantine or outside the vault', async () => {
    env = await boot(async () => undefined);
    const { client, vault, root } = env;
    const cases: Array<[string, string, string]> = [
      ['dg6/t', '../Journal/w6.md', nodePath.join(vault, 'Journal', 'w6.md')],
      ['dg6/u', nodePath.join(root, 'outside-w6.md'), nodePath.join(root, 'outside-w6.md')],
      ['fresh/deep/v', '../../Journal/w7.md', nodePath.join(vault, 'Journal', 'w7.md')],
    ];
    for (const [path, target, made] of cases) {
      // A refused create looks the path up (its answer is cached) and writes nothing.
      expect(await callError(client, 'create_note', { path, content: '---\naccess: private\n---\nx' })).toMatch(/access/);
      await fsp.mkdir(nodePath.dirname(nodePath.join(vault, `${path}.md`)), { recursive: true });
      await fsp.symlink(target, nodePath.join(vault, `${path}.md`), 'file');
      expect(await callError(client, 'create_note', { path, content: 'planted text\n' })).toBe(
        'Cannot create at that path: it is taken or unavailable; choose another path.',
      );
      expect({ path, made: await exists(made) }).toEqual({ path, made: false });
    }
    // A missing folder on the way that became a dangling link: nothing is made through it either.
    expect(await callError(client, 'create_note', { path: 'gone/n', content: '---\naccess: private\n---\nx' })).toMatch(/access/);
    await fsp.symlink(nodePath.join(root, 'elsewhere'), nodePath.join(vault, 'gone'), 'dir');
    expect((await attempt(client, 'create_note', { path: 'gone/n', content: 'planted\n' })).ok).toBe(false);
    expect(await exists(nodePath.join(root, 'elsewhere'))).toBe(false);
  });

  test('move_note never moves a note through it or over it', async () => {
    env = await boot(async () => undefined);
    const { client, vault } = env;
    expect(await callError(client, 'create_note', { path: 'dg6/m', content: '---\naccess: private\n---\nx' })).toMatch(/access/);
    await fsp.symlink('../Journal/moved.md', nodePath.join(vault, 'dg6', 'm.md'), 'file');
    expect(await callError(client, 'move_note', { path: 'Home', to: 'dg6/m' })).toBe(
      'Cannot move to that path: it is taken or unavailable; choose another path.',
    );
    expect(await fsp.readFile(nodePath.join(vault, 'Home.md'), 'utf8')).toBe('home\n');
    expect((await fsp.lstat(nodePath.join(vault, 'dg6', 'm.md'))).isSymbolicLink()).toBe(true);
    expect(await exists(nodePath.join(vault, 'Journal', 'moved.md'))).toBe(false);
  });

  test('an accepted create proposal is judged again at the accept', async () => {
    env = await boot(async () => undefined, { mode: 'propose' });
    const staged = await call(env.client, 'create_note', { path: 'dg6/p', content: 'proposed text\n' });
    await fsp.symlink('../Journal/p.md', nodePath.join(env.vault, 'dg6', 'p.md'), 'file');
    const outcome = await env.booted.plugin.review.accept(String(staged.proposal_id));
    expect(outcome).toMatchObject({ applied: 0 });
    expect(await exists(nodePath.join(env.vault, 'Journal', 'p.md'))).toBe(false);
  });

  test('a revert that puts a deleted note back never writes through a link put at its path', async () => {
    env = await boot(async () => undefined);
    const { client, vault } = env;
    await call(client, 'create_note', { path: 'dg6/r', content: 'revert me\n' });
    await call(client, 'delete_note', { path: 'dg6/r', confirm: true });
    await until(async () => !(await exists(nodePath.join(vault, 'dg6', 'r.md'))));
    const deleted = env.booted.plugin.activity.all()[0];
    expect(deleted).toMatchObject({ kind: 'delete', path: 'dg6/r.md' });
    // A refused create looks the free path up again, so its answer is cached before the link is put there.
    expect(await callError(client, 'create_note', { path: 'dg6/r', content: '---\naccess: private\n---\nx' })).toMatch(/access/);
    await fsp.symlink('../Journal/r.md', nodePath.join(vault, 'dg6', 'r.md'), 'file');
    const outcome = await env.booted.plugin.reverts.revert(deleted.id);
    expect(outcome).toMatchObject({
      reverted: false,
      message: expect.stringContaining("'dg6/r.md' is taken now, so nothing was put back there."),
    });
    expect(await exists(nodePath.join(vault, 'Journal', 'r.md'))).toBe(false);
  });
});
