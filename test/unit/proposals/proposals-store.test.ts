import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProposalReview } from '../../../src/proposals/review/proposal-review';
import type { OpenNoteEditors } from '../../../src/vault/writes/open-note-editors';
import { ProposalStore, type ProposalCaller } from '../../../src/proposals/store/proposal-store';
import { MAX_PENDING_PER_KEY } from '../../../src/proposals/store/pending-limits';
import { NoteStore } from '../../../src/vault/note-store';
import { PluginFile } from '../../../src/vault/plugin-files/plugin-file';
import type { WriteRequest } from '../../../src/vault/writes/write-types';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { inboxTaskEdit } from '../../harness/edits/demo-edits';

const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';
const AGENT: ProposalCaller = { id: 'k1', label: 'Claude Code', roots: [] };
/** The keys that exist and their current roots (the review looks keys up at acceptance). */
const KEY_ROOTS: Record<string, string[]> = { k1: [], k2: [], k3: ['Projects'] };

let vault: DemoVault;
let notes: NoteStore;
let store: ProposalStore;
let review: ProposalReview;

const disk = (p: string): Promise<string> => fs.readFile(path.join(vault.dir, p), 'utf8');
const write = (p: string, text: string): Promise<void> => fs.writeFile(path.join(vault.dir, p), text);
const proposalsFile = (): string => path.join(vault.dir, PLUGIN_DIR, 'proposals.json');

/** A new store over the vault's proposals file, loaded. */
async function openStore(): Promise<{ store: ProposalStore; review: ProposalReview; problem?: string }> {
  const s = new ProposalStore(
    notes,
    new PluginFile(vault.app.vault.adapter, PLUGIN_DIR, 'proposals.json'),
    () => new Date('2026-11-30T12:00:00Z'),
  );
  const { problem } = await s.load();
  return { store: s, review: new ProposalReview(s, notes, (id) => KEY_ROOTS[id] ?? null), problem };
}

/** Prepares `request` as the agent and stages it. */
async function stage(request: WriteRequest, caller = AGENT) {
  const prepared = await notes.writes.prepare(request, { label: caller.label, roots: caller.roots });
  return store.stage(prepared, caller);
}

/** Makes the host read a file changed on disk behind its back. */
async function sync(): Promise<void> {
  await vault.host.vault.syncFromDisk();
  await vault.host.metadataCache.whenResolved();
}

beforeEach(async () => {
  vault = await openDemoVault();
  notes = new NoteStore(vault.app, { quarantine: () => [] });
  ({ store, review } = await openStore());
});

afterEach(async () => {
  await store.flush();
  await vault?.close();
});

