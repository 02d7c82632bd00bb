import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { bootWriteEnvIn, call, callError, writeVaultFiles, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A case-only rename (`move_note Note → note`) renames the note in place, as Obsidian's rename
 * does. On a case-sensitive disk (Linux) another file may already lie at the new spelling: one
 * another program (a sync client) just wrote, which the vault does not list yet. The rename must
 * take it as taken and never replace it (a rename over a file destroys it, with no copy in any
 * trash): NotePolicy.isFreeNow counts the entry at the new spelling as the note itself only when
 * it is the same file on disk (device and inode). Verifier s30 F4b.
 */

interface Env extends WriteEnv {
  vault: string;
}

/** `<tmp>/vault` holding `files` (plus Home.md), force key; the disk watcher stopped, so another program's file stays unreported. */
async function boot(files: Record<string, string>): Promise<Env> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-case-rename-'));
  const vault = nodePath.join(root, 'vault');
  await writeVaultFiles(vault, { 'Home.md': 'home\n', ...files });
  const env = await bootWriteEnvIn(vault, { mode: 'force' }, () => fsp.rm(root, { recursive: true, force: true }));
  await env.booted.app.vault.stopWatching();
  return { ...env, vault };
}

describe('a case-only rename onto a spelling another file on disk already has', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('a note: refused as taken, both files kept; once the other file is gone, the rename in place works', async () => {
    env = await boot({ 'Note.md': 'agent note\n' });
    const other = "the user's other note, just synced in\n";
    await fsp.writeFile(nodePath.join(env.vault, 'note.md'), other);
    expect(await callError(env.client, 'move_note', { path: 'Note', to: 'note' })).toMatch(/^Cannot move to that path: it is taken/);
    expect(await fsp.readFile(nodePath.join(env.vault, 'note.md'), 'utf8')).toBe(other);
    expect(await fsp.readFile(nodePath.join(env.vault, 'Note.md'), 'utf8')).toBe('agent note\n');
    expect(env.booted.plugin.activity.all()).toEqual([]);
    await fsp.rm(nodePath.join(env.vault, 'note.md'));
    expect(await call(env.client, 'move_note', { path: 'Note', to: 'note' })).toMatchObject({ status: 'applied', path: 'note.md' });
    expect((await fsp.readdir(env.vault)).filter((name) => name.toLowerCase() === 'note.md')).toEqual(['note.md']);
    expect(await fsp.readFile(nodePath.join(env.vault, 'note.md'), 'utf8')).toBe('agent note\n');
  });

  test('a folder: refused as taken, the other folder and its file kept', async () => {
    env = await boot({ 'Dir/a.md': 'a\n' });
    await fsp.mkdir(nodePath.join(env.vault, 'dir'));
    await fsp.writeFile(nodePath.join(env.vault, 'dir', 'b.md'), 'synced b\n');
    expect(await callError(env.client, 'move_note', { path: 'Dir/', to: 'dir' })).toMatch(/^Cannot move to that path: it is taken/);
    expect(await fsp.readFile(nodePath.join(env.vault, 'dir', 'b.md'), 'utf8')).toBe('synced b\n');
    expect(await fsp.readFile(nodePath.join(env.vault, 'Dir', 'a.md'), 'utf8')).toBe('a\n');
  });

  test('beside a case twin the vault lists: moving into the twin is a move to a taken path or into another folder, not into itself', async () => {
    // Case twins `CaseT/` and `caset/` (a Linux disk tells them apart), both listed by the vault (newcomer break-it s33).
    env = await boot({ 'CaseT/x.md': 'UPPER\n', 'caset/x.md': 'lower\n' });
    expect(await callError(env.client, 'move_note', { path: 'CaseT', to: 'caset' })).toMatch(/^Cannot move to that path: it is taken/);
    const intoTwin = await call(env.client, 'move_note', { path: 'CaseT', to: 'caset/sub' });
    expect(intoTwin).toMatchObject({ status: 'applied', path: 'caset/sub' });
    expect(await fsp.readFile(nodePath.join(env.vault, 'caset', 'sub', 'x.md'), 'utf8')).toBe('UPPER\n');
    expect(await fsp.readFile(nodePath.join(env.vault, 'caset', 'x.md'), 'utf8')).toBe('lower\n');
    // The folder itself, spelt otherwise, is still no place to move it into.
    expect(await callError(env.client, 'move_note', { path: 'caset', to: 'CASET/inner' })).toMatch(/into itself/);
  });
});
