/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { bootFilesEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * delete_note and move_note on a note another program (a sync client, git) swapped for a symbolic
 * link, `ln -s target tmp && mv tmp note`, before the vault's event tells of it (verifier s30 F1,
 * F5). Delete and move read the note's text through its path (the delete logs it, and a revert
 * puts it back as a note; the move answers its hash and size) and Obsidian's rename rewrites the
 * notes linking in: each of them is judged on the disk before it is read and right before the
 * trash or the rename (write-checks.ts placeCheck), so nothing is read, logged, trashed or
 * rewritten through the link. The host's disk watcher is stopped once the vault is listed, so no
 * event arrives between the swap and the call. Real links in a real temp folder, through the MCP routes.
 */

const SECRET = 'journalsecretword line one\nsecond secret line\n';
const OUTSIDE = 'OUTSIDE-SECRET-KEY-MATERIAL\nline two\n';
const NOTE = '---\ntitle: t\n---\nbody line\n';
const REFUSED = /^Note '.+' was replaced on disk by another program .*Wait a moment and read it again/;

interface Env extends WriteEnv {
  root: string;
  vault: string;
}

/** `<root>/vault` holding `files` (plus Home.md), `Journal` quarantined, booted with `mode`; the disk watcher then stopped. */
async function boot(files: Record<string, string>, mode: 'force' | 'propose' = 'force'): Promise<Env> {
  const env = await bootFilesEnv(
    'vault-mcp-delete-move-links-',
    { 'Home.md': 'home\n', ...files },
    { mode, allowWrites: true, configure: (s) => void (s.access.quarantine = ['Journal']) },
  );
  await env.booted.app.metadataCache.whenResolved();
  // No vault event from here on: what another program does on disk stays unreported, as in the window before an event.
  await env.booted.app.vault.stopWatching();
  return { ...env, vault: nodePath.join(env.root, 'vault') };
}

const full = (env: Env, path: string): string => nodePath.join(env.vault, ...path.split('/'));

/** Swaps the note at `path` for a link to `target` as `ln -s target tmp && mv tmp note` does. */
async function swap(env: Env, path: string, target: string): Promise<void> {
  const at = full(env, path);
  const tmp = nodePath.join(nodePath.dirname(at), `.swap-${nodePath.basename(at)}`);
  await fsp.symlink(target, tmp, 'file');
  await fsp.rename(tmp, at);
}

const isLink = async (env: Env, path: string): Promise<boolean> => (await fsp.lstat(full(env, path))).isSymbolicLink();

