import { ToolError } from '../../errors';
import type { PreparedWrite } from '../../vault/writes/write-types';
import type { Proposal } from '../types';

/** How many pending proposals one key may have; past it, staging asks the agent to wait for review. */
export const MAX_PENDING_PER_KEY = 100;
/** Total text (chars) the pending proposals may hold, base and proposed text summed. */
const MAX_PENDING_CHARS = 32 * 1024 * 1024;

/**
 * Refuses a proposal that would pass the per-key count ({@link MAX_PENDING_PER_KEY}) or the total
 * text size of pending proposals ({@link MAX_PENDING_CHARS}), so one agent cannot flood the
 * user's review or the plugin's memory.
 * @param pending every pending proposal
 * @param prepared the write about to be staged
 * @param keyId the staging key's id
 * @throws ToolError('unavailable') naming what to wait for; nothing is staged then
 */
export function assertRoomForProposal(pending: readonly Proposal[], prepared: PreparedWrite, keyId: string): void {
  if (pending.filter((p) => p.key_id === keyId).length >= MAX_PENDING_PER_KEY) {
    throw new ToolError(
      'unavailable',
      `This key already has ${MAX_PENDING_PER_KEY} changes waiting for the user's review; nothing was staged. Wait until they are reviewed (see proposal_status).`,
    );
  }
  const size = (p: { base_text: string | null; proposed_text: string | null }) =>
    (p.base_text?.length ?? 0) + (p.proposed_text?.length ?? 0);
  const incoming =
    ('baseText' in prepared ? prepared.baseText.length : 0) + ('proposedText' in prepared ? prepared.proposedText.length : 0);
  if (pending.reduce((sum, p) => sum + size(p), incoming) > MAX_PENDING_CHARS) {
    throw new ToolError(
      'unavailable',
      "The changes waiting for the user's review are too large in total; nothing was staged. Wait until they are reviewed (see proposal_status).",
    );
  }
}
