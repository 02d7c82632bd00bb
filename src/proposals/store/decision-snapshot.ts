import type { Proposal } from '../types';

/**
 * What a decision changes on a proposal (ProposalDecisions: settle, decideHunks, rejectHunks, reopenHunk):
 * its status, its hunk decisions, when it was resolved, its texts (dropped once decided) with the
 * hunk count kept instead, and why it is stale. Its path, which a rename of its note changes while
 * a decision is saved, is not among them.
 */
const DECISION_FIELDS = ['status', 'decisions', 'resolved_at', 'hunk_total', 'base_text', 'proposed_text', 'stale_reason'] as const;

/** The decision fields of a proposal as they were at one moment ({@link decisionSnapshot}). */
export type DecisionSnapshot = Readonly<Partial<Pick<Proposal, (typeof DECISION_FIELDS)[number]>>>;

/**
 * The decision fields of `p` now (its `decisions` copied), for {@link restoreDecision} to put back
 * when the decision made on it afterwards cannot be saved.
 * @returns a snapshot that later changes to `p` do not alter; an absent optional field stays absent.
 */
export function decisionSnapshot(p: Proposal): DecisionSnapshot {
  const snapshot: Record<string, unknown> = {};
  for (const field of DECISION_FIELDS) if (p[field] !== undefined) snapshot[field] = p[field];
  snapshot.decisions = { ...p.decisions };
  return snapshot;
}

/**
 * Puts the decision fields of `snapshot` back on `p`, in place (the store and its listeners hold
 * that object): a field the snapshot lacks is removed, so `p` reads exactly as it did then.
 */
export function restoreDecision(p: Proposal, snapshot: DecisionSnapshot): void {
  const target = p as unknown as Record<string, unknown>;
  for (const field of DECISION_FIELDS) {
    if (field in snapshot) target[field] = field === 'decisions' ? { ...snapshot.decisions } : snapshot[field];
    else delete target[field];
  }
}
