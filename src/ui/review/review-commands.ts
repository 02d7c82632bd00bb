import { noSuchProposal, type LiveState, type ProposalReview } from '../../proposals/proposal-review';
import type { ProposalStore } from '../../proposals/proposal-store';
import { hunkSummaries, proposalSummary } from '../../proposals/proposal-summary';
import type { Proposal } from '../../proposals/types';

/**
 * The review as text commands, for the Obsidian CLI handlers (`vault-mcp:proposals`,
 * `vault-mcp:accept`, `vault-mcp:reject`) and the standard input of the headless runner
 * behind `npm start`: list the pending proposals, show one, accept or reject it (whole, or
 * one hunk). Each answers with text for a terminal and never throws for a user mistake.
 */

/** The proposals and their review, as the commands need them. */
export interface ReviewCommandTarget {
  proposals: ProposalStore;
  review: ProposalReview;
}

/**
 * One line per pending proposal: id, status as it is now (stale when its note changed under
 * it or went away), kind, path, key, tool, hunks; or a sentence when there is none.
 */
export async function listPendingProposals(target: ReviewCommandTarget): Promise<string> {
  const pending = target.proposals.pending();
  if (pending.length === 0) return 'No pending changes.';
  return (await Promise.all(pending.map((p) => describeProposal(target, p)))).join('\n');
}

/** A proposal in full: its header line and a unified-style listing of its hunks, each marked when decided or stale. */
export async function showProposal(target: ReviewCommandTarget, id: string): Promise<string> {
  const p = target.proposals.get(id);
  if (!p) return noSuchProposal(id);
  const live = await target.review.liveState(p);
  const lines = [await describeProposal(target, p, live)];
  const hunks = target.proposals.hunksOf(p);
  const stale = new Set(live?.gone ? hunks.map((h) => h.index) : live?.placed.filter((h) => h.stale).map((h) => h.index));
  if (p.base_text !== null && hunks.length) {
    const summaries = hunkSummaries(p.base_text, hunks);
    hunks.forEach((h, i) => {
      const verdict = p.decisions[h.index] ? ` (${p.decisions[h.index]})` : stale.has(h.index) ? ' (stale: only reject)' : '';
      lines.push(`  hunk ${h.index} at line ${summaries[i].line}${verdict}:`);
      for (const l of splitLines(h.removed)) lines.push(`  - ${l}`);
      for (const l of splitLines(h.inserted)) lines.push(`  + ${l}`);
    });
  } else if (p.kind === 'create' && p.proposed_text !== null) {
    for (const l of splitLines(p.proposed_text)) lines.push(`  + ${l}`);
  }
  return lines.join('\n');
}

/**
 * Accepts or rejects proposal `id` (whole, or hunk `hunk` of a text proposal).
 * @returns one sentence saying what happened (or why nothing did), with the proposal's state
 *   as `show` and proposal_status report it (a pending proposal whose remaining hunks no
 *   longer apply reads stale).
 */
