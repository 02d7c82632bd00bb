/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { acceptHunk } from '../../../src/editor/review-actions';
import { reviewHunksOf } from '../../../src/editor/review-state';
import { hashText } from '../../../src/vault/hash';
import { bootFilesEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';
import { waitUntil } from '../../harness/wait-until';
import { openInEditor, typeAtEnd } from '../../harness/edits/editor-helpers';

/**
 * A note open in an editor (verifier, session 30, F3 and F9). A change to it is put into the
 * editor (so the user's unsaved typing is its base and Ctrl+Z undoes it), and the editor is then
 * saved at once, judged on the disk right before: not by Obsidian's own save 2 s later, which no
 * check precedes, so a symbolic link another program (a sync client) swaps in at the note's path
 * meanwhile gets nothing. Every route: an agent write, an accept from the Pending view, a ✓ in the
 * editor, a revert. A delete of an open note deletes what the editor shows: an expected_hash is
 * judged on it, the user's unsaved typing is saved (judged) before the trash, so the trash and the
 * activity log hold it. The host's disk watcher is stopped once the vault is listed, so no event
 * arrives between a swap and what follows it.
 */

const SECRET = 'journalsecretword line one\nsecond secret line\n';
const NOTE = '---\ntitle: t\n---\nbody line\n\nlast line\n';
const TYPED = 'USER TYPED PARAGRAPH\n';
const REFUSED = /^Note '.+' was replaced on disk by another program .*so nothing was written\. Wait a moment and read it again/;

interface Env extends WriteEnv {
  vault: string;
}

/** `<tmp>/vault` with `files` and `Journal` quarantined, booted with `mode`; the disk watcher then stopped. */
async function boot(files: Record<string, string>, mode: 'force' | 'propose'): Promise<Env> {
  const env = await bootFilesEnv(
    'vault-mcp-editor-saves-',
    { 'Home.md': 'home\n', ...files },
    { mode, allowWrites: true, configure: (s) => void (s.access.quarantine = ['Journal']) },
  );
  await env.booted.app.vault.stopWatching();
  return { ...env, vault: nodePath.join(env.root, 'vault') };
}

const full = (env: Env, path: string): string => nodePath.join(env.vault, ...path.split('/'));
const disk = (env: Env, path: string): Promise<string | null> => fsp.readFile(full(env, path), 'utf8').catch(() => null);

/** Swaps the note at `path` for a link to the vault path `target`, as `ln -s target tmp && mv tmp note` does (synchronously). */
function swap(env: Env, path: string, target: string): void {
  const at = full(env, path);
  const tmp = nodePath.join(nodePath.dirname(at), `.swap-${nodePath.basename(at)}`);
  fs.symlinkSync(full(env, target), tmp, 'file');
  fs.renameSync(tmp, at);
}

/** What `.trash` holds, by file name. */
async function trashed(env: Env): Promise<Record<string, string>> {
  const dir = full(env, '.trash');
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await fsp.readFile(nodePath.join(dir, n), 'utf8')] as const)));
}

