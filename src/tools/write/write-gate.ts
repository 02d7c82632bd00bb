import * as z from 'zod';
import { normalizeKeyMode } from '../../settings/key-record';
import { stagedResult } from '../../proposals/proposal-summary';
import type { WriteRequest } from '../../vault/writes/write-types';
import type { ToolContext } from '../tool';

/**
 * The one place that decides whether a write is applied or staged (docs/architecture.md#keys: a
 * `force` key's writes apply directly; `propose`, the default and what any unknown mode
 * means, stages them for review). Every write tool calls {@link submitWrite}.
 */

/** The optional `expected_hash` argument of every write tool that changes an existing note. */
export const expectedHashArg = z.string().optional().describe("read_note's hash; refused if the note changed since.");

/**
 * Validates `request` against the vault for the caller (paths, access rules, expected_hash,
 * anchors and headings, protected properties: the same checks in every mode), then applies
 * it for a `force` key or stages it as a proposal for a `propose` key (the vault is untouched
 * until the user accepts it in Obsidian).
 * @returns force: `{status: 'applied', path, hash, size_before, size_after, lines?, note?}`;
 *   propose: `{status: 'pending', proposal_id, path, hunks, message, note?}` (see stagedResult); `note` is
 *   the edit's remark (a property name matched to the note's own spelling).
 * @throws ToolError from validation or the write (nothing is written or staged).
 */
export async function submitWrite(ctx: ToolContext, request: WriteRequest): Promise<Record<string, unknown>> {
  if (normalizeKeyMode(ctx.caller.mode) === 'force') return { ...(await ctx.notes.writes.apply(request, ctx.scope)) };
  const prepared = await ctx.notes.writes.prepare(request, ctx.scope);
  const proposal = await ctx.proposals.stage(prepared, { id: ctx.caller.id, label: ctx.caller.label, roots: ctx.caller.roots ?? [] });
  const staged = stagedResult(proposal, ctx.proposals.hunksOf(proposal));
  return 'note' in prepared && prepared.note !== undefined ? { ...staged, note: prepared.note } : staged;
}
