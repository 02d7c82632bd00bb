/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TFile } from '../../host/index';
import { bootWriteEnv, call, callError, type Json, type WriteEnv } from '../../harness/edits/write-helpers';
import { DEMO_VAULT } from '../../harness/temp-copy';

/**
 * A write that would change nothing answers one shape in both key modes, over the official SDK
 * client: `{status: "unchanged", path, hash, message}` (plus the edit's `note` when it has one),
 * with nothing written, staged or logged, on every write route that can be a no-op: property
 * sets and deletes, write_note's body and frontmatter_patch, edit_note by anchor and by heading,
 * with the note closed and open in an editor; and a widget replaced by the same HTML (force only:
 * a propose key cannot replace a widget). An empty append is refused alike in both modes.
 */

const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const NOTE = '---\ntitle: t\ntags:\n  - a\n---\n# Head\n\nbody\n\n## Sub\n\nmore\n';
const message = "Nothing to change: 'P.md' already reads that way, so nothing was written, staged or logged.";

/** Every no-op route of the note tools, as [tool, args, remark the answer carries]. */
const ROUTES: Array<[string, Json, string | undefined]> = [
  ['set_properties', { path: 'P', properties: { title: 't' } }, undefined],
  // A deletion of a property the note lacks names it (most often a misspelt name).
  ['set_properties', { path: 'P', properties: { nonexistent: null } }, 'nonexistent'],
  ['set_properties', { path: 'P', properties: { TITLE: 't' } }, 'title'],
  ['set_properties', { path: 'P', properties: { tags: ['a'] } }, undefined],
  ['write_note', { path: 'P', frontmatter_patch: { title: 't' } }, undefined],
  ['write_note', { path: 'P', body: '# Head\n\nbody\n\n## Sub\n\nmore\n' }, undefined],
  ['write_note', { path: 'P', body: '# Head\n\nbody\n\n## Sub\n\nmore\n', frontmatter_patch: { title: 't' } }, undefined],
  ['edit_note', { path: 'P', anchor: 'body', op: 'replace', content: 'body' }, undefined],
  ['edit_note', { path: 'P', anchor: 'body', op: 'insert_after', content: '' }, undefined],
  ['edit_note', { path: 'P', heading: 'Sub', op: 'replace', content: 'more\n' }, undefined],
];

describe.each(['force', 'propose'] as const)('a write that changes nothing, %s key', (mode) => {
  let env: WriteEnv;
  let hash: string;
  const mtime = async (): Promise<number> => (await fs.stat(path.join(env.dir, 'P.md'))).mtimeMs;

  beforeEach(async () => {
    env = await bootWriteEnv(DEMO_VAULT, { mode, label: 'Agent' });
    await fs.writeFile(path.join(env.dir, 'P.md'), NOTE);
    await env.booted.app.vault.syncFromDisk();
    hash = (await call(env.client, 'read_note', { path: 'P' })).hash;
    expect(hash).toBe(sha(NOTE));
  });
  afterEach(async () => env?.done());

  /** Runs every route and checks the one shape, then that nothing was written, staged or logged. */
  async function expectEveryRouteUnchanged(): Promise<void> {
    const logged = env.booted.plugin.activity.all().length;
    const before = await mtime();
    for (const [tool, args, remark] of ROUTES) {
      const out = await call(env.client, tool, args);
      const expected: Json = { status: 'unchanged', path: 'P.md', hash, message };
      if (remark !== undefined) expected.note = expect.stringContaining(`'${remark}'`);
      expect([tool, args, out]).toEqual([tool, args, expected]);
    }
    expect(await fs.readFile(path.join(env.dir, 'P.md'), 'utf8')).toBe(NOTE);
    expect(await mtime()).toBe(before);
    expect(env.booted.plugin.proposals.pending()).toEqual([]);
    expect(env.booted.plugin.activity.all()).toHaveLength(logged);
  }

  test('every note route answers {status: "unchanged", path, hash, message}, the note closed', async () => {
    await expectEveryRouteUnchanged();
    // An empty append is no change either: refused the same way in both modes.
    expect(await callError(env.client, 'append_note', { path: 'P', content: '' })).toBe(
      "content is empty, so there is nothing to append to 'P.md'; pass the text to add.",
    );
  });

  test('the same with the note open in an editor', async () => {
    const view = await env.booted.app.workspace.openNote(env.booted.app.vault.getFileByPath('P.md') as TFile);
    await expectEveryRouteUnchanged();
    expect(view.editor.getValue()).toBe(NOTE);
  });

  test('widget_write with the HTML a widget already has', async () => {
    const manifest = JSON.stringify({ name: 'Board', description: 'A board', query: 'WHERE status exists' });
    const html = `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body></body></html>`;
    await fs.mkdir(path.join(env.dir, 'Widgets'), { recursive: true });
    await fs.writeFile(path.join(env.dir, 'Widgets', 'board.html'), html);
    await env.booted.app.vault.syncFromDisk();
    const logged = env.booted.plugin.activity.all().length;
    if (mode === 'propose') {
      // A propose key cannot replace a widget at all, so no write of it can be a no-op.
      expect(await callError(env.client, 'widget_write', { id: 'board', html, expected_hash: sha(html) })).toMatch(/needs a force key/);
    } else {
      expect(await call(env.client, 'widget_write', { id: 'board', html, expected_hash: sha(html) })).toEqual({
        status: 'unchanged',
        id: 'board',
        path: 'Widgets/board.html',
        hash: sha(html),
        message: "Nothing to change: 'Widgets/board.html' already reads that way, so nothing was written, staged or logged.",
      });
    }
    expect((await fs.readdir(path.join(env.dir, 'Widgets'))).sort()).toEqual(['board.html']);
    expect(env.booted.plugin.activity.all()).toHaveLength(logged);
    expect(env.booted.plugin.proposals.pending()).toEqual([]);
  });
});
