/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { TFile } from '../../host/index';
import { attempt, bootWriteEnvIn, call, callError, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A note another program (a sync client, git) swaps for a symbolic link, `ln -s target tmp && mv
 * tmp note`, before the vault's event tells of it (verifier, session 29, F2): every write that
 * changes an existing note's content judges the path on the disk right before it writes
 * (NotePolicy.isWhereJudgedNow), so nothing is written through the link: not into a quarantined
 * note, not into a file outside the vault, not to a dangling link's target. The host's disk
 * watcher is stopped once the vault is listed, so no event arrives between the swap and the
 * write: the window the verifier hit by timing is held open. Real links in a real temp folder,
 * through the MCP routes, an accepted proposal, a revert and an open editor.
 */

const SECRET = 'journalsecretword\n';
const FAR = 'system file\n';
const NOTE = '---\ntitle: t\n---\nbody line\n';
const REFUSED = /^Note '.+' was replaced on disk by another program .*so nothing was written\. Wait a moment and read it again/;

/** The write routes of the note tools that change an existing note's content, as [name, tool, args with `hash` for the note's hash]. */
const ROUTES: Array<[string, string, (path: string, hash: string) => Json]> = [
  ['write_note body', 'write_note', (path) => ({ path, body: 'CLOBBER\n' })],
  ['write_note frontmatter_patch', 'write_note', (path) => ({ path, frontmatter_patch: { title: 'CLOBBER' } })],
  ['edit_note', 'edit_note', (path) => ({ path, anchor: 'body line', op: 'replace', content: 'CLOBBER' })],
  ['set_properties', 'set_properties', (path) => ({ path, properties: { status: 'CLOBBER' } })],
  ['append_note', 'append_note', (path) => ({ path, content: 'INJECTED' })],
  ['append_note expected_hash', 'append_note', (path, hash) => ({ path, content: 'INJECTED', expected_hash: hash })],
];

/** Where a swapped note's link leads: the file it would write (`made`, absent for a dangling link) and what it must still hold. */
type Kind = 'quarantine' | 'outside' | 'dangling';
const KINDS: Kind[] = ['quarantine', 'outside', 'dangling'];

interface Env extends WriteEnv {
  root: string;
  vault: string;
}

/** The note of route `i` for `kind`: a plain note (quarantine, dangling) or one below the trusted link `LinkedDir` (outside). */
function noteOf(kind: Kind, i: number): string {
  return kind === 'outside' ? `LinkedDir/L${i}.md` : `${kind === 'quarantine' ? 'Q' : 'D'}${i}.md`;
}

/**
 * `<root>/vault` with `Journal` quarantined and `LinkedDir → <root>/outside` trusted, notes for
 * `count` routes of each kind, their link targets, and `extra` files; booted with `mode`, the
 * disk watcher then stopped.
 */
async function boot(count: number, mode: 'force' | 'propose', extra: Record<string, string> = {}): Promise<Env> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-modify-links-'));
  const vault = nodePath.join(root, 'vault');
  const files: Record<string, string> = { 'Home.md': 'home\n', ...extra };
  for (let i = 0; i < count; i++) {
    files[`Journal/q${i}.md`] = SECRET;
    files[`Q${i}.md`] = NOTE;
    files[`D${i}.md`] = NOTE;
  }
  await writeVaultFiles(vault, files);
  await fsp.mkdir(nodePath.join(root, 'outside'));
  for (let i = 0; i < count; i++) {
    await fsp.writeFile(nodePath.join(root, 'outside', `L${i}.md`), NOTE);
    await fsp.writeFile(nodePath.join(root, `far${i}.txt`), FAR);
  }
  await fsp.symlink(nodePath.join(root, 'outside'), nodePath.join(vault, 'LinkedDir'), 'dir');
  const env = await bootWriteEnvIn(
    vault,
    {
      mode,
      configure: (s) => {
        s.access.quarantine = ['Journal'];
        s.access.trustedSymlinks = ['LinkedDir'];
      },
    },
    () => fsp.rm(root, { recursive: true, force: true }),
  );
  // No vault event from here on: what another program does on disk stays unreported, as in the window before an event.
  await env.booted.app.vault.stopWatching();
  return { ...env, root, vault };
}

/** The disk path of the vault path `path` (links on the way followed by the OS only when used). */
const full = (env: Env, path: string): string => nodePath.join(env.vault, ...path.split('/'));

