import * as z from 'zod';
import { quoteInput, ToolError } from '../../errors';
import { unwrapWikilink, wikilinkSubpath } from '../../vault/paths/note-ref';
import { namesNotePath } from '../../vault/paths/paths';
import { normalizeKeyMode } from '../../settings/key-record';
import { stagedResult } from '../../proposals/proposal-summary';
import { Slicer } from '../../search/engine/slicer';
import { INSTRUCTION_PASS_SLICE_MS } from '../../vault/instructions/instruction-places';
import { skillsFolderOf } from '../../vault/skills-folder';
import { unchangedWrite, type HoldRule, type PreparedWrite, type WriteRequest } from '../../vault/writes/write-types';
import type { ToolContext } from '../tool';
import type { Proposal } from '../../proposals/types';
import { newPathOf, type ProposalClash } from '../../proposals/store/proposal-store';
import { joinRemarks } from '../../vault/remarks';

/**
 * The one place that decides whether a write is applied or staged (docs/architecture.md#keys: a
 * `force` key's writes apply directly; `propose`, the default and what any unknown mode
 * means, stages them for review), and where agent instructions are held for the user's review
 * in every mode (InstructionPlaces). Every write tool calls {@link submitWrite}.
 */

/**
 * What a content hash looks like (vault/hash.ts: SHA-256, 64 hex characters; the writers compare
 * it trimmed and in lower case): a value of another shape can match no text, and was answered
 * "changed since you read it" when nothing had.
 */
const CONTENT_HASH = /^\s*[0-9a-fA-F]{64}\s*$/;

/**
 * An `expected_hash` argument: a content hash ({@link CONTENT_HASH}), refused by its schema when
 * it is not one, naming what to pass. A refinement, not a `pattern`: tools/list stays as short
 * (tools-list-size.test.ts keeps it within 16,000 characters).
 * @param source where the caller got the hash (`read_note`, `widget_list`)
 */
export function hashArg(source: string): z.ZodString {
  return z
    .string()
    .refine((value) => CONTENT_HASH.test(value), `expected_hash must be the 64-character hex hash ${source} returned (or left out)`);
}

/** The optional `expected_hash` argument of every write tool that changes an existing note. */
export const expectedHashArg = hashArg('read_note').optional().describe("read_note's hash; refused if the note changed since.");

/**
 * Validates `request` against the vault for the caller (paths, access rules, expected_hash,
 * anchors and headings, protected properties: the same checks in every mode), then applies
 * it for a `force` key or stages it as a proposal for a `propose` key (the vault is untouched
 * until the user accepts it in Obsidian). A force key's write that would create, change, move
 * or delete agent instructions (an AGENTS.md / AGENT.md / AGENTS.override.md / CLAUDE.md /
 * GEMINI.md / QWEN.md anywhere, a folder by such a name, a file one of them imports (`@path`),
 * anything in the skills folder, the file or folder an in-vault symbolic link by such a name or in
 * the skills folder leads to, a hard link of one: InstructionPlaces.holds, at
 * every path the write changes, NoteWriter.pathsChangedBy) is staged too, with `reason`
 * ({@link INSTRUCTIONS_REVIEW_REASON}): those files instruct other agents, so a narrow key that
 * may write one could otherwise steer wider ones. A write that would leave the note's
 * text as it is (a property set to its current value, an anchor replaced by itself) stages
 * nothing: a proposal without hunks could only be rejected, and would count against the key's
 * pending quota.
 * @returns force: `{status: 'applied', path, hash, size_before, size_after, lines?, note?}`, or for
 *   agent instructions the pending answer with `reason`;
 *   propose: `{status: 'pending', proposal_id, path, hunks, message, note?}` (see stagedResult);
 *   in both modes `{status: 'unchanged', path, hash, message, note?}` (write-types.ts
 *   unchangedWrite) when nothing would change; `note` is the edit's remark (a property name
 *   matched to the note's own spelling).
 * @throws ToolError from validation or the write (nothing is written or staged).
 */
export async function submitWrite(ctx: ToolContext, request: WriteRequest): Promise<Record<string, unknown>> {
  assertNoPastedLinkPart(request);
  if (normalizeKeyMode(ctx.caller.mode) === 'force') {
    const hold = await instructionsHold(ctx);
    const outcome = await ctx.notes.writes.apply(request, ctx.scope, hold);
    if (outcome.status !== 'held') return { ...outcome };
    const staged = await stage(ctx, outcome.prepared, INSTRUCTIONS_REVIEW_REASON);
    return staged.status === 'pending' ? { ...staged, reason: INSTRUCTIONS_REVIEW_REASON } : staged;
  }
  let prepared: PreparedWrite;
  try {
    prepared = await ctx.notes.writes.prepare(request, ctx.scope);
  } catch (error) {
    throw withPendingCreate(ctx, request, error);
  }
  return stage(ctx, prepared);
}

