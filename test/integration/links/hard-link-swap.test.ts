/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { attempt, bootFilesEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A note another program swaps for a *hard link* of a quarantined note (`ln Journal/h.md tmp &&
 * mv tmp H.md`) before the vault's event: a regular file lying in place, so the symbolic-link
 * checks pass it (verifier s30 F10). A write must not adopt it: force mode's retry (the disk's text
 * is not the vault's) refuses a file with more than one name, and a file swapped in between the
 * checks and the write is told apart by its device and inode even when its text is the same. Once
 * the vault lists a hard link, it is judged where it lies (docs/security.md), as before.
 */

const SECRET = 'journalsecretword\n';
const NOTE = 'body line\n';
const REFUSED = /^Note '.+' was replaced on disk by another program .*Wait a moment and read it again/;

interface Env extends WriteEnv {
  vault: string;
}

/** `<tmp>/vault` holding `files` (plus Home.md), force key, `Journal` quarantined; the disk watcher stopped after boot. */
async function boot(files: Record<string, string>, before?: (vault: string) => Promise<void>): Promise<Env> {
  const env = await bootFilesEnv(
    'vault-mcp-hard-link-',
    { 'Home.md': 'home\n', ...files },
    { mode: 'force', allowWrites: true, configure: (s) => void (s.access.quarantine = ['Journal']) },
    before,
  );
  await env.booted.app.vault.stopWatching();
  return { ...env, vault: nodePath.join(env.root, 'vault') };
}

/** `ln <vault>/from tmp && mv tmp <vault>/to`. */
async function hardLinkSwap(vault: string, from: string, to: string): Promise<void> {
  const tmp = nodePath.join(vault, `.tmp-${nodePath.basename(to)}`);
  await fsp.link(nodePath.join(vault, from), tmp);
  await fsp.rename(tmp, nodePath.join(vault, to));
}

const read = (env: Env, path: string): Promise<string> => fsp.readFile(nodePath.join(env.vault, path), 'utf8');

describe('a note swapped for a hard link of a quarantined note', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('before the call: write_note and delete_note refuse it, nothing is logged; a hard link the vault listed is written', async () => {
    env = await boot({ 'H.md': NOTE, 'Journal/h.md': SECRET, 'G.md': NOTE, 'Journal/g.md': SECRET, 'Journal/k.md': SECRET }, (vault) =>
      fsp.link(nodePath.join(vault, 'Journal/k.md'), nodePath.join(vault, 'K.md')),
    );
    for (const path of ['H', 'G']) await call(env.client, 'read_note', { path });
    await hardLinkSwap(env.vault, 'Journal/h.md', 'H.md');
    await hardLinkSwap(env.vault, 'Journal/g.md', 'G.md');
    expect(await callError(env.client, 'write_note', { path: 'H', body: 'CLOBBER\n' })).toMatch(REFUSED);
    expect(await callError(env.client, 'delete_note', { path: 'G', confirm: true })).toMatch(REFUSED);
    expect(await read(env, 'Journal/h.md')).toBe(SECRET);
    expect(await read(env, 'G.md')).toBe(SECRET);
    expect(JSON.stringify(await call(env.client, 'proposal_status', { activity: true }))).not.toContain('journalsecretword');
    expect(env.booted.plugin.activity.all()).toEqual([]);
    // A hard link the vault listed before the call is judged where it lies, as docs/security.md says.
    expect(await call(env.client, 'write_note', { path: 'K', body: 'written\n' })).toMatchObject({ status: 'applied', path: 'K.md' });
    expect(await read(env, 'K.md')).toBe('written\n');
  });

  test('between the checks and the write, with the same text: refused by the file identity', async () => {
    // The quarantined note holds the very text of H.md, so no text comparison can tell the two files apart.
    env = await boot({ 'H.md': NOTE, 'Journal/h.md': NOTE });
    const adapter = env.booted.app.vault.adapter as unknown as { stat(p: string): Promise<unknown> };
    const stat = adapter.stat.bind(adapter);
    let armed = true;
    // NoteWriter.identityOnDisk's stat runs inside the write lock, after the first disk check: the other program's swap lands there.
    adapter.stat = async (p: string) => {
      if (armed && p === 'H.md') {
        armed = false;
        await hardLinkSwap(env!.vault, 'Journal/h.md', 'H.md');
      }
      return stat(p);
    };
    const answer = await attempt(env.client, 'write_note', { path: 'H', body: 'CLOBBER\n' });
    expect(armed).toBe(false);
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(REFUSED) });
    expect(await read(env, 'Journal/h.md')).toBe(NOTE);
  });
});