/** The file a swapped note's link leads to for `kind`. */
function targetOf(env: Env, kind: Kind, i: number): string {
  if (kind === 'quarantine') return nodePath.join(env.vault, 'Journal', `q${i}.md`);
  if (kind === 'outside') return nodePath.join(env.root, `far${i}.txt`);
  return nodePath.join(env.root, `gone${i}.md`);
}

/** Swaps the note at `path` for a link to `target` as `ln -s target tmp && mv tmp note` does: made beside it, renamed over it. */
async function swap(env: Env, path: string, target: string): Promise<void> {
  const at = full(env, path);
  const tmp = nodePath.join(nodePath.dirname(at), `.swap-${nodePath.basename(at)}`);
  await fsp.symlink(target, tmp, 'file');
  await fsp.rename(tmp, at);
}

/** What the link's target holds now (null: nothing there), and whether the note's path is still the link. */
async function afterSwap(env: Env, path: string, target: string): Promise<{ target: string | null; link: boolean }> {
  const text = await fsp.readFile(target, 'utf8').catch(() => null);
  return { target: text, link: (await fsp.lstat(full(env, path))).isSymbolicLink() };
}

/** What the target of `kind` held before the swap (null: nothing, a dangling link's). */
const untouched = (kind: Kind): string | null => (kind === 'quarantine' ? SECRET : kind === 'outside' ? FAR : null);

describe('a note swapped on disk for a symbolic link before the vault reports it', () => {
  let env: Env;
  beforeAll(async () => {
    env = await boot(ROUTES.length, 'force');
  });
  afterAll(async () => env?.done());

  // A dangling link was refused before too, as a note gone from disk (the route's read finds nothing).
  test('no write route writes through it: a link into quarantine, out of the vault, dangling', async () => {
    for (const kind of KINDS)
      for (const [i, [name, tool, args]] of ROUTES.entries()) {
        const path = noteOf(kind, i);
        // Read first, so the note's answer is cached, as an agent reads before it writes.
        const read = await call(env.client, 'read_note', { path });
        const target = targetOf(env, kind, i);
        await swap(env, path, target);
        const answer = await callError(env.client, tool, args(path, String(read.hash)));
        expect({ name, answer }).toEqual({ name, answer: expect.stringMatching(REFUSED) });
        expect({ name, ...(await afterSwap(env, path, target)) }).toEqual({ name, target: untouched(kind), link: true });
      }
    // Nothing was logged as applied.
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });
});

