/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Plugin } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { PENDING_VIEW_TYPE, type PendingChangesView } from '../../../src/ui/review/pending-view';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { call } from '../../harness/edits/write-helpers';
import { waitUntil } from '../../harness/wait-until';

/** What the host's Plugin records for tests. */
type HostPluginRecords = Pick<Plugin, 'statusBarItems'>;

/**
 * A stale proposal waits for the user (docs/propose-mode.md): whatever made it stale (its note
 * deleted or renamed outside Obsidian, made private, its target taken, a delete's note edited, the
 * key revoked, a folder move's folder gone; found by the vault's events or by an accept the vault
 * refused), it stays in the terminal's `proposals`, the Pending view and the status-bar count, and
 * proposal_status gives no `resolved_at`, until `reject <id>` or `reject all …` dismisses it; it
 * is never accepted. Over the SDK client, the terminal commands (`npm start`'s standard input)
 * and the host's workspace.
 */
describe('stale proposals wait until the user rejects them', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const run = (line: string): Promise<string> => runReviewCommand(booted.plugin, line);
  const status = async (id: string): Promise<Record<string, unknown>> => (await call(client, 'proposal_status', { id })).proposal;
  const write = (p: string, text: string): Promise<void> => fsp.writeFile(nodePath.join(dir, p), text);
  const read = (p: string): Promise<string> => fsp.readFile(nodePath.join(dir, p), 'utf8');
  /** Polls the async `done` (proposal_status is a call) until it is true, at most 10 s. */
  const until = async (done: () => Promise<boolean>, what: string): Promise<void> => {
    for (const end = Date.now() + 10_000; !(await done()); await settle()) if (Date.now() > end) throw new Error(`waited 10 s for ${what}`);
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const statusBar = (): HTMLElement =>
    (booted.plugin as unknown as HostPluginRecords).statusBarItems.find((el) => el.hasClass('vault-mcp-pending-count'))!;
  const pendingTitle = async (): Promise<string | null | undefined> => {
    booted.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    const view = booted.app.workspace.getLeavesOfType(PENDING_VIEW_TYPE)[0].view as unknown as PendingChangesView;
    view.render();
    await settle();
    return view.contentEl.querySelector('.vault-mcp-pending-title')?.textContent;
  };

  /** Every listing shows `ids` stale (and nothing else open), proposal_status without resolved_at. */
  const expectWaitingStale = async (ids: string[]): Promise<void> => {
    const listed = (await run('proposals')).split('\n');
    expect(listed).toHaveLength(ids.length);
    for (const id of ids) expect(listed.find((l) => l.startsWith(id))).toMatch(new RegExp(`^${id}  stale  `));
    expect(statusBar().getText()).toBe(`${ids.length} pending change${ids.length === 1 ? '' : 's'}`);
    expect(await pendingTitle()).toBe(`${ids.length} pending change${ids.length === 1 ? '' : 's'} (${ids.length} stale)`);
    for (const id of ids) {
      const st = await status(id);
      expect(st.status).toBe('stale');
      expect(st.resolved_at).toBeUndefined();
      expect(typeof st.stale_reason).toBe('string');
    }
  };

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-stale-'));
    for (const folder of ['Areas/Health', 'Reference', 'Archive', 'Projects/Old'])
      await fsp.mkdir(nodePath.join(dir, folder), { recursive: true });
    await write('Areas/Health/Sleep.md', 'Sleep log\n');
    await write('Reference/Keyboard shortcuts.md', 'Ctrl+P: palette\n');
    await write('Archive/Old ideas.md', 'old\n');
    await write('Projects/Old/Plan.md', 'plan\n');
    await write('Journal.md', 'journal\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'propose', allowWrites: true, label: 'Cursor' });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.plugin.proposals.flush();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  test('notes deleted or renamed in a shell: the append and move proposals stay listed stale until reject dismisses them', async () => {
    const sleep = await call(client, 'append_note', { path: 'Areas/Health/Sleep', content: 'Slept 8h' });
    const keys = await call(client, 'append_note', { path: 'Reference/Keyboard shortcuts', content: 'Ctrl+O: open' });
    const move = await call(client, 'move_note', { path: 'Archive/Old ideas', to: 'Archive/Older ideas' });
    await fsp.rm(nodePath.join(dir, 'Areas/Health/Sleep.md'));
    await fsp.rename(nodePath.join(dir, 'Reference/Keyboard shortcuts.md'), nodePath.join(dir, 'Reference/Shortcuts.md'));
    await fsp.rm(nodePath.join(dir, 'Archive/Old ideas.md'));
    await booted.app.vault.syncFromDisk();
    const ids = [sleep.proposal_id, keys.proposal_id, move.proposal_id] as string[];
    // The store hears the deletes (a shell `mv` is a delete and a create to Obsidian) and marks them stale.
    await waitUntil(() => ids.every((id) => booted.plugin.proposals.get(id)?.status === 'stale'), 'the store to mark the three stale');
    await expectWaitingStale(ids);
    expect(await run(`show ${sleep.proposal_id}`)).toContain('(stale: only reject)');
    // Never accepted, even once the note is back as it was.
    await write('Areas/Health/Sleep.md', 'Sleep log\n');
    await booted.app.vault.syncFromDisk();
    expect(await run(`accept ${sleep.proposal_id}`)).toMatch(
      new RegExp(`^Proposal ${sleep.proposal_id} is stale and was not applied: .*Reject it`),
    );
    expect(await run(`accept ${sleep.proposal_id} 0`)).toMatch(/is stale and was not applied/);
    expect(await read('Areas/Health/Sleep.md')).toBe('Sleep log\n');
    await expectWaitingStale(ids);

    expect(await run(`reject ${sleep.proposal_id}`)).toBe(`Rejected proposal ${sleep.proposal_id}; it is now rejected.`);
    expect(await run('reject all note Reference/Keyboard shortcuts.md')).toContain(`Rejected proposal ${keys.proposal_id}`);
    expect(await run(`reject all key Cursor`)).toContain(`Rejected proposal ${move.proposal_id}`);
    expect(await run('proposals')).toBe('No pending changes.');
    expect(statusBar().getText()).toBe('');
    expect(await pendingTitle()).toBe('No pending changes');
    for (const id of ids) expect((await status(id)).status).toBe('rejected');
    expect(await run(`reject ${sleep.proposal_id}`)).toBe(`Proposal '${sleep.proposal_id}' is already rejected.`);
  });

  test('an accept refused (note made private or read-only, target taken, a deleted note edited, a folder gone) leaves each listed stale until the cause goes or it is rejected', async () => {
    const hidden = await call(client, 'append_note', { path: 'Journal', content: 'secret?' });
    const readOnly = await call(client, 'append_note', { path: 'Archive/Old ideas', content: 'newer idea' });
    const create = await call(client, 'create_note', { path: 'New', content: 'agent text\n' });
    const del = await call(client, 'delete_note', { path: 'Reference/Keyboard shortcuts', confirm: true });
    const folder = await call(client, 'move_note', { path: 'Projects/Old', to: 'Projects/Older' });
    await write('Journal.md', '---\naccess: private\n---\njournal\n');
    await write('Archive/Old ideas.md', '---\naccess: read-only\n---\nold\n');
    await write('New.md', 'the user wrote this\n');
    await write('Reference/Keyboard shortcuts.md', 'Ctrl+P: palette, edited\n');
    await fsp.rm(nodePath.join(dir, 'Projects/Old'), { recursive: true });
    await booted.app.vault.syncFromDisk();
    const ids = [hidden.proposal_id, readOnly.proposal_id, create.proposal_id, del.proposal_id, folder.proposal_id] as string[];
    for (const id of ids)
      expect(await run(`accept ${id}`)).toMatch(new RegExp(`^Proposal ${id} is stale and was not applied: .* Reject it to dismiss it`));
    await expectWaitingStale(ids);
    // The refusals are judged again, not kept: once the note is the key's again and the path free, those two read pending and apply.
    await write('Journal.md', 'journal\n');
    await fsp.rm(nodePath.join(dir, 'New.md'));
    await booted.app.vault.syncFromDisk();
    expect((await status(hidden.proposal_id as string)).status).toBe('pending');
    expect((await status(create.proposal_id as string)).stale_reason).toBeUndefined();
    const accepted = await run('accept all');
    expect(accepted).toContain(`Accepted 1 change of ${hidden.proposal_id}`);
    expect(accepted).toContain(`Accepted 1 change of ${create.proposal_id}`);
    expect(await read('Journal.md')).toBe('journal\nsecret?\n');
    expect(await read('New.md')).toBe('agent text\n');
    await expectWaitingStale([readOnly.proposal_id, del.proposal_id, folder.proposal_id] as string[]);
    const rejected = await run('reject all');
    for (const id of [readOnly.proposal_id, del.proposal_id, folder.proposal_id])
      expect(rejected).toContain(`Rejected proposal ${id}; it is now rejected.`);
    expect(await run('proposals')).toBe('No pending changes.');
  });

  test.each([
    ['listed only', false],
    ['after a refused accept', true],
  ])('a read-only rule removed (%s): the proposal reads pending again and applies, its reason always the current one', async (_, tried) => {
    const staged = await call(client, 'append_note', { path: 'Archive/Old ideas', content: 'newer idea' });
    const id = staged.proposal_id as string;
    await write('Archive/Old ideas.md', '---\naccess: read-only\n---\nold\n');
    await booted.app.vault.syncFromDisk();
    await until(async () => (await status(id)).status === 'stale', 'the rule to be read');
    expect((await status(id)).stale_reason).toMatch(/read-only/);
    if (tried) expect(await run(`accept ${id}`)).toMatch(/is stale and was not applied: .*read-only/);
    // Another rule: the reason follows it.
    await write('Archive/Old ideas.md', '---\naccess: private\n---\nold\n');
    await booted.app.vault.syncFromDisk();
    await until(async () => !/read-only/.test(String((await status(id)).stale_reason)), 'the new rule to be read');
    expect(await run('proposals')).toContain('was deleted or is no longer available to this key');
    if (tried) expect(await run(`accept ${id}`)).toMatch(/is stale and was not applied: the note 'Archive\/Old ideas.md' was deleted/);
    // No rule: pending, no reason, and the accept applies it.
    await write('Archive/Old ideas.md', 'old\n');
    await booted.app.vault.syncFromDisk();
    await until(async () => (await status(id)).status === 'pending', 'the rule to go');
    expect((await status(id)).stale_reason).toBeUndefined();
    expect(await run('proposals')).toMatch(
      new RegExp(`^${id}  pending  edit Archive/Old ideas.md  from "Cursor" via append_note, 1 of 1 hunks to review$`),
    );
    expect(await run(`accept ${id}`)).toBe(`Accepted 1 change of ${id} on Archive/Old ideas.md; it is now accepted.`);
    expect(await read('Archive/Old ideas.md')).toBe('old\nnewer idea\n');
  });

  test('a proposed change to one of two alike blocks is not applied to the other once the user deleted its own (verifier, HIGH 1)', async () => {
    const base = '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] water\n- [ ] feed\n';
    await write('Log.md', base);
    await booted.app.vault.syncFromDisk();
    const tick = await call(client, 'edit_note', {
      path: 'Log',
      anchor: '# Log\n---\n- [ ] water',
      op: 'replace',
      content: '# Log\n---\n- [x] water',
    });
    // The user deletes the first block (lines 2-4); the second, alike, stays: the diff sees it as the first.
    await write('Log.md', '# Log\n---\n- [ ] water\n- [ ] feed\n');
    await booted.app.vault.syncFromDisk();
    expect(await run(`accept ${tick.proposal_id}`)).toBe(
      `Nothing of ${tick.proposal_id} was applied: 1 change no longer applies to Log.md (the note changed there since it was proposed) and can only be rejected ("reject ${tick.proposal_id}"); it is stale.`,
    );
    expect(await fsp.readFile(nodePath.join(dir, 'Log.md'), 'utf8')).toBe('# Log\n---\n- [ ] water\n- [ ] feed\n');
    // Blocks that differ: the proposal still applies on the note the user changed elsewhere.
    await write('Log.md', '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [ ] sweep\n');
    await booted.app.vault.syncFromDisk();
    const again = await call(client, 'edit_note', { path: 'Log', anchor: '- [ ] water', op: 'replace', content: '- [x] water' });
    await write('Log.md', '# Log\n---\n- [ ] water\n- [ ] feed\n---\n- [x] sweep\n');
    await booted.app.vault.syncFromDisk();
    expect(await run(`accept ${again.proposal_id}`)).toMatch(/^Accepted/);
    expect(await fsp.readFile(nodePath.join(dir, 'Log.md'), 'utf8')).toBe('# Log\n---\n- [x] water\n- [ ] feed\n---\n- [x] sweep\n');
  });

  test("a revoked key's proposal stays listed stale after an accept refused it, and reject dismisses it", async () => {
    const staged = await call(client, 'append_note', { path: 'Journal', content: 'from a key about to go' });
    await booted.plugin.keyRing.mint({ label: 'Another client', mode: 'propose' });
    await booted.plugin.keyRing.revoke(booted.key.id);
    booted.plugin.review.accessChanged();
    // Listed before any accept with the revocation as its reason, not as a note deleted or closed to the key.
    const listedLine = await run('proposals');
    expect(listedLine).toContain("(The key 'Cursor' that proposed this change was revoked, so it cannot be applied.)");
    expect(listedLine).not.toContain('was deleted or is no longer available');
    expect(await run(`show ${staged.proposal_id}`)).toContain('was revoked');
    expect(await pendingTitle()).toBe('1 pending change (1 stale)');
    expect(booted.app.workspace.getLeavesOfType(PENDING_VIEW_TYPE)[0].view.containerEl.textContent).toContain('was revoked');
    expect(await run(`accept ${staged.proposal_id}`)).toMatch(
      /is stale and was not applied: the key 'Cursor' that proposed this change was revoked/,
    );
    expect(await run('proposals')).toMatch(new RegExp(`^${staged.proposal_id}  stale  append|^${staged.proposal_id}  stale  edit`));
    expect(statusBar().getText()).toBe('1 pending change');
    expect(booted.plugin.proposals.get(staged.proposal_id)?.resolved_at).toBeUndefined();
    expect(await run(`reject ${staged.proposal_id}`)).toBe(`Rejected proposal ${staged.proposal_id}; it is now rejected.`);
    expect(await read('Journal.md')).toBe('journal\n');
    expect(statusBar().getText()).toBe('');
  });
});
