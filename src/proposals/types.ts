/**
 * The plain-data shapes of propose mode (docs/architecture.md#proposals): a staged change and a hunk
 * under review (the hunks themselves are diff/types.ts's). No Obsidian objects, no
 * DOM: proposals are persisted as JSON and shown by editor/ and ui/.
 */
import type { PlacedHunk } from '../diff/types';

/** What a proposal changes (docs/architecture.md#proposals). */
export type ProposalKind = 'edit' | 'create' | 'delete' | 'move' | 'properties' | 'folder';

/**
 * Where a proposal stands: `pending` (some hunks await review), `accepted` (every hunk
 * accepted), `partly_accepted` (some accepted, the rest rejected), `rejected`, `stale` (the
 * note went away or changed so that nothing left can apply: it is never accepted and waits,
 * listed and counted with no `resolved_at`, until the user rejects it; one with `resolved_at`
 * was closed by an older version, proposal-state.ts isOpen).
 */
export type ProposalStatus = 'pending' | 'accepted' | 'partly_accepted' | 'rejected' | 'stale';

/** The user's decision on one hunk of a text proposal. */
export type HunkDecision = 'accepted' | 'rejected';

/**
 * A staged change, as persisted. Text kinds (`edit`, `properties`) carry the note as the
 * agent saw it (`base_text`, `base_hash`) and the text the agent wants (`proposed_text`);
 * both stay as staged, and `decisions` records the user's verdict per hunk index of
 * buildHunks(base_text, proposed_text); once decided, the texts are dropped (set to null) and
 * `hunk_total` keeps the hunk count. `create` carries `proposed_text` only; `delete` the
 * base; `move` carries `to`; `folder` only `path`. `key_roots` are the proposing key's roots
 * when staged, so acceptance re-checks the same confinement even if the key is gone.
 */
export interface Proposal {
  id: string;
  key_id: string;
  key_label: string;
  key_roots: string[];
  tool: string;
  kind: ProposalKind;
  /** The note or folder it is on now: a pending proposal follows renames of its note. */
  path: string;
  /**
   * The path as staged (the one the write tool's answer named to the key), never changed by a
   * rename: what the key is told when it may not see the note at `path` now
   * (proposal-status.ts). Absent in files written before it was kept.
   */
  staged_path?: string;
  to?: string;
  /**
   * The agent's expected_hash, when it gave one: at acceptance the note must still be that
   * text (plus hunks accepted from this proposal), else its hunks are stale / the move refused.
   */
  expected_hash?: string;
  base_hash: string | null;
  base_text: string | null;
  proposed_text: string | null;
  created_at: string;
  status: ProposalStatus;
  resolved_at?: string;
  decisions: Record<string, HunkDecision>;
  /** A decided text proposal's number of hunks (its texts are dropped once decided). */
  hunk_total?: number;
  /** Why the proposal is stale, in one sentence for the user and the agent. */
  stale_reason?: string;
  /**
   * Why a write that would otherwise have applied at once was staged (a force key's write to
   * agent instructions: write-gate.ts INSTRUCTIONS_REVIEW_REASON), shown in the review views.
   * Absent for a propose key's proposals, whose every write is staged.
   */
  reason?: string;
  /**
   * The MCP session the proposing write came in, when the client had one: an accept logs its
   * change under it (ProposalAcceptance.scopeOf), so `revert session` covers it. Absent in files
   * written before it was kept (such an accept is logged with no session).
   */
  session?: string;
}

/** A hunk to review in the editor: a placed hunk with its proposal's id and provenance. */
export interface ReviewHunk extends PlacedHunk {
  proposalId: string;
  keyLabel: string;
}