describe('the routes that write an existing note outside the tools', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('a proposal is judged on the disk when it is staged and when an edit or properties proposal is accepted, in the editor too', async () => {
    env = await boot(4, 'propose');
    const edit = await call(env.client, 'edit_note', { path: 'Q0', anchor: 'body line', op: 'replace', content: 'CLOBBER' });
    const props = await call(env.client, 'set_properties', { path: 'LinkedDir/L1', properties: { status: 'CLOBBER' } });
    // The targets hold the note's very text, so the hunks place on what is read through the link, and only the disk check stops the write.
    await fsp.writeFile(targetOf(env, 'quarantine', 0), NOTE);
    await fsp.writeFile(targetOf(env, 'outside', 1), NOTE);
    await swap(env, 'Q0.md', targetOf(env, 'quarantine', 0));
    await swap(env, 'LinkedDir/L1.md', targetOf(env, 'outside', 1));
    for (const staged of [edit, props])
      expect(await env.booted.plugin.review.accept(String(staged.proposal_id))).toMatchObject({
        applied: 0,
        proposal: {
          status: 'stale',
          stale_reason: expect.stringMatching(/was replaced on disk by another program .*so it was not applied\.$/),
        },
      });
    expect(await afterSwap(env, 'Q0.md', targetOf(env, 'quarantine', 0))).toEqual({ target: NOTE, link: true });
    expect(await afterSwap(env, 'LinkedDir/L1.md', targetOf(env, 'outside', 1))).toEqual({ target: NOTE, link: true });
    // A hunk the user accepts with its ✓ in the editor (which saves it to the path) is refused, so the editor takes it back.
    const ticked = await call(env.client, 'edit_note', { path: 'Q2', anchor: 'body line', op: 'replace', content: 'TICKED' });
    await fsp.writeFile(targetOf(env, 'quarantine', 2), NOTE);
    await swap(env, 'Q2.md', targetOf(env, 'quarantine', 2));
    const [hunk] = env.booted.plugin.review.reviewHunks('Q2.md', NOTE).filter((h) => h.proposalId === ticked.proposal_id);
    const textAfter = NOTE.slice(0, hunk.from) + hunk.inserted + NOTE.slice(hunk.from + hunk.removed.length);
    await expect(env.booted.plugin.review.acceptedInEditor(hunk, textAfter)).rejects.toThrow(REFUSED);
    expect(env.booted.plugin.proposals.get(String(ticked.proposal_id))?.status).toBe('pending');
    // Staging is judged too: no proposal is computed on (and shows) what is read through a link swapped in.
    await call(env.client, 'read_note', { path: 'Q3' });
    await swap(env, 'Q3.md', targetOf(env, 'quarantine', 3));
    expect(await callError(env.client, 'write_note', { path: 'Q3', body: 'proposed\n' })).toMatch(REFUSED);
    expect(env.booted.plugin.proposals.pending().filter((p) => p.path === 'Q3.md')).toEqual([]);
  });

  test('a revert that writes a note text back never writes through a link swapped in since', async () => {
    env = await boot(1, 'force');
    await call(env.client, 'write_note', { path: 'Q0', body: 'agent text\n' });
    const [written] = env.booted.plugin.activity.all();
    expect(written).toMatchObject({ kind: 'edit', path: 'Q0.md' });
    const same = await fsp.readFile(full(env, 'Q0.md'), 'utf8');
    // Another program moves the note itself into the quarantined folder and leaves a link at its path: the text and the
    // file's identity (its creation time) the revert checks are the note's, so nothing but the disk check stops the write.
    const moved = targetOf(env, 'quarantine', 0);
    await fsp.rename(full(env, 'Q0.md'), moved);
    await fsp.symlink(moved, full(env, 'Q0.md'), 'file');
    const outcome = await env.booted.plugin.reverts.revert(written.id);
    expect(outcome).toMatchObject({ reverted: false, message: expect.stringMatching(/was replaced on disk by another program/) });
    expect(await afterSwap(env, 'Q0.md', moved)).toEqual({ target: same, link: true });
  });

  test('a note open in an editor: the change is not put into the editor, which would save it through the link', async () => {
    const routes = [
      ['write_note', { body: 'CLOBBER\n' }],
      ['append_note', { content: 'INJECTED' }],
      ['set_properties', { properties: { status: 'CLOBBER' } }],
    ] as const;
    env = await boot(routes.length, 'force');
    for (const [i, [tool, args]] of routes.entries()) {
      const view = await env.booted.app.workspace.openNote(env.booted.app.vault.getFileByPath(`Q${i}.md`) as TFile);
      expect(view.editor.getValue()).toBe(NOTE);
      await call(env.client, 'read_note', { path: `Q${i}` });
      await swap(env, `Q${i}.md`, targetOf(env, 'quarantine', i));
      expect([tool, await callError(env.client, tool, { path: `Q${i}`, ...args })]).toEqual([tool, expect.stringMatching(REFUSED)]);
      expect(view.editor.getValue()).toBe(NOTE);
      await view.save();
      expect([tool, await afterSwap(env, `Q${i}.md`, targetOf(env, 'quarantine', i))]).toEqual([tool, { target: SECRET, link: true }]);
    }
  });

  test('a note below the trusted link and a file link the vault lists are written where they lead; the link is refused once re-pointed', async () => {
    env = await boot(1, 'force', { 'Inbox.md': 'inbox\n', 'Other.md': 'other\n' });
    await fsp.symlink('Inbox.md', full(env, 'inboxlink.md'), 'file');
    await env.booted.app.vault.syncFromDisk();
    await env.booted.app.vault.stopWatching();
    // A note left in place below the trusted link is written as before.
    expect((await call(env.client, 'append_note', { path: 'LinkedDir/L0', content: 'added' })).status).toBe('applied');
    expect((await call(env.client, 'write_note', { path: 'LinkedDir/L0', body: 'new body\n' })).status).toBe('applied');
    expect(await fsp.readFile(nodePath.join(env.root, 'outside', 'L0.md'), 'utf8')).toBe('---\ntitle: t\n---\nnew body\n');
    expect((await call(env.client, 'append_note', { path: 'inboxlink', content: 'added' })).status).toBe('applied');
    expect(await fsp.readFile(full(env, 'Inbox.md'), 'utf8')).toBe('inbox\nadded\n');
    await swap(env, 'inboxlink.md', 'Other.md');
    expect((await attempt(env.client, 'append_note', { path: 'inboxlink', content: 'again' })).ok).toBe(false);
    expect(await fsp.readFile(full(env, 'Other.md'), 'utf8')).toBe('other\n');
  });
});
