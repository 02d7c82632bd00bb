import { noSuchProposal, type ProposalReview } from '../../proposals/review/proposal-review';
import { isOpen, type LiveState } from '../../proposals/proposal-state';
import type { ProposalStore } from '../../proposals/store/proposal-store';
import { hunkAsLines, noteLines } from '../../diff/hunk-lines';
import { proposalSummary } from '../../proposals/proposal-summary';
import type { Hunk } from '../../diff/types';
import type { Proposal } from '../../proposals/types';
import { visibleText, visiblePieces } from '../../diff/visible-text';
import { namesNotePath } from '../../vault/paths/paths';
import { trailingArgument } from '../command-words';
import { quoteInput } from '../../errors';

/**
 * The review as text commands, for the Obsidian CLI handlers (`vault-mcp:proposals`,
 * `vault-mcp:accept`, `vault-mcp:reject`) and the standard input of the headless runner
 * behind `npm start`: list the pending proposals, show one, accept or reject it (whole, or
 * one hunk). Each answers with text for a terminal and never throws for a user mistake; agent-written
 * text in an answer (note lines, paths, reasons) has its control and bidi characters written out
 * (diff/visible-text.ts), so a terminal shows what an accept writes instead of acting on it.
 */

/** The proposals and their review, as the commands need them. */
export interface ReviewCommandTarget {
  proposals: ProposalStore;
  review: ProposalReview;
}

/**
 * One line per proposal that awaits the user (pending, or stale and not yet rejected:
 * ProposalStore.pending): id, status as it is now (stale when its note changed under it or went
 * away), kind, path, key, tool, hunks; or a sentence when there is none. Like {@link showProposal}
 * it first takes in what the instance holding the writer lock staged (ProposalStore.refresh).
 */
export async function listPendingProposals(target: ReviewCommandTarget): Promise<string> {
  await target.proposals.refresh();
  const pending = target.proposals.pending();
  if (pending.length === 0) return 'No pending changes.';
  return visibleText((await Promise.all(pending.map((p) => describeProposal(target, p)))).join('\n'));
}

/** The most lines `show` prints at once; the rest is one `show <id> <line>` away. */
export const SHOW_MAX_LINES = 200;
/**
 * The most chars of one note line `show` prints on one listing line; a longer line goes on over
 * the next listing lines, each marked `+…` / `-…` (the sign, then `…` without a space), so it is shown whole.
 */
export const SHOW_MAX_LINE_CHARS = 300;

/**
 * A proposal in full: its header line, why it was held for review (a force key's write,
 * Proposal.reason), and a unified-style listing of its hunks, each marked when decided or stale;
 * for a create its text, for a delete the note's text that goes to the trash (as it was
 * proposed), for a pending move the notes linking to it, whose links Obsidian updates when it
 * moves (ProposalReview.linkersOf). A note line longer than {@link SHOW_MAX_LINE_CHARS} chars goes on over
 * several listing lines; a long listing is cut after {@link SHOW_MAX_LINES} listing lines, ending
 * with the command that shows the rest; a page that starts inside a hunk first repeats its header,
 * marked `(continued)`, so the hunk's number is on the page. Control and bidi characters are written out (visibleText).
 * @param fromLine the first listing line to print (1-based, the header not counted), from `show <id> <line>`.
 */
