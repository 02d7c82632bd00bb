import { debounce, MarkdownView, Notice, TFile, type WorkspaceLeaf } from 'obsidian';
import { SidebarListView } from '../sidebar-view';
import type { ProposalReview } from '../../proposals/review/proposal-review';
import type { LiveState } from '../../proposals/proposal-state';
import type { ProposalStore } from '../../proposals/store/proposal-store';
import { hunkAsLines, noteLines } from '../../diff/hunk-lines';
import { proposalSummary } from '../../proposals/proposal-summary';
import { visibleText } from '../../diff/visible-text';
import type { Proposal } from '../../proposals/types';
import { decideProposal } from './review-commands';

/** The view type of the Pending changes view (`registerView`). */
export const PENDING_VIEW_TYPE = 'vault-mcp-pending';

/** The Pending changes view's type, title, icon (Lucide `git-pull-request-arrow`) and command. */
export const PENDING_VIEW = {
  type: PENDING_VIEW_TYPE,
  title: 'Pending changes',
  icon: 'git-pull-request-arrow',
  commandId: 'open-pending-changes',
};

/** Lines of a hunk's removed or proposed text shown in the preview before "…". */
const PREVIEW_LINES = 12;

/**
 * How long the view waits after a vault change before it judges the proposals again, ms: a
 * burst of changes (a sync, a folder moved) redraws once, at most this late.
 */
export const PENDING_LIVE_DELAY_MS = 150;

/**
 * Where a pending proposal stands now, as the view shows it: why it is stale (nothing of it can
 * be applied: Accept is not offered), null while it applies; and which of its undecided hunks no
 * longer apply (Accept skips them).
 */
interface Standing {
  stale: string | null;
  staleHunks: Set<number>;
}

/**
 * The Pending changes view (an Obsidian ItemView in the right sidebar): every pending
 * proposal grouped by note — edits, property changes, creates, moves, deletes, folders —
 * with who proposed it, a diff preview, Accept and Reject. A proposal that no longer applies
 * (its note changed where it would go, went away, or the move or create target is taken: the
 * check the terminal's listing and every accept make, ProposalReview.liveState) carries a
 * "Stale" badge with the reason and offers only Reject; a hunk that alone no longer applies is
 * marked so. Clicking a hunk opens the note at that line, where the inline review shows it.
 * Redraws when proposals change, and (debounced, {@link PENDING_LIVE_DELAY_MS}) when the vault or
 * the keys' settings change (ProposalReview.onLiveChange), so staleness shows as it happens.
 */
export class PendingChangesView extends SidebarListView {
  /** Counts draws begun; a draw whose judging finished after a newer one began is dropped. */
  private generation = 0;

  /**
   * @param leaf the workspace leaf Obsidian gives the view.
   * @param proposals the store it lists. @param review what Accept / Reject call, and the
   *   check of where each proposal stands.
   */
  constructor(
    leaf: WorkspaceLeaf,
    private readonly proposals: ProposalStore,
    private readonly review: ProposalReview,
  ) {
    super(leaf, { ...PENDING_VIEW, onChange: (listener) => followPending(proposals, review, listener) });
  }

  /**
   * Draws the list anew from the store once every pending proposal is judged (cheap: proposals
   * are few and previews are capped). Returns at once; the draw follows.
   */
  override render(): void {
    void this.draw();
  }

  /** Judges every pending proposal ({@link standingOf}), then draws them, unless a newer draw began meanwhile. */
  private async draw(): Promise<void> {
    const generation = ++this.generation;
    const pending = this.proposals.pending();
    const standings = await Promise.all(pending.map((p) => this.standingOf(p)));
    if (generation !== this.generation) return;
    const root = this.contentEl;
    root.empty();
    root.addClass('vault-mcp-pending');
    const stale = standings.filter((s) => s.stale !== null).length;
    root.createDiv({
      cls: 'vault-mcp-pending-title',
      text: pending.length
        ? `${pending.length} pending change${pending.length === 1 ? '' : 's'}${stale ? ` (${stale} stale)` : ''}`
        : 'No pending changes',
    });
    if (pending.length === 0) {
      root.createEl('p', {
        cls: 'vault-mcp-pending-empty',
        text: 'Changes that agents propose with a propose-mode key wait here and inline in the editor until you accept or reject them.',
      });
      return;
    }
    const byNote = new Map<string, Array<[Proposal, Standing]>>();
    pending.forEach((p, i) => byNote.set(p.path, [...(byNote.get(p.path) ?? []), [p, standings[i]]]));
    for (const [path, list] of byNote) {
      const group = root.createDiv({ cls: 'vault-mcp-pending-note' });
      const title = group.createEl('a', { cls: 'vault-mcp-pending-path', text: path, href: '#' });
      title.addEventListener('click', (event) => {
        event.preventDefault();
        void this.openAt(path, 0);
      });
      for (const [p, standing] of list) this.renderProposal(group.createDiv({ cls: 'vault-mcp-proposal' }), p, standing);
    }
  }

