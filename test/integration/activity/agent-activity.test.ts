import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { connectClient } from '../../harness/boot-plugin';
import { bootWriteEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';
import { runActivityCommand } from '../../../src/ui/activity/activity-commands';
import type { ActivityEntry } from '../../../src/activity/types';
import { ActivityRevert } from '../../../src/activity/activity-revert';

/**
 * The agent activity log over MCP (official SDK client over real HTTP, the demo vault in the
 * test host): every write kind logged in force mode and when a proposal is accepted, reverts of
 * each kind through the user's side (ActivityRevert, the terminal commands), three-way revert
 * after the user typed, refusals in one sentence, and what an agent sees of the log.
 */

const WIDGET = (name: string): string =>
  `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${JSON.stringify({ name, description: name, query: 'WHERE status exists' })}</script></head><body><p>${name}</p></body></html>`;

describe('agent activity log', () => {
  let env: WriteEnv;
  const read = (p: string): Promise<string> => fsp.readFile(path.join(env.dir, p), 'utf8');
  const exists = (p: string): Promise<boolean> =>
    fsp.stat(path.join(env.dir, p)).then(
      () => true,
      () => false,
    );
  const log = () => env.booted.plugin.activity;
  const newest = (): ActivityEntry => log().all()[0];
  const revert = (id: string) => env.booted.plugin.reverts.revert(id);
  /** The user's own edit in Obsidian (vault.process on the note). */
  const userEdit = async (p: string, edit: (text: string) => string): Promise<void> => {
    const file = env.booted.app.vault.getFileByPath(p);
    if (!file) throw new Error(`no ${p}`);
    // Obsidian re-parses the note's metadata after the write, asynchronously: wait for it, as
    // access rules (frontmatter `access`) are read from the metadata cache.
    const parsed = new Promise<void>((resolve) => {
      const ref = env.booted.app.metadataCache.on('changed', (changed) => {
        if (changed.path !== p) return;
        env.booted.app.metadataCache.offref(ref);
        resolve();
      });
    });
    await env.booted.app.vault.process(file, edit);
    await parsed;
  };

  beforeEach(async () => {
    env = await bootWriteEnv(DEMO_VAULT, { label: 'Claude Code' });
  });
  afterEach(async () => {
    await env.done();
  });

  it('logs every force-mode write kind with key, tool, paths, hashes and undo data, and reverts each one', async () => {
    const ideas = await read('Ideas.md');
    const kinds: string[] = [];
    const write = async (tool: string, args: Record<string, unknown>): Promise<ActivityEntry> => {
      await call(env.client, tool, args);
      kinds.push(newest().kind);
      return newest();
    };
    const edit = await write('edit_note', {
      path: 'Ideas.md',
      anchor: 'Pair every new hire',
      op: 'replace',
      content: 'Pair each new hire',
    });
    expect(edit).toMatchObject({
      key_label: 'Claude Code',
      tool: 'edit_note',
      kind: 'edit',
      path: 'Ideas.md',
      via: 'agent',
      hash_before: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(edit.session).toEqual(expect.any(String));
    expect(edit.undo.patch).toEqual([expect.objectContaining({ inserted: expect.stringContaining('- Pair every new hire') })]);
    const props = await write('set_properties', { path: 'Ideas.md', properties: { status: 'sorted' } });
    await write('append_note', { path: 'Ideas.md', content: '- One more idea' });
    await write('write_note', { path: 'Inbox.md', body: '# Inbox\n\nEmpty.\n' });
    const created = await write('create_note', { path: 'Notes/Fresh.md', content: '---\ntags: [x]\n---\nFresh\n' });
    const folder = await write('create_folder', { path: 'Empty folder' });
    const moved = await write('move_note', { path: 'Notes/Fresh.md', to: 'Notes/Renamed.md' });
    const deleted = await write('delete_note', { path: 'Archive/Old ideas.md', confirm: true });
    const widget = await write('widget_write', { id: 'board', html: WIDGET('Board') });
    expect(kinds).toEqual(['edit', 'properties', 'edit', 'edit', 'create', 'folder', 'move', 'delete', 'widget']);
    expect(props.kind).toBe('properties');
    expect(moved).toMatchObject({ kind: 'move', from: 'Notes/Fresh.md', path: 'Notes/Renamed.md' });
    expect(deleted.undo.before).toContain('# Old ideas');
    expect(created.undo.after).toBe('---\ntags: [x]\n---\nFresh\n');
    expect(folder).toMatchObject({ kind: 'folder', path: 'Empty folder' });
    expect(widget).toMatchObject({ kind: 'widget', path: 'Widgets/board.html', hash_before: null });

    // Reverted newest first, each through the same write primitives: the vault is as it was.
    for (const e of log()
      .all()
      .filter((x) => x.via === 'agent')) {
      const outcome = await revert(e.id);
      expect(outcome).toMatchObject({ reverted: true });
      expect(outcome.message).toMatch(new RegExp(`^Reverted ${e.id}`));
    }
    expect(await read('Ideas.md')).toBe(ideas);
    expect(await read('Archive/Old ideas.md')).toContain('# Old ideas');
    for (const gone of ['Notes/Fresh.md', 'Notes/Renamed.md', 'Empty folder', 'Widgets/board.html']) expect(await exists(gone)).toBe(false);
    expect(
      log()
        .all()
        .filter((x) => x.via === 'revert'),
    ).toHaveLength(9);
    expect(
      log()
        .all()
        .filter((x) => x.via === 'agent')
        .every((x) => log().isReverted(x)),
    ).toBe(true);
  });

  it('a moved note goes back with the links Obsidian rewrote rewritten back; reverting the revert redoes it', async () => {
    const before = await read('Ideas.md');
    await call(env.client, 'move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Older ideas.md' });
    expect(await read('Ideas.md')).toContain('[[Archive/Older ideas]]');
    const move = newest();
    expect((await revert(move.id)).message).toBe(
      `Reverted ${move.id}: Archive/Older ideas.md is back at Archive/Old ideas.md, and the links to it in 2 notes are rewritten back (logged as ${log().get(move.id)?.reverted_by}).`,
    );
    expect(await read('Ideas.md')).toBe(before);
    expect(await exists('Archive/Old ideas.md')).toBe(true);
    const undo = log().get(move.id)?.reverted_by ?? '';
    expect(log().get(undo)).toMatchObject({
      kind: 'move',
      via: 'revert',
      reverts: move.id,
      from: 'Archive/Older ideas.md',
      path: 'Archive/Old ideas.md',
    });
    expect((await revert(move.id)).message).toBe(`${move.id} is already reverted (by ${undo}); revert ${undo} to redo it.`);
    // Reverting the revert redoes the move; the original entry is applied again.
    expect((await revert(undo)).message).toMatch(new RegExp(`^Reverted ${undo}, which redoes ${move.id}:`));
    expect(await exists('Archive/Older ideas.md')).toBe(true);
    expect(log().isReverted(move)).toBe(false);
    expect(log().isReverted(log().get(undo) as ActivityEntry)).toBe(true);
  });

  it('a move lists the notes whose links it rewrote, accepted from a proposal as from a force key: activity <id>, the agent, and the revert that rewrites them back', async () => {
    const linked = { 'Ideas.md': await read('Ideas.md'), 'Home.md': await read('Home.md') };
    await call(env.client, 'move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Older ideas.md' });
    const forced = newest();
    expect([...(forced.linkers ?? [])].sort()).toEqual(['Home.md', 'Ideas.md']);
    await revert(forced.id);
    expect(await read('Ideas.md')).toBe(linked['Ideas.md']);

    await env.booted.plugin.keyRing.setMode(env.booted.key.id, 'propose');
    const staged = await call(env.client, 'move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Moved ideas.md' });
    expect((await env.booted.plugin.review.accept(staged.proposal_id)).applied).toBe(1);
    expect(await read('Ideas.md')).toContain('[[Archive/Moved ideas]]');
    const accepted = newest();
    expect(accepted).toMatchObject({ via: 'proposal', proposal_id: staged.proposal_id, kind: 'move', path: 'Archive/Moved ideas.md' });
    expect([...(accepted.linkers ?? [])].sort()).toEqual(['Home.md', 'Ideas.md']);
    const shown = (await runActivityCommand(env.booted.plugin, `activity ${accepted.id}`)) ?? '';
    expect(shown.split('\n').slice(1)).toEqual([
      '  Archive/Old ideas.md → Archive/Moved ideas.md',
      '  Links to it updated in 2 notes:',
      ...(accepted.linkers ?? []).map((p) => `    ${p}`),
    ]);
    const mine = await call(env.client, 'proposal_status', { activity: true });
    expect(mine.activity[0].diff).toBe(
      [
        'Archive/Old ideas.md → Archive/Moved ideas.md',
        'Links to it updated in 2 notes:',
        ...(accepted.linkers ?? []).map((p) => `  ${p}`),
      ].join('\n'),
    );
    // A linker the key may no longer see is left out of what the agent is shown.
    await userEdit('Home.md', (t) => `---\naccess: private\n---\n${t}`);
    const hidden = await call(env.client, 'proposal_status', { activity: true });
    expect(hidden.activity[0].diff).not.toContain('Home.md');
    await userEdit('Home.md', (t) => t.replace('---\naccess: private\n---\n', ''));
    // Reverting the accepted move rewrites both linkers back, says so, and its own entry lists them.
    expect((await revert(accepted.id)).message).toBe(
      `Reverted ${accepted.id}: Archive/Moved ideas.md is back at Archive/Old ideas.md, and the links to it in 2 notes are rewritten back (logged as ${log().get(accepted.id)?.reverted_by}).`,
    );
    expect(await read('Ideas.md')).toBe(linked['Ideas.md']);
    expect(await read('Home.md')).toBe(linked['Home.md']);
    expect([...(log().get(log().get(accepted.id)?.reverted_by ?? '')?.linkers ?? [])].sort()).toEqual(['Home.md', 'Ideas.md']);
  });

  it('a deleted note comes back with its text and frontmatter', async () => {
    const text = await read('Inbox.md');
    await call(env.client, 'delete_note', { path: 'Inbox.md', confirm: true });
    expect(await exists('Inbox.md')).toBe(false);
    expect((await revert(newest().id)).reverted).toBe(true);
    expect(await read('Inbox.md')).toBe(text);
    const frontmatter = async () => env.booted.app.metadataCache.getFileCache(env.booted.app.vault.getFileByPath('Inbox.md')!)?.frontmatter;
    for (let i = 0; i < 50 && !(await frontmatter()); i++) await new Promise((r) => setTimeout(r, 20));
    expect((await frontmatter())?.tags).toEqual(['inbox']);
  });

  it("revert after the user typed: three-way, the user's lines kept, a change the user touched left alone and said so", async () => {
    await call(env.client, 'edit_note', { path: 'Ideas.md', anchor: 'Pair every new hire', op: 'replace', content: 'Pair each new hire' });
    await call(env.client, 'edit_note', { path: 'Ideas.md', heading: 'Home', op: 'append_within', content: '- Agent idea at home' });
    const [home, work] = log().all();
    // The user types elsewhere in the note, then rewrites the very line of the first edit.
    await userEdit('Ideas.md', (t) => t.replace('# Ideas\n', '# Ideas\n\nUser line at the top.\n'));
    // Not "as it was before": the user's line stays.
    expect((await revert(home.id)).message).toBe(
      `Reverted ${home.id}: undone in Ideas.md, whose later changes are kept (logged as ${log().get(home.id)?.reverted_by}).`,
    );
    let now = await read('Ideas.md');
    expect(now).toContain('User line at the top.');
    expect(now).not.toContain('Agent idea at home');
    await userEdit('Ideas.md', (t) => t.replace('Pair each new hire', 'Pair each new hire (user wording)'));
    const refused = await revert(work.id);
    expect(refused).toEqual({
      id: work.id,
      reverted: false,
      message: `${work.id} was not reverted: 'Ideas.md' changed since, right where this change is, so it was left as it is. To undo it by hand, see its diff (activity ${work.id}, or the Agent activity view).`,
    });
    now = await read('Ideas.md');
    expect(now).toContain('Pair each new hire (user wording)');
    expect(now).toContain('User line at the top.');
  });

  /** The user's change on disk, as another program makes it; the vault takes it in before the next step. */
  const onDisk = async (change: () => Promise<void>): Promise<void> => {
    // Past the file system's coarse clock, so a file made now is newer than what was logged before.
    await new Promise((r) => setTimeout(r, 30));
    await change();
    await env.booted.app.vault.syncFromDisk();
  };
  const disk = (p: string): string => path.join(env.dir, p);

  it("a revert goes back only where the user left the agent's lines untouched: equal lines elsewhere in the note are not them (verifier, HIGH)", async () => {
    await onDisk(() => fsp.writeFile(disk('rv2.md'), 'a\nx\nb\nc\nd\ne\na\nx\nb\n'));
    await call(env.client, 'write_note', { path: 'rv2', body: 'a\ny\nb\nc\nd\ne\na\nx\nb\n' });
    const entry = newest();
    // The user rewrites the agent's line and, lower down, writes the agent's word on a line of their own.
    await onDisk(() => fsp.writeFile(disk('rv2.md'), 'a\nz\nb\nc\nd\ne\na\ny\nb\n'));
    expect(await revert(entry.id)).toEqual({
      id: entry.id,
      reverted: false,
      message: `${entry.id} was not reverted: 'rv2.md' changed since, right where this change is, so it was left as it is. To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`,
    });
    expect(await read('rv2.md')).toBe('a\nz\nb\nc\nd\ne\na\ny\nb\n');
    expect(log().get(entry.id)?.reverted_by).toBeUndefined();
    // Where the user only moved the agent's lines (two lines put above, the copy lower down edited), the undo goes where they moved to.
    await onDisk(() => fsp.writeFile(disk('rv2.md'), 'a\ny\nb\nc\nd\ne\na\nx\nb\n'));
    await call(env.client, 'write_note', { path: 'rv2', body: 'a\ny\nb\nc\nd\ne\na\nQ\nb\n' });
    const second = newest();
    await onDisk(() => fsp.writeFile(disk('rv2.md'), 'top\nmore\na\ny\nb\nc\nd\ne\na\nQ\nb\nend\n'));
    expect((await revert(second.id)).message).toBe(
      `Reverted ${second.id}: undone in rv2.md, whose later changes are kept (logged as ${log().get(second.id)?.reverted_by}).`,
    );
    expect(await read('rv2.md')).toBe('top\nmore\na\ny\nb\nc\nd\ne\na\nx\nb\nend\n');
  });

  it("a revert is refused where the same lines occur twice and the user changed the other copy: which one is the agent's cannot be told (verifier, HIGH 1)", async () => {
    const ambiguous = (id: string, p: string): string =>
      `${id} was not reverted: '${p}' changed since, right where this change is, so it was left as it is. To undo it by hand, see its diff (activity ${id}, or the Agent activity view).`;
    // Two alike blocks; the agent ticks the first; the user deletes that block and ticks the second's water.
    await onDisk(() => fsp.writeFile(disk('log.md'), '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n'));
    await call(env.client, 'edit_note', {
      path: 'log',
      anchor: '---\n- [ ] water\n- [ ] feed\n---',
      op: 'replace',
      content: '---\n- [x] water\n- [ ] feed\n---',
    });
    const first = newest();
    await onDisk(() => fsp.writeFile(disk('log.md'), '# Log\n---\n- [x] water\n- [ ] feed\n'));
    expect((await revert(first.id)).message).toBe(ambiguous(first.id, 'log.md'));
    expect(await read('log.md')).toBe('# Log\n---\n- [x] water\n- [ ] feed\n');
    // At the start of a note: the agent ticks line 1, the user deletes lines 1-3 (the other, ticked copy stays).
    await onDisk(() => fsp.writeFile(disk('start.md'), '- [ ] water\n- [ ] feed\n---\n- [x] water\n- [ ] feed\n'));
    await call(env.client, 'edit_note', { path: 'start', anchor: '- [ ] water', op: 'replace', content: '- [x] water' });
    const second = newest();
    expect(await read('start.md')).toBe('- [x] water\n- [ ] feed\n---\n- [x] water\n- [ ] feed\n');
    await onDisk(() => fsp.writeFile(disk('start.md'), '- [x] water\n- [ ] feed\n'));
    expect((await revert(second.id)).message).toBe(ambiguous(second.id, 'start.md'));
    expect(await read('start.md')).toBe('- [x] water\n- [ ] feed\n');
    // Blocks that differ: the user's change to the other block is kept and the agent's tick undone.
    await onDisk(() => fsp.writeFile(disk('plain.md'), '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] sweep\n- [ ] dust\n'));
    await call(env.client, 'edit_note', { path: 'plain', anchor: '- [ ] water', op: 'replace', content: '- [x] water' });
    const third = newest();
    await onDisk(() => fsp.writeFile(disk('plain.md'), '# Log\n---\n- [x] water\n- [ ] feed\n---\n- [x] sweep\n'));
    expect((await revert(third.id)).message).toBe(
      `Reverted ${third.id}: undone in plain.md, whose later changes are kept (logged as ${log().get(third.id)?.reverted_by}).`,
    );
    expect(await read('plain.md')).toBe('# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [x] sweep\n');
    // Alike blocks where the user changed neither copy's lines: still reverted.
    await onDisk(() => fsp.writeFile(disk('twice.md'), '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n'));
    await call(env.client, 'edit_note', {
      path: 'twice',
      anchor: '# Log\n---\n- [ ] water',
      op: 'replace',
      content: '# Log\n---\n- [x] water',
    });
    const fourth = newest();
    await onDisk(() => fsp.writeFile(disk('twice.md'), 'user top\n# Log\n---\n- [x] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n'));
    expect((await revert(fourth.id)).reverted).toBe(true);
    expect(await read('twice.md')).toBe('user top\n# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n');
  });

  it('a note of more than 256 lines: a change whose lines occur once is reverted after the user edited far from it; a copy the user made is never undone; older entries stay strict', async () => {
    const long = Array.from({ length: 600 }, (_, i) => `- item ${i}: notes on step ${i}\n`).join('');
    const changedSince = (id: string, p: string): string =>
      `${id} was not reverted: '${p}' changed since, right where this change is, so it was left as it is. To undo it by hand, see its diff (activity ${id}, or the Agent activity view).`;
    await onDisk(() => fsp.writeFile(disk('long.md'), long));
    await call(env.client, 'edit_note', { path: 'long', anchor: '- item 40: notes on step 40', op: 'replace', content: '- item 40: DONE' });
    const entry = newest();
    expect(entry.undo.after_sums?.k).toBeGreaterThan(1);
    expect(entry.undo.patch).toEqual([expect.objectContaining({ unique: true })]);
    // (a) The user edits a line at the bottom: the agent's change at the top is undone, the user's line kept.
    const userLine = (t: string) => t.replace('- item 590: notes on step 590\n', '- item 590: the user was here\n');
    await onDisk(async () => fsp.writeFile(disk('long.md'), userLine(await read('long.md'))));
    expect((await revert(entry.id)).message).toBe(
      `Reverted ${entry.id}: undone in long.md, whose later changes are kept (logged as ${log().get(entry.id)?.reverted_by}).`,
    );
    expect(await read('long.md')).toBe(userLine(long));

    // (b) The user copies the agent's line with its neighbours to the end: the agent's own is undone, the copy stays.
    await call(env.client, 'edit_note', { path: 'long', anchor: '- item 40: notes on step 40', op: 'replace', content: '- item 40: DONE' });
    const second = newest();
    const ticked = await read('long.md');
    const copy = '- item 39: notes on step 39\n- item 40: DONE\n- item 41: notes on step 41\n';
    expect(ticked).toContain(copy);
    await onDisk(() => fsp.writeFile(disk('long.md'), `${ticked}${copy}`));
    expect((await revert(second.id)).reverted).toBe(true);
    expect(await read('long.md')).toBe(`${userLine(long)}${copy}`);
    // The user copies 200 lines around it (whole chunks) right above it: two copies side by side, neither undone.
    await onDisk(() => fsp.writeFile(disk('long.md'), userLine(long)));
    await call(env.client, 'edit_note', { path: 'long', anchor: '- item 40: notes on step 40', op: 'replace', content: '- item 40: DONE' });
    const third = newest();
    const now = await read('long.md');
    const block = now.slice(0, now.indexOf('- item 200:'));
    await onDisk(() => fsp.writeFile(disk('long.md'), `${block}${now}`));
    expect((await revert(third.id)).message).toBe(changedSince(third.id, 'long.md'));
    expect(await read('long.md')).toBe(`${block}${now}`);

    // (c) The same change logged by the version before (no `unique`): refused once the user edited any far chunk, as then.
    await onDisk(() => fsp.writeFile(disk('long.md'), userLine(long)));
    await call(env.client, 'edit_note', { path: 'long', anchor: '- item 40: notes on step 40', op: 'replace', content: '- item 40: DONE' });
    const fourth = newest();
    for (const h of fourth.undo.patch ?? []) delete h.unique; // as the version before this logged it
    await onDisk(async () => fsp.writeFile(disk('long.md'), (await read('long.md')).replace('- item 500:', '- item 500 (user):')));
    const before = await read('long.md');
    expect((await revert(fourth.id)).message).toBe(changedSince(fourth.id, 'long.md'));
    expect(await read('long.md')).toBe(before);
  });

  it('an edit logged before the fingerprint was kept is reverted only on the text it left, never placed by matching lines', async () => {
    await call(env.client, 'edit_note', { path: 'Ideas.md', anchor: 'Pair every new hire', op: 'replace', content: 'Pair each new hire' });
    const entry = newest();
    delete entry.undo.after_sums; // as the version before this logged it
    await userEdit('Ideas.md', (t) => t.replace('# Ideas\n', '# Ideas\n\nUser line at the top.\n'));
    const before = await read('Ideas.md');
    expect((await revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'Ideas.md' changed since, and this change was logged by an earlier version that did not keep what a revert needs to find its lines among later changes, so it was left as it is. To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`,
    );
    expect(await read('Ideas.md')).toBe(before);
    await userEdit('Ideas.md', (t) => t.replace('\nUser line at the top.\n', ''));
    expect((await revert(entry.id)).message).toBe(
      `Reverted ${entry.id}: Ideas.md is as it was before (logged as ${log().get(entry.id)?.reverted_by}).`,
    );
  });

  it('a revert never acts on another note the user put at the path since: a renamed daily note, a new one from the template (verifier, HIGH)', async () => {
    const daily = '# Today\n- [ ] Standup\n- [ ] Review PRs\n- [ ] Write report\n';
    await onDisk(() => fsp.writeFile(disk('Older.md'), daily));
    await onDisk(() => fsp.writeFile(disk('Daily.md'), daily));
    await call(env.client, 'edit_note', { path: 'Daily', anchor: '- [ ] Review PRs', op: 'replace', content: '- [x] Review PRs' });
    const entry = newest();
    const ticked = daily.replace('[ ] Review', '[x] Review');
    const fresh = `${ticked}- [ ] Plan tomorrow\n`;
    // The user renames the day's note and starts a new Daily.md from the template, ticking Review PRs themselves.
    await onDisk(async () => {
      await fsp.rename(disk('Daily.md'), disk('2026-12-05.md'));
      await new Promise((r) => setTimeout(r, 30));
      await fsp.writeFile(disk('Daily.md'), fresh);
    });
    const next = ` If the note changed was renamed or moved since, move what is at 'Daily.md' now aside, move that note back to 'Daily.md' and revert again. To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`;
    expect(await revert(entry.id)).toEqual({
      id: entry.id,
      reverted: false,
      message: `${entry.id} was not reverted: 'Daily.md' is not the one this change was made to: the note there now was put there after this change (renamed or moved there, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files), so it was left as it is.${next}`,
    });
    // The same text as the agent left does not make it the same note.
    await onDisk(() => fsp.writeFile(disk('Daily.md'), ticked));
    expect((await revert(entry.id)).reverted).toBe(false);
    // An older note renamed to Daily.md is not it either.
    await onDisk(async () => {
      await fsp.rm(disk('Daily.md'));
      await fsp.writeFile(disk('Older.md'), ticked);
      await fsp.rename(disk('Older.md'), disk('Daily.md'));
    });
    expect((await revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'Daily.md' is not the one this change was made to: the note there now is an older note put there since (renamed, moved or replaced), so it was left as it is.${next}`,
    );
    expect(await read('Daily.md')).toBe(ticked);
    expect(await read('2026-12-05.md')).toBe(ticked);
    // The note the agent changed, moved back: the revert undoes the tick there.
    await onDisk(async () => {
      await fsp.rename(disk('Daily.md'), disk('Older.md'));
      await fsp.rename(disk('2026-12-05.md'), disk('Daily.md'));
    });
    expect((await revert(entry.id)).message).toBe(
      `Reverted ${entry.id}: Daily.md is as it was before (logged as ${log().get(entry.id)?.reverted_by}).`,
    );
    expect(await read('Daily.md')).toBe(daily);
    expect(await read('Older.md')).toBe(ticked);
  });

  it('a revert reads the creation time from disk: a note put there anew with the old size and mtime is not it (verifier, HIGH 2)', async () => {
    const text = '- [ ] a\n- [ ] b\n';
    const ticked = '- [x] a\n- [ ] b\n';
    await onDisk(() => fsp.writeFile(disk('day.md'), text));
    await call(env.client, 'edit_note', { path: 'day', anchor: '- [ ] a', op: 'replace', content: '- [x] a' });
    const entry = newest();
    /** The same size and mtime as the file at `like`, as `touch -r` or `cp -a` leave them. */
    const sameTimes = async (file: string, like: string): Promise<void> => {
      const s = await fsp.stat(disk(like));
      await fsp.utimes(disk(file), s.atime, s.mtime);
    };
    const refused = `${entry.id} was not reverted: 'day.md' is not the one this change was made to: the note there now was put there after this change (renamed or moved there, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files), so it was left as it is.`;
    await new Promise((r) => setTimeout(r, 30));
    // The old note kept as archive.md (a hard link: day.md never goes missing, so no watcher sees it gone), and a new
    // day.md with the same text, size and mtime renamed over it, before Obsidian's index notices.
    await fsp.link(disk('day.md'), disk('archive.md'));
    await fsp.writeFile(disk('tmp.x'), ticked);
    await sameTimes('tmp.x', 'archive.md');
    await fsp.rename(disk('tmp.x'), disk('day.md'));
    expect((await revert(entry.id)).message).toMatch(new RegExp(`^${refused.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(await read('day.md')).toBe(ticked);
    // cp -a archive.md day.md: a copy keeps the times but is born now.
    await onDisk(async () => {
      await fsp.rm(disk('day.md'));
      await fsp.copyFile(disk('archive.md'), disk('day.md'));
      await sameTimes('day.md', 'archive.md');
    });
    expect((await revert(entry.id)).message.startsWith(refused)).toBe(true);
    expect(await read('day.md')).toBe(ticked);
    // The test host, as a watcher, sees the new file there although its mtime and size are the old ones.
    const s = await fsp.stat(disk('day.md'));
    expect(env.booted.app.vault.getFileByPath('day.md')?.stat.ctime).toBe(Math.round(s.birthtimeMs));
    // The note the agent changed, moved back: reverted.
    await onDisk(async () => {
      await fsp.rm(disk('day.md'));
      await fsp.rename(disk('archive.md'), disk('day.md'));
    });
    expect((await revert(entry.id)).reverted).toBe(true);
    expect(await read('day.md')).toBe(text);
  });

  it('a revert of a move never moves another note put at its destination since (verifier, LOW)', async () => {
    await onDisk(() => fsp.writeFile(disk('M1.md'), 'the note the agent moved\n'));
    await call(env.client, 'move_note', { path: 'M1', to: 'M2' });
    const entry = newest();
    await onDisk(async () => {
      await fsp.rename(disk('M2.md'), disk('M2x.md'));
      await new Promise((r) => setTimeout(r, 30));
      await fsp.writeFile(disk('M2.md'), 'a new note of the user\n');
    });
    expect((await revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'M2.md' is not the one moved there: the note there now was put there after this change (renamed or moved there, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files), so nothing was moved. If the note moved was renamed or moved since, move what is at 'M2.md' now aside, move that note back to 'M2.md' and revert again; or move it to 'M1.md' yourself.`,
    );
    expect(await exists('M1.md')).toBe(false);
    expect(await read('M2.md')).toBe('a new note of the user\n');
    expect(await read('M2x.md')).toBe('the note the agent moved\n');
    // Renamed back, the note moved is moved back.
    await onDisk(async () => {
      await fsp.rename(disk('M2.md'), disk('Mine.md'));
      await fsp.rename(disk('M2x.md'), disk('M2.md'));
    });
    expect((await revert(entry.id)).message).toBe(
      `Reverted ${entry.id}: M2.md is back at M1.md (logged as ${log().get(entry.id)?.reverted_by}).`,
    );
    expect(await read('M1.md')).toBe('the note the agent moved\n');
    expect(await read('Mine.md')).toBe('a new note of the user\n');
  });

  it('a revert acts only on the note with the creation time logged: not on one made between the changed note and the change (verifier s29, F3)', async () => {
    const tpl = '# Today\n- [ ] Standup\n- [ ] Review PRs\n- [ ] Write report\n';
    const ticked = tpl.replace('[ ] Review', '[x] Review');
    const users = `${ticked}- [ ] Plan tomorrow\n`;
    await onDisk(() => fsp.writeFile(disk('Daily.md'), tpl)); // T0: the note the agent changes
    await onDisk(() => fsp.writeFile(disk('Daily 1.md'), tpl)); // T1: another from the same template
    await new Promise((r) => setTimeout(r, 30));
    await call(env.client, 'edit_note', { path: 'Daily', anchor: '- [ ] Review PRs', op: 'replace', content: '- [x] Review PRs' }); // T2
    const entry = newest();
    expect(entry.created).toBe((await env.booted.app.vault.adapter.stat('Daily.md'))?.ctime);
    // The user files the agent's note away, renames the other into its place and ticks Review PRs there themselves.
    await onDisk(async () => {
      await fsp.rename(disk('Daily.md'), disk('2026-12-05.md'));
      await fsp.rename(disk('Daily 1.md'), disk('Daily.md'));
      await fsp.writeFile(disk('Daily.md'), users);
    });
    const made = (await env.booted.app.vault.adapter.stat('Daily.md'))?.ctime ?? 0;
    // Made between the changed note and the change: neither later than the change nor older than the note.
    expect(made > (entry.created ?? 0) && made < Date.parse(entry.at)).toBe(true);
    const next = ` If the note changed was renamed or moved since, move what is at 'Daily.md' now aside, move that note back to 'Daily.md' and revert again. To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`;
    expect(await revert(entry.id)).toEqual({
      id: entry.id,
      reverted: false,
      message: `${entry.id} was not reverted: 'Daily.md' is not the one this change was made to: the note there now is another note put there since (renamed, moved or replaced), so it was left as it is.${next}`,
    });
    expect(await read('Daily.md')).toBe(users);
    expect(await read('2026-12-05.md')).toBe(ticked);
    // The same through the terminal's revert of the key: nothing reverted.
    expect((await env.booted.plugin.reverts.revertKey(entry.key_id)).map((o) => o.reverted)).toEqual([false]);
    expect(await read('Daily.md')).toBe(users);
    // The note the agent changed, moved back and edited in place by the user: reverted, the user's line kept.
    await onDisk(async () => {
      await fsp.rename(disk('Daily.md'), disk('Daily 1.md'));
      await fsp.rename(disk('2026-12-05.md'), disk('Daily.md'));
      await fsp.writeFile(disk('Daily.md'), `${ticked}user line\n`);
    });
    expect(await revert(entry.id)).toMatchObject({ reverted: true, message: expect.stringContaining('whose later changes are kept') });
    expect(await read('Daily.md')).toBe(`${tpl}user line\n`);
    expect(await read('Daily 1.md')).toBe(users);
    // A note left as the agent left it is reverted exact; the user's edit in Obsidian (the host, like Obsidian, keeps
    // the creation time) does not stop redoing it.
    await onDisk(() => fsp.writeFile(disk('plain.md'), 'a\nb\n'));
    await new Promise((r) => setTimeout(r, 30));
    await call(env.client, 'edit_note', { path: 'plain', anchor: 'a', op: 'replace', content: 'A' });
    const plain = newest();
    expect(await revert(plain.id)).toMatchObject({ reverted: true, message: expect.stringContaining('plain.md is as it was before') });
    expect(await read('plain.md')).toBe('a\nb\n');
    const redo = log().get(plain.id)?.reverted_by ?? '';
    expect(log().get(redo)?.created).toBe(plain.created);
    await userEdit('plain.md', (t) => `${t}user\n`);
    expect(await revert(redo)).toMatchObject({ reverted: true, message: expect.stringContaining('made again in plain.md') });
    expect(await read('plain.md')).toBe('A\nb\nuser\n');
  });

  it('where the vault writes in place, as Obsidian does (and the host), a revert also refuses another file with the logged creation time: a note made in the same millisecond', async () => {
    const tpl = '- [ ] a\n- [ ] b\n';
    const replaced = (id: string): string =>
      `${id} was not reverted: 'Twin.md' is not the one this change was made to: the note there now is another file on disk with the same creation time (a note made in the same millisecond, or this one written anew as a new file by a sync tool, git or an editor that saves by replacing files), so it was left as it is. If the note changed was renamed or moved since, move what is at 'Twin.md' now aside, move that note back to 'Twin.md' and revert again. To undo it by hand, see its diff (activity ${id}, or the Agent activity view).`;
    const inode = async (p: string): Promise<string> => String((await fsp.stat(disk(p), { bigint: true })).ino);
    // Two notes made in the same millisecond (a copied folder, a script).
    let twins = false;
    for (let i = 0; i < 50 && !twins; i++) {
      await fsp.writeFile(disk('Twin.md'), tpl);
      await fsp.writeFile(disk('Twin 1.md'), tpl);
      const [a, b] = await Promise.all([fsp.stat(disk('Twin.md')), fsp.stat(disk('Twin 1.md'))]);
      twins = Math.round(a.birthtimeMs) === Math.round(b.birthtimeMs);
      if (!twins) await Promise.all([fsp.rm(disk('Twin.md')), fsp.rm(disk('Twin 1.md'))]);
    }
    expect(twins).toBe(true);
    await env.booted.app.vault.syncFromDisk();
    const ino = await inode('Twin.md');
    await call(env.client, 'edit_note', { path: 'Twin', anchor: '- [ ] a', op: 'replace', content: '- [x] a' });
    const entry = newest();
    // The host's write kept the note's file, so the log keeps its inode.
    expect(await inode('Twin.md')).toBe(ino);
    expect(entry.inode).toBe(ino);
    await onDisk(async () => {
      await fsp.rename(disk('Twin.md'), disk('Twin kept.md'));
      await fsp.rename(disk('Twin 1.md'), disk('Twin.md'));
    });
    expect((await env.booted.app.vault.adapter.stat('Twin.md'))?.ctime).toBe(entry.created);
    expect((await revert(entry.id)).message).toBe(replaced(entry.id));
    expect(await read('Twin.md')).toBe(tpl);
    expect(await read('Twin kept.md')).toBe('- [x] a\n- [ ] b\n');
    // The note changed, moved back and edited by the user in Obsidian (in place): reverted.
    await onDisk(async () => {
      await fsp.rename(disk('Twin.md'), disk('Twin 1.md'));
      await fsp.rename(disk('Twin kept.md'), disk('Twin.md'));
    });
    await userEdit('Twin.md', (t) => `${t}user\n`);
    expect(await revert(entry.id)).toMatchObject({ reverted: true });
    expect(await read('Twin.md')).toBe(`${tpl}user\n`);
    expect(log().get(log().get(entry.id)?.reverted_by ?? '')?.inode).toBe(ino);
  });

  it('a revert of a move never moves a note made between the moved note and the move, renamed to its destination (verifier s29, F3)', async () => {
    await onDisk(() => fsp.writeFile(disk('M1.md'), 'moved note\n')); // T0
    await onDisk(() => fsp.writeFile(disk('Other.md'), 'user note\n')); // T1
    await new Promise((r) => setTimeout(r, 30));
    await call(env.client, 'move_note', { path: 'M1', to: 'M2' }); // T2
    const entry = newest();
    await onDisk(async () => {
      await fsp.rename(disk('M2.md'), disk('Archive.md'));
      await fsp.rename(disk('Other.md'), disk('M2.md'));
    });
    expect((await revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'M2.md' is not the one moved there: the note there now is another note put there since (renamed, moved or replaced), so nothing was moved. If the note moved was renamed or moved since, move what is at 'M2.md' now aside, move that note back to 'M2.md' and revert again; or move it to 'M1.md' yourself.`,
    );
    expect(await exists('M1.md')).toBe(false);
    expect(await read('M2.md')).toBe('user note\n');
    expect(await read('Archive.md')).toBe('moved note\n');
  });

  it('a revert of a folder move never moves another folder renamed to its destination', async () => {
    await onDisk(() => fsp.mkdir(disk('F1')));
    await onDisk(() => fsp.writeFile(disk('F1/in.md'), 'moved folder\n'));
    await onDisk(() => fsp.mkdir(disk('Mine')));
    await onDisk(() => fsp.writeFile(disk('Mine/in.md'), 'user folder\n'));
    await new Promise((r) => setTimeout(r, 30));
    await call(env.client, 'move_note', { path: 'F1', to: 'F2' });
    const entry = newest();
    expect(entry).toMatchObject({ kind: 'move', folder: true, created: (await env.booted.app.vault.adapter.stat('F2'))?.ctime });
    await onDisk(async () => {
      await fsp.rename(disk('F2'), disk('Kept'));
      await fsp.rename(disk('Mine'), disk('F2'));
    });
    expect((await revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'F2' is not the one moved there: the folder there now is another folder put there since (renamed, moved or replaced), so nothing was moved. If the folder moved was renamed or moved since, move what is at 'F2' now aside, move that folder back to 'F2' and revert again; or move it to 'F1' yourself.`,
    );
    expect(await exists('F1')).toBe(false);
    expect(await read('F2/in.md')).toBe('user folder\n');
    // The folder moved, renamed back: moved back.
    await onDisk(async () => {
      await fsp.rename(disk('F2'), disk('Mine'));
      await fsp.rename(disk('Kept'), disk('F2'));
    });
    expect((await revert(entry.id)).message).toMatch(new RegExp(`^Reverted ${entry.id}: F2 is back at F1`));
    expect(await read('F1/in.md')).toBe('moved folder\n');
    expect(await read('Mine/in.md')).toBe('user folder\n');
  });

  it('a revert of several hunks applies the ones the user left alone and names the one that stayed by its line', async () => {
    const body = (await read('Ideas.md')).replace('Pair every new hire', 'PAIR').replace('Rain barrel', 'RAIN');
    await call(env.client, 'write_note', { path: 'Ideas.md', body: body.slice(body.indexOf('# Ideas')) });
    const entry = newest();
    await userEdit('Ideas.md', (t) => t.replace('PAIR', 'PAIR by user'));
    const outcome = await revert(entry.id);
    expect(outcome.message).toBe(
      `Reverted ${entry.id} on Ideas.md (logged as ${log().get(entry.id)?.reverted_by}), except the change at line 14 (see "activity ${entry.id}"), which the note's later text touches: left as it is.`,
    );
    expect(await runActivityCommand(env.booted.plugin, `activity ${entry.id}`)).toContain('@@ Line 14\n  -- Pair every new hire');
    const now = await read('Ideas.md');
    expect(now).toContain('PAIR by user');
    expect(now).toContain('Rain barrel');
    expect(log().get(log().get(entry.id)?.reverted_by ?? '')?.left).toBe(1);
  });

  it('a revert says what the note reads after it: as before, as the change it redoes left it, or with the later changes kept', async () => {
    await call(env.client, 'append_note', { path: 'Ideas.md', content: '- agent line' });
    const edit = newest();
    const withEdit = await read('Ideas.md');
    expect((await revert(edit.id)).message).toBe(
      `Reverted ${edit.id}: Ideas.md is as it was before (logged as ${log().get(edit.id)?.reverted_by}).`,
    );
    const undo = log().get(edit.id)?.reverted_by ?? '';
    // Reverting the revert redoes the edit: the note is as the edit left it, not "as it was before".
    const redone = (await revert(undo)).message;
    expect(redone).toBe(
      `Reverted ${undo}, which redoes ${edit.id}: Ideas.md is as ${edit.id} left it (logged as ${log().get(undo)?.reverted_by}).`,
    );
    expect(await read('Ideas.md')).toBe(withEdit);
    // The user types, then the redo is reverted: undone on their text, theirs kept.
    const redo = log().get(undo)?.reverted_by ?? '';
    await userEdit('Ideas.md', (t) => t.replace('# Ideas\n', '# Ideas\n\nUser line.\n'));
    expect((await revert(redo)).message).toBe(
      `Reverted ${redo}, which redoes ${undo}: made again in Ideas.md, whose later changes are kept (logged as ${log().get(redo)?.reverted_by}).`,
    );
    expect(await read('Ideas.md')).toContain('User line.');
    expect(await read('Ideas.md')).not.toContain('- agent line');
  });

  it('redoing a revert that left a change the user touched says so, not that the note is as the change left it (verifier, LOW 6)', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`);
    await onDisk(() => fsp.writeFile(disk('pr2.md'), lines.join('')));
    const agent = lines.map((l, i) => (i === 1 || i === 9 ? `agent ${l}` : l));
    await call(env.client, 'write_note', { path: 'pr2', body: agent.join('') });
    const edit = newest();
    const user = agent.map((l, i) => (i === 9 ? 'user line 10\n' : l));
    await onDisk(() => fsp.writeFile(disk('pr2.md'), user.join('')));
    expect((await revert(edit.id)).message).toMatch(/except the change at line 10 /);
    const undo = log().get(edit.id)?.reverted_by ?? '';
    expect((await revert(undo)).message).toBe(
      `Reverted ${undo}, which redoes ${edit.id}: ${edit.id} is made again in pr2.md where ${undo} undid it; the change of ${edit.id} it left as it was stays as the note has it (logged as ${log().get(undo)?.reverted_by}).`,
    );
    expect(await read('pr2.md')).toBe(user.join(''));
  });

  it('refuses in one sentence when the note is now private, read-only or gone, saying what to do next', async () => {
    for (const p of ['Inbox.md', 'Ideas.md', 'Home.md']) await call(env.client, 'append_note', { path: p, content: '- agent line' });
    const [home, ideas, inbox] = log().all();
    await userEdit('Inbox.md', (t) => t.replace('tags: [inbox]', 'tags: [inbox]\naccess: private'));
    await userEdit('Ideas.md', (t) => t.replace('status: collecting', 'status: collecting\naccess: read-only'));
    await fsp.rm(path.join(env.dir, 'Home.md'));
    await new Promise((r) => setTimeout(r, 300));
    expect((await revert(inbox.id)).message).toBe(
      `${inbox.id} was not reverted: 'Inbox.md' is now hidden from "Claude Code" by its own frontmatter ('access: private', or 'no-access' for "Claude Code" in 'agent_overrides'), so it was left as it is. Revert again once "Claude Code" may read it, or undo it by hand: see its diff (activity ${inbox.id}, or the Agent activity view).`,
    );
    expect((await revert(ideas.id)).message).toBe(
      `${ideas.id} was not reverted: 'Ideas.md' is now read-only for "Claude Code", so it was left as it is. To undo it by hand, see its diff (activity ${ideas.id}, or the Agent activity view).`,
    );
    expect((await revert(home.id)).message).toBe(
      `${home.id} was not reverted: 'Home.md' is no longer there, so it was left as it is. If it was moved or renamed, move it back and revert again. To undo it by hand, see its diff (activity ${home.id}, or the Agent activity view).`,
    );
    expect((await revert('a_nope')).message).toBe(`No activity entry 'a_nope'; list them with "activity" (or the Agent activity view).`);
    expect(await read('Inbox.md')).toContain('- agent line');
    expect(await read('Ideas.md')).toContain('- agent line');
  });

  it('a revert refused because undoing it on the text now would add an access rule says so, and to revert the later change first', async () => {
    // The newcomer's repro: the note is neither read-only nor closed; undoing the write alone
    // under the later edit would turn its text into a frontmatter block holding `access: private`.
    await fsp.mkdir(path.join(env.dir, 'FM'), { recursive: true });
    await fsp.writeFile(path.join(env.dir, 'FM/dash.md'), '---\n');
    await new Promise((r) => setTimeout(r, 300));
    await call(env.client, 'write_note', { path: 'FM/dash', body: 'access: private\n---\n' });
    const write = newest();
    // The later edit writes the rule as `access: "private"` (the same rule to YAML).
    await call(env.client, 'edit_note', { path: 'FM/dash', anchor: '---', op: 'insert_after', content: '\naccess: "private"\n---' });
    const edit = newest();
    const text = await read('FM/dash.md');
    expect((await revert(write.id)).message).toBe(
      `${write.id} was not reverted: undoing it on the text 'FM/dash.md' has now would add, change or remove its 'access' or 'agent_overrides' properties, which a revert may not do, so it was left as it is. Revert the later changes to 'FM/dash.md' first (newest first), then this one. To undo it by hand, see its diff (activity ${write.id}, or the Agent activity view).`,
    );
    expect(await read('FM/dash.md')).toBe(text);
    // What it says to do works.
    expect((await revert(edit.id)).reverted).toBe(true);
    expect((await revert(write.id)).reverted).toBe(true);
    expect(await read('FM/dash.md')).toBe('---\n');
    // Written as the write left it (`access: private` and `---` again, right below): two copies of the
    // write's lines side by side, which is the write's cannot be told, so that is what stops it first.
    await call(env.client, 'write_note', { path: 'FM/dash', body: 'access: private\n---\n' });
    const again = newest();
    await call(env.client, 'edit_note', { path: 'FM/dash', anchor: '---', op: 'insert_after', content: '\naccess: private\n---' });
    const copied = await read('FM/dash.md');
    expect((await revert(again.id)).message).toBe(
      `${again.id} was not reverted: 'FM/dash.md' changed since, right where this change is, so it was left as it is. To undo it by hand, see its diff (activity ${again.id}, or the Agent activity view).`,
    );
    expect(await read('FM/dash.md')).toBe(copied);
  });

  it('a revert refused for a note now outside the key\'s roots says so, not "read-only"', async () => {
    await call(env.client, 'append_note', { path: 'Areas/Übersicht.md', content: '- agent line' });
    const entry = newest();
    const reverts = new ActivityRevert(log(), env.booted.plugin.notes, () => ['Projects']);
    expect((await reverts.revert(entry.id)).message).toBe(
      `${entry.id} was not reverted: 'Areas/Übersicht.md' is now outside the folders "Claude Code" may use, so it was left as it is. To undo it by hand, see its diff (activity ${entry.id}, or the Agent activity view).`,
    );
  });

  it('a revert of a move refused for a note its link updates would change names that note, not the moved one', async () => {
    await call(env.client, 'create_note', { path: 'Reference/Target.md', content: 'target\n' });
    await call(env.client, 'create_note', { path: 'Reference/Src.md', content: 'see [[Target]]\n' });
    await call(env.client, 'create_note', { path: 'Reference/Other.md', content: 'also [[Target]]\n' });
    await new Promise((r) => setTimeout(r, 300));
    await call(env.client, 'move_note', { path: 'Reference/Target', to: 'Reference/Target2' });
    const move = newest();
    expect([...(move.linkers ?? [])].sort()).toEqual(['Reference/Other.md', 'Reference/Src.md']);
    await userEdit('Reference/Src.md', (t) => `---\naccess: private\n---\n${t}`);
    const refused = await revert(move.id);
    expect(refused).toMatchObject({ reverted: false });
    expect(refused.message).toBe(
      `${move.id} was not reverted: moving 'Reference/Target2.md' back to 'Reference/Target.md' would update the links in 'Reference/Src.md', which is now read-only or closed to "Claude Code", so nothing was moved. Move it back in Obsidian yourself (Obsidian updates the links), or revert again once "Claude Code" may change it.`,
    );
    await userEdit('Reference/Other.md', (t) => `---\naccess: read-only\n---\n${t}`);
    expect((await revert(move.id)).message).toContain(`the links in 'Reference/Src.md' and 'Reference/Other.md', which are now read-only`);
    expect(await exists('Reference/Target2.md')).toBe(true);
    // A folder move back refused for a note it holds names that note.
    await call(env.client, 'create_note', { path: 'Drafts/One.md', content: 'one\n' });
    await call(env.client, 'move_note', { path: 'Drafts', to: 'Archive/Drafts' });
    const folder = newest();
    await userEdit('Archive/Drafts/One.md', (t) => `---\naccess: read-only\n---\n${t}`);
    expect((await revert(folder.id)).message).toBe(
      `${folder.id} was not reverted: 'Archive/Drafts' holds 'Archive/Drafts/One.md', which is now read-only, quarantined or closed to "Claude Code", so nothing was moved. Move it back in Obsidian yourself (Obsidian updates the links), or revert again once "Claude Code" may change it.`,
    );
    // The agent's own refusal of such a move still names none of them.
    const agentSees = await callError(env.client, 'move_note', { path: 'Reference/Target2', to: 'Reference/Target3' });
    expect(agentSees).toContain('would update links in notes this key may not change');
    expect(agentSees).not.toContain('Src');
  });

  it("propose mode: an accepted proposal is logged with the hunks accepted and the agent's MCP session, and reverts by session", async () => {
    await env.booted.plugin.keyRing.setMode(env.booted.key.id, 'propose');
    const before = await read('Ideas.md');
    const staged = await call(env.client, 'edit_note', {
      path: 'Ideas.md',
      anchor: 'Pair every new hire',
      op: 'replace',
      content: 'Pair each new hire',
    });
    const created = await call(env.client, 'create_note', { path: 'Proposed.md', content: 'hello\n' });
    expect(log().all()).toHaveLength(0);
    const agentSession = (env.client as unknown as { transport: { sessionId?: string } }).transport.sessionId;
    expect(agentSession).toMatch(/\S/);
    await env.booted.plugin.review.accept(staged.proposal_id);
    await env.booted.plugin.review.accept(created.proposal_id);
    const [create, edit] = log().all();
    expect(edit).toMatchObject({
      via: 'proposal',
      proposal_id: staged.proposal_id,
      hunks: [0],
      kind: 'edit',
      key_label: 'Claude Code',
      session: agentSession,
    });
    expect(create).toMatchObject({
      via: 'proposal',
      proposal_id: created.proposal_id,
      kind: 'create',
      path: 'Proposed.md',
      session: agentSession,
    });
    const answer = await runActivityCommand(env.booted.plugin, `revert session ${agentSession}`);
    expect(answer).toMatch(/\n2 of 2 reverted\.$/);
    expect(await read('Ideas.md')).toBe(before);
    expect(await exists('Proposed.md')).toBe(false);
  });

  it('propose mode: every kind of accepted proposal is logged as the proposal, and Revert all of the key takes them all back', async () => {
    await env.booted.plugin.keyRing.setMode(env.booted.key.id, 'propose');
    const before = await read('Ideas.md');
    const stage = async (tool: string, args: Record<string, unknown>): Promise<string> => (await call(env.client, tool, args)).proposal_id;
    const ids = [
      await stage('set_properties', { path: 'Ideas.md', properties: { status: 'sorted' } }),
      await stage('create_note', { path: 'Proposed/New.md', content: 'new\n' }),
      await stage('create_folder', { path: 'Proposed folder' }),
      await stage('move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Moved ideas.md' }),
      await stage('delete_note', { path: 'Inbox.md', confirm: true }),
      await stage('widget_write', { id: 'staged', html: WIDGET('Staged') }),
    ];
    for (const id of ids) expect((await env.booted.plugin.review.accept(id)).applied).toBe(1);
    expect(
      log()
        .all()
        .map((e) => `${e.via} ${e.kind} ${e.proposal_id === ids[5 - log().all().indexOf(e)]}`),
    ).toEqual(['widget', 'delete', 'move', 'folder', 'create', 'properties'].map((k) => `proposal ${k} true`));
    const answer = (await runActivityCommand(env.booted.plugin, 'revert key "Claude Code"')) ?? '';
    expect(answer.split('\n').pop()).toBe('6 of 6 reverted.');
    expect(await read('Ideas.md')).toBe(before);
    expect(await exists('Inbox.md')).toBe(true);
    expect(await exists('Archive/Old ideas.md')).toBe(true);
    for (const gone of ['Proposed/New.md', 'Proposed folder', 'Archive/Moved ideas.md', 'Widgets/staged.html'])
      expect(await exists(gone)).toBe(false);
  });

  it('a replaced widget goes back to its old text; a moved folder moves back', async () => {
    const v1 = WIDGET('One');
    await call(env.client, 'widget_write', { id: 'board', html: v1 });
    const { createHash } = await import('node:crypto');
    await call(env.client, 'widget_write', {
      id: 'board',
      html: WIDGET('Two'),
      expected_hash: createHash('sha256').update(v1).digest('hex'),
    });
    expect(newest()).toMatchObject({ kind: 'widget', hash_before: expect.any(String), hash_after: expect.any(String) });
    expect((await revert(newest().id)).reverted).toBe(true);
    expect(await read('Widgets/board.html')).toBe(v1);
    await call(env.client, 'create_note', { path: 'Drafts/One.md', content: 'one\n' });
    await call(env.client, 'move_note', { path: 'Drafts', to: 'Archive/Drafts' });
    expect(newest()).toMatchObject({ kind: 'move', folder: true, from: 'Drafts', path: 'Archive/Drafts' });
    expect((await revert(newest().id)).message).toMatch(/^Reverted a_\w+: Archive\/Drafts is back at Drafts/);
    expect(await read('Drafts/One.md')).toBe('one\n');
    expect(await exists('Archive/Drafts')).toBe(false);
  });

  it('a folder the agent made is not taken away once it holds something, nor a note once the user changed it', async () => {
    await call(env.client, 'create_folder', { path: 'Agent folder' });
    const folder = newest();
    await fsp.writeFile(path.join(env.dir, 'Agent folder/User note.md'), 'mine\n');
    await new Promise((r) => setTimeout(r, 300));
    expect((await revert(folder.id)).message).toBe(
      `${folder.id} was not reverted: Folder 'Agent folder' is no longer empty, and what is in it now stays.`,
    );
    await call(env.client, 'create_note', { path: 'Agent note.md', content: 'agent\n' });
    const note = newest();
    await userEdit('Agent note.md', (t) => `${t}user line\n`);
    expect((await revert(note.id)).message).toBe(
      `${note.id} was not reverted: 'Agent note.md' changed since, and reverting would lose the later text. To undo it by hand, see its diff (activity ${note.id}, or the Agent activity view).`,
    );
    expect(await read('Agent note.md')).toBe('agent\nuser line\n');
  });

  it('a revert refused because a later logged move took the note away names that move and where the note is (newcomer finding)', async () => {
    await call(env.client, 'create_note', { path: 'Sub/Target.md', content: 'one\n' });
    await call(env.client, 'append_note', { path: 'Sub/Target.md', content: 'two' });
    const edit = newest();
    await call(env.client, 'move_note', { path: 'Sub', to: 'Sub2' });
    const folderMove = newest();
    expect(folderMove).toMatchObject({ kind: 'move', folder: true, from: 'Sub', path: 'Sub2' });
    expect((await revert(edit.id)).message).toBe(
      `${edit.id} was not reverted: 'Sub/Target.md' is no longer there, so it was left as it is. The log shows ${folderMove.id} moved the folder 'Sub' to 'Sub2', so the note is at 'Sub2/Target.md' if nothing moved it since: revert ${folderMove.id} first, then this one.`,
    );
    // Reverting the folder move brings the note back, and the edit reverts.
    expect((await revert(folderMove.id)).message).toMatch(/^Reverted /);
    expect((await revert(edit.id)).message).toMatch(/^Reverted /);
    expect(await read('Sub/Target.md')).toBe('one\n');
    // A note's own later move is named the same way.
    await call(env.client, 'append_note', { path: 'Sub/Target.md', content: 'three' });
    const second = newest();
    await call(env.client, 'move_note', { path: 'Sub/Target.md', to: 'Elsewhere.md' });
    const noteMove = newest();
    expect((await revert(second.id)).message).toMatch(
      new RegExp(
        `The log shows ${noteMove.id} moved it to 'Elsewhere\\.md', so the note is at 'Elsewhere\\.md' if nothing moved it since: revert ${noteMove.id} first`,
      ),
    );
  });

  it('a refused revert says what to do next; a revert of a created note says it went to the trash', async () => {
    await call(env.client, 'create_note', { path: 'Made.md', content: 'made\n' });
    const made = newest();
    expect((await revert(made.id)).message).toBe(
      `Reverted ${made.id}: Made.md is moved to the trash (it did not exist before) (logged as ${log().get(made.id)?.reverted_by}).`,
    );
    await call(env.client, 'create_note', { path: 'Gone.md', content: 'gone\n' });
    await call(env.client, 'delete_note', { path: 'Gone.md', confirm: true });
    const deleted = newest();
    await fsp.writeFile(path.join(env.dir, 'Gone.md'), 'a new note of the user\n');
    await new Promise((r) => setTimeout(r, 300));
    expect((await revert(deleted.id)).message).toBe(
      `${deleted.id} was not reverted: 'Gone.md' is taken now, so nothing was put back there. Move or rename what is at 'Gone.md' now, then revert again.`,
    );
    await call(env.client, 'create_note', { path: 'Moved away.md', content: 'x\n' });
    const created = newest();
    await fsp.rm(path.join(env.dir, 'Moved away.md'));
    await new Promise((r) => setTimeout(r, 300));
    expect((await revert(created.id)).message).toBe(
      `${created.id} was not reverted: 'Moved away.md' is no longer there, so it was left as it is. If it was deleted, there is nothing left to revert; if it was moved or renamed, move it back and revert again.`,
    );
  });

  it('an agent sees only its own entries, without text of a note it may no longer see', async () => {
    await call(env.client, 'append_note', { path: 'Inbox.md', content: '- secret plan' });
    await call(env.client, 'append_note', { path: 'Ideas.md', content: '- open idea' });
    const other = await env.booted.plugin.keyRing.mint({ label: 'Cursor', mode: 'force' });
    const cursor = await connectClient(env.booted.url, other.token);
    try {
      await call(cursor, 'append_note', { path: 'Home.md', content: '- cursor line' });
      const mine = await call(env.client, 'proposal_status', { activity: true });
      expect(mine.total).toBe(2);
      expect(mine.activity.map((e: { path: string }) => e.path)).toEqual(['Ideas.md', 'Inbox.md']);
      expect(mine.activity[0].diff).toContain('+- open idea');
      await userEdit('Inbox.md', (t) => t.replace('tags: [inbox]', 'tags: [inbox]\naccess: private'));
      const later = await call(env.client, 'proposal_status', { activity: true });
      expect(later.activity[1]).toEqual({
        id: expect.any(String),
        at: expect.any(String),
        tool: 'append_note',
        kind: 'edit',
        via: 'agent',
        status: 'applied',
        hidden: 'Its note is no longer visible to this key.',
      });
      expect(JSON.stringify(later)).not.toContain('secret plan');
      expect(JSON.stringify(later)).not.toContain('cursor line');
      const theirs = await call(cursor, 'proposal_status', { activity: true });
      expect(theirs.activity.map((e: { path: string }) => e.path)).toEqual(['Home.md']);
      await revert(theirs.activity[0].id);
      expect(
        (await call(cursor, 'proposal_status', { activity: true })).activity.map(
          (e: { status: string; via: string }) => `${e.via} ${e.status}`,
        ),
      ).toEqual(['revert applied', 'agent reverted']);
      expect(await callError(env.client, 'proposal_status', { activity: true, id: 'p_1' })).toBe(
        'Give id or activity, not both: activity lists every change of yours.',
      );
      // A folder the user quarantines since: its note's entry is hidden too.
      await call(env.client, 'append_note', { path: 'Areas/Home/Garden plan.md', content: '- quarantined line' });
      env.booted.plugin.settings.access.quarantine = ['Areas'];
      const quarantined = await call(env.client, 'proposal_status', { activity: true });
      expect(quarantined.activity[0]).toMatchObject({ tool: 'append_note', hidden: 'Its note is no longer visible to this key.' });
      expect(JSON.stringify(quarantined)).not.toContain('quarantined line');
      env.booted.plugin.settings.access.quarantine = [];
      // Confined to a folder now: the note outside its roots is hidden too.
      await env.booted.plugin.keyRing.setRoots(env.booted.key.id, ['Projects']);
      const confined = await call(env.client, 'proposal_status', { activity: true });
      expect(confined.activity.map((e: { hidden?: string }) => e.hidden ?? 'shown')).toEqual(
        Array(3).fill('Its note is no longer visible to this key.'),
      );
      expect(JSON.stringify(confined)).not.toContain('open idea');
    } finally {
      await cursor.close();
    }
  });

  it("Obsidian's CLI handlers list, show and revert as the terminal does", async () => {
    await call(env.client, 'append_note', { path: 'Ideas.md', content: '- cli idea' });
    const id = newest().id;
    const cli = (name: string) => env.booted.app.cliHandlers.get(name)!.handler;
    expect(await cli('vault-mcp:activity')({})).toMatch(
      new RegExp(`^"Claude Code", session \\S+:\n {2}${id} .+ edit Ideas\\.md via append_note$`),
    );
    expect(await cli('vault-mcp:activity')({ id })).toContain('+- cli idea');
    expect(await cli('vault-mcp:revert')({})).toBe('Give exactly one of id=<entry id>, key=<label> or session=<session>.');
    expect(await cli('vault-mcp:revert')({ id, key: 'Claude Code' })).toBe(
      'Give exactly one of id=<entry id>, key=<label> or session=<session>.',
    );
    expect(await cli('vault-mcp:revert')({ id })).toMatch(new RegExp(`^Reverted ${id}: Ideas\\.md is as it was before`));
    expect(await read('Ideas.md')).not.toContain('- cli idea');
  });

  it('the terminal commands list by key and session, show a diff, and revert a session', async () => {
    await call(env.client, 'append_note', { path: 'Ideas.md', content: '- terminal idea' });
    await call(env.client, 'create_folder', { path: 'Made by agent' });
    const listed = (await runActivityCommand(env.booted.plugin, 'activity')) ?? '';
    const [header, ...rows] = listed.split('\n');
    expect(header).toMatch(/^"Claude Code", session \S+:$/);
    expect(rows).toEqual([
      expect.stringMatching(/^ {2}a_\w+ {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}new folder Made by agent via create_folder$/),
      expect.stringMatching(/edit Ideas\.md via append_note$/),
    ]);
    const shown = (await runActivityCommand(env.booted.plugin, `activity ${log().all()[1].id}`)) ?? '';
    expect(shown).toContain('  +- terminal idea');
    expect(await runActivityCommand(env.booted.plugin, 'revert')).toBe(
      'Usage: revert <entry id> | revert key "<label>" | revert session <session>',
    );
    expect(await runActivityCommand(env.booted.plugin, 'proposals')).toBeNull();
    const session = header.match(/session (\S+):/)?.[1] ?? '';
    expect(await runActivityCommand(env.booted.plugin, `revert session ${session}`)).toMatch(/\n2 of 2 reverted\.$/);
    expect(await exists('Made by agent')).toBe(false);
    expect(await runActivityCommand(env.booted.plugin, `revert session ${session}`)).toBe(
      'Nothing to revert: every change there is already reverted.',
    );
    expect(await runActivityCommand(env.booted.plugin, 'revert session nope')).toBe(
      'No activity in session nope; "activity" lists the sessions.',
    );
  });

  it("reverts an agent's delete of a note whose access rules name other keys, rules and all (F16)", async () => {
    const text = '---\nagent_overrides:\n  Cursor: read-only\n  Other: no-access\n---\n# Retro\n\nWhat went well.\n';
    await env.booted.app.vault.create('Retro.md', text);
    await call(env.client, 'delete_note', { path: 'Retro', confirm: true });
    expect(await exists('Retro.md')).toBe(false);
    const outcome = await revert(newest().id);
    expect(outcome).toMatchObject({
      reverted: true,
      message: expect.stringMatching(/: Retro\.md is back \(logged as a_[0-9a-f]{12}\)\.$/),
    });
    expect(await read('Retro.md')).toBe(text);
    // An agent still cannot add such rules itself.
    expect(
      await callError(env.client, 'create_note', { path: 'Sneaky', content: '---\nagent_overrides:\n  Cursor: no-access\n---\nx\n' }),
    ).toMatch(/agent_overrides/);
  });

  it('a force write that changes nothing logs nothing and says so (F6)', async () => {
    const before = log().all().length;
    const mtime = (await fsp.stat(path.join(env.dir, 'Ideas.md'))).mtimeMs;
    const outs = [
      await call(env.client, 'set_properties', { path: 'Ideas', properties: { status: 'collecting' } }),
      await call(env.client, 'set_properties', { path: 'Ideas', properties: { nonexistent: null } }),
      await call(env.client, 'edit_note', { path: 'Ideas', anchor: 'Loose ideas', op: 'replace', content: 'Loose ideas' }),
    ];
    for (const out of outs)
      expect(out).toMatchObject({ status: 'unchanged', path: 'Ideas.md', message: expect.stringContaining('nothing was written') });
    expect(log().all()).toHaveLength(before);
    expect((await fsp.stat(path.join(env.dir, 'Ideas.md'))).mtimeMs).toBe(mtime);
    await call(env.client, 'set_properties', { path: 'Ideas', properties: { status: 'active' } });
    expect(log().all()).toHaveLength(before + 1);
  });
});