describe('staging', () => {
  test('an edit is staged with base and proposed text; the note is untouched and the proposal survives a restart', async () => {
    const before = await disk('Inbox.md');
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: '- [ ] Water the plants', ensureNewline: true });
    expect(p).toMatchObject({
      kind: 'edit',
      path: 'Inbox.md',
      status: 'pending',
      key_label: 'Claude Code',
      base_text: before,
      proposed_text: `${before}- [ ] Water the plants\n`,
    });
    expect(await disk('Inbox.md')).toBe(before);
    await store.flush();
    const reopened = await openStore();
    expect(reopened.problem).toBeUndefined();
    expect(reopened.store.get(p.id)).toEqual(p);
  });

  test('every write kind stages with its own data and nothing in the vault changes', async () => {
    const create = await stage({ tool: 'create_note', kind: 'create', path: 'New idea', content: '# New idea\n' });
    const move = await stage({ tool: 'move_note', kind: 'move', path: 'Ideas', to: 'Archive/Ideas' });
    const del = await stage({ tool: 'delete_note', kind: 'delete', path: 'Reading list' });
    const folder = await stage({ tool: 'create_folder', kind: 'folder', path: 'Later' });
    const props = await stage({ tool: 'set_properties', kind: 'properties', path: 'Inbox', properties: { status: 'triaged' } });
    expect([create.kind, move.kind, del.kind, folder.kind, props.kind]).toEqual(['create', 'move', 'delete', 'folder', 'properties']);
    expect(create.proposed_text).toBe('# New idea\n');
    expect(move.to).toBe('Archive/Ideas.md');
    expect(del.base_text).toBe(await disk('Reading list.md'));
    await expect(fs.stat(path.join(vault.dir, 'New idea.md'))).rejects.toThrow();
    await expect(fs.stat(path.join(vault.dir, 'Later'))).rejects.toThrow();
    expect(await disk('Ideas.md')).toBeTruthy();
    expect(store.pending()).toHaveLength(5);
  });

  test('a corrupt proposals file is kept aside and reported, never silently dropped', async () => {
    await fs.mkdir(path.dirname(proposalsFile()), { recursive: true });
    await fs.writeFile(proposalsFile(), '{"version": 1, "proposals": [{"id": 3}]');
    const reopened = await openStore();
    expect(reopened.problem).toMatch(/could not read its proposals file \(not valid JSON/);
    expect(reopened.store.all()).toEqual([]);
    const kept = (await fs.readdir(path.dirname(proposalsFile()))).filter((n) => n.startsWith('proposals.json.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(await fs.readFile(path.join(path.dirname(proposalsFile()), kept[0]), 'utf8')).toBe('{"version": 1, "proposals": [{"id": 3}]');
  });

  test('a file of another format version or with a malformed proposal is refused the same way', async () => {
    await fs.mkdir(path.dirname(proposalsFile()), { recursive: true });
    await fs.writeFile(proposalsFile(), JSON.stringify({ version: 7, proposals: [] }));
    expect((await openStore()).problem).toMatch(/format version 7, expected 1/);
    await fs.writeFile(
      proposalsFile(),
      JSON.stringify({
        version: 1,
        proposals: [{ id: 'p', key_id: 'k', key_label: 'x', tool: 't', path: 'a.md', created_at: 'now', kind: 'explode' }],
      }),
    );
    expect((await openStore()).problem).toMatch(/proposal #1: unknown kind "explode"/);
  });
});

describe('accepting and rejecting with the note closed', () => {
  test('accept writes the proposed text through the apply primitive; the status becomes accepted', async () => {
    const p = await stage({
      tool: 'edit_note',
      kind: 'edit',
      path: 'Inbox',
      target: { anchor: 'Book the dentist for March' },
      op: 'replace',
      content: 'Book the dentist for April',
    });
    const proposed = p.proposed_text;
    const outcome = await review.accept(p.id);
    expect(outcome).toMatchObject({ applied: 1, stale: 0 });
    expect(outcome.proposal).toMatchObject({ status: 'accepted', hunk_total: 1, base_text: null, proposed_text: null });
    expect(await disk('Inbox.md')).toBe(proposed);
    await expect(review.accept(p.id)).rejects.toThrow(/already accepted/);
  });

  test('reject leaves the note as it is', async () => {
    const before = await disk('Inbox.md');
    const p = await stage({ tool: 'write_note', kind: 'write', path: 'Inbox', body: 'Everything replaced\n' });
    expect((await review.reject(p.id)).status).toBe('rejected');
    expect(await disk('Inbox.md')).toBe(before);
  });

  test('the user edited elsewhere: the hunk is rebased and applied around their text', async () => {
    const p = await stage(inboxTaskEdit('Renew the library card (online)'));
    await write('Inbox.md', (await disk('Inbox.md')).replace('# Inbox\n', '# Inbox\n\nTyped by the user.\n'));
    await sync();
    await review.accept(p.id);
    const after = await disk('Inbox.md');
    expect(after).toContain('Typed by the user.\n');
    expect(after).toContain('- [ ] Renew the library card (online)\n');
  });

  test('the user edited the same line: the hunk is stale and never applied over their text', async () => {
    const p = await stage(inboxTaskEdit('Renew the passport'));
    const mine = (await disk('Inbox.md')).replace('Renew the library card', 'Renew the library card today');
    await write('Inbox.md', mine);
    await sync();
    const outcome = await review.accept(p.id);
    expect(outcome).toMatchObject({ applied: 0, stale: 1 });
    expect(await disk('Inbox.md')).toBe(mine);
    expect(store.placedHunks(store.get(p.id)!, mine).every((h) => h.stale)).toBe(true);
    expect((await review.reject(p.id)).status).toBe('rejected');
  });

  test('a proposal staged with expected_hash wants that exact note: any later change elsewhere makes it stale', async () => {
    const hash = notes.hashOf(await disk('Inbox.md'));
    const p = await stage(inboxTaskEdit('Renew it', { expectedHash: hash }));
    expect(p.expected_hash).toBe(hash);
    const changed = (await disk('Inbox.md')).replace('# Inbox\n', '# Inbox\n\nFar away from the hunk.\n');
    await write('Inbox.md', changed);
    await sync();
    expect(await review.accept(p.id)).toMatchObject({ applied: 0, stale: 1 });
    expect(await disk('Inbox.md')).toBe(changed);
  });

  test('hunks are decided one by one: accept one, reject the other → partly accepted', async () => {
    const base = await disk('Inbox.md');
    const body = base
      .replace('Book the dentist for March', 'Book the dentist for May')
      .replace('Renew the library card', 'Cancel the library card');
    const p = await stage({ tool: 'write_note', kind: 'write', path: 'Inbox', body: body.slice(body.indexOf('# Inbox')) });
    expect(store.hunksOf(p)).toHaveLength(2);
    await review.accept(p.id, 1);
    expect(await disk('Inbox.md')).toBe(base.replace('Renew the library card', 'Cancel the library card'));
    expect(store.get(p.id)!.status).toBe('pending');
    // A decided hunk is said to be decided (it was told the hunk does not exist; newcomer finding), an unknown one to be out of range.
    await expect(review.accept(p.id, 1)).rejects.toThrow(
      `Hunk 1 of proposal '${p.id}' is already accepted; "show ${p.id}" lists the ones still open.`,
    );
    await expect(review.reject(p.id, 1)).rejects.toThrow(/is already accepted/);
    await expect(review.accept(p.id, 7)).rejects.toThrow(/no undecided hunk 7/);
    expect((await review.reject(p.id, 0)).status).toBe('partly_accepted');
    expect(await disk('Inbox.md')).toBe(base.replace('Renew the library card', 'Cancel the library card'));
  });

  test('two proposals on one note stack: after the first is accepted, the second applies where it does not overlap', async () => {
    const first = await stage(inboxTaskEdit('Renew the card'));
    const second = await stage(
      {
        tool: 'edit_note',
        kind: 'edit',
        path: 'Inbox',
        target: { anchor: 'Book the dentist for March' },
        op: 'replace',
        content: 'Book the dentist for June',
      },
      { id: 'k2', label: 'Cursor', roots: [] },
    );
    const clash = await stage(inboxTaskEdit('Renew nothing'));
    expect(store.reviewHunks('Inbox.md', await disk('Inbox.md')).map((h) => h.keyLabel)).toEqual(['Cursor', 'Claude Code', 'Claude Code']);
    await review.accept(first.id);
    await sync();
    await review.accept(second.id);
    const after = await disk('Inbox.md');
    expect(after).toContain('Renew the card\n');
    expect(after).toContain('Book the dentist for June\n');
    expect((await review.accept(clash.id)).stale).toBe(1);
    expect(await disk('Inbox.md')).toBe(after);
  });

  test('access is checked again at acceptance: a note made read-only since is not changed', async () => {
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Ideas', content: 'one more idea', ensureNewline: true });
    const locked = `---\naccess: read-only\n---\n${await disk('Ideas.md')}`;
    await write('Ideas.md', locked);
    await sync();
    const outcome = await review.accept(p.id);
    expect(outcome.proposal.status).toBe('stale');
    expect(outcome.proposal.stale_reason).toMatch(/read-only/);
    expect(await disk('Ideas.md')).toBe(locked);
  });

  test('roots are checked again at acceptance for the key that proposed', async () => {
    const p = await stage(
      { tool: 'create_note', kind: 'create', path: 'Projects/New plan', content: 'x\n' },
      { id: 'k3', label: 'Scoped', roots: ['Projects'] },
    );
    const tampered = { ...store.get(p.id)!, path: 'Outside plan.md' };
    Object.assign(store.get(p.id)!, tampered);
    const outcome = await review.accept(p.id);
    expect(outcome.proposal.status).toBe('stale');
    await expect(fs.stat(path.join(vault.dir, 'Outside plan.md'))).rejects.toThrow();
  });
});

describe('reopening an accepted hunk (Ctrl+Z in the editor)', () => {
  test('an accepted hunk becomes undecided again, even when that accept had resolved the proposal; one never accepted cannot be reopened', async () => {
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'reopen me', ensureNewline: true });
    const staged = { base_text: p.base_text, proposed_text: p.proposed_text };
    await expect(store.reopenHunk(p.id, 0)).rejects.toThrow(`Proposal '${p.id}' has no accepted hunk 0 to reopen.`);
    await store.decideHunks(p.id, [0], 'accepted');
    expect(store.get(p.id)).toMatchObject({ status: 'accepted', base_text: null });
    const reopened = await store.reopenHunk(p.id, 0);
    expect(reopened).toMatchObject({ status: 'pending', decisions: {}, ...staged });
    expect(reopened.resolved_at).toBeUndefined();
    expect(store.hunksOf(reopened)).toHaveLength(1);
  });

  test('a stale proposal stays open across a restart with its texts; a hunk accepted before it went stale can be reopened', async () => {
    const base = await disk('Inbox.md');
    const body = base.replace('Book the dentist for March', 'Book the dentist for May').replace('Renew the library card', 'Cancel it');
    const p = await stage({ tool: 'write_note', kind: 'write', path: 'Inbox', body: body.slice(body.indexOf('# Inbox')) });
    await store.decideHunks(p.id, [1], 'accepted');
    await store.settle(p.id, 'stale', 'It went stale.');
    const reopened = await store.reopenHunk(p.id, 1);
    expect(reopened).toMatchObject({ status: 'stale', decisions: {}, stale_reason: 'It went stale.' });
    await expect(store.decideHunks(p.id, [0], 'accepted')).rejects.toThrow(/is stale and can never be accepted/);
    await store.flush();
    const again = await openStore();
    expect(again.store.pending().map((q) => q.id)).toEqual([p.id]);
    expect(again.store.get(p.id)).toMatchObject({ status: 'stale', base_text: p.base_text, proposed_text: p.proposed_text });
    expect(again.store.get(p.id)!.resolved_at).toBeUndefined();
    expect((await again.review.reject(p.id)).status).toBe('rejected');
    expect(again.store.pending()).toEqual([]);
  });

  test('a proposal decided before this run cannot be reopened, and says so', async () => {
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'old', ensureNewline: true });
    await store.decideHunks(p.id, [0], 'accepted');
    await store.flush();
    const again = await openStore();
    await expect(again.store.reopenHunk(p.id, 0)).rejects.toThrow(
      /was decided before Obsidian started, so hunk 0 cannot be reopened; it stays accepted\.$/,
    );
  });
});

