import { quoteInput, ToolError } from '../../errors';
import { WIDGET_WRITE_TOOL } from '../../vault/widgets/widget-store';
import { isOpen, NOTE_GONE, staleRefusal, type LiveState } from '../proposal-state';
import { entryRequest, ProposalAcceptance, refusedNow, staleReason, type AcceptOutcome } from './proposal-acceptance';
import { liveStaleReason } from '../proposal-summary';
import type { Proposal, ReviewHunk } from '../types';

/**
 * The user's side of propose mode: accept or reject a proposal or one of its hunks.
 * Acceptance re-checks what staging checked, for the proposing key (its label and roots):
 * access rules, quarantine, roots, protected frontmatter keys, expected_hash. Text hunks are
 * placed three-way on the note as it is now; a hunk that no longer applies is never applied
 * (it stays for the user to reject). A change the vault refuses now (access rules, roots,
 * quarantine, a target taken, the note out of the key's reach) reads stale with the reason as it
 * is now, in the listings and in a refused accept alike, and pending again once the cause is
 * gone (nothing of that is saved: {@link liveState} judges it each time). A revoked key's
 * proposal, and one whose note was deleted, are stale for good (ProposalStore.settle): listed
 * until the user rejects them, never accepted. Applying an accept is the layer below
 * (ProposalAcceptance), which also holds the constructor.
 */
export class ProposalReview extends ProposalAcceptance {
  /** Listeners of {@link onLiveChange} told of settings changes ({@link accessChanged}). */
  private readonly accessListeners = new Set<() => void>();

  /**
   * Whether a pending proposal can be applied now, and where it stands: the one check that
   * the listings (proposals, show, proposal_status) and every accept (terminal, Pending view,
   * CLI, `accept all`) share, so a proposal listed as stale is never applied and one listed as
   * pending is not refused for a reason the listing did not give. A text proposal's note is read
   * as accepting reads it (NoteWriter.currentText: a note the key may still write) and its
   * undecided hunks placed on that text; a create / move / delete / folder is prepared again
   * as accepting prepares it (NoteWriter.prepare, nothing written), so a folder move is judged
   * as a folder, a move or create onto a path taken since is refused, and a delete's note must
   * still be the text proposed for the trash.
   * @returns `gone` when the note (or folder) was deleted, became invisible to the key, or the
   *   key was revoked (then with `refused`, the revocation's reason); `refused` with the reason when the vault refuses the change now for
   *   another cause; `baseChanged` for a delete whose note changed; null for decided and stale
   *   proposals (a stale one stays stale, with its `stale_reason`, whatever the vault does) and staged widgets (WidgetStore.acceptStaged checks those when accepting).
   * @throws what the vault throws that is not a ToolError (a bug, not a refusal).
   */
  async liveState(p: Proposal): Promise<LiveState | null> {
    if (p.status !== 'pending' || (p.kind === 'create' && p.tool === WIDGET_WRITE_TOOL)) return null;
    const revoked = this.revokedReason(p);
    if (revoked) return { ...NOTE_GONE, refused: revoked };
    const scope = this.scopeOf(p);
    try {
      if (p.kind === 'edit' || p.kind === 'properties') {
        const text = await this.notes.writes.currentText(p.path, scope);
        return { gone: false, placed: this.store.placedHunks(p, text), baseChanged: false };
      }
      const prepared = await this.notes.writes.prepare(entryRequest(p), scope);
      return { gone: false, placed: [], baseChanged: prepared.kind === 'delete' && prepared.baseHash !== p.base_hash };
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      if (err.code === 'not_found' && p.kind !== 'create' && p.kind !== 'folder') return NOTE_GONE;
      return { gone: false, placed: [], baseChanged: false, refused: staleReason(err, p, this.keySight(p.key_id)) };
    }
  }

  /**
   * Subscribes to what can change where a pending proposal stands ({@link liveState}) or which
   * notes link to a pending move ({@link linkersOf}) without the proposals changing: a note
   * created, changed (its text, or its access rules once parsed), deleted or renamed
   * (NoteStore.onNoteChange); another file or a folder created, deleted or renamed (a path a
   * create, folder or move would take); and the settings a key's reach depends on
   * ({@link accessChanged}: a key revoked, its roots, the quarantine list). The listener is
   * called once per change, synchronously: a view that redraws on it debounces itself.
   * @returns a function that unsubscribes.
   */
  onLiveChange(listener: () => void): () => void {
    const offs = [
      this.notes.onNoteChange(() => listener()),
      this.notes.onOtherFileChange(() => listener()),
      this.notes.onFolderChange(() => listener()),
    ];
    this.accessListeners.add(listener);
    return () => {
      this.accessListeners.delete(listener);
      for (const off of offs) off();
    };
  }