export async function showProposal(target: ReviewCommandTarget, id: string, fromLine = 1): Promise<string> {
  await target.proposals.refresh();
  const p = target.proposals.get(id);
  if (!p) return noSuchProposal(id);
  const live = await target.review.liveState(p);
  const header = await describeProposal(target, p, live);
  const lines: string[] = [];
  // The header of the hunk each listing line shows (by index), for a later page to repeat.
  const headerOf: (string | undefined)[] = [];
  const hunks = target.proposals.hunksOf(p);
  const whole = p.status === 'stale' || live?.gone === true;
  const stale = new Set(whole ? hunks.map((h) => h.index) : live?.placed.filter((h) => h.stale).map((h) => h.index));
  if (p.base_text !== null && hunks.length) {
    const base = p.base_text;
    for (const h of hunks) {
      const verdict = p.decisions[h.index] ? ` (${p.decisions[h.index]})` : stale.has(h.index) ? ' (stale: only reject)' : '';
      const shown = hunkAsLines(base, h);
      // A stale hunk has no place in the note as it is now: its line is the one it had in the text it was proposed on.
      const at = `  hunk ${h.index} at line ${shown.line}${stale.has(h.index) && !p.decisions[h.index] ? ' when proposed' : ''}`;
      lines.push(`${at}${verdict}:`);
      for (const l of hunkLines(h, shown)) headerOf[lines.push(l) - 1] = `${at} (continued)${verdict}:`;
    }
  } else if (p.kind === 'create' && p.proposed_text !== null) {
    for (const l of splitLines(noteLines(p.proposed_text))) lines.push(...listed('+', l));
  } else if (p.kind === 'delete' && p.base_text !== null) {
    lines.push(`  the note's text, which goes to the trash:`);
    for (const l of splitLines(noteLines(p.base_text))) lines.push(...listed('-', l));
  } else if (p.kind === 'move' && p.status === 'pending') {
    const linkers = target.review.linkersOf(p);
    lines.push(
      linkers.length
        ? `  links to it in ${linkers.length} other note${linkers.length === 1 ? '' : 's'}, which Obsidian updates when it moves:`
        : '  no other note links to it, so no other note changes',
    );
    for (const path of linkers) lines.push(`    ${path}`);
  }
  if (p.reason !== undefined) {
    lines.unshift(`  held for review: ${p.reason}`);
    headerOf.unshift(undefined);
  }
  if (fromLine > Math.max(lines.length, 1))
    return lines.length === 0
      ? `Proposal ${id} shows no lines past its first one; \`show ${id}\` shows it whole.`
      : `Proposal ${id} shows ${lines.length} line${lines.length === 1 ? '' : 's'}; give a line from 1 to ${lines.length}.`;
  const page = lines.slice(fromLine - 1, fromLine - 1 + SHOW_MAX_LINES);
  const rest = lines.length - (fromLine - 1) - page.length;
  const more = rest > 0 ? [`  … ${rest} more line${rest === 1 ? '' : 's'}: show ${id} ${fromLine + page.length}`] : [];
  const continued = fromLine > 1 ? headerOf[fromLine - 1] : undefined;
  return visibleText([header, ...(continued ? [continued] : []), ...page, ...more].join('\n'));
}

/**
 * A hunk's `-` / `+` lines, from its text as lines of the note (diff/hunk-lines.ts hunkAsLines:
 * a break that ends the line before the hunk is not an empty line); a change of the final line
 * break alone is said in words, as diff tools mark it.
 */
function hunkLines(h: Hunk, shown: { removed: string; inserted: string }): string[] {
  if (h.removed === '' && /^\r?\n$/.test(shown.inserted)) return ['  \\ adds the line break at the end of the note'];
  if (h.inserted === '' && /^\r?\n$/.test(shown.removed)) return ['  \\ removes the line break at the end of the note'];
  return [...splitLines(shown.removed).flatMap((l) => listed('-', l)), ...splitLines(shown.inserted).flatMap((l) => listed('+', l))];
}

/**
 * One note line as listing lines: `  + text`, written out (visibleText) and, past
 * {@link SHOW_MAX_LINE_CHARS} chars, continued on lines marked `  +… ` so none of it is left out.
 */
function listed(sign: '+' | '-', line: string): string[] {
  return visiblePieces(line, SHOW_MAX_LINE_CHARS).map((piece, i) => `  ${sign}${i ? '… ' : ' '}${piece}`);
}

/** What deciding a proposal did: decided (accepted, in part or whole, or rejected), found stale (nothing applied), or left undecided by an error. */
type DecisionOutcome = 'decided' | 'stale' | 'undecided';

/**
 * Accepts or rejects proposal `id` (whole, or hunk `hunk` of a text proposal).
 * @returns one sentence saying what happened (or why nothing did), with the proposal's state
 *   as `show` and proposal_status report it (a pending proposal whose remaining hunks no
 *   longer apply reads stale).
 */
export async function decideProposal(
  target: ReviewCommandTarget,
  verdict: 'accept' | 'reject',
  id: string,
  hunk?: number,
): Promise<string> {
  return (await decide(target, verdict, id, hunk)).line;
}