describe('a change put into an open editor is saved at once, judged right before', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('an agent write and a revert: the file holds the change (and the typing) when the answer comes; a link swapped in after gets nothing', async () => {
    env = await boot({ 'A.md': NOTE, 'R.md': NOTE, 'Journal/a.md': SECRET, 'Journal/r.md': SECRET }, 'force');
    const a = await openInEditor(env, 'A.md');
    const read = await call(env.client, 'read_note', { path: 'A' });
    typeAtEnd(a.cm, TYPED);
    // Writes that change nothing save nothing: a bad anchor, a stale expected_hash (read_note reads the file, the editor
    // shows more), a write of what is there already. The typing stays unsaved, for Obsidian's own save.
    expect(await callError(env.client, 'edit_note', { path: 'A', anchor: 'no such text', op: 'replace', content: 'x' })).toMatch(/anchor/i);
    expect(await callError(env.client, 'write_note', { path: 'A', body: 'x\n', expected_hash: read.hash })).toMatch(/changed since/);
    expect(await call(env.client, 'set_properties', { path: 'A', properties: { title: 't' } })).toMatchObject({ status: 'unchanged' });
    expect(await disk(env, 'A.md')).toBe(NOTE);
    expect(a.cm.state.doc.toString()).toBe(NOTE + TYPED);
    const written = await call(env.client, 'edit_note', { path: 'A', anchor: 'body line', op: 'replace', content: 'AGENT LINE' });
    expect(written).toMatchObject({ status: 'applied', hash: hashText(`---\ntitle: t\n---\nAGENT LINE\n\nlast line\n${TYPED}`) });
    // The editor kept the user's typing and took the agent's change.
    expect(a.cm.state.doc.toString()).toBe(`---\ntitle: t\n---\nAGENT LINE\n\nlast line\n${TYPED}`);
    // Saved before the answer: the file holds what the editor shows, nothing is left for a later save.
    expect(await disk(env, 'A.md')).toBe(a.cm.state.doc.toString());
    swap(env, 'A.md', 'Journal/a.md');
    // Obsidian's own save (2 s after the edit; called now instead of waiting): nothing left to write.
    await a.view.save();
    expect(await disk(env, 'Journal/a.md')).toBe(SECRET);

    // A revert put into an open editor, the user's typing below the agent's change kept.
    await call(env.client, 'edit_note', { path: 'R', anchor: 'body line', op: 'replace', content: 'AGENT LINE' });
    const r = await openInEditor(env, 'R.md');
    typeAtEnd(r.cm, TYPED);
    const entry = env.booted.plugin.activity.all().find((e) => e.path === 'R.md')!;
    expect(await env.booted.plugin.reverts.revert(entry.id)).toMatchObject({ reverted: true });
    expect(r.cm.state.doc.toString()).toBe(NOTE + TYPED);
    expect(await disk(env, 'R.md')).toBe(NOTE + TYPED);
    swap(env, 'R.md', 'Journal/r.md');
    await r.view.save();
    expect(await disk(env, 'Journal/r.md')).toBe(SECRET);
  });

  test('an accept from the Pending view and a ✓ in the editor: saved at once, the typing with it; a link swapped in after gets nothing', async () => {
    env = await boot({ 'P.md': NOTE, 'T.md': NOTE, 'Journal/p.md': SECRET, 'Journal/t.md': SECRET }, 'propose');
    const staged = await call(env.client, 'edit_note', { path: 'P', anchor: 'body line', op: 'replace', content: 'ACCEPTED' });
    const p = await openInEditor(env, 'P.md');
    typeAtEnd(p.cm, TYPED);
    expect(await env.booted.plugin.review.accept(String(staged.proposal_id))).toMatchObject({ applied: 1 });
    expect(p.cm.state.doc.toString()).toBe(`---\ntitle: t\n---\nACCEPTED\n\nlast line\n${TYPED}`);
    expect(await disk(env, 'P.md')).toBe(p.cm.state.doc.toString());
    swap(env, 'P.md', 'Journal/p.md');
    await p.view.save();
    expect(await disk(env, 'Journal/p.md')).toBe(SECRET);

    const ticked = await call(env.client, 'edit_note', { path: 'T', anchor: 'body line', op: 'replace', content: 'TICKED' });
    const t = await openInEditor(env, 'T.md');
    typeAtEnd(t.cm, TYPED);
    await waitUntil(() => reviewHunksOf(t.cm.state).length === 1, 'the hunk shown inline');
    expect(await acceptHunk(t.cm, reviewHunksOf(t.cm.state)[0])).toBe(true);
    expect(env.booted.plugin.proposals.get(String(ticked.proposal_id))?.status).toBe('accepted');
    expect(t.cm.state.doc.toString()).toBe(`---\ntitle: t\n---\nTICKED\n\nlast line\n${TYPED}`);
    expect(await disk(env, 'T.md')).toBe(t.cm.state.doc.toString());
    swap(env, 'T.md', 'Journal/t.md');
    await t.view.save();
    expect(await disk(env, 'Journal/t.md')).toBe(SECRET);
  });

  test('a link swapped in between the change and the save: nothing is written, the change leaves the editor, the typing stays', async () => {
    env = await boot({ 'E.md': NOTE, 'Journal/e.md': SECRET }, 'force');
    const e = await openInEditor(env, 'E.md');
    typeAtEnd(e.cm, TYPED);
    // Another program swaps the note at the instant the agent's change lands in the editor (before the editor is saved).
    const off = env.booted.app.workspace.on('editor-change', () => {
      if (e.cm.state.doc.toString().includes('AGENT BODY')) swap(env!, 'E.md', 'Journal/e.md');
    });
    try {
      expect(await callError(env.client, 'write_note', { path: 'E', body: 'AGENT BODY\n' })).toMatch(REFUSED);
    } finally {
      env.booted.app.workspace.offref(off);
    }
    expect(e.cm.state.doc.toString()).toBe(NOTE + TYPED);
    expect(await disk(env, 'Journal/e.md')).toBe(SECRET);
    expect(fs.lstatSync(full(env, 'E.md')).isSymbolicLink()).toBe(true);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });
});