  /**
   * Call after the settings were saved or reloaded: a key may have been revoked or its roots, or
   * the quarantine list, changed, so a pending proposal may stand otherwise now; tells the
   * {@link onLiveChange} listeners.
   */
  accessChanged(): void {
    for (const listener of this.accessListeners) listener();
  }

  /**
   * The notes that link to what the pending move `p` would move (its note, or any file in its
   * folder), from Obsidian's link index now (`metadataCache.resolvedLinks`, NoteStore.notesLinkingInto):
   * Obsidian updates their links when the move is accepted (fileManager.renameFile), so their text
   * changes too. The moved note itself is left out. Every note is named, whatever the key may
   * see: this is for the user reviewing the move.
   * @returns vault paths in the index's order; empty for other kinds, decided proposals, or a
   *   source that is gone.
   */
  linkersOf(p: Proposal): string[] {
    if (p.kind !== 'move' || p.status !== 'pending') return [];
    const entry = this.notes.policy.entryAt(p.path);
    if (!entry) return [];
    return this.notes
      .notesLinkingInto(entry)
      .map((f) => f.path)
      .filter((path) => path !== entry.path);
  }

  /**
   * Accepts a pending proposal: every undecided hunk that still applies (a text proposal),
   * or the create / move / delete / folder itself (a staged widget is created through
   * NoteStore.widgets, which checks it again). A stale proposal is never applied: the outcome
   * is the proposal as it is, stale, nothing applied. A proposal the vault refuses now is not
   * applied either and stays pending in the store (judged again later, see refusedNow).
   * @param hunkIndex accept only this hunk of a text proposal (its index in proposal_status).
   * @returns what was applied; `proposal` reads `stale` with the reason when nothing could be.
   * @throws Error when the proposal does not exist or is decided, or the hunk is not
   *   an undecided hunk of it (a user mistake: the message says which); WriterLockedError
   *   while another plugin instance writes the proposals (nothing is applied).
   */
  async accept(id: string, hunkIndex?: number): Promise<AcceptOutcome> {
    await this.store.ensureWriter();
    const p = this.openProposal(id);
    if (p.status === 'stale') return { proposal: p, applied: 0, stale: 1 };
    const revoked = this.revokedReason(p);
    if (revoked) return { proposal: await this.store.settle(id, 'stale', revoked), applied: 0, stale: 1 };
    if (hunkIndex !== undefined && p.kind !== 'edit' && p.kind !== 'properties')
      throw new Error(`Proposal '${id}' is a ${p.kind}, which has no hunks; accept it whole.`);
    // The check the listings show: a proposal they call stale is refused with their reason, never applied.
    const live = await this.liveState(p);
    const unavailable = live !== null && (live.gone || live.baseChanged || live.refused !== undefined);
    if (unavailable) return refusedNow(p, liveStaleReason(p, live), 1);
    if (p.kind === 'edit' || p.kind === 'properties') return this.acceptText(p, hunkIndex);
    return this.store.whileAccepting(id, () => this.acceptEntry(p));
  }

  /**
   * Rejects undecided hunks of text proposals together (the editor's Reject all: every hunk it
   * shows), recorded in one decision, one write of the proposals file (ProposalStore.rejectHunks):
   * all are recorded or none. The vault is not touched.
   * @throws Error as {@link reject} for any of them (then none is recorded).
   */
  async rejectHunks(hunks: ReadonlyArray<{ proposalId: string; index: number }>): Promise<Proposal[]> {
    await this.store.ensureWriter();
    const byProposal = new Map<string, number[]>();
    for (const h of hunks) {
      this.assertUndecided(this.openProposal(h.proposalId), h.index);
      byProposal.set(h.proposalId, [...(byProposal.get(h.proposalId) ?? []), h.index]);
    }
    return this.store.rejectHunks(byProposal);
  }