describe('creates, moves, deletes and folders', () => {
  test('accepting each kind does it; the status is accepted', async () => {
    const create = await stage({ tool: 'create_note', kind: 'create', path: 'Plans/Q3', content: '# Q3\n' });
    const move = await stage({ tool: 'move_note', kind: 'move', path: 'Ideas', to: 'Archive/Ideas' });
    const folder = await stage({ tool: 'create_folder', kind: 'folder', path: 'Later/Maybe' });
    const del = await stage({ tool: 'delete_note', kind: 'delete', path: 'Reading list' });
    for (const p of [create, move, folder, del]) expect((await review.accept(p.id)).proposal.status).toBe('accepted');
    expect(await disk('Plans/Q3.md')).toBe('# Q3\n');
    expect(await disk('Archive/Ideas.md')).toBeTruthy();
    expect((await fs.stat(path.join(vault.dir, 'Later/Maybe'))).isDirectory()).toBe(true);
    await expect(fs.stat(path.join(vault.dir, 'Reading list.md'))).rejects.toThrow();
    expect(await fs.readdir(path.join(vault.dir, '.trash'))).toContain('Reading list.md');
  });

  test('a create whose path got taken and a delete of a note that changed since go stale', async () => {
    const create = await stage({ tool: 'create_note', kind: 'create', path: 'Taken', content: 'agent text\n' });
    const del = await stage({ tool: 'delete_note', kind: 'delete', path: 'Reading list' });
    await write('Taken.md', 'user text\n');
    const changed = `${await disk('Reading list.md')}\nA new book.\n`;
    await write('Reading list.md', changed);
    await sync();
    expect((await review.accept(create.id)).proposal.status).toBe('stale');
    expect((await review.accept(del.id)).proposal).toMatchObject({ status: 'stale', stale_reason: expect.stringMatching(/changed/) });
    expect(await disk('Taken.md')).toBe('user text\n');
    expect(await disk('Reading list.md')).toBe(changed);
  });
});

