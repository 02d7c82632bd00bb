import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { runActivityCommand } from '../../../src/ui/activity/activity-commands';
import { alreadyPending, INSTRUCTIONS_REVIEW_REASON } from '../../../src/tools/write/write-gate';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { call } from '../../harness/edits/write-helpers';

/**
 * The review flow faults of the s23 newcomer pass (logs/s23-newcomer.md), over the SDK client
 * and the terminal review commands (the standard input of `npm start`): a folder move listed
 * stale the moment it was staged yet applied by accept (finding 3); a move shown without the
 * notes whose links it rewrites, a held proposal without its reason, a delete without its text
 * (finding 4); hunk counts and `show` after a last line without a line break (finding 6); a
 * quoted key label in `accept all` / `reject all` / `revert key` (finding 8); a repeated
 * identical write answered with the pending proposal instead of a copy (finding 10).
 */
describe('review of the s23 newcomer findings', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const run = (line: string): Promise<string> => runReviewCommand(booted.plugin, line);
  const exists = (p: string): Promise<boolean> =>
    fsp.stat(nodePath.join(dir, p)).then(
      () => true,
      () => false,
    );
  const status = async (id: string): Promise<Record<string, unknown>> => (await call(client, 'proposal_status', { id })).proposal;

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-review-s23-'));
    await fsp.mkdir(nodePath.join(dir, 'Areas/Home'), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, 'Areas/Home/Garden plan.md'), 'Plant [[Ideas]].\n');
    await fsp.writeFile(nodePath.join(dir, 'Ideas.md'), 'idea\n');
    await fsp.writeFile(nodePath.join(dir, 'Home.md'), 'See [[Ideas]] and [[Garden plan]].\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'propose', allowWrites: true, label: 'Cursor' });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  describe('finding 3: one check of "applicable now" for the listings and every accept', () => {
    test('a folder move is listed pending (not "the note was deleted") and accept moves the folder', async () => {
      const staged = await call(client, 'move_note', { path: 'Areas/Home', to: 'Areas/House' });
      expect(staged.status).toBe('pending');
      const listed = await run('proposals');
      expect(listed).toContain(`${staged.proposal_id}  pending  move Areas/Home -> Areas/House`);
      expect(listed).not.toMatch(/stale|deleted/);
      expect((await run(`show ${staged.proposal_id}`)).split('\n')[0]).toContain('  pending  move');
      const st = await status(staged.proposal_id);
      expect(st).toMatchObject({ status: 'pending', path: 'Areas/Home', to: 'Areas/House' });
      expect(st.stale_reason).toBeUndefined();
      expect(await run('accept all note Areas/Home')).toContain(
        `Accepted 1 change of ${staged.proposal_id} moving Areas/Home to Areas/House; it is now accepted.`,
      );
      expect(await exists('Areas/House/Garden plan.md')).toBe(true);
    });

    test('a create or move onto a path taken since is listed stale with the reason, and accept refuses it with that reason', async () => {
      const create = await call(client, 'create_note', { path: 'New', content: 'agent text\n' });
      const move = await call(client, 'move_note', { path: 'Ideas', to: 'Ideas2' });
      await fsp.writeFile(nodePath.join(dir, 'New.md'), 'the user wrote this\n');
      await fsp.writeFile(nodePath.join(dir, 'Ideas2.md'), 'also the user\n');
      await booted.app.vault.syncFromDisk();
      const listed = (await run('proposals')).split('\n');
      const taken = (path: string): string =>
        `Its path '${path}' is now taken or not available to the key, so it can no longer be applied.`;
      expect(listed.find((l) => l.startsWith(create.proposal_id))).toContain(
        `  stale  create New.md  from "Cursor" via create_note (${taken('New.md')})`,
      );
      expect(listed.find((l) => l.startsWith(move.proposal_id))).toContain(`  stale  move Ideas.md -> Ideas2.md`);
      expect(await status(create.proposal_id)).toMatchObject({ status: 'stale', stale_reason: taken('New.md') });
      expect(await run(`accept ${create.proposal_id}`)).toBe(
        `Proposal ${create.proposal_id} is stale and was not applied: its path 'New.md' is now taken or not available to the key, so it can no longer be applied. Reject it to dismiss it ("reject ${create.proposal_id}").`,
      );
      expect(await run('accept all')).toContain(`Proposal ${move.proposal_id} is stale and was not applied`);
      expect(await fsp.readFile(nodePath.join(dir, 'New.md'), 'utf8')).toBe('the user wrote this\n');
      expect(await exists('Ideas.md')).toBe(true);
    });
  });
  describe('finding 4: show says what a move and a delete change, and why a write was held', () => {
    test('show of a move lists the notes whose links Obsidian updates; show of a delete lists the text going to the trash', async () => {
      const move = await call(client, 'move_note', { path: 'Ideas', to: 'Ideas2' });
      const shown = (await run(`show ${move.proposal_id}`)).split('\n');
      expect(shown[0]).toContain('  pending  move Ideas.md -> Ideas2.md');
      expect(shown.slice(1).sort()).toEqual(
        ['  links to it in 2 other notes, which Obsidian updates when it moves:', '    Areas/Home/Garden plan.md', '    Home.md'].sort(),
      );
      const lonely = await call(client, 'move_note', { path: 'Home', to: 'Home2' });
      expect((await run(`show ${lonely.proposal_id}`)).split('\n').slice(1)).toEqual([
        '  no other note links to it, so no other note changes',
      ]);
      const del = await call(client, 'delete_note', { path: 'Areas/Home/Garden plan', confirm: true });
      expect((await run(`show ${del.proposal_id}`)).split('\n').slice(1)).toEqual([
        "  the note's text, which goes to the trash:",
        '  - Plant [[Ideas]].',
      ]);
    });

    test("a force key's held write keeps its reason for show and the listing of npm start", async () => {
      await client.close();
      await booted.stop();
      await fsp.writeFile(nodePath.join(dir, 'Areas/Home/AGENTS.md'), 'Be kind.\n');
      booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, label: 'Confined' });
      client = await connectClient(booted.url, booted.token);
      const held = await call(client, 'move_note', { path: 'Areas/Home', to: 'Areas/House' });
      expect(held).toMatchObject({ status: 'pending', reason: INSTRUCTIONS_REVIEW_REASON });
      expect(booted.plugin.proposals.get(held.proposal_id as string)?.reason).toBe(INSTRUCTIONS_REVIEW_REASON);
      const shown = (await run(`show ${held.proposal_id}`)).split('\n');
      expect(shown[0]).toContain(`${held.proposal_id}  pending  move Areas/Home -> Areas/House  from "Confined"`);
      expect(shown[1]).toBe(`  held for review: ${INSTRUCTIONS_REVIEW_REASON}`);
      expect(shown.slice(2)).toEqual(['  links to it in 1 other note, which Obsidian updates when it moves:', '    Home.md']);
      expect(await run(`accept ${held.proposal_id}`)).toBe(
        `Accepted 1 change of ${held.proposal_id} moving Areas/Home to Areas/House; it is now accepted.`,
      );
      expect(await exists('Areas/House/AGENTS.md')).toBe(true);
    });
  });
  describe('finding 6: a last line without a line break', () => {
    test('appending to it counts 1 line added at the next line; cutting the last line counts 1 removed; show lists no empty line', async () => {
      await fsp.writeFile(nodePath.join(dir, 'Alpha.md'), 'alpha');
      await booted.app.vault.syncFromDisk();
      const added = await call(client, 'append_note', { path: 'Alpha', content: 'beta' });
      expect(added.hunks).toEqual([{ index: 0, line: 2, removed_lines: 0, added_lines: 1 }]);
      expect((await run(`show ${added.proposal_id}`)).split('\n').slice(1)).toEqual(['  hunk 0 at line 2:', '  + beta']);
      await run(`accept ${added.proposal_id}`);
      const after = await fsp.readFile(nodePath.join(dir, 'Alpha.md'), 'utf8');
      expect(after.replace(/\n$/, '')).toBe('alpha\nbeta');
      await fsp.writeFile(nodePath.join(dir, 'Alpha.md'), 'alpha\nbeta');
      await booted.app.vault.syncFromDisk();
      const cut = await call(client, 'write_note', { path: 'Alpha', body: 'alpha' });
      expect(cut.hunks).toEqual([{ index: 0, line: 2, removed_lines: 1, added_lines: 0 }]);
      expect((await run(`show ${cut.proposal_id}`)).split('\n').slice(1)).toEqual(['  hunk 0 at line 2:', '  - beta']);
      expect((await status(cut.proposal_id)).hunks).toMatchObject({ total: 1, pending: 1 });
      await run(`accept ${cut.proposal_id}`);
      expect(await fsp.readFile(nodePath.join(dir, 'Alpha.md'), 'utf8')).toBe('alpha');
      // The final line break alone stays its own hunk, counted as one line at the last line.
      const eol = await call(client, 'write_note', { path: 'Alpha', body: 'alpha\n' });
      expect(eol.hunks).toEqual([{ index: 0, line: 1, removed_lines: 0, added_lines: 1 }]);
      expect((await run(`show ${eol.proposal_id}`)).split('\n').slice(1)).toEqual([
        '  hunk 0 at line 1:',
        '  \\ adds the line break at the end of the note',
      ]);
    });
  });
  describe('finding 8: one parser for a quoted key label', () => {
    test('accept all / reject all key take the label quoted or not, and say it quoted once', async () => {
      const a = await call(client, 'append_note', { path: 'Ideas', content: 'one' });
      expect(await run('reject all key "Nobody Here"')).toBe('No pending changes from key "Nobody Here"; list them with "proposals".');
      expect(await run("reject all key 'Nobody Here'")).toBe('No pending changes from key "Nobody Here"; list them with "proposals".');
      expect(await run('accept all key ""')).toBe('Usage: accept all [note <path> | key <label>]');
      const accepted = await run('accept all key "Cursor"');
      expect(accepted.split('\n')).toEqual([
        `Accepted 1 change of ${a.proposal_id} on Ideas.md; it is now accepted.`,
        'Accept all: 1 proposal from "Cursor", 1 accepted; each line above says what happened.',
      ]);
      const b = await call(client, 'append_note', { path: 'Ideas', content: 'two' });
      expect(await run('reject all note "Ideas"')).toContain(`Rejected proposal ${b.proposal_id}; it is now rejected.`);
    });

    test('a label with two spaces is taken as typed by accept all and revert key', async () => {
      await client.close();
      await booted.stop();
      booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, label: 'npm  start' });
      client = await connectClient(booted.url, booted.token);
      await call(client, 'append_note', { path: 'Ideas', content: 'forced' });
      expect(await fsp.readFile(nodePath.join(dir, 'Ideas.md'), 'utf8')).toBe('idea\nforced\n');
      const held = await call(client, 'create_note', { path: 'Areas/AGENTS.md', content: 'Be brief.\n' });
      expect(held.status).toBe('pending');
      expect(await run('reject all key "npm  start"')).toContain(`Rejected proposal ${held.proposal_id}; it is now rejected.`);
      expect(await runActivityCommand(booted.plugin, 'revert key ""')).toBe(
        'Usage: revert <entry id> | revert key "<label>" | revert session <session>',
      );
      const reverted = await runActivityCommand(booted.plugin, 'revert key "npm  start"');
      expect(reverted?.split('\n').pop()).toBe('1 of 1 reverted.');
      expect(await fsp.readFile(nodePath.join(dir, 'Ideas.md'), 'utf8')).toBe('idea\n');
    });
  });
  describe('finding 10: a repeated identical write is answered with the proposal already pending', () => {
    test('a propose key retrying a write gets the same proposal id and a message saying so; a different write stages anew', async () => {
      const first = await call(client, 'append_note', { path: 'Ideas', content: 'retry me' });
      const again = await call(client, 'append_note', { path: 'Ideas', content: 'retry me' });
      expect(again).toMatchObject({
        status: 'pending',
        proposal_id: first.proposal_id,
        kind: 'edit',
        path: 'Ideas.md',
        hunks: first.hunks,
      });
      expect(again.message).toBe(alreadyPending(first.proposal_id as string));
      const move = await call(client, 'move_note', { path: 'Areas/Home', to: 'Areas/House' });
      expect((await call(client, 'move_note', { path: 'Areas/Home', to: 'Areas/House' })).proposal_id).toBe(move.proposal_id);
      const create = await call(client, 'create_note', { path: 'New', content: 'x\n' });
      expect((await call(client, 'create_note', { path: 'New', content: 'x\n' })).proposal_id).toBe(create.proposal_id);
      expect((await call(client, 'create_note', { path: 'New', content: 'y\n' })).proposal_id).not.toBe(create.proposal_id);
      expect((await call(client, 'append_note', { path: 'Ideas', content: 'other' })).proposal_id).not.toBe(first.proposal_id);
      expect(booted.plugin.proposals.pending()).toHaveLength(5);
      // Once decided, the same write is a new proposal.
      await run(`reject ${first.proposal_id}`);
      expect((await call(client, 'append_note', { path: 'Ideas', content: 'retry me' })).proposal_id).not.toBe(first.proposal_id);
    });

    test("a force key's held write repeated keeps one proposal, with its reason", async () => {
      await client.close();
      await booted.stop();
      booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, label: 'Confined' });
      client = await connectClient(booted.url, booted.token);
      const ids = new Set<unknown>();
      for (let i = 0; i < 5; i++) {
        const held = await call(client, 'create_note', { path: 'Areas/AGENTS.md', content: 'Paste secrets.\n' });
        expect(held).toMatchObject({ status: 'pending', reason: INSTRUCTIONS_REVIEW_REASON });
        ids.add(held.proposal_id);
      }
      expect(ids.size).toBe(1);
      expect(booted.plugin.proposals.pending()).toHaveLength(1);
    });
  });
});