  /**
   * Rejects a pending or stale proposal (how the user dismisses a stale one), or one undecided
   * hunk of a text proposal. The vault is not touched.
   * @throws Error as {@link accept}.
   */
  async reject(id: string, hunkIndex?: number): Promise<Proposal> {
    await this.store.ensureWriter();
    const p = this.openProposal(id);
    if (hunkIndex === undefined) return this.store.settle(id, 'rejected');
    this.assertUndecided(p, hunkIndex);
    return this.store.decideHunks(id, [hunkIndex], 'rejected');
  }

  /**
   * The hunks to show inline for the note at `path` whose editor text is `text`
   * (ProposalStore.reviewHunks), with every hunk of a proposal whose key may no longer write
   * the note (access rules, roots) marked stale, so it can only be rejected.
   */
  reviewHunks(path: string, text: string): ReviewHunk[] {
    const refused = new Set<string>();
    for (const p of this.store.pendingOn(path)) {
      if (p.status !== 'pending' || this.revokedReason(p)) {
        refused.add(p.id);
        continue;
      }
      try {
        this.notes.writes.checkExactText(path, text, text, this.scopeOf(p));
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        refused.add(p.id);
      }
    }
    const hunks = this.store.reviewHunks(path, text);
    return refused.size ? hunks.map((h) => (refused.has(h.proposalId) ? { ...h, stale: true } : h)) : hunks;
  }

  /**
   * Records a hunk the user accepted in the editor, which already applied it as an undoable
   * transaction, after the same checks as {@link accept} on the text before and after it, and
   * saves the editor to the note at once, judged on the disk right before
   * (NoteWriter.saveAcceptedInEditor), so no save 2 s later carries it through a link swapped in meanwhile.
   * @param hunk the hunk as placed before the change; @param textAfter the editor's text after it.
   * @throws ToolError when the key may no longer write the note, a protected property
   *   would change, the note on disk is not UTF-8 text, or its path no longer holds the file
   *   judged (a symbolic link swapped in): nothing is saved and the editor reverts the change;
   *   Error when the hunk is not undecided.
   */
  async acceptedInEditor(hunk: ReviewHunk, textAfter: string): Promise<Proposal> {
    await this.store.ensureWriter();
    const p = this.pendingProposal(hunk.proposalId);
    this.assertUndecided(p, hunk.index);
    const before = textAfter.slice(0, hunk.from) + hunk.removed + textAfter.slice(hunk.from + hunk.inserted.length);
    this.notes.writes.checkExactText(p.path, before, textAfter, this.scopeOf(p));
    // Decided and saved first; the editor then saved at once, judged on the disk right before (not by Obsidian's own save 2 s
    // later, which nothing judges), the decision taken back when that save fails (ProposalStore.decide).
    const decided = await this.store.decideHunks(p.id, [hunk.index], 'accepted', () =>
      this.notes.writes.saveAcceptedInEditor(p.path, this.scopeOf(p)),
    );
    this.notes.applied.report(
      { kind: p.kind === 'properties' ? 'properties' : 'edit', tool: p.tool, path: p.path, before, after: textAfter },
      this.scopeOf(p, [hunk.index]),
    );
    return decided;
  }

  /**
   * Records that the user undid, in the editor, the accept of `hunk` (Ctrl+Z): it awaits
   * review again (ProposalStore.reopenHunk). The vault is not touched: the editor already
   * restored the text.
   * @throws Error as ProposalStore.reopenHunk.
   */
  async reopenedInEditor(hunk: ReviewHunk): Promise<Proposal> {
    return this.store.reopenHunk(hunk.proposalId, hunk.index);
  }

  /** The open (pending or stale) proposal `id`. @throws Error when there is none or it is decided. */
  private openProposal(id: string): Proposal {
    const p = this.store.get(id);
    if (!p) throw new Error(noSuchProposal(id));
    if (!isOpen(p)) throw new Error(`Proposal '${id}' is already ${p.status.replace('_', ' ')}.`);
    return p;
  }

  /** The pending proposal `id`, one that may be accepted. @throws Error as {@link openProposal}, or when it is stale. */
  private pendingProposal(id: string): Proposal {
    const p = this.openProposal(id);
    if (p.status === 'stale') throw new Error(staleRefusal(p));
    return p;
  }
}

/** The answer for an unknown proposal id, in the terminal and the CLI alike. */
export function noSuchProposal(id: string): string {
  return `No proposal ${quoteInput(id)}; list the pending ones with "proposals" (vault-mcp:proposals in Obsidian's CLI) or the Pending changes view.`;
}