describe("a reason's wording follows the proposing key's tool set", () => {
  test('a move that now would corrupt a linking note names that note only to a key that lists notes', async () => {
    const move = await stage({ tool: 'move_note', kind: 'move', path: 'Ideas', to: 'Archive/Ideas' });
    // The user adds a note in Latin-1 that links to it: the move's link rewrite would corrupt it, so it cannot be applied.
    await fs.writeFile(path.join(vault.dir, 'Stash of things.md'), Buffer.from('see [[Ideas]] caf\xe9\n', 'latin1'));
    await sync();
    const sights = { lists: { names: true, text: false }, writesOnly: { names: false, text: false } };
    const reasons: Record<string, string | undefined> = {};
    for (const [name, sight] of Object.entries(sights)) {
      const seen = new ProposalReview(
        store,
        notes,
        (id) => KEY_ROOTS[id] ?? null,
        () => sight,
      );
      reasons[name] = (await seen.liveState(move))?.refused;
    }
    expect(reasons.lists).toMatch(/Stash of things\.md.*not UTF-8/);
    expect(reasons.writesOnly).toMatch(/not UTF-8/);
    expect(reasons.writesOnly).not.toContain('Stash of things');
    // A refused accept keeps the proposal pending and tells the user the same; nothing moved.
    expect((await review.accept(move.id)).proposal.status).toBe('stale');
    expect(await disk('Ideas.md')).toBeTruthy();
  });
});

