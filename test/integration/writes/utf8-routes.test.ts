/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { MarkdownView, TFile } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import type { ProposalCaller } from '../../../src/proposals/store/proposal-store';
import type { WriteRequest } from '../../../src/vault/writes/write-types';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt } from '../../harness/edits/write-helpers';

/**
 * The UTF-8 round-trip refusal (issue 12.4) on the routes that do not write through
 * NoteWriter.writeExactText: a proposal accepted on a note open in the editor, and notes a
 * move rewrites for its link updates. A note whose bytes are not UTF-8 keeps its bytes.
 */
describe('non-UTF-8 notes on the editor accept route and under link updates', () => {
  const agent: ProposalCaller = { id: 'runkey', label: 'Claude Code', roots: [] };
  const latin = (text: string): Buffer => Buffer.from(text, 'latin1');
  let dir: string;
  let env: BootedPlugin<VaultMcpPlugin>;
  const disk = (p: string): Promise<Buffer> => fs.readFile(path.join(dir, p));

  async function boot(files: Record<string, string | Buffer>, mode: 'propose' | 'force'): Promise<void> {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-utf8-'));
    for (const [p, content] of Object.entries(files)) await fs.writeFile(path.join(dir, p), content);
    env = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, label: agent.label, mode, allowWrites: true });
  }
  afterEach(async () => {
    await env?.plugin.proposals.flush();
    await env?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  test('accepting on an open note whose file became Latin-1 is refused (stale, says why); the bytes stay', async () => {
    await boot({ 'Inbox.md': '# Inbox\n\n- one\n' }, 'propose');
    const scope = { label: agent.label, roots: [] };
    const stage = async (request: WriteRequest) => env.plugin.proposals.stage(await env.plugin.notes.writes.prepare(request, scope), agent);
    const proposal = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: '- two', ensureNewline: true });
    const file = env.app.vault.getFileByPath('Inbox.md') as TFile;
    const view = (await env.app.workspace.openNote(file)) as unknown as MarkdownView;
    expect(view.editor.getValue()).toBe('# Inbox\n\n- one\n');
    const bytes = latin('# Inbox caf\u00e9\n\n- one\n');
    await fs.writeFile(path.join(dir, 'Inbox.md'), bytes);
    // The editor shows the newer text (with a replacement character), as Obsidian reloads an open note changed on disk.
    view.editor.setValue('# Inbox caf\ufffd\n\n- one\n');
    const outcome = await env.plugin.review.accept(proposal.id);
    expect(outcome.applied).toBe(0);
    expect(outcome.proposal.status).toBe('stale');
    expect(JSON.stringify(outcome.proposal)).toMatch(/not UTF-8/);
    expect((await disk('Inbox.md')).equals(bytes)).toBe(true);
    expect(view.editor.getValue()).toBe('# Inbox caf\ufffd\n\n- one\n');
  });

  test('a move whose link updates would rewrite a Latin-1 note is refused, in force and propose mode, naming that note', async () => {
    const bytes = latin('See [[Target]] at the caf\u00e9.\n');
    await boot({ 'Target.md': '# Target\n', 'Latin.md': bytes }, 'force');
    const client = await connectClient(env.url, env.token);
    try {
      for (const args of [{ path: 'Target', to: 'Moved/Target' }]) {
        const out = await attempt(client, 'move_note', args);
        expect(out).toEqual({ ok: false, message: expect.stringMatching(/rewrite links in 'Latin\.md', which is not UTF-8 text/) });
      }
      expect((await disk('Latin.md')).equals(bytes)).toBe(true);
      expect((await disk('Target.md')).toString()).toBe('# Target\n');
      await env.plugin.keyRing.setMode('runkey', 'propose');
      const staged = await attempt(client, 'move_note', { path: 'Target', to: 'Moved/Target' });
      expect(staged).toEqual({ ok: false, message: expect.stringMatching(/not UTF-8 text/) });
    } finally {
      await client.close();
    }
  });

  test('a UTF-8 linker is still rewritten by the move', async () => {
    await boot({ 'Target.md': '# Target\n', 'Linker.md': 'See [[Target]] at the caf\u00e9.\n' }, 'force');
    const client = await connectClient(env.url, env.token);
    try {
      expect((await attempt(client, 'move_note', { path: 'Target', to: 'Moved/Target' })).ok).toBe(true);
      expect((await disk('Moved/Target.md')).toString()).toBe('# Target\n');
      expect(env.app.metadataCache.resolvedLinks['Linker.md']).toEqual({ 'Moved/Target.md': 1 });
    } finally {
      await client.close();
    }
  });

  test("move_note and delete_note of a Latin-1 note report the file's bytes (12), not its decoded text's UTF-8 size (14)", async () => {
    // 'caf\xe9 latin1\n': 12 bytes; read as UTF-8 the é byte becomes U+FFFD (3 bytes), so the text is 14.
    const bytes = latin('caf\u00e9 latin1\n');
    expect(bytes.length).toBe(12);
    await boot({ 'latin8.md': bytes, 'Plain.md': 'caf\u00e9\n' }, 'force');
    const client = await connectClient(env.url, env.token);
    try {
      const moved = await attempt(client, 'move_note', { path: 'latin8', to: 'latin8b' });
      expect(moved).toEqual({ ok: true, value: expect.objectContaining({ path: 'latin8b.md', size_before: 12, size_after: 12 }) });
      expect((await disk('latin8b.md')).equals(bytes)).toBe(true);
      const deleted = await attempt(client, 'delete_note', { path: 'latin8b', confirm: true });
      expect(deleted).toEqual({ ok: true, value: expect.objectContaining({ size_before: 12, size_after: 0 }) });
      // A UTF-8 note: its text's UTF-8 bytes, which are the file's (é is 2 bytes).
      const plain = await attempt(client, 'move_note', { path: 'Plain', to: 'Plain2' });
      expect(plain).toEqual({ ok: true, value: expect.objectContaining({ size_before: 6, size_after: 6 }) });
    } finally {
      await client.close();
    }
  });

  test('reverting the delete of a Latin-1 note refuses, pointing to the intact copy in the trash, and writes nothing (F11)', async () => {
    const bytes = latin('# Caf\u00e9 M\u00fcller\nPreis: 5\u0080\n');
    await boot({ 'latin1.md': bytes }, 'force');
    const scope = { label: agent.label, roots: [], actor: { keyId: 'runkey' } };
    await env.plugin.notes.writes.apply({ tool: 'delete_note', kind: 'delete', path: 'latin1.md' }, scope);
    const entry = env.plugin.activity.all()[0];
    expect(entry).toMatchObject({ kind: 'delete', path: 'latin1.md', undo: { not_utf8: true } });
    const outcome = await env.plugin.reverts.revert(entry.id);
    expect(outcome).toEqual({
      id: entry.id,
      reverted: false,
      message: `${entry.id} was not reverted: 'latin1.md' was not UTF-8 text, so the log could not keep its exact bytes and nothing was put back; restore it from the trash (the system trash, or the vault's .trash folder), where it is intact.`,
    });
    await expect(disk('latin1.md')).rejects.toThrow();
  });
});
