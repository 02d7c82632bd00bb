import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { goneReason } from '../../../src/proposals/proposal-state';
import { secretIdForKey } from '../../../src/settings/key-record';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { call, callError, type Json } from '../../harness/edits/write-helpers';

/**
 * A proposal follows its note when the note is renamed; proposal_status must not tell the
 * proposing key where the note went when the key may not see it there (moved out of its roots,
 * or renamed and then made private): it shows the path the key proposed on and the reason a
 * deleted note gives, the same answer as for a deleted note. A rename the key may see still
 * shows the new path. Over HTTP with the official SDK client: a propose key confined to
 * `Projects` and a force key (the user's other agent) that moves the notes.
 */
describe('proposal_status names no path the key may not see', () => {
  const FORCE_TOKEN = 'force-token-0123456789abcdef';
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;
  let proposer: Client;
  let force: Client;

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'propose',
      roots: ['Projects'],
      allowWrites: true,
      label: 'Claude Code',
      secrets: { [secretIdForKey('force')]: FORCE_TOKEN },
      configure: (settings) => {
        settings.keys.push({
          id: 'force',
          label: 'Editor',
          mode: 'force',
          scope: 'local',
          roots: [],
          created_at: new Date().toISOString(),
          last_used_at: null,
        });
      },
    });
    proposer = await connectClient(booted.url, booted.token);
    force = await connectClient(booted.url, FORCE_TOKEN);
  });

  afterEach(async () => {
    await proposer.close();
    await force.close();
    await booted.stop();
    await copy.cleanup();
  });

  /** Waits until the store's copy of proposal `id` is on `at` (it follows the rename event). */
  const followed = async (id: string, at: string): Promise<void> => {
    for (let i = 0; i < 200 && booted.plugin.proposals.get(id)?.path !== at; i++) await new Promise((r) => setTimeout(r, 25));
    expect(booted.plugin.proposals.get(id)?.path).toBe(at);
  };
  /** proposal_status for one id, and its whole answer as the client received it (text and structured). */
  const status = async (id: string): Promise<{ proposal: Json; raw: string }> => {
    const result = await proposer.callTool({ name: 'proposal_status', arguments: { id } });
    expect(result.isError).toBeFalsy();
    return { proposal: (result.structuredContent as Json).proposal as Json, raw: JSON.stringify(result) };
  };
  const listing = async (): Promise<string> => JSON.stringify(await proposer.callTool({ name: 'proposal_status', arguments: {} }));
  /** A summary without what differs between two proposals by nature (id, time, path). */
  const shape = (p: Json): Json => {
    const { id: _id, created_at: _at, path: _path, stale_reason: reason, ...rest } = p;
    return { ...rest, stale_reason: String(reason).replace(String(p.path), '<path>') };
  };
  /** The user edits a note in Obsidian and the metadata cache has parsed it (access rules are read from it). */
  const userEdit = async (p: string, edit: (text: string) => string): Promise<void> => {
    const file = booted.app.vault.getFileByPath(p);
    if (!file) throw new Error(`no ${p}`);
    const parsed = new Promise<void>((resolve) => {
      const ref = booted.app.metadataCache.on('changed', (changed) => {
        if (changed.path !== p) return;
        booted.app.metadataCache.offref(ref);
        resolve();
      });
    });
    await booted.app.vault.process(file, edit);
    await parsed;
  };

  test('a note moved out of the key’s roots: the staged path and the deleted note’s reason, even after the user accepts', async () => {
    const staged = await call(proposer, 'append_note', { path: 'Projects/Alpha/Design decisions', content: '- Decision: go' });
    expect(staged.path).toBe('Projects/Alpha/Design decisions.md');
    const doomed = await call(proposer, 'append_note', { path: 'Projects/Alpha/Risks', content: '- Risk: none' });
    await call(force, 'move_note', { path: 'Projects/Alpha/Design decisions', to: 'Areas/Health/HIV test results' });
    await followed(staged.proposal_id, 'Areas/Health/HIV test results.md');
    await call(force, 'delete_note', { path: 'Projects/Alpha/Risks', confirm: true });
    for (let i = 0; i < 200 && booted.plugin.proposals.get(doomed.proposal_id)?.status !== 'stale'; i++)
      await new Promise((r) => setTimeout(r, 25));

    // The key itself may not read the new place: read_note refuses it.
    expect(await callError(proposer, 'read_note', { path: 'Areas/Health/HIV test results' })).toMatch(/outside/);

    const moved = await status(staged.proposal_id);
    expect(moved.raw).not.toMatch(/HIV|Areas/);
    expect(moved.proposal).toMatchObject({
      path: 'Projects/Alpha/Design decisions.md',
      status: 'stale',
      stale_reason: goneReason('Projects/Alpha/Design decisions.md'),
    });
    // The same answer as for a note deleted where the key proposed on it.
    const deleted = await status(doomed.proposal_id);
    expect(deleted.proposal).toMatchObject({ path: 'Projects/Alpha/Risks.md', status: 'stale' });
    expect(shape(moved.proposal)).toEqual(shape(deleted.proposal));
    expect(await listing()).not.toMatch(/HIV|Areas/);

    // The user sees where it went; accepting it there fails (outside the key's roots) and the
    // reason kept for the user names the new place, which the key is still not told.
    expect(await runReviewCommand(booted.plugin, 'proposals')).toContain('Areas/Health/HIV test results.md');
    expect(await runReviewCommand(booted.plugin, `accept ${staged.proposal_id}`)).toMatch(/stale/);
    // Judged again at each listing (docs/propose-mode.md), so the store keeps it pending; every listing reads it stale.
    expect(booted.plugin.proposals.get(staged.proposal_id)?.status).toBe('pending');
    expect(await runReviewCommand(booted.plugin, 'proposals')).toMatch(new RegExp(`^${staged.proposal_id}  stale  `));
    const after = await status(staged.proposal_id);
    expect(after.raw).not.toMatch(/HIV|Areas/);
    expect(shape(after.proposal)).toEqual(shape(deleted.proposal));
    expect(await listing()).not.toMatch(/HIV|Areas/);
  });

  test('a note renamed inside the roots shows its new name until it is made private, then the staged path', async () => {
    const staged = await call(proposer, 'append_note', { path: 'Projects/Beta/Meeting notes', content: '- Next: budget' });
    await call(force, 'move_note', { path: 'Projects/Beta/Meeting notes', to: 'Projects/Beta/Acquisition talks with Acme' });
    await followed(staged.proposal_id, 'Projects/Beta/Acquisition talks with Acme.md');

    // A rename the key may see: the new name, still pending, its hunk still applies.
    expect((await status(staged.proposal_id)).proposal).toMatchObject({
      path: 'Projects/Beta/Acquisition talks with Acme.md',
      status: 'pending',
      hunks: { total: 1, pending: 1, stale: 0 },
    });
    expect(await listing()).toContain('Projects/Beta/Acquisition talks with Acme.md');

    await userEdit('Projects/Beta/Acquisition talks with Acme.md', (t) => t.replace('---\n', '---\naccess: private\n'));
    expect(await callError(proposer, 'read_note', { path: 'Projects/Beta/Acquisition talks with Acme' })).toMatch(/not found/);
    const hidden = await status(staged.proposal_id);
    expect(hidden.raw).not.toMatch(/Acquisition|Acme/);
    expect(hidden.proposal).toEqual({
      id: staged.proposal_id,
      tool: 'append_note',
      kind: 'edit',
      path: 'Projects/Beta/Meeting notes.md',
      status: 'stale',
      created_at: expect.any(String),
      hunks: { total: 1, accepted: 0, rejected: 0, pending: 0, stale: 1 },
      stale_reason: goneReason('Projects/Beta/Meeting notes.md'),
    });
    expect(await listing()).not.toMatch(/Acquisition|Acme/);

    // Open again: the key sees the note, and its new name, again.
    await userEdit('Projects/Beta/Acquisition talks with Acme.md', (t) => t.replace('access: private\n', ''));
    expect((await status(staged.proposal_id)).proposal).toMatchObject({
      path: 'Projects/Beta/Acquisition talks with Acme.md',
      status: 'pending',
    });
  });

  test('a proposal from a file written before the staged path was kept names no path once its note is hidden', async () => {
    const staged = await call(proposer, 'append_note', { path: 'Projects/Alpha/Alpha overview', content: '- Went well' });
    delete booted.plugin.proposals.get(staged.proposal_id)?.staged_path;
    // The user renames it in Obsidian (a force key may not: notes it may not change link to it).
    const file = booted.app.vault.getFileByPath('Projects/Alpha/Alpha overview.md');
    if (!file) throw new Error('no Alpha overview');
    await booted.app.fileManager.renameFile(file, 'Personal/Layoffs.md');
    await followed(staged.proposal_id, 'Personal/Layoffs.md');
    const hidden = await status(staged.proposal_id);
    expect(hidden.raw).not.toMatch(/Layoffs|Personal/);
    expect(hidden.proposal.path).toBeUndefined();
    expect(hidden.proposal).toMatchObject({ status: 'stale', stale_reason: goneReason(undefined) });
  });
});