describe('following the note', () => {
  test('a rename moves pending proposals along; a delete makes them stale', async () => {
    const unfollow = store.followNotes();
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Ideas', content: 'x', ensureNewline: true });
    const q = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'y', ensureNewline: true });
    await vault.app.fileManager.renameFile(vault.app.vault.getFileByPath('Ideas.md')!, 'Archive/Ideas from before.md');
    await vault.app.vault.trash(vault.app.vault.getFileByPath('Inbox.md')!, false);
    await vault.host.metadataCache.whenResolved();
    await store.flush();
    unfollow();
    expect(store.get(p.id)!.path).toBe('Archive/Ideas from before.md');
    expect(store.get(q.id)).toMatchObject({ status: 'stale', stale_reason: expect.stringMatching(/deleted/) });
    const proposed = p.proposed_text;
    expect((await review.accept(p.id)).proposal.status).toBe('accepted');
    expect(await disk('Archive/Ideas from before.md')).toBe(proposed);
  });
});

describe('a note open in an editor', () => {
  test('accept goes through the editor (its unsaved text is the base) and never writes the file directly', async () => {
    const p = await stage(inboxTaskEdit('Renew the card'));
    let doc = (await disk('Inbox.md')).replace('# Inbox\n', '# Inbox (unsaved typing)\n');
    const changes: unknown[] = [];
    const causes: string[] = [];
    let judgedSaves = 0;
    const editors: OpenNoteEditors = {
      textOf: (notePath) => (notePath === 'Inbox.md' ? doc : null),
      applyChanges: async (_path, list, cause, judge) => {
        changes.push(...list);
        causes.push(cause);
        for (const c of [...list].sort((a, b) => b.from - a.from)) doc = doc.slice(0, c.from) + c.insert + doc.slice(c.to);
        // The editor's save (this fake writes nothing), judged right before it.
        judge();
        judgedSaves++;
        return true;
      },
      saveNow: async (notePath, judge) => {
        if (notePath !== 'Inbox.md') return false;
        judge();
        judgedSaves++;
        return true;
      },
    };
    await store.flush();
    notes = new NoteStore(vault.app, { quarantine: () => [], editors });
    ({ store, review } = await openStore());
    const onDisk = await disk('Inbox.md');
    await review.accept(p.id);
    expect(changes).toHaveLength(1);
    expect(causes).toEqual(['accept']);
    expect(judgedSaves).toBe(1);
    expect(doc).toContain('# Inbox (unsaved typing)\n');
    expect(doc).toContain('- [ ] Renew the card\n');
    expect(await disk('Inbox.md')).toBe(onDisk);
    expect(store.get(p.id)!.status).toBe('accepted');
  });

  test('reviewHunks places every pending proposal on the editor text with its provenance', async () => {
    await stage(inboxTaskEdit('Renew the card'));
    const doc = await disk('Inbox.md');
    const [hunk] = store.reviewHunks('Inbox.md', doc);
    expect(hunk).toMatchObject({
      keyLabel: 'Claude Code',
      stale: false,
      removed: '- [ ] Renew the library card\n',
      inserted: '- [ ] Renew the card\n',
    });
    expect(doc.slice(hunk.from, hunk.to)).toBe(hunk.removed);
  });
});

