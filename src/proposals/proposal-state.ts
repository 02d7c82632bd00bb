/**
 * What a proposal's state means, for the store, the review and the listings alike
 * (docs/propose-mode.md): whether it is still open, why it went stale, why a stale one is
 * refused, and where a pending one stands now. Plain functions over `Proposal`: no store, no vault.
 */
import type { PlacedHunk } from '../diff/types';
import type { Proposal } from './types';

/** Where a pending proposal stands now (see ProposalReview.liveState). */
export interface LiveState {
  gone: boolean;
  placed: PlacedHunk[];
  baseChanged: boolean;
  /**
   * Why the vault refuses the change now for another cause than its note being gone (the
   * target taken, the key no longer allowed to write there, the key revoked): the refusal as one
   * sentence, shown before the note-gone reason.
   */
  refused?: string;
}

/**
 * The state of a pending proposal whose note is gone: deleted, invisible to the key, or the key
 * revoked (ProposalReview.liveState; proposal_status for a note the asking key may not see).
 */
export const NOTE_GONE: LiveState = { gone: true, placed: [], baseChanged: false };

/**
 * Why a proposal whose note went away is stale. One wording whether the note was deleted or
 * became private to the key, so proposal_status cannot tell the two apart.
 * @param path the note's path as the key knows it; undefined when that is not known (a
 *   proposal from a file written before `staged_path` was kept), then no path is named.
 */
export function goneReason(path: string | undefined): string {
  const note = path === undefined ? 'The note' : `The note '${path}'`;
  return `${note} was deleted or is no longer available to this key, so this change cannot be applied.`;
}

/**
 * Whether a proposal still awaits the user: `pending`, or `stale` and not dismissed. A stale
 * proposal waits (listed, counted) until the user rejects it (docs/propose-mode.md); one with a
 * `resolved_at` was closed as stale by a version before that and stays closed.
 * @returns true for an open proposal, false for a decided one.
 */
export function isOpen(p: Proposal): boolean {
  return p.status === 'pending' || (p.status === 'stale' && p.resolved_at === undefined);
}

/**
 * Why an open stale proposal cannot be accepted, one sentence for the terminal, the CLI and
 * the editor: its reason and how to dismiss it.
 * @returns the sentence.
 */
export function staleRefusal(p: Proposal): string {
  const why = p.stale_reason ? ` ${p.stale_reason}` : '';
  return `Proposal '${p.id}' is stale and can never be accepted; reject it to dismiss it.${why}`;
}
