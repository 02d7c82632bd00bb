import * as z from 'zod';
import { ToolError } from '../../errors';
import { proposalSummary } from '../../proposals/proposal-summary';
import { NOTE_GONE } from '../../proposals/proposal-state';
import type { Proposal } from '../../proposals/types';
import { defineTool, type ToolContext } from '../tool';
import { agentActivity } from '../../activity/agent-activity';
import { arrayOf, INTEGER, objectOf, STRING } from '../output-schema';

/**
 * One proposal as proposal_status shows it (proposal-summary.ts), in `$defs` since both the
 * one-proposal and the list answer hold it.
 */
const PROPOSAL_SCHEMA = objectOf({ id: STRING, status: { enum: ['pending', 'accepted', 'partly_accepted', 'rejected', 'stale'] } }, [
  'id',
  'status',
]);
const PROPOSAL_REF = { $ref: '#/$defs/proposal' };

/** How many of its proposals proposal_status lists without an id (newest first). */
const LIST_LIMIT = 50;

/**
 * `proposal_status`: the state of the proposals this key staged (pending, accepted, partly
 * accepted, rejected, stale), never another key's (docs/architecture.md#proposals), and never the
 * path a note moved to that the key may not see (see summarize); with `activity`,
 * this key's entries of the agent activity log instead (docs/architecture.md#agent-activity; see
 * activity/agent-activity.ts). One tool for both keeps tools/list within its budget.
 */
export const proposalStatusTool = defineTool({
  name: 'proposal_status',
  title: 'Proposal status',
  description:
    'Your proposals (pending, accepted, partly_accepted, rejected, stale; hunk counts): id for one, else your ' +
    `${LIST_LIMIT} newest. activity: true lists your applied changes (diffs, reverts) instead.`,
  kind: 'read',
  inputSchema: {
    id: z.string().max(64).optional().describe('A proposal_id a write tool returned.'),
    activity: z.boolean().optional().describe('Your activity log.'),
  },
  outputSchema: {
    ...objectOf({ proposal: PROPOSAL_REF, proposals: arrayOf(PROPOSAL_REF), total: INTEGER }),
    $defs: { proposal: PROPOSAL_SCHEMA },
  },
  annotations: { title: 'Proposal status', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    if (args.activity === true) {
      if (args.id !== undefined)
        throw new ToolError('invalid_argument', 'Give id or activity, not both: activity lists every change of yours.');
      if (!ctx.activity) throw new ToolError('unavailable', 'This vault keeps no activity log.');
      await ctx.activity.refresh();
      return agentActivity(ctx.activity, ctx.notes, ctx.caller.id, ctx.scope, LIST_LIMIT);
    }
    await ctx.proposals.refresh();
    if (args.id !== undefined) {
      const p = ctx.proposals.get(args.id.trim());
      if (!p || p.key_id !== ctx.caller.id) {
        throw new ToolError('not_found', `No proposal '${args.id}' from this key; call proposal_status without id to list yours.`);
      }
      return { proposal: await summarize(p, ctx) };
    }
    const mine = ctx.proposals
      .all()
      .filter((p) => p.key_id === ctx.caller.id)
      .reverse();
    const shown = mine.slice(0, LIST_LIMIT);
    return {
      proposals: await Promise.all(shown.map((p) => summarize(p, ctx))),
      total: mine.length,
      ...(mine.length > shown.length ? { note: `Showing the ${LIST_LIMIT} newest of ${mine.length}; ask for an older one by id.` } : {}),
    };
  },
});

/**
 * A proposal's summary as the calling key may see it now: checked against the vault
 * (ProposalReview.liveState) while the key may read the note at the proposal's path. A pending
 * proposal follows its note when it is renamed, so that path can be a place the key never named
 * and may not see (moved out of its roots or into a quarantined folder, renamed and then made
 * private); then, and when the note was deleted, the key is told only what it knew: the staged
 * path, and `stale` with the deleted note's reason (proposalSummary's `hidden`), as the activity
 * log shows `hidden` for an entry whose note the key may not see (activity/agent-activity.ts).
 * A create or folder, or a move of no note (a folder's, or a note's since deleted), still at the
 * path the key named (any, in a file from before `staged_path`) is shown as it is: nothing of the
 * vault is at stake, and its state is what the write tool itself would answer now (liveState
 * prepares it again for the key).
 */
async function summarize(p: Proposal, ctx: ToolContext): Promise<Record<string, unknown>> {
  const file = ctx.notes.fileByPath(p.path);
  const visible =
    ((p.kind === 'create' || p.kind === 'folder' || (p.kind === 'move' && file === null)) && p.path === (p.staged_path ?? p.path)) ||
    (file !== null && ctx.notes.canRead(file, ctx.scope));
  return proposalSummary(p, ctx.proposals.hunksOf(p), visible ? await ctx.review.liveState(p) : NOTE_GONE, !visible);
}
