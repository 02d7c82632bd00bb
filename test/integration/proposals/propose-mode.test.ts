import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { secretIdForKey } from '../../../src/settings/key-record';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { call, callError, type Json } from '../../harness/edits/write-helpers';

/**
 * Propose mode end to end: an agent with a propose key (the default) stages through the
 * official SDK client over HTTP; the user accepts in the host; the agent sees the outcome.
 */
describe('propose mode over MCP', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin> | null = null;

  const disk = (p: string): Promise<string> => fs.readFile(path.join(copy.dir, p), 'utf8');
  const boot = async (): Promise<BootedPlugin<VaultMcpPlugin>> => {
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'propose',
      allowWrites: true,
      label: 'Claude Code',
      token: 'propose-test-token-0123456789',
    });
    return booted;
  };

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
  });

  afterEach(async () => {
    await booted?.stop();
    booted = null;
    await copy.cleanup();
  });

  test('stage → pending (note untouched) → restart → accept → proposal_status says accepted and the note changed', async () => {
    let env = await boot();
    let client = await connectClient(env.url, env.token);
    const before = await disk('Inbox.md');
    const staged = await call(client, 'edit_note', {
      path: 'Inbox',
      anchor: 'Renew the library card',
      op: 'replace',
      content: 'Renew the library card online',
    });
    expect(staged).toMatchObject({
      status: 'pending',
      kind: 'edit',
      path: 'Inbox.md',
      hunks: [{ index: 0, line: 9, removed_lines: 1, added_lines: 1 }],
    });
    expect(staged.message).toMatch(/unchanged until they accept/);
    expect(await disk('Inbox.md')).toBe(before);
    expect((await call(client, 'proposal_status', { id: staged.proposal_id })).proposal).toMatchObject({
      status: 'pending',
      hunks: { total: 1, pending: 1 },
    });
    await client.close();
    await env.stop();

    env = await boot();
    client = await connectClient(env.url, env.token);
    expect(env.plugin.proposals.pending().map((p) => p.id)).toEqual([staged.proposal_id]);
    const answer = await runReviewCommand(env.plugin, `accept ${staged.proposal_id}`);
    expect(answer).toMatch(/^Accepted 1 change of p_\w+ on Inbox.md; it is now accepted\.$/);
    expect(await disk('Inbox.md')).toBe(before.replace('Renew the library card', 'Renew the library card online'));
    const status = (await call(client, 'proposal_status', {})).proposals as Json[];
    expect(status).toEqual([
      expect.objectContaining({
        id: staged.proposal_id,
        status: 'accepted',
        hunks: { total: 1, accepted: 1, rejected: 0, pending: 0, stale: 0 },
      }),
    ]);
    await client.close();
  });

  test('every write tool stages for a propose key and nothing is written until accepted', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const vaultFiles = async (): Promise<string[]> =>
      (await fs.readdir(copy.dir, { recursive: true })).filter((f) => !f.startsWith('.obsidian/plugins'));
    const listing = await vaultFiles();
    const ideas = await disk('Ideas.md');
    const calls: Array<[string, Json]> = [
      ['create_note', { path: 'Drafts/Plan', content: '# Plan\n' }],
      ['write_note', { path: 'Ideas', body: 'Rewritten\n' }],
      ['append_note', { path: 'Ideas', content: 'more' }],
      ['set_properties', { path: 'Ideas', properties: { status: 'draft' } }],
      ['move_note', { path: 'Ideas', to: 'Archive/Ideas' }],
      ['delete_note', { path: 'Reading list', confirm: true }],
      ['create_folder', { path: 'Later' }],
    ];
    for (const [name, args] of calls)
      expect(await call(client, name, args)).toMatchObject({ status: 'pending', proposal_id: expect.stringMatching(/^p_/) });
    expect(await vaultFiles()).toEqual(listing);
    expect(await disk('Ideas.md')).toBe(ideas);
    expect(env.plugin.proposals.pending().map((p) => p.kind)).toEqual(['create', 'edit', 'edit', 'properties', 'move', 'delete', 'folder']);
    await client.close();
  });

  test('staging checks what force mode checks: access rules and expected_hash refuse with nothing staged', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    expect(await callError(client, 'append_note', { path: 'Projects/Alpha/Budget', content: 'x' })).toMatch(/read-only/);
    expect(await callError(client, 'append_note', { path: 'Inbox', content: 'x', expected_hash: '0'.repeat(64) })).toMatch(
      /changed since you read it/,
    );
    expect(await callError(client, 'set_properties', { path: 'Inbox', properties: { access: 'read-write' } })).toMatch(/Only the user may/);
    expect(env.plugin.proposals.all()).toEqual([]);
    await client.close();
  });

  test('property proposals: a comment on the changed line is kept once accepted; deleting a property only a merge key gives stages nothing', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const commented = '---\nstatus: draft  # todo\n---\nbody\n';
    const merged = '---\nbase: &b {status: draft}\n<<: *b\n---\nbody\n';
    await fs.writeFile(path.join(copy.dir, 'Commented.md'), commented);
    await fs.writeFile(path.join(copy.dir, 'Merged.md'), merged);
    await env.app.vault.syncFromDisk();
    await env.app.metadataCache.whenResolved();
    for (const [tool, args] of [
      ['set_properties', { path: 'Merged', properties: { status: null } }],
      ['write_note', { path: 'Merged', frontmatter_patch: { status: null } }],
    ] as const) {
      expect(await callError(client, tool, args)).toMatch(
        /^Nothing was changed in 'Merged.md': the YAML merge key `<<: \*b` gives 'status', so the note would still show it/,
      );
    }
    expect(env.plugin.proposals.all()).toEqual([]);
    const staged = await call(client, 'set_properties', { path: 'Commented', properties: { status: 'done' } });
    expect(staged).toMatchObject({ status: 'pending', kind: 'properties' });
    expect(await disk('Commented.md')).toBe(commented);
    expect(await runReviewCommand(env.plugin, `accept ${staged.proposal_id}`)).toMatch(/^Accepted/);
    expect(await disk('Commented.md')).toBe('---\nstatus: done  # todo\n---\nbody\n');
    await client.close();
  });

  test("proposal_status shows a key its own proposals only, never another key's", async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const mine = await call(client, 'append_note', { path: 'Inbox', content: 'mine' });
    const other = {
      id: 'other',
      label: 'Cursor',
      mode: 'propose' as const,
      scope: 'local' as const,
      roots: [],
      created_at: new Date().toISOString(),
      last_used_at: null,
    };
    env.plugin.settings.keys.push(other);
    env.app.secretStorage.setSecret(secretIdForKey(other.id), 'cursor-token-0123456789abcdef');
    const cursor = await connectClient(env.url, 'cursor-token-0123456789abcdef');
    const theirs = await call(cursor, 'append_note', { path: 'Inbox', content: 'theirs' });
    expect(((await call(client, 'proposal_status', {})).proposals as Json[]).map((p) => p.id)).toEqual([mine.proposal_id]);
    expect(await callError(client, 'proposal_status', { id: theirs.proposal_id })).toMatch(/No proposal .* from this key/);
    // A write to a note the key's own create proposal would make names that proposal (newcomer finding: "did you
    // mean" another note); another key's pending create is no hint for this one.
    const created = await call(client, 'create_note', { path: 'Drafts/Seq.md', content: 'first\n' });
    expect(await callError(client, 'append_note', { path: 'drafts/seq', content: 'x' })).toBe(
      `Note 'Drafts/Seq.md' does not exist yet: your proposal ${created.proposal_id} to create it waits for the user's review; once it is accepted (proposal_status says when), this change can be made.`,
    );
    await call(cursor, 'create_note', { path: 'Drafts/Other.md', content: 'theirs\n' });
    expect(await callError(client, 'append_note', { path: 'Drafts/Other', content: 'x' })).toMatch(/^Note 'Drafts\/Other' not found/);
    expect(
      env.plugin.proposals
        .reviewHunks('Inbox.md', await disk('Inbox.md'))
        .map((h) => h.keyLabel)
        .sort(),
    ).toEqual(['Claude Code', 'Cursor']);
    await cursor.close();
    await client.close();
  });

  test('the terminal review commands list, show, reject, and answer mistakes with a sentence', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const staged = await call(client, 'append_note', { path: 'Inbox', content: '- [ ] New task' });
    expect(await runReviewCommand(env.plugin, 'proposals')).toMatch(
      new RegExp(`^${staged.proposal_id}  pending  edit Inbox.md  from "Claude Code" via append_note, 1 of 1 hunks to review$`),
    );
    expect(await runReviewCommand(env.plugin, `show ${staged.proposal_id}`)).toContain('  + - [ ] New task');
    expect(await runReviewCommand(env.plugin, 'accept nope')).toMatch(/No proposal 'nope'/);
    // A huge typed id is quoted cut, as every echoed input is (it was echoed whole: 5,123 characters).
    const long = await runReviewCommand(env.plugin, `accept ${'x'.repeat(5000)}`);
    expect(long).toMatch(new RegExp(`^No proposal '${'x'.repeat(80)}…';`));
    expect(long.length).toBeLessThan(300);
    expect(await runReviewCommand(env.plugin, `accept ${staged.proposal_id} x`)).toMatch(/^Usage: accept <proposal id> \[hunk number\]/);
    expect(await runReviewCommand(env.plugin, 'frobnicate')).toMatch(/Unknown command 'frobnicate'/);
    // An unknown command too (a 5,000,000-character line was echoed whole; newcomer finding, session 39).
    const unknown = await runReviewCommand(env.plugin, 'y'.repeat(100_000));
    expect(unknown).toMatch(new RegExp(`^Unknown command '${'y'.repeat(80)}…'\\.`));
    expect(unknown.length).toBeLessThan(1000);
    expect(await runReviewCommand(env.plugin, `reject ${staged.proposal_id}`)).toMatch(/Rejected proposal .* it is now rejected/);
    expect(await runReviewCommand(env.plugin, 'proposals')).toBe('No pending changes.');
    expect((await call(client, 'proposal_status', { id: staged.proposal_id })).proposal).toMatchObject({ status: 'rejected' });
    // A create whose path got taken meanwhile: one sentence, the same state as proposal_status.
    const create = await call(client, 'create_note', { path: 'Projects/Fresh.md', content: 'new' });
    await fs.writeFile(path.join(copy.dir, 'Projects', 'Fresh.md'), 'taken by the user');
    for (let i = 0; i < 200 && !env.app.vault.getAbstractFileByPath('Projects/Fresh.md'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(await runReviewCommand(env.plugin, `accept ${create.proposal_id} 2`)).toMatch(
      /is a create, which has no hunks; accept it whole\.$/,
    );
    expect(await runReviewCommand(env.plugin, `accept ${create.proposal_id} 99999999999999999999`)).toBe(
      `Hunk 99999999999999999999 is out of range for proposal ${create.proposal_id}: it has no hunks, so accept or reject it whole (see "show ${create.proposal_id}").`,
    );
    expect(await runReviewCommand(env.plugin, `accept ${create.proposal_id}`)).toBe(
      `Proposal ${create.proposal_id} is stale and was not applied: its path 'Projects/Fresh.md' is now taken or not available to the key, so it can no longer be applied. Reject it to dismiss it ("reject ${create.proposal_id}").`,
    );
    expect((await call(client, 'proposal_status', { id: create.proposal_id })).proposal).toMatchObject({ status: 'stale' });
    expect(await disk('Projects/Fresh.md')).toBe('taken by the user');
    await client.close();
  });

  test('accepting a delete or a move from the terminal applies it and reports it accepted, not stale', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const deletion = await call(client, 'delete_note', { path: 'Reading list', confirm: true });
    const move = await call(client, 'move_note', { path: 'Ideas', to: 'Archive/Ideas moved' });
    expect(await runReviewCommand(env.plugin, `accept ${deletion.proposal_id}`)).toMatch(/it is now accepted/);
    expect(await runReviewCommand(env.plugin, `accept ${move.proposal_id}`)).toMatch(/it is now accepted/);
    await env.plugin.proposals.flush();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(fs.access(path.join(copy.dir, 'Reading list.md'))).rejects.toThrow();
    expect(await disk('Archive/Ideas moved.md')).toMatch(/\S/);
    for (const id of [deletion.proposal_id, move.proposal_id]) {
      expect((await call(client, 'proposal_status', { id })).proposal).toMatchObject({ status: 'accepted' });
    }
    await client.close();
  });

  test('CLI handlers vault-mcp:proposals / accept / reject are registered and work', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const staged = await call(client, 'append_note', { path: 'Inbox', content: 'via cli' });
    const cli = env.app.cliHandlers;
    expect(await cli.get('vault-mcp:proposals')!.handler({})).toContain(String(staged.proposal_id));
    expect(await cli.get('vault-mcp:accept')!.handler({ id: String(staged.proposal_id), hunk: 'two' })).toMatch(/whole number/);
    expect(await cli.get('vault-mcp:accept')!.handler({ id: String(staged.proposal_id) })).toMatch(/^Accepted 1 change/);
    expect((await disk('Inbox.md')).endsWith('via cli\n')).toBe(true);
    await client.close();
  });

  test('proposal_status and the terminal tell stale from pending, count each hunk once, and say the same for a deleted or a private note', async () => {
    const env = await boot();
    const client = await connectClient(env.url, env.token);
    const staged = await call(client, 'edit_note', { path: 'Inbox', anchor: 'Renew the library card', op: 'replace', content: 'Renew it' });
    const other = await call(client, 'append_note', { path: 'Ideas', content: 'x' });
    const doomed = await call(client, 'append_note', { path: 'Reading list', content: 'y' });
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
    };
    await fs.writeFile(
      path.join(copy.dir, 'Inbox.md'),
      (await disk('Inbox.md')).replace('Renew the library card', 'Renew the library card today'),
    );
    await fs.writeFile(path.join(copy.dir, 'Ideas.md'), `---\naccess: private\n---\n${await disk('Ideas.md')}`);
    await fs.rm(path.join(copy.dir, 'Reading list.md'));
    const status = async (id: unknown) => (await call(client, 'proposal_status', { id })).proposal as Json;
    await until(
      async () =>
        (await status(doomed.proposal_id)).status === 'stale' &&
        (await status(other.proposal_id)).status === 'stale' &&
        (await status(staged.proposal_id)).status === 'stale',
    );
    expect(await status(staged.proposal_id)).toMatchObject({
      status: 'stale',
      hunks: { total: 1, accepted: 0, rejected: 0, pending: 0, stale: 1 },
    });
    const privateOne = await status(other.proposal_id);
    const deletedOne = await status(doomed.proposal_id);
    expect(privateOne.stale_reason.replace('Ideas.md', 'X')).toBe(deletedOne.stale_reason.replace('Reading list.md', 'X'));
    expect(privateOne.hunks).toEqual(deletedOne.hunks);
    const listing = await runReviewCommand(env.plugin, 'proposals');
    expect(listing).toMatch(new RegExp(`${staged.proposal_id}  stale  edit Inbox.md .* 0 of 1 hunks to review, 1 stale`));
    // The stale hunk's line is the one it had when proposed (the note changed there): said so, not read as a line of the note now.
    expect(await runReviewCommand(env.plugin, `show ${staged.proposal_id}`)).toMatch(
      /\n {2}hunk 0 at line \d+ when proposed \(stale: only reject\):\n/,
    );
    expect(await runReviewCommand(env.plugin, `accept ${staged.proposal_id} 0x0`)).toMatch(/^Usage: accept/);
    expect(await runReviewCommand(env.plugin, `accept ${staged.proposal_id} 99999999999999999999`)).toBe(
      `Hunk 99999999999999999999 is out of range for proposal ${staged.proposal_id}: its hunks are numbered 0 to 0 (see "show ${staged.proposal_id}").`,
    );
    expect(await runReviewCommand(env.plugin, `reject ${staged.proposal_id} 3`)).toMatch(
      /^Hunk 3 is out of range for proposal p_\w+: its hunks are numbered 0 to 0/,
    );
    // Accepting what no longer applies says the state show and proposal_status say: stale.
    expect(await runReviewCommand(env.plugin, `accept ${staged.proposal_id}`)).toBe(
      `Nothing of ${staged.proposal_id} was applied: 1 change no longer applies to Inbox.md (the note changed there since it was proposed) and can only be rejected ("reject ${staged.proposal_id}"); it is stale.`,
    );
    expect(await runReviewCommand(env.plugin, `show ${staged.proposal_id}`)).toMatch(
      new RegExp(`^${staged.proposal_id}  stale  edit Inbox.md`),
    );
    expect(await status(staged.proposal_id)).toMatchObject({ status: 'stale' });
    expect(await runReviewCommand(env.plugin, 'proposals now')).toBe('Usage: proposals (no arguments)');
    await client.close();
  });
});