describe('delete_note of a note open in an editor with unsaved typing', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('an expected_hash read before the typing is a conflict; without one, the typing is saved first, the trash and the log hold it, a revert brings it back', async () => {
    env = await boot({ 'Draft.md': 'first line\n' }, 'force');
    const d = await openInEditor(env, 'Draft.md');
    const read = await call(env.client, 'read_note', { path: 'Draft' });
    typeAtEnd(d.cm, TYPED);
    expect(await callError(env.client, 'delete_note', { path: 'Draft', confirm: true, expected_hash: read.hash })).toMatch(/changed since/);
    expect(await disk(env, 'Draft.md')).toBe('first line\n');
    expect(await trashed(env)).toEqual({});
    expect(d.cm.state.doc.toString()).toBe(`first line\n${TYPED}`);

    const deleted = await call(env.client, 'delete_note', { path: 'Draft', confirm: true });
    expect(deleted).toMatchObject({ status: 'applied', hash: hashText(`first line\n${TYPED}`) });
    expect(await trashed(env)).toEqual({ 'Draft.md': `first line\n${TYPED}` });
    const [entry] = env.booted.plugin.activity.all();
    expect(entry).toMatchObject({ kind: 'delete', path: 'Draft.md', hash_before: hashText(`first line\n${TYPED}`) });
    await fsp.rm(full(env, '.trash'), { recursive: true });
    expect(await env.booted.plugin.reverts.revert(entry.id)).toMatchObject({ reverted: true });
    expect(await disk(env, 'Draft.md')).toBe(`first line\n${TYPED}`);
  });

  test('the revert of an agent create_note the user is typing in is refused: the note and the typing stay', async () => {
    env = await boot({}, 'force');
    await call(env.client, 'create_note', { path: 'Made', content: 'agent made this\n' });
    const m = await openInEditor(env, 'Made.md');
    typeAtEnd(m.cm, TYPED);
    const [entry] = env.booted.plugin.activity.all();
    expect(await env.booted.plugin.reverts.revert(entry.id)).toMatchObject({
      reverted: false,
      message: expect.stringMatching(/changed since/),
    });
    expect(await trashed(env)).toEqual({});
    expect(await disk(env, 'Made.md')).toBe('agent made this\n');
    expect(m.cm.state.doc.toString()).toBe(`agent made this\n${TYPED}`);
  });

  test('a staged delete accepted after the user typed in the open note is refused as changed; nothing goes to the trash', async () => {
    env = await boot({ 'S.md': 'staged\n' }, 'propose');
    const staged = await call(env.client, 'delete_note', { path: 'S', confirm: true });
    const s = await openInEditor(env, 'S.md');
    typeAtEnd(s.cm, TYPED);
    const outcome = await env.booted.plugin.review.accept(String(staged.proposal_id));
    expect(outcome).toMatchObject({ applied: 0, proposal: { status: 'stale', stale_reason: expect.stringMatching(/changed/) } });
    expect(await trashed(env)).toEqual({});
    expect(await disk(env, 'S.md')).toBe('staged\n');
    expect(s.cm.state.doc.toString()).toBe(`staged\n${TYPED}`);
  });

  test('the save before the trash is judged: a note swapped for a link is neither saved through it nor trashed', async () => {
    env = await boot({ 'W.md': 'mine\n', 'Journal/w.md': SECRET }, 'force');
    const w = await openInEditor(env, 'W.md');
    typeAtEnd(w.cm, TYPED);
    swap(env, 'W.md', 'Journal/w.md');
    expect(await callError(env.client, 'delete_note', { path: 'W', confirm: true })).toMatch(REFUSED);
    expect(await disk(env, 'Journal/w.md')).toBe(SECRET);
    expect(fs.lstatSync(full(env, 'W.md')).isSymbolicLink()).toBe(true);
    expect(await trashed(env)).toEqual({});
    expect(w.cm.state.doc.toString()).toBe(`mine\n${TYPED}`);
  });
});
