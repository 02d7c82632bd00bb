import { Notice, TFile, type WorkspaceLeaf } from 'obsidian';
import { SidebarListView } from '../sidebar-view';
import { diffPreview, type DiffLine } from '../../activity/activity-diff';
import type { ActivityLog } from '../../activity/activity-log';
import type { ActivityRevert, RevertOutcome } from '../../activity/activity-revert';
import type { ActivityEntry } from '../../activity/types';
import { visibleText } from '../../diff/visible-text';
import { groupEntries, kindWord } from './activity-commands';

/** The view type of the Agent activity view (`registerView`). */
export const ACTIVITY_VIEW_TYPE = 'vault-mcp-activity';

/** The Agent activity view's type, title, icon (Lucide `history`) and command. */
export const ACTIVITY_VIEW = { type: ACTIVITY_VIEW_TYPE, title: 'Agent activity', icon: 'history', commandId: 'open-agent-activity' };

/** Diff lines shown per entry before "… more lines". */
const PREVIEW_LINES = 12;
/** Entries drawn, newest first (each draws a diff); older ones are counted in one line. */
const MAX_SHOWN = 100;

/**
 * The Agent activity view (an Obsidian ItemView in the right sidebar): every change agents
 * caused, newest first (the newest {@link MAX_SHOWN}), grouped by key and then by MCP session, each with its kind, note link,
 * time and route, a diff preview and Revert; a key and a session each have Revert all. A
 * reverted entry says so (reverting a revert redoes it). Redraws when the log changes.
 */
export class AgentActivityView extends SidebarListView {
  /** Each entry's diff preview, computed once (an entry's texts never change). */
  private readonly previews = new WeakMap<ActivityEntry, DiffLine[]>();

  /** @param leaf the workspace leaf Obsidian gives the view. @param log the log it lists. @param reverts what Revert calls. */
  constructor(
    leaf: WorkspaceLeaf,
    private readonly log: ActivityLog,
    private readonly reverts: ActivityRevert,
  ) {
    super(leaf, { ...ACTIVITY_VIEW, onChange: (listener) => log.onChange(listener) });
  }

  /** Draws the list anew from the log (previews are capped, so this stays cheap). */
  override render(): void {
    const root = this.contentEl;
    root.empty();
    root.addClass('vault-mcp-activity');
    const entries = this.log.all();
    root.createDiv({
      cls: 'vault-mcp-activity-title',
      text: entries.length ? `${entries.length} change${entries.length === 1 ? '' : 's'} by agents` : 'No agent activity',
    });
    if (entries.length === 0) {
      root.createEl('p', {
        cls: 'vault-mcp-activity-empty',
        text: 'Changes that force-mode keys make, and proposals you accept, are listed here so you can see and revert them.',
      });
      return;
    }
    const shown = entries.slice(0, MAX_SHOWN);
    const byKey = new Map<string, ActivityEntry[]>();
    for (const e of shown) byKey.set(e.key_id, [...(byKey.get(e.key_id) ?? []), e]);
    for (const list of byKey.values()) {
      const keyEl = root.createDiv({ cls: 'vault-mcp-activity-key' });
      const label = list[0].key_label;
      const ofKey = entries.filter((e) => e.key_id === list[0].key_id);
      this.groupHeader(keyEl, 'vault-mcp-activity-key-header', label, `Revert all from ${label}`, ofKey);
      for (const group of groupEntries(list)) {
        const sessionEl = keyEl.createDiv({ cls: 'vault-mcp-activity-session' });
        const session = group.session;
        const title = session
          ? `Session ${session.slice(0, 8)}`
          : group.entries.every((e) => e.via !== 'agent')
            ? 'Accepted proposals and reverts'
            : 'Without an MCP session';
        const ofSession = session ? ofKey.filter((e) => e.session === session) : [];
        this.groupHeader(
          sessionEl,
          'vault-mcp-activity-session-header',
          title,
          session ? `Revert session ${session.slice(0, 8)} of ${label}` : null,
          ofSession,
        );
        for (const e of group.entries) this.renderEntry(sessionEl.createDiv({ cls: 'vault-mcp-activity-entry' }), e);
      }
    }
    if (entries.length > shown.length) {
      root.createEl('p', {
        cls: 'vault-mcp-activity-empty',
        text: `${entries.length - shown.length} older changes are not shown; Revert all still covers them.`,
      });
    }
  }