describe('limits and keys', () => {
  test(`a key with ${MAX_PENDING_PER_KEY} pending proposals is asked to wait; other keys are not`, async () => {
    for (let i = 0; i < MAX_PENDING_PER_KEY; i++) await stage({ tool: 'create_folder', kind: 'folder', path: `Later/${i}` });
    await expect(stage({ tool: 'create_folder', kind: 'folder', path: 'Later/one more' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/already has 100 changes waiting/),
    });
    await expect(
      stage({ tool: 'create_folder', kind: 'folder', path: 'Later/other' }, { id: 'k2', label: 'Cursor', roots: [] }),
    ).resolves.toMatchObject({ status: 'pending' });
  });

  test('a proposal of a revoked key cannot be applied and shows stale inline', async () => {
    const p = await stage(
      { tool: 'append_note', kind: 'append', path: 'Inbox', content: 'x', ensureNewline: true },
      { id: 'gone', label: 'Old agent', roots: [] },
    );
    expect(review.reviewHunks('Inbox.md', await disk('Inbox.md')).map((h) => h.stale)).toEqual([true]);
    const before = await disk('Inbox.md');
    expect((await review.accept(p.id)).proposal).toMatchObject({
      status: 'stale',
      stale_reason: expect.stringMatching(/'Old agent' .* was revoked/),
    });
    expect(await disk('Inbox.md')).toBe(before);
  });

  test('liveState: a deleted-or-private note reads as gone; a delete whose note changed reads as changed', async () => {
    const edit = await stage({ tool: 'append_note', kind: 'append', path: 'Ideas', content: 'x', ensureNewline: true });
    const del = await stage({ tool: 'delete_note', kind: 'delete', path: 'Reading list' });
    expect(await review.liveState(edit)).toMatchObject({ gone: false, baseChanged: false });
    await write('Ideas.md', `---\naccess: private\n---\n${await disk('Ideas.md')}`);
    await write('Reading list.md', `${await disk('Reading list.md')}\nmore\n`);
    await sync();
    expect(await review.liveState(edit)).toMatchObject({ gone: true });
    expect(await review.liveState(del)).toMatchObject({ gone: false, baseChanged: true });
  });
});