/**
 * Refuses a write whose note path is a pasted link naming part of a note (`[[Plan#Risks]]`,
 * `[[Plan#^ab12]]`), before anything is read or written: read_note reads that section, but a write
 * acts on the whole note, so write_note replaced all of it and delete_note deleted it, unsaid
 * (session 44's newcomer); a link to a whole note (`[[Plan]]`) names it as reads do. A new path
 * (create_note, create_folder, move_note's `to`) given as a link is refused: the brackets would
 * become part of its name. The message names the path to give
 * and, for a heading or block, how to change only that part.
 * @throws ToolError('invalid_argument').
 */
function assertNoPastedLinkPart(request: WriteRequest): void {
  const fresh = request.kind === 'create' || request.kind === 'folder';
  for (const [given, isNew] of [[request.path, fresh] as const, ...(request.kind === 'move' ? [[request.to, true] as const] : [])]) {
    const note = unwrapWikilink(given);
    if (note === given) continue;
    const part = wikilinkSubpath(given);
    // A link to a whole existing note names it as read_note reads it (`[[Plan]]`, `[[Plan|shown]]`).
    if (!isNew && part === null) continue;
    const within =
      part === null
        ? ''
        : 'heading' in part
          ? `, and to change only that section use edit_note with heading ${quoteInput(part.heading)}`
          : ', and to change only that block use edit_note with an anchor copied from read_note';
    const what =
      part === null
        ? 'a link'
        : 'heading' in part
          ? `a link to the heading ${quoteInput(part.heading)}`
          : `a link to the block ^${part.block}`;
    // edit_note changes a part already: its path takes the note alone, the part goes in its own argument.
    const editPart =
      part === null
        ? ''
        : 'heading' in part
          ? `the heading in heading (${quoteInput(part.heading)})`
          : 'the block as an anchor copied from read_note';
    throw new ToolError(
      'invalid_argument',
      isNew
        ? `${quoteInput(given)} is ${what}, not a path: the brackets would become part of the name; give the path alone (${quoteInput(note)}). Nothing was written.`
        : request.kind === 'edit'
          ? `${quoteInput(given)} is ${what}; give edit_note's path as the note alone (${quoteInput(note)}) and ${editPart}. Nothing was written.`
          : `${quoteInput(given)} is ${what}, but ${request.tool} changes the whole note; give the note alone (${quoteInput(note)})${within}. Nothing was written.`,
    );
  }
}

/**
 * A propose key's write to a note that does not exist yet because its own proposal to create it
 * waits for review (an agent creates a note, then appends to it): the not-found refusal names that
 * proposal and what to do, instead of "did you mean" another note. Any other error is returned as it is.
 * @param error what preparing `request` threw.
 */
function withPendingCreate(ctx: ToolContext, request: WriteRequest, error: unknown): unknown {
  if (!(error instanceof ToolError) || error.code !== 'not_found' || request.kind === 'create' || request.kind === 'folder') return error;
  const create = ctx.proposals
    .pending()
    .find((p) => p.key_id === ctx.caller.id && p.kind === 'create' && namesNotePath(p.path, request.path));
  if (create === undefined) return error;
  return new ToolError(
    'not_found',
    `Note '${create.path}' does not exist yet: your proposal ${create.id} to create it waits for the user's review; once it is accepted (proposal_status says when), this change can be made.`,
  );
}

/**
 * The rule naming the paths a force key may not write directly, agent instructions
 * (InstructionPlaces.ruleFor for the skills folder of the settings): every route that writes a
 * file for a force key asks it, note writes ({@link submitWrite}) and widget writes
 * (widget-write.ts) alike. The first call's pass over every entry yields to the UI in slices.
 * @returns a promise of the rule (true for a vault path that is held); it never rejects.
 */
export async function instructionsHold(ctx: ToolContext): Promise<HoldRule> {
  const folder = skillsFolderOf(ctx.settings.skills?.folder);
  return ctx.notes.instructions.ruleFor(folder, new Slicer(INSTRUCTION_PASS_SLICE_MS));
}

/** The message of a write answered with the caller's identical pending proposal `id`. */
export function alreadyPending(id: string): string {
  return `This exact change is already pending as proposal ${id}, so nothing new was staged; the user has not decided it yet. Check the outcome with proposal_status instead of sending it again.`;
}

