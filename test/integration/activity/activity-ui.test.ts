/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Notice, type MarkdownView, type Plugin, type TFile } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import { ACTIVITY_VIEW_TYPE, type AgentActivityView } from '../../../src/ui/activity/activity-view';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call } from '../../harness/edits/write-helpers';
import { inboxTaskEdit } from '../../harness/edits/demo-edits';

/** What the host's Plugin records for tests. */
type HostPluginRecords = Pick<Plugin, 'statusBarItems' | 'ribbonIcons'>;

/**
 * The Agent activity view in the host's workspace (jsdom): a force key's writes over MCP show
 * up grouped by key and session with their diff, the status-bar hint names the key, Revert puts
 * the note back and the entry then says "reverted", Revert all takes back a whole session.
 */
describe('Agent activity view in the workspace', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let env: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const disk = (p: string): Promise<string> => fs.readFile(path.join(copy.dir, p), 'utf8');
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const until = async (check: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 250; i++) {
      if (await check()) return;
      await settle();
    }
    throw new Error('condition not reached in 5 s');
  };
  const view = (): AgentActivityView => env.app.workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE)[0].view as unknown as AgentActivityView;
  const texts = (selector: string): string[] => Array.from(view().contentEl.querySelectorAll(selector), (el) => el.textContent ?? '');

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    env = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label: 'Claude Code', mode: 'force', allowWrites: true });
    client = await connectClient(env.url, env.token);
    Notice.shown.length = 0;
  });

  afterEach(async () => {
    await client.close();
    await env.plugin.activity.whenSaved();
    await env.stop();
    await copy.cleanup();
  });

  test('lists the writes with diffs; Revert puts the note back and marks the entry; Revert all takes back the session', async () => {
    const hint = (env.plugin as unknown as HostPluginRecords).statusBarItems.find((el) => el.hasClass('vault-mcp-activity-hint'))!;
    expect(hint.getText()).toBe('');
    const inbox = await disk('Inbox.md');
    await call(client, 'append_note', { path: 'Inbox.md', content: '- [ ] Agent task' });
    await call(client, 'move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Older ideas.md' });
    expect(hint.getText()).toBe('Claude Code made 2 changes · just now');
    (env.plugin as unknown as HostPluginRecords).ribbonIcons.find((r) => r.title === 'Open agent activity')!.el.click();
    await until(
      () => env.app.workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE).length === 1 && texts('.vault-mcp-activity-entry').length === 2,
    );
    expect(texts('.vault-mcp-activity-title')).toEqual(['2 changes by agents']);
    expect(texts('.vault-mcp-activity-key-header-title')).toEqual(['Claude Code']);
    expect(texts('.vault-mcp-activity-session-header-title')).toEqual([expect.stringMatching(/^Session \S{8}$/)]);
    expect(texts('.vault-mcp-activity-kind')).toEqual(['move', 'edit']);
    expect(texts('.vault-mcp-activity-path')).toEqual(['Archive/Older ideas.md', 'Inbox.md']);
    expect(texts('.vault-mcp-diff-inserted')).toEqual(['+ - [ ] Agent task']);
    expect(texts('.vault-mcp-diff-message')).toEqual(['Archive/Old ideas.md → Archive/Older ideas.md', 'Links to it updated in 2 notes:']);
    // The two notes whose links to it Obsidian rewrote (the demo vault's Ideas and Home link to it).
    expect(texts('.vault-mcp-diff-context').sort()).toEqual(['  Home.md', '  Ideas.md']);

    const edit = view().contentEl.querySelectorAll<HTMLElement>('.vault-mcp-activity-entry')[1];
    edit.querySelector<HTMLButtonElement>('button[aria-label="Revert edit of Inbox.md"]')!.click();
    await until(async () => (await disk('Inbox.md')) === inbox);
    await until(() => texts('.vault-mcp-activity-state').length === 1);
    expect(Notice.shown.map((n) => n.message)).toEqual([
      expect.stringMatching(/^Vault MCP: Reverted a_\w+: Inbox\.md is as it was before \(logged as a_\w+\)\.$/),
    ]);
    expect(texts('.vault-mcp-activity-kind')).toEqual(['revert · edit', 'move', 'edit']);
    expect(view().contentEl.querySelectorAll('.vault-mcp-activity-entry.is-reverted')).toHaveLength(1);

    view().contentEl.querySelector<HTMLButtonElement>('.vault-mcp-activity-session-header button')!.click();
    await until(
      async () =>
        await fs.stat(path.join(copy.dir, 'Archive/Old ideas.md')).then(
          () => true,
          () => false,
        ),
    );
    await until(() => Notice.shown.length === 2);
    expect(Notice.shown[1].message).toBe('Vault MCP: reverted 1 of 1 change.');
    expect(hint.getText()).toBe('Claude Code made 2 changes · just now');
  });

  test("on an open note: a force write, a hunk accepted with ✓ and a revert go through the editor, logged, the user's unsaved typing kept", async () => {
    const file = env.app.vault.getFileByPath('Inbox.md') as unknown as TFile;
    const view = (await env.app.workspace.openNote(file)) as unknown as MarkdownView;
    const cm = (view.editor as unknown as { cm: import('@codemirror/view').EditorView }).cm;
    cm.dispatch({ changes: { from: cm.state.doc.toString().indexOf('# Inbox') + 7, insert: ' (typed)' }, userEvent: 'input.type' });
    await call(client, 'append_note', { path: 'Inbox.md', content: '- [ ] Agent task' });
    expect(cm.state.doc.toString()).toContain('# Inbox (typed)\n');
    expect(cm.state.doc.toString()).toContain('- [ ] Agent task');
    const force = env.plugin.activity.all()[0];
    expect(force).toMatchObject({ via: 'agent', tool: 'append_note', path: 'Inbox.md' });
    expect(force.undo.patch?.[0].removed).toContain('- [ ] Agent task');

    const caller = { id: env.key.id, label: 'Claude Code', roots: [] };
    const prepared = await env.plugin.notes.writes.prepare(inboxTaskEdit('Renew the card', { path: 'Inbox.md' }), {
      label: 'Claude Code',
      roots: [],
    });
    const p = await env.plugin.proposals.stage(prepared, caller);
    await until(() => cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') !== null);
    (cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') as HTMLElement).click();
    await until(() => env.plugin.activity.all().length === 2);
    expect(env.plugin.activity.all()[0]).toMatchObject({ via: 'proposal', proposal_id: p.id, hunks: [0], kind: 'edit', path: 'Inbox.md' });

    const outcome = await env.plugin.reverts.revert(force.id);
    expect(outcome.reverted).toBe(true);
    const text = cm.state.doc.toString();
    expect(text).not.toContain('- [ ] Agent task');
    expect(text).toContain('# Inbox (typed)\n');
    expect(text).toContain('- [ ] Renew the card\n');
  });

  test('the diff writes out bidi overrides and control characters an agent wrote, so they cannot reorder or hide it', async () => {
    await call(client, 'append_note', { path: 'Inbox.md', content: 'pay \u202e0001\u202c to \u001b[8mx' });
    env.app.commands.executeCommandById('vault-mcp:open-agent-activity');
    await until(() => env.app.workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE).length === 1 && texts('.vault-mcp-diff-inserted').length === 2);
    // (A blank line first: Inbox.md ends in a task list, which a plain line would otherwise continue.)
    expect(texts('.vault-mcp-diff-inserted')).toEqual(['+ ', '+ pay <U+202E>0001<U+202C> to \\x1b[8mx']);
  });

  test('the command opens the view; an empty log says what will appear there', async () => {
    await env.app.commands.executeCommandById('vault-mcp:open-agent-activity');
    await until(() => env.app.workspace.getLeavesOfType(ACTIVITY_VIEW_TYPE).length === 1);
    expect(texts('.vault-mcp-activity-title')).toEqual(['No agent activity']);
    expect(texts('.vault-mcp-activity-empty')).toEqual([
      'Changes that force-mode keys make, and proposals you accept, are listed here so you can see and revert them.',
    ]);
  });
});