/** {@link decideProposal}'s sentence and what the decision did (for accept all's count). */
async function decide(
  target: ReviewCommandTarget,
  verdict: 'accept' | 'reject',
  id: string,
  hunk?: number,
): Promise<{ line: string; outcome: DecisionOutcome }> {
  const before = target.proposals.get(id);
  if (before && hunk !== undefined && isOpen(before)) {
    const indices = target.proposals.hunksOf(before).map((h) => h.index);
    if (indices.length && !indices.includes(hunk)) return { line: hunkOutOfRange(target, id, String(hunk)), outcome: 'undecided' };
  }
  try {
    if (verdict === 'reject') {
      const p = await target.review.reject(id, hunk);
      // Rejecting a proposal some of whose hunks were accepted before rejects what was left of it, and those stay.
      const what =
        hunk !== undefined
          ? `hunk ${hunk} of ${id}`
          : p.status === 'partly_accepted'
            ? `the rest of proposal ${id} (the changes accepted before stay)`
            : `proposal ${id}`;
      const line = `Rejected ${what}; ${await statusNow(target, p)}.`;
      return { line: visibleText(line), outcome: 'decided' };
    }
    const { proposal, applied, stale } = await target.review.accept(id, hunk);
    // Stale before the accept (saved so, or found so by the listing's live check) or found so by it: one answer, saying what to do.
    if (proposal.status === 'stale') {
      const line = `Proposal ${id} is stale and was not applied: ${clause(proposal.stale_reason ?? 'it no longer applies.')} Reject it to dismiss it ("reject ${id}").`;
      return { line: visibleText(line), outcome: 'stale' };
    }
    const status = await statusNow(target, proposal, stale);
    const staleChanges = `${stale} change${stale === 1 ? '' : 's'} no longer appl${stale === 1 ? 'ies' : 'y'} to ${proposal.path} and can only be rejected`;
    if (applied === 0 && stale === 0 && proposal.status === 'accepted')
      return {
        line: visibleText(`Proposal ${id} changed nothing (${proposal.path} already read that way); ${status}.`),
        outcome: 'decided',
      };
    if (applied === 0) {
      // The hunks were stale before this accept too (the listing said so): "now" would say the accept made them so.
      const line = `Nothing of ${id} was applied: ${stale === 1 ? '1 change' : `${stale} changes`} no longer appl${stale === 1 ? 'ies' : 'y'} to ${proposal.path} (the note changed there since it was proposed) and can only be rejected ("reject ${id}"); ${status.replace(/^it is now /, 'it is ')}.`;
      return { line: visibleText(line), outcome: 'stale' };
    }
    // A move's answer names where the note went; `path` follows the note, so after the move it may already be `to`.
    const on =
      proposal.kind === 'move' && proposal.to !== undefined
        ? `moving ${before?.path ?? proposal.path} to ${proposal.to}`
        : `on ${proposal.path}`;
    const line = `Accepted ${applied} change${applied === 1 ? '' : 's'} of ${id} ${on}; ${status}${stale ? `; ${staleChanges}` : ''}.`;
    return { line: visibleText(line), outcome: 'decided' };
  } catch (err) {
    return { line: visibleText((err as Error).message), outcome: 'undecided' };
  }
}

/**
 * Runs one typed command line: `proposals`, `show <id>`, `accept <id> [hunk]`,
 * `reject <id> [hunk]`, `help`. @returns the answer text, control and bidi characters written out.
 */
export async function runReviewCommand(target: ReviewCommandTarget, line: string): Promise<string> {
  return visibleText(await answerReviewCommand(target, line));
}

/** {@link runReviewCommand} before its answer is made safe to print. */
async function answerReviewCommand(target: ReviewCommandTarget, line: string): Promise<string> {
  const [command = '', id, hunkText, ...extra] = line.trim().split(/\s+/);
  if (command === '') return '';
  if ((command === 'accept' || command === 'reject') && id === 'all')
    return decideAll(target, command, hunkText, trailingArgument(line, 3));
  if (command === 'proposals' || command === 'list' || command === 'help') {
    if (id !== undefined) return `Usage: ${command} (no arguments)`;
    return command === 'help' ? REVIEW_COMMANDS_HELP : listPendingProposals(target);
  }
  if (!['show', 'accept', 'reject'].includes(command)) return `Unknown command ${quoteInput(command)}. ${REVIEW_COMMANDS_HELP}`;
  const hunk = parseHunkNumber(hunkText);
  const wantsHunk = command !== 'show';
  if (wantsHunk && id && !extra.length && hunk === null && /^\d+$/.test(hunkText ?? '')) return hunkOutOfRange(target, id, hunkText ?? '');
  if (!id || extra.length || hunk === null || (!wantsHunk && hunk === 0))
    return `Usage: ${command} <proposal id>${wantsHunk ? ' [hunk number]' : ' [line to start from]'}`;
  if (command === 'show') return showProposal(target, id, hunk);
  return decideProposal(target, command as 'accept' | 'reject', id, hunk);
}

/**
 * `accept all` / `reject all`, optionally `note <path>` or `key <label>` (the rest of the line as
 * typed, spaces allowed, surrounding quotes taken off: command-words.ts trailingArgument): decides every pending proposal, or those on one note or from one key,
 * each as `accept <id>` / `reject <id>` would: acceptances one by one, rejections all at once (their
 * writes of the proposals file shared). @returns one line per proposal, in list order, and a count, or a sentence.
 */