/**
 * Why a force key's write came back pending: files that instruct agents (AGENTS.md, AGENT.md and
 * the skills folder, read by every key; AGENTS.override.md, CLAUDE.md, GEMINI.md and the like, read
 * by coding agents run in the vault, and the files those import; what a link by those names leads
 * to) must not be written by a key that would thereby instruct wider agents (docs/security.md,
 * "Agent instructions are yours").
 */
export const INSTRUCTIONS_REVIEW_REASON =
  'Agent instructions (AGENTS.md, CLAUDE.md, GEMINI.md and the like, the files they import, the skills folder, and what a link by those names leads to) guide other agents, so the user reviews changes to them, even from a force key.';

/**
 * Stages a prepared write as a proposal of the caller, or answers `{status: 'unchanged', ...}`
 * (write-types.ts unchangedWrite) when it would leave the note's text as it is. `reason` (a
 * force key's held write) is kept on the proposal for the review views. A write the caller
 * already has pending, unchanged (ProposalStore.pendingSame: a retried call), stages nothing
 * new: the answer is that proposal's, with {@link alreadyPending} as its message.
 * @returns stagedResult's `{status: 'pending', ...}` (with the edit's `note`), or `{status: 'unchanged', ...}`.
 * @throws ToolError from the proposal store (the key's pending quota).
 */
async function stage(ctx: ToolContext, prepared: PreparedWrite, reason?: string): Promise<Record<string, unknown>> {
  if ((prepared.kind === 'edit' || prepared.kind === 'properties') && prepared.proposedText === prepared.baseText)
    return { ...unchangedWrite(prepared.path, prepared.baseHash, prepared.note) };
  const same = ctx.proposals.pendingSame(prepared, ctx.caller.id);
  if (same) return { ...stagedResult(same, ctx.proposals.hunksOf(same)), message: alreadyPending(same.id) };
  const proposal = await ctx.proposals.stage(
    prepared,
    { id: ctx.caller.id, label: ctx.caller.label, roots: ctx.caller.roots ?? [], session: ctx.scope.actor?.session },
    reason,
  );
  const staged = stagedResult(proposal, ctx.proposals.hunksOf(proposal));
  const note = joinRemarks('note' in prepared ? prepared.note : undefined, clashRemark(ctx, proposal));
  return note === '' ? staged : { ...staged, note };
}

/**
 * The remark for a proposal that cannot be accepted together with the caller's own earlier ones, or
 * that the user would apply after one of them unawares (ProposalStore.clashesWith): one sentence per
 * kind of clash; another key's proposals are never named.
 * @returns the sentences, or undefined when there is no such proposal.
 */
function clashRemark(ctx: ToolContext, proposal: Proposal): string | undefined {
  const own = ctx.proposals.clashesWith(proposal).filter((clash) => clash.proposal.key_id === ctx.caller.id);
  if (own.length === 0) return undefined;
  const named = (over: ProposalClash['over']): string | null => {
    const ids = own.filter((clash) => clash.over === over).map((clash) => clash.proposal.id);
    if (ids.length === 0) return null;
    const shown = ids.slice(0, 5).join(', ') + (ids.length > 5 ? ` and ${ids.length - 5} more` : '');
    return `your pending proposal${ids.length === 1 ? '' : 's'} ${shown}`;
  };
  const at = `'${proposal.staged_path ?? proposal.path}'`;
  const lines = named('lines');
  const moves = named('moves');
  const path = named('path');
  const folder = named('folder');
  return joinRemarks(
    lines &&
      `${at} also has ${lines} changing the same lines (or the whole note): once the user accepts one, the other no longer applies (stale). ` +
        "To make both changes, stage them as one write, or wait for the user's decision on the earlier one (proposal_status) " +
        'and then stage the other on the note as it is.',
    moves &&
      `${at} also has ${moves} moving it: if the user accepts both, the note is moved twice, the later move starting from ` +
        "where the first put it. To offer one place, wait for the user's decision on the earlier one (proposal_status).",
    path &&
      `'${newPathOf(proposal)}' is also the new path of ${path}: once the user accepts one, the path is taken and the other ` +
        'no longer applies (stale). Give one of them another path, or stage it once.',
    folder &&
      (proposal.kind === 'folder'
        ? `A note ${folder} creates or moves into ${at} makes that folder when accepted, and this proposal then no longer applies ` +
          "(stale): the note's proposal alone is enough."
        : `Accepting this proposal makes the folder that ${folder} creates, which then no longer applies (stale): this proposal alone is enough.`),
  );
}
