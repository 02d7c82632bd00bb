import { applyHunks, buildHunks } from '../diff/hunks';
import { placeHunks } from '../diff/rebase';
import type { Hunk, PlacedHunk } from '../diff/types';
import type { Proposal } from './types';

/**
 * The hunks of a text proposal that still await the user's verdict, placed on the note's
 * current text. Accepted hunks are first applied to the staged base (so the base matches a
 * note that took them, and their neighbours are placed exactly, not seen as touched by them);
 * the undecided hunks shift onto that base and are then placed three-way on `current`.
 * A proposal staged with `expected_hash` asked for the exact note it read: once the note
 * differs from that text (plus the hunks accepted from it), every undecided hunk is stale.
 * @param p an `edit` or `properties` proposal (base_text and proposed_text set).
 * @param hunks buildHunks(p.base_text, p.proposed_text), passed in so callers can cache it.
 * @param current the note's text now (disk or the open editor's document).
 * @returns the undecided hunks, indexes as in `hunks`, offsets in `current`, `stale` set for
 *   those that can no longer apply.
 */
export function undecidedHunks(p: Proposal, hunks: readonly Hunk[], current: string): PlacedHunk[] {
  const base = p.base_text ?? '';
  const accepted = hunks.filter((h) => p.decisions[h.index] === 'accepted');
  const acceptedBase = accepted.length ? applyHunks(base, accepted) : base;
  const shifted: Hunk[] = [];
  let delta = 0;
  for (const h of hunks) {
    const decision = p.decisions[h.index];
    if (decision === 'accepted') delta += h.inserted.length - (h.to - h.from);
    else if (decision === undefined) shifted.push({ ...h, from: h.from + delta, to: h.to + delta });
  }
  // Appends to one note (a log, an inbox) each land, in the order accepted, after lines added at its end since.
  const placed = placeHunks(acceptedBase, current, shifted, { afterAppends: true });
  return p.expected_hash !== undefined && current !== acceptedBase ? placed.map((h) => ({ ...h, stale: true })) : placed;
}

/** Memoized buildHunks per proposal id: a proposal's base and proposed text never change. */
export class HunkCache {
  private readonly byId = new Map<string, Hunk[]>();

  /** @returns the hunks of `p` (empty for kinds without text). */
  of(p: Proposal): Hunk[] {
    let hunks = this.byId.get(p.id);
    if (!hunks) {
      hunks = p.base_text !== null && p.proposed_text !== null ? buildHunks(p.base_text, p.proposed_text) : [];
      this.byId.set(p.id, hunks);
    }
    return hunks;
  }

  /** Drops the cached hunks of a proposal that was removed. */
  forget(id: string): void {
    this.byId.delete(id);
  }
}