describe('delete_note on a note swapped for a symbolic link before the vault reports it', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('a link into quarantine or out of the vault: refused; nothing trashed, logged or shown to the agent', async () => {
    env = await boot({ 'Q0.md': NOTE, 'Journal/q0.md': SECRET, 'O0.md': NOTE });
    const outside = nodePath.join(env.root, 'id_fake_secret.txt');
    await fsp.writeFile(outside, OUTSIDE);
    for (const [path, target] of [
      ['Q0.md', full(env, 'Journal/q0.md')],
      ['O0.md', outside],
    ]) {
      await call(env.client, 'read_note', { path });
      await swap(env, path, target);
      // Without expected_hash, the old code retried from disk through the link and logged what it found there.
      expect(await callError(env.client, 'delete_note', { path, confirm: true })).toMatch(REFUSED);
      expect(await isLink(env, path)).toBe(true);
    }
    expect(await fsp.readFile(full(env, 'Journal/q0.md'), 'utf8')).toBe(SECRET);
    expect(await fsp.readFile(outside, 'utf8')).toBe(OUTSIDE);
    // The agent's own activity holds nothing of either file (so no revert can turn it into a note either).
    const activity = await call(env.client, 'proposal_status', { activity: true });
    expect(JSON.stringify(activity)).not.toMatch(/journalsecretword|OUTSIDE-SECRET/);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });

  test('a swap after the delete was prepared (before the trash) is refused too', async () => {
    env = await boot({ 'Q1.md': NOTE, 'Journal/q1.md': SECRET });
    const app = env.booted.app;
    // The trash reads the note's bytes right before it acts: the other program's swap lands there.
    const readBinary = app.vault.readBinary.bind(app.vault);
    let armed = true;
    app.vault.readBinary = async (file) => {
      const bytes = await readBinary(file);
      if (armed && file.path === 'Q1.md') {
        armed = false;
        await swap(env!, 'Q1.md', full(env!, 'Journal/q1.md'));
      }
      return bytes;
    };
    expect(await callError(env.client, 'delete_note', { path: 'Q1', confirm: true })).toMatch(REFUSED);
    expect(armed).toBe(false);
    expect(await isLink(env, 'Q1.md')).toBe(true);
    expect(await fsp.readFile(full(env, 'Journal/q1.md'), 'utf8')).toBe(SECRET);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });

  test('a revert of an agent create_note (a delete) after the note was moved into quarantine and a link left at its path: refused', async () => {
    env = await boot({ 'Journal/old.md': 'j\n' });
    await call(env.client, 'create_note', { path: 'Made', content: 'agent made this\n' });
    const [created] = env.booted.plugin.activity.all();
    // Another program moves the note itself into the quarantined folder and leaves a link at its path: the text the revert
    // checks (the create's hash) is the note's, so nothing but the disk check stops the trash and the log of what it led to.
    await fsp.rename(full(env, 'Made.md'), full(env, 'Journal/made.md'));
    await fsp.symlink(full(env, 'Journal/made.md'), full(env, 'Made.md'), 'file');
    const outcome = await env.booted.plugin.reverts.revert(created.id);
    expect(outcome).toMatchObject({ reverted: false, message: expect.stringMatching(/was replaced on disk by another program/) });
    expect(await isLink(env, 'Made.md')).toBe(true);
    expect(await fsp.readFile(full(env, 'Journal/made.md'), 'utf8')).toBe('agent made this\n');
    expect(env.booted.plugin.activity.all()).toHaveLength(1);
  });

  test('propose mode: a delete is not staged on a swapped note, and none staged before is accepted through the link', async () => {
    env = await boot({ 'P0.md': NOTE, 'P1.md': NOTE, 'Journal/p0.md': SECRET, 'Journal/p1.md': SECRET }, 'propose');
    await swap(env, 'P0.md', full(env, 'Journal/p0.md'));
    expect(await callError(env.client, 'delete_note', { path: 'P0', confirm: true })).toMatch(REFUSED);
    expect(env.booted.plugin.proposals.pending()).toEqual([]);
    const staged = await call(env.client, 'delete_note', { path: 'P1', confirm: true });
    await swap(env, 'P1.md', full(env, 'Journal/p1.md'));
    const accepted = await env.booted.plugin.review.accept(String(staged.proposal_id));
    expect(accepted).toMatchObject({ applied: 0 });
    expect(JSON.stringify(accepted)).toMatch(/replaced on disk by another program/);
    expect(await isLink(env, 'P1.md')).toBe(true);
    expect(await fsp.readFile(full(env, 'Journal/p1.md'), 'utf8')).toBe(SECRET);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });
});

describe('move_note through a symbolic link swapped in before the vault reports it', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('the note itself swapped for a link into quarantine: refused, no hash or size of the quarantined file', async () => {
    env = await boot({ 'M0.md': NOTE, 'Journal/m0.md': SECRET, 'Plain.md': NOTE, 'Ref.md': 'see [[Plain]]\n' });
    await call(env.client, 'read_note', { path: 'M0' });
    await swap(env, 'M0.md', full(env, 'Journal/m0.md'));
    const answer = await callError(env.client, 'move_note', { path: 'M0', to: 'M1' });
    expect(answer).toMatch(REFUSED);
    expect(answer).not.toContain(createHash('sha256').update(SECRET).digest('hex'));
    expect(await isLink(env, 'M0.md')).toBe(true);
    await expect(fsp.lstat(full(env, 'M1.md'))).rejects.toThrow();
    expect(env.booted.plugin.activity.all()).toEqual([]);
    // A note in place still moves, with its links rewritten, and the answer gives the moved note's hash and size.
    expect(await call(env.client, 'move_note', { path: 'Plain', to: 'Kept/Renamed' })).toMatchObject({
      status: 'applied',
      path: 'Kept/Renamed.md',
      hash: createHash('sha256').update(NOTE).digest('hex'),
      size_before: NOTE.length,
      size_after: NOTE.length,
    });
    expect(await fsp.readFile(full(env, 'Ref.md'), 'utf8')).toBe('see [[Renamed]]\n');
  });

  test('a note linking in swapped for a link to a file outside the vault: refused, that file not rewritten', async () => {
    const linker = 'see [[Target]] here\n';
    env = await boot({ 'Target.md': 'target\n', 'Linker.md': linker });
    const diary = nodePath.join(env.root, 'outside-diary.md');
    await fsp.writeFile(diary, `${linker}private diary entry\n`);
    await swap(env, 'Linker.md', diary);
    expect(await callError(env.client, 'move_note', { path: 'Target', to: 'Renamed' })).toMatch(/^Note 'Linker\.md' was replaced on disk/);
    expect(await fsp.readFile(diary, 'utf8')).toBe(`${linker}private diary entry\n`);
    expect(await fsp.readFile(full(env, 'Target.md'), 'utf8')).toBe('target\n');
    await expect(fsp.lstat(full(env, 'Renamed.md'))).rejects.toThrow();
  });
});
