/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MarkdownView, Notice, Plugin, type TFile } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import type { ProposalCaller } from '../../../src/proposals/store/proposal-store';
import { PENDING_VIEW_TYPE, type PendingChangesView } from '../../../src/ui/review/pending-view';
import type { WriteRequest } from '../../../src/vault/writes/write-types';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { inboxTaskEdit } from '../../harness/edits/demo-edits';
import { waitUntil } from '../../harness/wait-until';
import { listPendingProposals } from '../../../src/ui/review/review-commands';

/** What the host's Plugin records for tests. */
type HostPluginRecords = Pick<Plugin, 'statusBarItems' | 'ribbonIcons'>;

/**
 * The user's side of propose mode in the host's workspace (jsdom, so Markdown views have a
 * real CodeMirror EditorView): the status-bar count, the ribbon icon opening the Pending
 * changes view, its Accept / Reject buttons, and accepts on an open note going through the
 * editor instead of the file.
 */
describe('review UI in the workspace', () => {
  const agent: ProposalCaller = { id: 'runkey', label: 'Claude Code', roots: [] };
  let copy: { dir: string; cleanup(): Promise<void> };
  let env: BootedPlugin<VaultMcpPlugin>;

  const disk = (p: string): Promise<string> => fs.readFile(path.join(copy.dir, p), 'utf8');
  const stage = async (request: WriteRequest) =>
    env.plugin.proposals.stage(await env.plugin.notes.writes.prepare(request, { label: agent.label, roots: [] }), agent);
  const pendingView = (): PendingChangesView =>
    env.app.workspace.getLeavesOfType(PENDING_VIEW_TYPE)[0].view as unknown as PendingChangesView;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  /** Waits until `check` holds (a click's async accept, a save), failing after 5 s. */
  const until = async (check: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 250; i++) {
      if (await check()) return;
      await settle();
    }
    throw new Error('condition not reached in 5 s');
  };

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    env = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label: agent.label });
    Notice.shown.length = 0;
  });

  afterEach(async () => {
    await env.plugin.proposals.flush();
    await env.stop();
    await copy.cleanup();
  });

  test('a new proposal shows a Notice and the status-bar count; the ribbon opens Pending changes with it', async () => {
    const statusBar = (env.plugin as unknown as HostPluginRecords).statusBarItems.find((el) => el.hasClass('vault-mcp-pending-count'))!;
    expect(statusBar.getText()).toBe('');
    await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: '- [ ] Proposed task', ensureNewline: true });
    expect(Notice.shown.map((n) => n.message)).toEqual([
      'Vault MCP: Claude Code proposed changes to Inbox.md. Review it in the editor or in Pending changes.',
    ]);
    expect(statusBar.getText()).toBe('1 pending change');
    (env.plugin as unknown as HostPluginRecords).ribbonIcons.find((r) => r.title === 'Open pending changes')!.el.click();
    await settle();
    // The view draws its cards after judging each proposal against the vault (async): on a loaded machine after settle().
    await waitUntil(() => pendingView().contentEl.querySelectorAll('.vault-mcp-proposal').length === 1, "the Pending view's cards");
    const view = pendingView();
    expect(view.contentEl.querySelector('.vault-mcp-pending-title')?.textContent).toBe('1 pending change');
    expect(view.contentEl.querySelector('.vault-mcp-pending-path')?.textContent).toBe('Inbox.md');
    expect(view.contentEl.querySelector('.vault-mcp-proposal-label')?.textContent).toBe('Claude Code');
    expect([...view.contentEl.querySelectorAll('.vault-mcp-diff-inserted')].map((el) => el.textContent)).toEqual(['+ - [ ] Proposed task']);
  });

  test('the view writes out bidi overrides and control characters in proposed text, so they cannot reorder or hide it', async () => {
    await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'pay \u202e0001\u202c to \u001b[8mx', ensureNewline: true });
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    // The view draws its cards after judging each proposal against the vault (async): on a loaded machine after settle().
    await waitUntil(() => pendingView().contentEl.querySelectorAll('.vault-mcp-proposal').length === 1, "the Pending view's cards");
    // (A blank line first: Inbox.md ends in a task list, which a plain line would otherwise continue.)
    expect([...pendingView().contentEl.querySelectorAll('.vault-mcp-diff-inserted')].map((el) => el.textContent)).toEqual([
      '+ ',
      '+ pay <U+202E>0001<U+202C> to \\x1b[8mx',
    ]);
  });

  test('Accept in the view writes a closed note; Reject leaves it; the list and count follow', async () => {
    const before = await disk('Ideas.md');
    const a = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'accepted line', ensureNewline: true });
    await stage({ tool: 'write_note', kind: 'write', path: 'Ideas', body: 'Everything replaced\n' });
    await stage({ tool: 'move_note', kind: 'move', path: 'Reading list', to: 'Archive/Reading list' });
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    // The view draws its cards after judging each proposal against the vault (async): on a loaded machine after settle().
    await waitUntil(() => pendingView().contentEl.querySelectorAll('.vault-mcp-proposal').length === 3, "the Pending view's cards");
    const view = pendingView();
    expect([...view.contentEl.querySelectorAll('.vault-mcp-pending-path')].map((el) => el.textContent)).toEqual([
      'Inbox.md',
      'Ideas.md',
      'Reading list.md',
    ]);
    expect(view.contentEl.textContent).toContain('→ Archive/Reading list.md');
    const card = (id: string) => view.contentEl.querySelector(`[data-proposal-id="${id}"]`)!;
    (card(a.id).querySelector('button.mod-cta') as HTMLElement).click();
    await until(async () => (await disk('Inbox.md')).endsWith('accepted line\n'));
    await until(() => view.contentEl.querySelectorAll('.vault-mcp-proposal').length === 2);
    const ideasCard = view.contentEl.querySelectorAll('.vault-mcp-proposal')[0];
    (ideasCard.querySelectorAll('button')[1] as HTMLElement).click();
    await until(() => view.contentEl.querySelectorAll('.vault-mcp-proposal').length === 1);
    expect(await disk('Ideas.md')).toBe(before);
    expect(view.contentEl.querySelector('.vault-mcp-pending-title')?.textContent).toBe('1 pending change');
    expect(Notice.shown.map((n) => n.message)).toContain(`Vault MCP: Accepted 1 change of ${a.id} on Inbox.md; it is now accepted.`);
  });

  test('the view shows why a write was held, the notes a move updates the links of, and the text a delete trashes', async () => {
    const prepared = await env.plugin.notes.writes.prepare(
      { tool: 'move_note', kind: 'move', path: 'Ideas', to: 'Ideas2' },
      { label: agent.label, roots: [] },
    );
    const move = await env.plugin.proposals.stage(prepared, agent, 'Agent instructions guide every agent.');
    const del = await stage({ tool: 'delete_note', kind: 'delete', path: 'Reading list' });
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    const card = (id: string) => pendingView().contentEl.querySelector(`[data-proposal-id="${id}"]`)!;
    // The view draws its cards after judging each proposal against the vault (async): on a loaded machine after settle().
    await waitUntil(() => card(move.id) !== null && card(del.id) !== null, "the Pending view's cards");
    const lines = (id: string) => [...card(id).querySelectorAll('.vault-mcp-diff-line')].map((el) => el.textContent);
    const linkers = env.plugin.review.linkersOf(move);
    expect(linkers).toContain('Archive/Old ideas.md');
    expect(lines(move.id)).toEqual([
      'Held for review: Agent instructions guide every agent.',
      '→ Ideas2.md',
      `Links to it updated in ${linkers.length} other note${linkers.length === 1 ? '' : 's'}:`,
      ...linkers.map((p) => `  ${p}`),
    ]);
    const text = (await disk('Reading list.md')).replace(/\n$/, '').split('\n');
    expect(lines(del.id)).toEqual([
      'The whole note goes to the trash:',
      ...text.slice(0, 12).map((l) => `− ${l}`),
      ...(text.length > 12 ? [`… ${text.length - 12} more lines`] : []),
    ]);
  });

  describe('a proposal that no longer applies', () => {
    /** The user's own edit in Obsidian (vault.process), once the metadata cache has parsed it. */
    const userEdit = async (p: string, edit: (text: string) => string): Promise<void> => {
      const parsed = new Promise<void>((resolve) => {
        const ref = env.app.metadataCache.on('changed', (changed) => {
          if (changed.path !== p) return;
          env.app.metadataCache.offref(ref);
          resolve();
        });
      });
      await env.app.vault.process(env.app.vault.getFileByPath(p)!, edit);
      await parsed;
    };
    const openView = async (): Promise<PendingChangesView> => {
      env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
      await until(() => pendingView()?.contentEl.querySelector('.vault-mcp-pending-title') !== null);
      return pendingView();
    };
    const card = (id: string) => pendingView().contentEl.querySelector(`[data-proposal-id="${id}"]`);
    const buttons = (id: string) => [...(card(id)?.querySelectorAll('button') ?? [])].map((b) => b.getAttribute('aria-label'));
    const badge = (id: string) => card(id)?.querySelector('.vault-mcp-proposal-stale')?.textContent ?? null;
    const reason = (id: string) => card(id)?.querySelector('.vault-mcp-proposal-stale-reason')?.textContent ?? null;
    /** The terminal's listing line of proposal `id` (review-commands.ts: the same applicability check). */
    const listed = async (id: string) => (await listPendingProposals(env.plugin)).split('\n').find((line) => line.startsWith(id)) ?? '';

    test('a note changed where an edit would go marks its card Stale with the reason and offers only Reject, live, as the terminal lists it', async () => {
      const p = await stage(inboxTaskEdit('Renew the card'));
      const view = await openView();
      expect(badge(p.id)).toBeNull();
      expect(buttons(p.id)).toEqual(['Accept the change from Claude Code', 'Reject the change from Claude Code']);
      await userEdit('Inbox.md', (text) => text.replace('Renew the library card', 'Renew the library card online'));
      await until(() => badge(p.id) !== null);
      expect(badge(p.id)).toBe('Stale');
      expect(card(p.id)?.classList.contains('is-stale')).toBe(true);
      expect(buttons(p.id)).toEqual(['Reject the change from Claude Code']);
      expect(view.contentEl.querySelector('.vault-mcp-pending-title')?.textContent).toBe('1 pending change (1 stale)');
      const terminal = await listed(p.id);
      expect(terminal).toMatch(/^p_\w+ {2}stale {2}edit Inbox\.md/);
      expect(terminal).toContain(`(${reason(p.id)})`);
      expect(reason(p.id)).toBe(
        'The note changed where these changes would go; the user can only reject them. Propose again on the new text.',
      );
      // The user takes their edit back: the change applies again, and Accept is back.
      await userEdit('Inbox.md', (text) => text.replace('Renew the library card online', 'Renew the library card'));
      await until(() => badge(p.id) === null);
      expect(buttons(p.id)).toEqual(['Accept the change from Claude Code', 'Reject the change from Claude Code']);
      expect(view.contentEl.querySelector('.vault-mcp-pending-title')?.textContent).toBe('1 pending change');
    });

    test('a move whose target is taken and a folder made since go stale live; Reject still works; a hunk alone that no longer applies is marked', async () => {
      const move = await stage({ tool: 'move_note', kind: 'move', path: 'Reading list', to: 'Archive/Reading list' });
      const folder = await stage({ tool: 'create_folder', kind: 'folder', path: 'Proposed folder' });
      const base = await disk('Inbox.md');
      const body = base
        .replace('Book the dentist for March', 'Book the dentist for May')
        .replace('Renew the library card', 'Cancel the library card');
      const edit = await stage({ tool: 'write_note', kind: 'write', path: 'Inbox', body: body.slice(body.indexOf('# Inbox')) });
      await openView();
      expect([badge(move.id), badge(folder.id), badge(edit.id)]).toEqual([null, null, null]);
      await env.app.vault.create('Archive/Reading list.md', 'taken\n');
      await env.app.vault.createFolder('Proposed folder');
      await userEdit('Inbox.md', (text) => text.replace('Book the dentist for March', 'Book the dentist for April'));
      await until(() => badge(move.id) !== null && badge(folder.id) !== null);
      expect(reason(move.id)).toBe(
        "Its path 'Archive/Reading list.md' is now taken or not available to the key, so it can no longer be applied.",
      );
      expect(reason(folder.id)).toMatch(/^Its path 'Proposed folder' is now taken/);
      expect(buttons(move.id)).toEqual(['Reject the change from Claude Code']);
      // One of the edit's two hunks is stale: the card stays acceptable, the hunk says Accept skips it.
      expect(badge(edit.id)).toBeNull();
      expect([...card(edit.id)!.querySelectorAll('.vault-mcp-diff-head')].map((el) => el.textContent)).toEqual([
        'Line 7 · stale: Accept skips it',
        'Line 9',
      ]);
      (card(move.id)!.querySelector('button') as HTMLElement).click();
      await until(() => env.plugin.proposals.get(move.id)?.status === 'rejected');
      await until(() => card(move.id) === null);
      expect(await disk('Reading list.md')).toBeTruthy();
    });

    test("a key's roots narrowed in the settings mark its proposals stale in the open view", async () => {
      const p = await stage(inboxTaskEdit('Renew the card'));
      await openView();
      expect(badge(p.id)).toBeNull();
      await env.plugin.keyRing.setRoots(agent.id, ['Projects']);
      await until(() => badge(p.id) !== null);
      expect(buttons(p.id)).toEqual(['Reject the change from Claude Code']);
      expect(await listed(p.id)).toContain(`(${reason(p.id)})`);
    });
  });

  test('the view shows a line added after a last line without a line break as that line alone, at the next line', async () => {
    await fs.writeFile(path.join(copy.dir, 'Alpha.md'), 'alpha');
    await env.app.vault.syncFromDisk();
    const p = await stage({ tool: 'append_note', kind: 'append', path: 'Alpha', content: 'beta', ensureNewline: true });
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    const card = pendingView().contentEl.querySelector(`[data-proposal-id="${p.id}"]`)!;
    expect(card.querySelector('.vault-mcp-diff-head')?.textContent).toBe('Line 2');
    expect([...card.querySelectorAll('.vault-mcp-diff-line')].map((el) => el.textContent)).toEqual(['+ beta']);
  });

  test('the view shows a change to a note whose lines end in \\r alone line by line, and a new such note by its lines', async () => {
    await fs.writeFile(path.join(copy.dir, 'Mac.md'), 'one\rtwo\rthree\rfour\r');
    await env.app.vault.syncFromDisk();
    const p = await stage({ tool: 'write_note', kind: 'write', path: 'Mac', body: 'one\nTWO\nthree\nFOUR\n' });
    const made = await stage({ tool: 'create_note', kind: 'create', path: 'New mac', content: 'a\rb\r' });
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    const card = pendingView().contentEl.querySelector(`[data-proposal-id="${p.id}"]`)!;
    expect([...card.querySelectorAll('.vault-mcp-diff-head')].map((el) => el.textContent)).toEqual(['Line 2', 'Line 4']);
    expect([...card.querySelectorAll('.vault-mcp-diff-line')].map((el) => el.textContent)).toEqual(['− two', '+ TWO', '− four', '+ FOUR']);
    const created = pendingView().contentEl.querySelector(`[data-proposal-id="${made.id}"]`)!;
    expect([...created.querySelectorAll('.vault-mcp-diff-inserted')].map((el) => el.textContent)).toEqual(['+ a', '+ b']);
  });

  test('accepting a proposal on an open note changes the editor (its unsaved typing kept), which is saved at once; Ctrl+Z undoes it', async () => {
    const file = env.app.vault.getFileByPath('Inbox.md') as unknown as TFile;
    const view = (await env.app.workspace.openNote(file)) as unknown as MarkdownView;
    const cm = (view.editor as unknown as { cm: import('@codemirror/view').EditorView }).cm;
    cm.dispatch({ changes: { from: cm.state.doc.toString().indexOf('# Inbox') + 7, insert: ' (typed)' }, userEvent: 'input.type' });
    const p = await stage(inboxTaskEdit('Renew the card'));
    await env.plugin.review.accept(p.id);
    expect(cm.state.doc.toString()).toContain('# Inbox (typed)\n');
    expect(cm.state.doc.toString()).toContain('- [ ] Renew the card\n');
    // Saved with the accept (judged on the disk right before), the typing with it, not by Obsidian's own save 2 s later.
    expect(await disk('Inbox.md')).toBe(cm.state.doc.toString());
    view.editor.undo();
    expect(cm.state.doc.toString()).toContain('- [ ] Renew the library card\n');
    expect(cm.state.doc.toString()).toContain('# Inbox (typed)\n');
    view.editor.redo();
    await (view as unknown as { save(): Promise<void> }).save();
    expect(await disk('Inbox.md')).toBe(cm.state.doc.toString());
    expect(await disk('Inbox.md')).toContain('- [ ] Renew the card\n');
  });

  test('clicking a hunk in the view opens the note with the cursor on that line', async () => {
    await stage(inboxTaskEdit('Renew the card'));
    env.app.commands.executeCommandById('vault-mcp:open-pending-changes');
    await settle();
    (pendingView().contentEl.querySelector('.vault-mcp-diff-head') as HTMLElement).click();
    await until(() => env.app.workspace.getActiveViewOfType(MarkdownView)?.editor.getCursor().line === 8);
    const view = env.app.workspace.getActiveViewOfType(MarkdownView)!;
    expect(view.file?.path).toBe('Inbox.md');
    expect(view.editor.getCursor().line).toBe(8);
    expect(view.editor.getLine(8)).toBe('- [ ] Renew the library card');
  });

  describe('inline review in the note editor', () => {
    const openInbox = async () => {
      const file = env.app.vault.getFileByPath('Inbox.md') as unknown as TFile;
      const view = (await env.app.workspace.openNote(file)) as unknown as MarkdownView;
      return { view, cm: (view.editor as unknown as { cm: import('@codemirror/view').EditorView }).cm };
    };

    test('a proposal shows inline in the open note: struck text, proposed text, provenance, ✓ applies it and records the decision', async () => {
      const { cm } = await openInbox();
      const p = await stage(inboxTaskEdit('Renew the card'));
      await until(() => cm.dom.querySelector('.vault-mcp-inserted') !== null);
      expect(cm.dom.querySelector('.vault-mcp-removed')?.textContent).toContain('Renew the library card');
      expect(cm.dom.querySelector('.vault-mcp-inserted')?.textContent).toContain('Renew the card');
      expect(cm.dom.textContent).toContain('Claude Code');
      expect(cm.dom.querySelector('.cm-panels')?.textContent).toContain('1 pending change from Claude Code');
      (cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') as HTMLElement).click();
      await until(() => env.plugin.proposals.get(p.id)?.status === 'accepted');
      expect(cm.state.doc.toString()).toContain('- [ ] Renew the card\n');
      await until(() => cm.dom.querySelector('.vault-mcp-inserted') === null);
    });

    test('Ctrl+Z after ✓ reopens that hunk (the proposal is pending again and shows inline); Ctrl+Shift+Z accepts it again', async () => {
      const { view, cm } = await openInbox();
      const base = cm.state.doc.toString();
      const p = await stage(inboxTaskEdit('Renew the card'));
      await until(() => cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') !== null);
      (cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') as HTMLElement).click();
      await until(() => env.plugin.proposals.get(p.id)?.status === 'accepted');
      view.editor.undo();
      expect(cm.state.doc.toString()).toBe(base);
      await until(() => env.plugin.proposals.get(p.id)?.status === 'pending');
      expect(env.plugin.proposals.get(p.id)?.decisions).toEqual({});
      await until(() => cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') !== null);
      view.editor.redo();
      expect(cm.state.doc.toString()).toContain('- [ ] Renew the card\n');
      await until(() => env.plugin.proposals.get(p.id)?.status === 'accepted');
    });

    test('✗ rejects; the editor commands go to, accept and reject hunks at the cursor', async () => {
      const { view, cm } = await openInbox();
      const base = cm.state.doc.toString();
      const body = base
        .replace('Book the dentist for March', 'Book the dentist for May')
        .replace('Renew the library card', 'Cancel the library card');
      const p = await stage({ tool: 'write_note', kind: 'write', path: 'Inbox', body: body.slice(body.indexOf('# Inbox')) });
      await until(() => cm.dom.querySelectorAll('.vault-mcp-inserted').length === 2);
      const run = (id: string) => env.app.commands.executeCommandById(`vault-mcp:${id}`);
      view.editor.setCursor({ line: 0, ch: 0 });
      expect(run('next-change')).toBe(true);
      expect(view.editor.getLine(view.editor.getCursor().line)).toBe('- [ ] Book the dentist for March');
      expect(run('reject-change-at-cursor')).toBe(true);
      await until(() => env.plugin.proposals.get(p.id)?.decisions[0] === 'rejected');
      // The editor shows the decision once the store's change reaches it (asynchronous, slower on a loaded machine).
      await until(() => cm.dom.querySelectorAll('.vault-mcp-inserted').length === 1);
      expect(run('next-change')).toBe(true);
      expect(run('accept-change-at-cursor')).toBe(true);
      await until(() => env.plugin.proposals.get(p.id)?.status === 'partly_accepted');
      expect(cm.state.doc.toString()).toBe(base.replace('Renew the library card', 'Cancel the library card'));
      await until(() => cm.dom.querySelector('.vault-mcp-inserted') === null);
      expect(run('next-change')).toBe(false);
    });

    test('✓ on a note made read-only since the proposal is refused: the editor change is reverted and a Notice says why', async () => {
      const { cm } = await openInbox();
      const p = await stage({ tool: 'append_note', kind: 'append', path: 'Inbox', content: 'late line', ensureNewline: true });
      await until(() => cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') !== null);
      cm.dispatch({ changes: { from: 0, insert: '---\naccess: read-only\n---\n' }, userEvent: 'input.type' });
      const typed = cm.state.doc.toString();
      Notice.shown.length = 0;
      (cm.dom.querySelector('.vault-mcp-hunk-button.mod-accept') as HTMLElement).click();
      await until(() => Notice.shown.length > 0);
      expect(Notice.shown[0].message).toMatch(/read-only for agents/);
      expect(cm.state.doc.toString()).toBe(typed);
      expect(env.plugin.proposals.get(p.id)?.status).toBe('pending');
    });
  });
});