export async function decideProposal(target: ReviewCommandTarget, verdict: 'accept' | 'reject', id: string, hunk?: number): Promise<string> {
  const before = target.proposals.get(id);
  if (before && hunk !== undefined && before.status === 'pending') {
    const indices = target.proposals.hunksOf(before).map((h) => h.index);
    if (indices.length && !indices.includes(hunk)) return hunkOutOfRange(target, id, String(hunk));
  }
  try {
    if (verdict === 'reject') {
      const p = await target.review.reject(id, hunk);
      return `Rejected ${hunk === undefined ? `proposal ${id}` : `hunk ${hunk} of ${id}`}; it is now ${await statusNow(target, p)}.`;
    }
    const { proposal, applied, stale } = await target.review.accept(id, hunk);
    if (proposal.status === 'stale') return `Proposal ${id} was not applied and is now stale: ${clause(proposal.stale_reason ?? 'it no longer applies.')}`;
    const status = await statusNow(target, proposal);
    const staleChanges = `${stale} change${stale === 1 ? '' : 's'} no longer appl${stale === 1 ? 'ies' : 'y'} to ${proposal.path} and can only be rejected`;
    if (applied === 0) return `Nothing of ${id} was applied: ${staleChanges}; it is now ${status}.`;
    return `Accepted ${applied} change${applied === 1 ? '' : 's'} of ${id} on ${proposal.path}; it is now ${status}${stale ? `; ${staleChanges}` : ''}.`;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Runs one typed command line: `proposals`, `show <id>`, `accept <id> [hunk]`,
 * `reject <id> [hunk]`, `help`. @returns the answer text.
 */
export async function runReviewCommand(target: ReviewCommandTarget, line: string): Promise<string> {
  const [command = '', id, hunkText, ...extra] = line.trim().split(/\s+/);
  if (command === '') return '';
  if (command === 'proposals' || command === 'list' || command === 'help') {
    if (id !== undefined) return `Usage: ${command} (no arguments)`;
    return command === 'help' ? REVIEW_COMMANDS_HELP : listPendingProposals(target);
  }
  if (!['show', 'accept', 'reject'].includes(command)) return `Unknown command '${command}'. ${REVIEW_COMMANDS_HELP}`;
  const hunk = parseHunkNumber(hunkText);
  const wantsHunk = command !== 'show';
  if (wantsHunk && id && !extra.length && hunk === null && /^\d+$/.test(hunkText ?? '')) return hunkOutOfRange(target, id, hunkText ?? '');
  if (!id || extra.length || hunk === null || (!wantsHunk && hunkText !== undefined)) return `Usage: ${command} <proposal id>${wantsHunk ? ' [hunk number]' : ''}`;
  if (command === 'show') return showProposal(target, id);
  return decideProposal(target, command as 'accept' | 'reject', id, hunk);
}

/** The commands the headless runner reads on standard input. */
export const REVIEW_COMMANDS_HELP =
  'Commands: proposals (list pending changes), show <id>, accept <id> [hunk], reject <id> [hunk], help.';

/**
 * A hunk number as typed: digits only (`0`, `12`). @returns the number, undefined when none
 * was typed, null when what was typed is not a hunk number (`0x1`, `+0`, `2.0`, `x`).
 */
export function parseHunkNumber(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : null;
}

/** The one-line header of a proposal, with its status as it is now (proposalSummary). */
async function describeProposal(target: ReviewCommandTarget, p: Proposal, known?: LiveState | null): Promise<string> {
  const live = known !== undefined ? known : await target.review.liveState(p);
  const summary = proposalSummary(p, target.proposals.hunksOf(p), live) as { status: Proposal['status']; hunks?: { total: number; pending: number; stale: number }; stale_reason?: string };
  const where = p.kind === 'move' ? `${p.path} -> ${p.to}` : p.path;
  const h = summary.hunks;
  const size = h && p.status === 'pending' ? `, ${h.pending} of ${h.total} hunks to review${h.stale ? `, ${h.stale} stale` : ''}` : '';
  const why = summary.status === 'stale' && summary.stale_reason ? ` (${summary.stale_reason})` : '';
  return `${p.id}  ${summary.status.replace('_', ' ')}  ${p.kind} ${where}  from "${p.key_label}" via ${p.tool}${size}${why}`;
}

/** A proposal's status as `show` prints it: a pending one reads stale when nothing of it applies any more. */
async function statusNow(target: ReviewCommandTarget, p: Proposal): Promise<string> {
  const summary = proposalSummary(p, target.proposals.hunksOf(p), await target.review.liveState(p)) as { status: Proposal['status'] };
  return summary.status.replace('_', ' ');
}

/** The answer for a hunk number (as typed) that is not one of proposal `id`'s hunks. */
function hunkOutOfRange(target: ReviewCommandTarget, id: string, typed: string): string {
  const p = target.proposals.get(id);
  if (!p) return noSuchProposal(id);
  const indices = target.proposals.hunksOf(p).map((h) => h.index);
  const range = indices.length ? `its hunks are numbered ${Math.min(...indices)} to ${Math.max(...indices)}` : 'it has no hunks, so accept or reject it whole';
  return `Hunk ${typed} is out of range for proposal ${id}: ${range} (see "show ${id}").`;
}

/** A reason sentence continued after a colon: its first letter lowered unless it starts an acronym or a name in quotes. */
function clause(reason: string): string {
  return /^[A-Z][a-z]/.test(reason) ? reason[0].toLowerCase() + reason.slice(1) : reason;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}