async function decideAll(
  target: ReviewCommandTarget,
  verdict: 'accept' | 'reject',
  by: string | undefined,
  value: string,
): Promise<string> {
  if (by !== undefined && (!['note', 'key'].includes(by) || value === '')) return `Usage: ${verdict} all [note <path> | key <label>]`;
  const chosen = target.proposals
    .pending()
    .filter((p) => by === undefined || (by === 'key' ? p.key_label === value : namesNotePath(p.path, value)));
  if (chosen.length === 0)
    return by === undefined
      ? 'No pending changes.'
      : // The path quoted as typed: a stray quote left on it (`note "Dup.md`) shows as part of what was looked for.
        `No pending changes ${by === 'key' ? `from key "${value}"` : `on ${quoteInput(value)}`}; list them with "proposals".`;
  // Rejections change no note, so they are made at once and share the writes of the proposals file
  // (ProposalFile.save's group commit: two writes for any number); acceptances change notes, one after another.
  const decisions: { line: string; outcome: DecisionOutcome }[] = [];
  if (verdict === 'reject') decisions.push(...(await Promise.all(chosen.map((p) => decide(target, verdict, p.id)))));
  else for (const p of chosen) decisions.push(await decide(target, verdict, p.id));
  const which = by === undefined ? '' : by === 'key' ? ` from "${value}"` : ` on ${value}`;
  return [
    ...decisions.map((d) => d.line),
    `${verdict === 'accept' ? 'Accept' : 'Reject'} all: ${chosen.length} proposal${chosen.length === 1 ? '' : 's'}${which}, ${outcomes(verdict, decisions)}; each line above says what happened.`,
  ].join('\n');
}

/**
 * What `accept all` / `reject all` did, counted: e.g. "0 accepted, 6 stale" (a summary of six
 * stale ones hid that nothing was applied: newcomer finding, session 39); "not decided" counts
 * those an error left as they were.
 */
function outcomes(verdict: 'accept' | 'reject', decisions: readonly { outcome: DecisionOutcome }[]): string {
  const count = (outcome: DecisionOutcome): number => decisions.filter((d) => d.outcome === outcome).length;
  const parts = [`${count('decided')} ${verdict === 'accept' ? 'accepted' : 'rejected'}`];
  if (count('stale') > 0) parts.push(`${count('stale')} stale`);
  if (count('undecided') > 0) parts.push(`${count('undecided')} not decided`);
  return parts.join(', ');
}

/** The commands the headless runner reads on standard input. */
export const REVIEW_COMMANDS_HELP =
  'Commands: proposals (list pending changes), show <id> [line], accept <id> [hunk], reject <id> [hunk], accept all / reject all [note <path> | key <label>], help.';

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
  const summary = proposalSummary(p, target.proposals.hunksOf(p), live) as {
    status: Proposal['status'];
    hunks?: { total: number; pending: number; stale: number };
    stale_reason?: string;
  };
  const where = p.kind === 'move' ? `${p.path} -> ${p.to}` : p.path;
  const h = summary.hunks;
  const size = h && p.status === 'pending' ? `, ${h.pending} of ${h.total} hunks to review${h.stale ? `, ${h.stale} stale` : ''}` : '';
  const why = summary.status === 'stale' && summary.stale_reason ? ` (${summary.stale_reason})` : '';
  return `${p.id}  ${summary.status.replace('_', ' ')}  ${p.kind} ${where}  from "${p.key_label}" via ${p.tool}${size}${why}`;
}

/**
 * Where a proposal stands after a decision, as a clause: `it is now accepted` (rejected,
 * partly accepted, stale) once decided or stale, else how many of its changes still await
 * review (a proposal with hunks left is not "now pending": it was pending before).
 * @param staleSaid stale hunks the caller already names (not counted again here).
 */
async function statusNow(target: ReviewCommandTarget, p: Proposal, staleSaid = 0): Promise<string> {
  const summary = proposalSummary(p, target.proposals.hunksOf(p), await target.review.liveState(p)) as {
    status: Proposal['status'];
    hunks?: { pending: number; stale: number };
  };
  if (summary.status !== 'pending') return `it is now ${summary.status.replace('_', ' ')}`;
  const waiting = summary.hunks?.pending ?? 0;
  const stale = (summary.hunks?.stale ?? 0) - staleSaid;
  const parts = [`${waiting} change${waiting === 1 ? '' : 's'} of it still await${waiting === 1 ? 's' : ''} review`];
  if (stale > 0) parts.push(`${stale} no longer appl${stale === 1 ? 'ies' : 'y'}`);
  return parts.join(', ');
}

/** The answer for a hunk number (as typed) that is not one of proposal `id`'s hunks. */
function hunkOutOfRange(target: ReviewCommandTarget, id: string, typed: string): string {
  const p = target.proposals.get(id);
  if (!p) return noSuchProposal(id);
  const indices = target.proposals.hunksOf(p).map((h) => h.index);
  const range = indices.length
    ? `its hunks are numbered ${Math.min(...indices)} to ${Math.max(...indices)}`
    : 'it has no hunks, so accept or reject it whole';
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
