import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { MAX_RULE_FILES, MAX_RULE_FOLDERS } from '../../../src/vault/instructions/instruction-places';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { call, callError, type Json } from '../../harness/edits/write-helpers';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const widget = (body: string): string =>
  '<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">' +
  JSON.stringify({ name: 'Board', description: 'A board', query: 'WHERE status exists SORT file.path' }) +
  `</script></head><body>${body}</body></html>`;

/**
 * Claude Code loads the vault root's `.claude/CLAUDE.md` and every `.md` below `.claude/rules/`
 * as project memory, and expands their `@path` imports (code.claude.com, "Manage Claude's
 * memory"). No note tool reaches a dot-name, but the notes those files import are reachable, so a
 * force key's write to one is staged for review like an import of a vault `CLAUDE.md` (F5), and
 * the dot-folder files (and every importing file) are looked at on disk at each force write, since
 * no vault event comes for a dot-folder and a change on disk may come before its event (F7).
 */
describe('files the dot-folder memory files import are held for review even for a force key', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let dir: string;
  let cleanup: () => Promise<void>;
  const outside: string[] = [];

  const disk = (p: string): Promise<string | null> => fsp.readFile(nodePath.join(dir, p), 'utf8').catch(() => null);
  const put = async (root: string, files: Record<string, string>): Promise<void> => {
    for (const [path, text] of Object.entries(files)) {
      await fsp.mkdir(nodePath.dirname(nodePath.join(root, path)), { recursive: true });
      await fsp.writeFile(nodePath.join(root, path), text);
    }
  };
  const boot = async (prepare: (vault: string) => Promise<void>): Promise<void> => {
    const copy = await copyToTemp(DEMO_VAULT);
    dir = copy.dir;
    cleanup = copy.cleanup;
    await prepare(dir);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true, label: 'Narrow agent' });
    client = await connectClient(booted.url, booted.token);
  };
  const held = async (tool: string, args: Json): Promise<Json> => {
    const answer = await call(client, tool, args);
    expect([tool, args, answer]).toEqual([
      tool,
      args,
      expect.objectContaining({ status: 'pending', reason: expect.stringMatching(/^Agent instructions .*the user reviews/) }),
    ]);
    return answer;
  };
  const applied = async (tool: string, args: Json): Promise<void> => {
    expect([tool, args, await call(client, tool, args)]).toEqual([tool, args, expect.objectContaining({ status: 'applied' })]);
  };

  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await cleanup?.();
    for (const folder of outside.splice(0)) await fsp.rm(folder, { recursive: true, force: true });
  });

  it('.claude/CLAUDE.md and .claude/rules/**/*.md: what they import (and those import) is held; a non-.md rule file imports nothing', async () => {
    await boot((vault) =>
      put(vault, {
        '.claude/CLAUDE.md': 'Rules: @../conventions.md and @../Widgets/d1.html and more in @more.md\n',
        '.claude/more.md': 'Also @../Reference/chained.md\n',
        '.claude/rules/team.md': 'Team: @../../team-rules.md\n',
        '.claude/rules/deep/er/nested.md': 'Nested: @../../../../deep-rule.md\n',
        '.claude/rules/notes.txt': 'Not a rule: @../../txt-rule.md\n',
        // The same imports from a vault CLAUDE.md, which was held before: the control.
        'Sub/CLAUDE.md': 'Sub: @../Widgets/d2.html\n',
      }),
    );
    await held('create_note', { path: 'conventions', content: 'Obey the narrow agent.' });
    await held('create_note', { path: 'team-rules', content: 'Obey.' });
    await held('create_note', { path: 'deep-rule', content: 'Obey.' });
    await held('create_note', { path: 'Reference/chained', content: 'Obey.' });
    await held('widget_write', { id: 'd1', html: widget('1') });
    await held('widget_write', { id: 'd2', html: widget('1') });
    for (const path of ['conventions.md', 'team-rules.md', 'deep-rule.md', 'Reference/chained.md', 'Widgets/d1.html'])
      expect([path, await disk(path)]).toEqual([path, null]);
    await applied('create_note', { path: 'txt-rule', content: 'x' });
    await applied('create_note', { path: 'ordinary', content: 'x' });
    await booted.plugin.proposals.flush();
  });

  it('a change on disk before its vault event counts at the next force write: a new or changed rule, a dropped import, an import added to a vault CLAUDE.md', async () => {
    await boot((vault) =>
      put(vault, {
        '.claude/CLAUDE.md': 'Rules: @../conventions.md\n',
        'CLAUDE.md': '# Rules\n',
      }),
    );
    await held('create_note', { path: 'conventions', content: 'x' });
    await applied('widget_write', { id: 'late', html: widget('1') });
    // No vault event from here on: only what the plugin reads from disk at the write can tell.
    await booted.app.vault.stopWatching();
    await put(dir, { '.claude/rules/new/later.md': 'Later: @../../../later.md\n' });
    await held('create_note', { path: 'later', content: 'x' });
    await put(dir, { '.claude/CLAUDE.md': 'Rules: @../other.md\n' });
    await held('create_note', { path: 'other', content: 'x' });
    await applied('create_note', { path: 'conventions', content: 'x' });
    await fsp.appendFile(nodePath.join(dir, 'CLAUDE.md'), '\n@Widgets/late.html\n');
    expect(await callError(client, 'widget_write', { id: 'late', html: widget('2'), expected_hash: sha256(widget('1')) })).toMatch(
      /'Widgets\/late.html' is imported by agent instructions.*nothing was written/,
    );
    expect(await disk('Widgets/late.html')).toBe(widget('1'));
    // A rule removed on disk lets its import go.
    await fsp.rm(nodePath.join(dir, '.claude/rules/new'), { recursive: true });
    await applied('create_note', { path: 'later', content: 'x' });
    await booted.plugin.proposals.flush();
  });

  it('bad inputs: a huge rules folder is read only up to its caps, and an unreadable, oversized or looping one does not stop the rest', async () => {
    const files: Record<string, string> = {
      '.claude/CLAUDE.md': 'Rules: @../conventions.md\n',
      '.claude/rules/big.md': `@../../big-rule.md\n${'x'.repeat(4 * 1024 * 1024)}\n`,
      '.claude/rules/dir.md/inner.md': 'A folder named like a rule: @../../../in-dir.md\n',
      '.claude/rules/a-unreadable.md': 'Never read: @../../unread-rule.md\n',
      '.claude/rules/z-last.md': 'Read after the others: @../../last-rule.md\n',
    };
    for (let i = 0; i < MAX_RULE_FILES + 50; i++) files[`.claude/rules/many/r${i}.md`] = `Rule ${i}\n`;
    for (let i = 0; i < MAX_RULE_FOLDERS + 10; i++) files[`.claude/rules/folders/f${i}/x.md`] = `Folder ${i}\n`;
    await boot(async (vault) => {
      await put(vault, files);
      await fsp.symlink('..', nodePath.join(vault, '.claude/rules/loop'), 'dir');
      await fsp.symlink('nowhere.md', nodePath.join(vault, '.claude/rules/dangling.md'), 'file');
    });
    const adapter = booted.app.vault.adapter;
    const read = adapter.read.bind(adapter);
    // A file the disk will not give (EACCES; root reads anything, so the adapter is made to fail).
    const reads = jest.spyOn(adapter, 'read').mockImplementation(async (path: string) => {
      if (path.endsWith('a-unreadable.md')) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      return read(path);
    });
    const lists = jest.spyOn(adapter, 'list');
    // A walk caught in the `..` loop would never answer: the test's timeout is the bound.
    await held('create_note', { path: 'conventions', content: 'x' });
    const rulesRead = reads.mock.calls.filter(([path]) => path.startsWith('.claude/rules/')).length;
    expect(rulesRead).toBeGreaterThan(MAX_RULE_FILES / 2);
    expect(rulesRead).toBeLessThanOrEqual(MAX_RULE_FILES);
    expect(lists.mock.calls.length).toBeLessThanOrEqual(MAX_RULE_FOLDERS);
    await held('create_note', { path: 'last-rule', content: 'x' });
    await held('create_note', { path: 'in-dir', content: 'x' });
    // A rule file over 4 MiB is skipped whole, as Claude Code skips it; an unreadable one imports nothing.
    await applied('create_note', { path: 'big-rule', content: 'x' });
    await applied('create_note', { path: 'unread-rule', content: 'x' });
    // The next write reads nothing again (the files are unchanged) and lists no folder again.
    reads.mockClear();
    await applied('create_note', { path: 'ordinary', content: 'x' });
    expect(reads.mock.calls.filter(([path]) => path.startsWith('.claude/'))).toEqual([]);
    await booted.plugin.proposals.flush();
  });

  it('.claude/rules file and folder links, and a .claude/CLAUDE.md link, into the vault: the notes they lead to are held (write, create, move in, delete)', async () => {
    await boot(async (vault) => {
      await put(vault, {
        'Notes/team.md': 'original team rules\n',
        'Notes/mem.md': 'original memory\n',
        'Notes/ordinary.md': 'not a rule\n',
        'Shared/sub/deep.md': 'deep rules\n',
        'Shared/other.md': 'beside the linked folder\n',
        // Read from the folder the memory file really lies in (Notes/), as Claude Code resolves it.
        'Notes/imp.md': 'imported\n',
      });
      await fsp.writeFile(nodePath.join(vault, 'Notes/mem.md'), 'Memory: @imp.md\n');
      await fsp.mkdir(nodePath.join(vault, '.claude/rules'), { recursive: true });
      await fsp.symlink('../../Notes/team.md', nodePath.join(vault, '.claude/rules/team.md'), 'file');
      await fsp.symlink('../../Shared/sub', nodePath.join(vault, '.claude/rules/shared'), 'dir');
      await fsp.symlink('../Notes/mem.md', nodePath.join(vault, '.claude/CLAUDE.md'), 'file');
    });
    await held('write_note', { path: 'Notes/team', body: 'EVIL rules\n' });
    await held('write_note', { path: 'Shared/sub/deep', body: 'EVIL deep\n' });
    await held('create_note', { path: 'Shared/sub/new', content: 'EVIL new\n' });
    await held('write_note', { path: 'Notes/mem', body: 'EVIL mem\n' });
    await held('write_note', { path: 'Notes/imp', body: 'EVIL imported\n' });
    await held('move_note', { path: 'Notes/ordinary', to: 'Shared/sub/moved' });
    await held('delete_note', { path: 'Notes/team', confirm: true });
    expect(await disk('Notes/team.md')).toBe('original team rules\n');
    expect(await disk('Shared/sub/deep.md')).toBe('deep rules\n');
    expect(await disk('Shared/sub/new.md')).toBeNull();
    expect(await disk('Shared/sub/moved.md')).toBeNull();
    expect(await disk('Notes/mem.md')).toBe('Memory: @imp.md\n');
    // Beside the places, nothing is held.
    await applied('write_note', { path: 'Shared/other', body: 'fine\n' });
    await applied('write_note', { path: 'Notes/ordinary', body: 'fine\n' });
    await booted.plugin.proposals.flush();
  });

  it('a .claude that is a link to a vault folder: its rules folder (existing or not) and CLAUDE.md there are held, the rest of the folder is not', async () => {
    await boot(async (vault) => {
      await put(vault, { 'Agent/rules/style.md': 'style rules\n', 'Agent/notes.md': 'not a rule\n', 'Other/x.md': 'x\n' });
      await fsp.symlink('Agent', nodePath.join(vault, '.claude'), 'dir');
    });
    await held('write_note', { path: 'Agent/rules/style', body: 'EVIL\n' });
    await held('create_note', { path: 'Agent/rules/new', content: 'EVIL\n' });
    await held('create_note', { path: 'Agent/CLAUDE', content: 'EVIL\n' });
    await held('move_note', { path: 'Other/x', to: 'Agent/rules/x' });
    expect(await disk('Agent/rules/style.md')).toBe('style rules\n');
    expect(await disk('Agent/rules/new.md')).toBeNull();
    await applied('write_note', { path: 'Agent/notes', body: 'ok\n' });
    await booted.plugin.proposals.flush();
  });

  it('a .claude link made or re-pointed on disk is noticed at the next force write, with no vault event', async () => {
    await boot((vault) => put(vault, { 'Notes/a.md': 'a\n', 'Notes/b.md': 'b\n', 'Agent/rules/r.md': 'r\n', 'Agent2/rules/r.md': 'r\n' }));
    await booted.app.vault.stopWatching();
    await fsp.mkdir(nodePath.join(dir, '.claude/rules'), { recursive: true });
    const rule = nodePath.join(dir, '.claude/rules/team.md');
    await fsp.symlink('../../Notes/a.md', rule, 'file');
    await held('write_note', { path: 'Notes/a', body: 'EVIL\n' });
    await applied('write_note', { path: 'Notes/b', body: 'fine\n' });
    // Re-pointed to a note of the same size and time: only where the link leads tells.
    await fsp.utimes(nodePath.join(dir, 'Notes/a.md'), new Date(2026, 0, 1), new Date(2026, 0, 1));
    await fsp.writeFile(nodePath.join(dir, 'Notes/b.md'), 'a\n');
    await fsp.utimes(nodePath.join(dir, 'Notes/b.md'), new Date(2026, 0, 1), new Date(2026, 0, 1));
    await fsp.rm(rule);
    await fsp.symlink('../../Notes/b.md', rule, 'file');
    await held('write_note', { path: 'Notes/b', body: 'EVIL\n' });
    await applied('write_note', { path: 'Notes/a', body: 'fine now\n' });
    // .claude itself replaced by a link to a vault folder, then re-pointed to another.
    await fsp.rm(nodePath.join(dir, '.claude'), { recursive: true });
    await fsp.symlink('Agent', nodePath.join(dir, '.claude'), 'dir');
    await held('write_note', { path: 'Agent/rules/r', body: 'EVIL\n' });
    await fsp.rm(nodePath.join(dir, '.claude'));
    await fsp.symlink('Agent2', nodePath.join(dir, '.claude'), 'dir');
    await held('create_note', { path: 'Agent2/rules/new', content: 'EVIL\n' });
    await applied('write_note', { path: 'Agent/rules/r', body: 'fine\n' });
    // Re-pointed at a folder that does not exist (yet): its rules folder would be read from there.
    await fsp.rm(nodePath.join(dir, '.claude'));
    await fsp.symlink('Agent3', nodePath.join(dir, '.claude'), 'dir');
    await held('create_note', { path: 'Agent3/rules/new', content: 'EVIL\n' });
    await applied('create_note', { path: 'Agent2/rules/later', content: 'fine\n' });
    await booted.plugin.proposals.flush();
  });

  it('bad inputs: a rules link to a missing note or folder holds where it would be read from; a link out of the vault holds nothing of its own', async () => {
    const away = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-claude-out-'));
    outside.push(away);
    await put(away, { 'out.md': 'outside rules\n' });
    await boot(async (vault) => {
      await put(vault, { 'Other/x.md': 'x\n' });
      await fsp.mkdir(nodePath.join(vault, '.claude/rules'), { recursive: true });
      await fsp.symlink('../../Notes/later.md', nodePath.join(vault, '.claude/rules/later.md'), 'file');
      await fsp.symlink('../../Gone', nodePath.join(vault, '.claude/rules/gone'), 'dir');
      await fsp.symlink(nodePath.join(away, 'out.md'), nodePath.join(vault, '.claude/rules/out.md'), 'file');
    });
    await held('create_note', { path: 'Notes/later', content: 'EVIL\n' });
    await held('create_note', { path: 'Gone/rule', content: 'EVIL\n' });
    await applied('create_note', { path: 'out', content: 'fine\n' });
    await applied('create_note', { path: 'Notes/other', content: 'fine\n' });
    await booted.plugin.proposals.flush();
  });

  it('a .claude that is a link out of the vault: its imports of vault notes are held, and nothing of it is served', async () => {
    const away = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-claude-away-'));
    outside.push(away);
    await put(away, {
      'CLAUDE.md': 'Secret-word-zebra. Rules: @../conventions.md\n',
      'rules/team.md': 'Team: @../../team-rules.md\n',
    });
    await boot((vault) => fsp.symlink(away, nodePath.join(vault, '.claude'), 'dir'));
    await held('create_note', { path: 'conventions', content: 'x' });
    await held('create_note', { path: 'team-rules', content: 'x' });
    expect(await callError(client, 'read_note', { path: '.claude/CLAUDE.md' })).not.toMatch(/zebra/i);
    expect(JSON.stringify(await call(client, 'search', { query: 'Secret-word-zebra' }))).not.toMatch(/\.claude|Secret-word/);
    await booted.plugin.proposals.flush();
  });
});