  /**
   * Where `p` stands now: ProposalReview.liveState read as the terminal's listing and
   * proposal_status read it (proposalSummary: stale when its note is gone, the vault refuses it,
   * a delete's note changed, or every undecided hunk no longer applies).
   */
  private async standingOf(p: Proposal): Promise<Standing> {
    let live: LiveState | null;
    try {
      live = await this.review.liveState(p);
    } catch (err) {
      // A bug, not a refusal: the card is shown as staged.
      console.error('Vault MCP:', err);
      live = null;
    }
    const summary = proposalSummary(p, this.proposals.hunksOf(p), live) as { status: Proposal['status']; stale_reason?: string };
    const staleHunks = new Set(live?.placed.filter((h) => h.stale).map((h) => h.index));
    return { stale: summary.status === 'stale' ? (summary.stale_reason ?? '') : null, staleHunks };
  }

  private renderProposal(el: HTMLElement, p: Proposal, standing: Standing): void {
    el.dataset.proposalId = p.id;
    el.toggleClass('is-stale', standing.stale !== null);
    const header = el.createDiv({ cls: 'vault-mcp-proposal-header' });
    const meta = header.createDiv({ cls: 'vault-mcp-proposal-meta' });
    const who = meta.createDiv({ cls: 'vault-mcp-proposal-who' });
    who.createSpan({ cls: 'vault-mcp-proposal-label', text: p.key_label });
    who.createSpan({ cls: ['vault-mcp-proposal-kind', `mod-${p.kind}`], text: describeKind(p) });
    if (standing.stale !== null) who.createSpan({ cls: 'vault-mcp-proposal-stale', text: 'Stale' });
    const created = new Date(p.created_at);
    const detail = meta.createDiv({
      cls: 'vault-mcp-proposal-detail',
      text: `via ${p.tool} · ${created.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`,
    });
    detail.setAttribute('title', created.toLocaleString());
    // Written out (visibleText): the reason names the agent's paths.
    if (standing.stale !== null) meta.createDiv({ cls: 'vault-mcp-proposal-stale-reason', text: visibleText(standing.stale) });
    const actions = header.createDiv({ cls: 'vault-mcp-proposal-actions' });
    // A stale proposal offers only Reject, as the terminal's "stale: only reject" and the inline review's stale hunks do.
    if (standing.stale === null) {
      const accept = actions.createEl('button', { cls: 'mod-cta', text: 'Accept' });
      accept.setAttribute('aria-label', `Accept the change from ${p.key_label}`);
      accept.addEventListener('click', () => void this.decide('accept', p.id));
    }
    const reject = actions.createEl('button', { text: 'Reject' });
    reject.setAttribute('aria-label', `Reject the change from ${p.key_label}`);
    reject.addEventListener('click', () => void this.decide('reject', p.id));
    this.renderPreview(el.createDiv({ cls: 'vault-mcp-proposal-preview' }), p, standing);
  }