  /** A key's or session's header: its title and, when `revertLabel` is given, a Revert all button for `entries`. */
  private groupHeader(el: HTMLElement, cls: string, title: string, revertLabel: string | null, entries: ActivityEntry[]): void {
    const header = el.createDiv({ cls });
    header.createSpan({ cls: `${cls}-title`, text: title });
    const open = entries.filter((e) => e.via !== 'revert' && !this.log.isReverted(e));
    if (!revertLabel || open.length === 0) return;
    const button = header.createEl('button', { text: 'Revert all' });
    button.setAttribute('aria-label', revertLabel);
    button.addEventListener('click', () => void this.revertMany(open));
  }

  private renderEntry(el: HTMLElement, e: ActivityEntry): void {
    el.dataset.entryId = e.id;
    const reverted = this.log.isReverted(e);
    el.toggleClass('is-reverted', reverted);
    const header = el.createDiv({ cls: 'vault-mcp-activity-entry-header' });
    const meta = header.createDiv({ cls: 'vault-mcp-activity-meta' });
    const what = meta.createDiv({ cls: 'vault-mcp-activity-what' });
    what.createSpan({ cls: ['vault-mcp-activity-kind', `mod-${e.kind}`], text: e.reverts ? `revert · ${kindWord(e)}` : kindWord(e) });
    const link = what.createEl('a', { cls: 'vault-mcp-activity-path', text: e.path, href: '#' });
    link.setAttribute('aria-label', `Open ${e.path}`);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      void this.openNote(e.path);
    });
    if (reverted) what.createSpan({ cls: 'vault-mcp-activity-state', text: 'reverted' });
    const at = new Date(e.at);
    const route =
      e.via === 'proposal'
        ? `accepted proposal${e.hunks ? ` (${e.hunks.length} hunk${e.hunks.length === 1 ? '' : 's'})` : ''}`
        : e.via === 'revert'
          ? 'your revert'
          : `via ${e.tool}`;
    const detail = meta.createDiv({
      cls: 'vault-mcp-activity-detail',
      text: `${route} · ${at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`,
    });
    detail.setAttribute('title', at.toLocaleString());
    if (e.left)
      meta.createDiv({
        cls: 'vault-mcp-activity-left',
        text: `${e.left} change${e.left === 1 ? '' : 's'} left as the note has ${e.left === 1 ? 'it' : 'them'} now`,
      });
    if (!reverted) {
      const button = header.createDiv({ cls: 'vault-mcp-activity-actions' }).createEl('button', { text: e.reverts ? 'Redo' : 'Revert' });
      button.setAttribute('aria-label', e.reverts ? `Redo what ${e.id} reverted` : `Revert ${kindWord(e)} of ${e.path}`);
      button.addEventListener('click', () => void this.revertOne(e.id));
    }
    const preview = el.createDiv({ cls: 'vault-mcp-activity-preview' });
    let lines = this.previews.get(e);
    if (!lines) this.previews.set(e, (lines = diffPreview(e, PREVIEW_LINES)));
    for (const line of lines) {
      const sign = line.kind === 'removed' ? '− ' : line.kind === 'inserted' ? '+ ' : line.kind === 'context' ? '  ' : '';
      const cls = {
        head: 'vault-mcp-diff-head',
        removed: 'vault-mcp-diff-removed',
        inserted: 'vault-mcp-diff-inserted',
        message: 'vault-mcp-diff-message',
        context: 'vault-mcp-diff-context',
        more: 'vault-mcp-diff-more',
      }[line.kind];
      // Written out (visibleText): a bidi override would reorder the line the user judges.
      preview.createDiv({ cls: `vault-mcp-diff-line ${cls}`, text: `${sign}${visibleText(line.text)}` });
    }
  }

  private async revertOne(id: string): Promise<void> {
    new Notice(`Vault MCP: ${(await this.reverts.revert(id)).message}`);
  }

  private async revertMany(entries: ActivityEntry[]): Promise<void> {
    const outcomes: RevertOutcome[] = await this.reverts.revertAll(entries);
    const done = outcomes.filter((o) => o.reverted).length;
    const refused = outcomes.filter((o) => !o.reverted).map((o) => o.message);
    new Notice(
      `Vault MCP: reverted ${done} of ${outcomes.length} change${outcomes.length === 1 ? '' : 's'}.${refused.length ? ` ${refused.join(' ')}` : ''}`,
    );
  }

  /** Opens the note in the main area; a Notice when nothing is at `path` now. */
  private async openNote(path: string): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) {
      new Notice(`Vault MCP: '${path}' is not in the vault now.`);
      return;
    }
    await this.app.workspace.getLeaf(false).openFile(file);
  }
}
