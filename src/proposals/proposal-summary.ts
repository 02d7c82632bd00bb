import { goneReason, type LiveState } from './proposal-state';
import { hunkAsLines, lineCount } from '../diff/hunk-lines';
import type { Hunk } from '../diff/types';
import type { Proposal } from './types';

/**
 * What agents see of proposals: compact JSON for the staged result of a write tool and for
 * proposal_status. Hunks are described by position and size, not repeated text, to keep
 * results short (the agent knows what it proposed).
 */

/** One hunk for an agent: its index, the 1-based line in the note where it starts, lines removed and added. */
export interface HunkSummary {
  index: number;
  line: number;
  removed_lines: number;
  added_lines: number;
}

/**
 * @returns the summaries of `hunks`, lines counted in `text` (the text their offsets refer to)
 *   as {@link hunkAsLines} gives them: `alpha` → `alpha\nbeta` is 1 line added at line 2.
 */
export function hunkSummaries(text: string, hunks: readonly Hunk[]): HunkSummary[] {
  return hunks.map((h) => {
    const { line, removed, inserted } = hunkAsLines(text, h);
    return { index: h.index, line, removed_lines: linesIn(removed), added_lines: linesIn(inserted) };
  });
}

/** Lines of a hunk side: its line breaks, plus one for a last line without one. */
function linesIn(side: string): number {
  return lineCount(side) + (side === '' || side.endsWith('\n') ? 0 : 1);
}

/**
 * The result a write tool returns for a `propose` key (docs/architecture.md#tool-contract):
 * `{status: 'pending', proposal_id, kind, path, to?, hunks?, message}`.
 */
export function stagedResult(p: Proposal, hunks: readonly Hunk[]): Record<string, unknown> {
  return {
    status: 'pending',
    proposal_id: p.id,
    kind: p.kind,
    path: p.path,
    ...(p.to !== undefined ? { to: p.to } : {}),
    ...(p.base_text !== null && p.proposed_text !== null ? { hunks: hunkSummaries(p.base_text, hunks) } : {}),
    message: 'Staged for the user to review; the vault is unchanged until they accept it. Check the outcome with proposal_status.',
  };
}

/**
 * A proposal's state for proposal_status and the terminal: its status as it is now and hunk
 * counts `{total, accepted, rejected, pending, stale}` (pending = undecided hunks that still
 * apply, stale = undecided hunks that no longer do). A pending proposal reads `stale` when
 * `live` says its note is gone, a delete's note changed, or every undecided hunk is stale.
 * @param hunks the staged hunks (ProposalStore.hunksOf); @param live ProposalReview.liveState.
 * @param hidden true when the summary is for a key that may not see the note at `p.path` now
 *   (proposal-status.ts, which passes NOTE_GONE as `live`): `path` is then the staged one
 *   (`staged_path`, left out when unknown), a stale one's reason is the deleted note's
 *   ({@link goneReason} of that path) and it has no `resolved_at`, so the answer is the same
 *   whether the note was deleted, moved away or closed to the key.
 * @returns plain data for a tool result or the terminal.
 */
export function proposalSummary(p: Proposal, hunks: readonly Hunk[], live: LiveState | null, hidden = false): Record<string, unknown> {
  const decisions = Object.values(p.decisions);
  const total = p.hunk_total ?? hunks.length;
  const undecided = total - decisions.length;
  const allStale = live !== null && live.placed.length > 0 && live.placed.every((h) => h.stale);
  const unavailable = live !== null && (live.gone || live.baseChanged || live.refused !== undefined);
  const liveStale = p.status === 'pending' && live !== null && (unavailable || allStale);
  const stale = p.status === 'stale' || unavailable ? undecided : (live?.placed.filter((h) => h.stale).length ?? 0);
  const status = liveStale ? 'stale' : p.status;
  const path = hidden ? p.staged_path : p.path;
  const reason =
    (hidden ? (status === 'stale' ? goneReason(path) : undefined) : p.stale_reason) ?? (liveStale ? liveStaleReason(p, live) : undefined);
  return {
    id: p.id,
    tool: p.tool,
    kind: p.kind,
    ...(path !== undefined ? { path } : {}),
    ...(p.to !== undefined ? { to: p.to } : {}),
    status,
    created_at: p.created_at,
    ...(p.resolved_at && !(hidden && status === 'stale') ? { resolved_at: p.resolved_at } : {}),
    ...(total
      ? {
          hunks: {
            total,
            accepted: decisions.filter((d) => d === 'accepted').length,
            rejected: decisions.filter((d) => d === 'rejected').length,
            pending: undecided - stale,
            stale,
          },
        }
      : {}),
    ...(reason ? { stale_reason: reason } : {}),
  };
}

/**
 * Why a pending proposal reads stale given where it stands now (ProposalReview.liveState), one
 * sentence for the user and the agent: the vault's refusal (the key revoked, too), the note gone, a delete's note
 * changed, or (a text proposal) every undecided hunk no longer applying. The same sentence in
 * the listings and in an accept that refuses it.
 */
export function liveStaleReason(p: Proposal, live: LiveState): string {
  if (live.refused !== undefined) return live.refused;
  if (live.gone) return goneReason(p.path);
  if (live.baseChanged) return 'The note changed after this delete was proposed; the user can only reject it.';
  if (p.expected_hash !== undefined) return EXPECTED_HASH_STALE;
  return 'The note changed where these changes would go; the user can only reject them. Propose again on the new text.';
}

/**
 * Why a proposal staged with `expected_hash` is stale once the note changed at all: the
 * agent asked for exactly the text it read (proposal-hunks.ts undecidedHunks).
 */
export const EXPECTED_HASH_STALE =
  'The note changed since the agent read it, and the change was proposed with expected_hash (for exactly that text), so none of it applies; the user can only reject it. Read the note again and propose anew.';