  /**
   * The proposal's preview: why it was held (Proposal.reason), then its change — a move's target
   * and the notes whose links Obsidian updates with it, a delete's text going to the trash, a
   * new note's text, an edit's hunks (one that no longer applies, in a proposal that still
   * does, marked stale: Accept skips it).
   */
  private renderPreview(el: HTMLElement, p: Proposal, standing: Standing): void {
    if (p.reason !== undefined) el.createDiv({ cls: 'vault-mcp-diff-line vault-mcp-diff-message', text: `Held for review: ${p.reason}` });
    if (p.kind === 'move') {
      el.createDiv({ cls: 'vault-mcp-diff-line', text: visibleText(`→ ${p.to}`) });
      const linkers = this.review.linkersOf(p);
      if (linkers.length) {
        el.createDiv({
          cls: 'vault-mcp-diff-line vault-mcp-diff-message',
          text: `Links to it updated in ${linkers.length} other note${linkers.length === 1 ? '' : 's'}:`,
        });
        diffLines(el, linkers.join('\n'), 'context');
      }
      return;
    }
    if (p.kind === 'delete') {
      el.createDiv({ cls: 'vault-mcp-diff-line vault-mcp-diff-removed vault-mcp-diff-message', text: 'The whole note goes to the trash:' });
      diffLines(el, noteLines(p.base_text ?? ''), 'removed');
      return;
    }
    if (p.kind === 'folder') {
      el.createDiv({ cls: 'vault-mcp-diff-line vault-mcp-diff-message', text: 'A new folder.' });
      return;
    }
    if (p.kind === 'create') {
      diffLines(el, noteLines(p.proposed_text ?? ''), 'inserted');
      return;
    }
    const hunks = this.proposals.hunksOf(p).filter((h) => p.decisions[h.index] === undefined);
    for (const h of hunks) {
      // As lines of the note: a break ending the line before the hunk is no empty line (hunkAsLines).
      const shown = hunkAsLines(p.base_text ?? '', h);
      const block = el.createDiv({ cls: 'vault-mcp-diff-hunk' });
      const skipped = standing.stale === null && standing.staleHunks.has(h.index);
      const head = block.createEl('a', {
        cls: 'vault-mcp-diff-head',
        text: skipped ? `Line ${shown.line} · stale: Accept skips it` : `Line ${shown.line}`,
        href: '#',
      });
      block.toggleClass('is-stale', skipped);
      head.addEventListener('click', (event) => {
        event.preventDefault();
        void this.openAt(p.path, shown.line - 1);
      });
      diffLines(block, shown.removed, 'removed');
      diffLines(block, shown.inserted, 'inserted');
    }
  }

  private async decide(verdict: 'accept' | 'reject', id: string): Promise<void> {
    new Notice(`Vault MCP: ${await decideProposal({ proposals: this.proposals, review: this.review }, verdict, id)}`);
  }

  /** Opens the note in the main area with the cursor on `line` (0-based), where the inline review shows its hunks. */
  private async openAt(path: string, line: number): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) {
      new Notice(`Vault MCP: '${path}' does not exist (yet).`);
      return;
    }
    const leaf = this.app.workspace.getLeaf(false);
    await leaf.openFile(file);
    if (leaf.view instanceof MarkdownView) {
      leaf.view.editor.setCursor({ line, ch: 0 });
      leaf.view.editor.scrollIntoView({ from: { line, ch: 0 }, to: { line, ch: 0 } }, true);
    }
  }
}

/**
 * Subscribes `listener` (the view's redraw) to the proposals changing, at once, and to what can
 * change where they stand (ProposalReview.onLiveChange: the vault, the keys' settings), debounced
 * by {@link PENDING_LIVE_DELAY_MS} and only while some proposal is pending.
 * @returns a function that unsubscribes (and drops a redraw still waiting).
 */
function followPending(proposals: ProposalStore, review: ProposalReview, listener: () => void): () => void {
  const later = debounce(listener, PENDING_LIVE_DELAY_MS);
  const offProposals = proposals.onChange(listener);
  const offLive = review.onLiveChange(() => {
    if (proposals.pending().length > 0) later();
  });
  return () => {
    offProposals();
    offLive();
    later.cancel();
  };
}

/** "edit", "property change", "new note", "move", "delete", "new folder". */
function describeKind(p: Proposal): string {
  return { edit: 'edit', properties: 'property change', create: 'new note', move: 'move', delete: 'delete', folder: 'new folder' }[p.kind];
}

/** Appends up to PREVIEW_LINES lines of `text` as diff lines of one side (`context`: listed paths, no sign). */
function diffLines(el: HTMLElement, text: string, side: 'removed' | 'inserted' | 'context'): void {
  if (text === '') return;
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const sign = { removed: '− ', inserted: '+ ', context: '  ' }[side];
  for (const line of lines.slice(0, PREVIEW_LINES)) {
    // Written out (visibleText): a bidi override would reorder the line the user judges.
    el.createDiv({ cls: `vault-mcp-diff-line vault-mcp-diff-${side}`, text: `${sign}${visibleText(line)}` });
  }
  if (lines.length > PREVIEW_LINES)
    el.createDiv({ cls: 'vault-mcp-diff-line vault-mcp-diff-more', text: `… ${lines.length - PREVIEW_LINES} more lines` });
}