describe('the activity file of the running plugin', () => {
  const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';

  test('a damaged file is kept aside with a Notice; what agents change next survives a restart', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    try {
      await fs.mkdir(path.join(copy.dir, PLUGIN_DIR), { recursive: true });
      await fs.writeFile(path.join(copy.dir, PLUGIN_DIR, 'activity.json'), '{"version":1,"entries":[{"id":');
      Notice.shown.length = 0;
      const first = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label: 'Claude Code', mode: 'force', allowWrites: true });
      for (let i = 0; i < 250 && Notice.shown.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(Notice.shown.map((n) => n.message)).toEqual([
        expect.stringMatching(
          /^Vault MCP could not read its agent activity file \(not valid JSON .+\); it was kept as \.obsidian\/plugins\/vault-mcp\/activity\.json\.corrupt-\S+ and the activity log starts empty\.$/,
        ),
      ]);
      const aside = (await fs.readdir(path.join(copy.dir, PLUGIN_DIR))).filter((n) => n.startsWith('activity.json.corrupt-'));
      expect(aside).toHaveLength(1);
      expect(await fs.readFile(path.join(copy.dir, PLUGIN_DIR, aside[0]), 'utf8')).toBe('{"version":1,"entries":[{"id":');
      const client = await connectClient(first.url, first.token);
      await call(client, 'append_note', { path: 'Inbox.md', content: '- kept across restarts' });
      await client.close();
      await first.plugin.activity.whenSaved();
      await first.stop();
      const second = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label: 'Claude Code', mode: 'force', allowWrites: true });
      for (let i = 0; i < 250 && second.plugin.activity.all().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(second.plugin.activity.all().map((e) => `${e.tool} ${e.path}`)).toEqual(['append_note Inbox.md']);
      expect((await second.plugin.reverts.revert(second.plugin.activity.all()[0].id)).reverted).toBe(true);
      await second.plugin.activity.whenSaved();
      await second.stop();
    } finally {
      await copy.cleanup();
    }
  });
});
