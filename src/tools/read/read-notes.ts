import * as z from 'zod';
import type { TFile } from 'obsidian';
import { inputExcerpt, quoteInput, ToolError } from '../../errors';
import { wikilinkSubpath } from '../../vault/paths/note-ref';
import { bodyStart } from '../../vault/content/note-body';
import type { AgentInstructions } from '../../vault/note-store';
import { noteNotFound } from '../../vault/writes/frontmatter/frontmatter-guard';
import { BODY_BUDGET, cappedInstructions, noteHeader, pageText } from './read-note';
import { defineTool } from '../tool';
import { arrayOf, NOTE_HEADER_FIELDS, NOTE_HEADER_REQUIRED, objectOf, STRINGS } from '../output-schema';

/** Most notes one `read_notes` call takes (docs/architecture.md#tool-contract). */
export const MAX_NOTES_PER_CALL = 20;

/**
 * How many times a reference is resolved again after the note it reached had a text the key may
 * not read (as NoteStore.resolveAndRead does for one note); past it, the reference is not found.
 */
const READ_ROUNDS = 4;

/**
 * Splits `budget` chars among texts of the given lengths so short texts are shown whole and
 * the rest is shared evenly among the longer ones ("water filling"). The shares never sum to
 * more than `budget`.
 * @returns one share per length, in input order.
 */
export function shareBudget(lengths: readonly number[], budget: number): number[] {
  const shares = lengths.map(() => 0);
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b]);
  let remaining = budget;
  order.forEach((index, rank) => {
    const fair = Math.floor(remaining / (order.length - rank));
    shares[index] = Math.min(lengths[index], fair);
    remaining -= shares[index];
  });
  return shares;
}

/** `read_notes`: several notes at once, sharing one body budget. */
export const readNotesTool = defineTool({
  name: 'read_notes',
  title: 'Read several notes',
  description:
    'Read up to 20 notes by path or id, as read_note, all bodies sharing one 8000-char budget (has_more: read the rest ' +
    'with read_note). Unknown names go to not_found; agent_md lists governing AGENTS.md once: follow it.',
  kind: 'read',
  inputSchema: {
    paths: z.array(z.string()).min(1).max(MAX_NOTES_PER_CALL).describe('Note paths, names or ids.'),
  },
  outputSchema: objectOf({ notes: arrayOf(objectOf(NOTE_HEADER_FIELDS, [...NOTE_HEADER_REQUIRED, 'body'])), not_found: STRINGS }, [
    'notes',
    'not_found',
  ]),
  annotations: { title: 'Read several notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    // What each reference came to, by its index: a note, or the refusal of resolving it.
    const outcomes = new Map<number, TFile | ToolError>();
    const textOf = new Map<TFile, string>();
    // Each note read is a step of the wait a client can follow (a progressToken asks for it).
    let read = 0;
    let toRead = 0;
    let pending = args.paths.map((_, i) => i);
    // A text the key may not read (its rules newer than the metadata the resolution judged: NoteStore.read) makes
    // that note private: the references that reached it are resolved again, as in a vault without it.
    for (let round = 0; pending.length > 0; round++) {
      const files: TFile[] = [];
      for (const i of pending) {
        let outcome: TFile | ToolError;
        try {
          outcome = round < READ_ROUNDS ? ctx.notes.policy.resolveNote({ path: args.paths[i] }, ctx.scope) : noteNotFound(args.paths[i]);
        } catch (err) {
          if (!(err instanceof ToolError)) throw err;
          outcome = err;
        }
        outcomes.set(i, outcome);
        if (!(outcome instanceof ToolError) && !textOf.has(outcome) && !files.includes(outcome)) files.push(outcome);
      }
      toRead += files.length;
      const texts = await Promise.all(
        files.map(async (file) => {
          const text = await ctx.notes.read(file, ctx.scope);
          ctx.progress?.(++read, toRead, `read ${read} of ${toRead} notes`);
          return text;
        }),
      );
      files.forEach((file, n) => {
        const text = texts[n];
        if (text !== null) textOf.set(file, text);
      });
      pending = pending.filter((i) => {
        const outcome = outcomes.get(i);
        return outcome !== undefined && !(outcome instanceof ToolError) && !textOf.has(outcome);
      });
    }
    const notFound: string[] = [];
    // A miss whose answer says more than "not found" (read_note's "did you mean", for a key that lists notes) keeps it.
    const missHelp: string[] = [];
    const errors: Array<{ path: string; message: string }> = [];
    const files: TFile[] = [];
    args.paths.forEach((ref, i) => {
      const outcome = outcomes.get(i) as TFile | ToolError;
      if (!(outcome instanceof ToolError)) {
        if (!files.includes(outcome)) files.push(outcome);
      } else if (outcome.code === 'not_found') {
        notFound.push(ref);
        const message = outcome.messageFor(ctx.scope.sight);
        if (message !== noteNotFound(ref).messageFor(ctx.scope.sight)) missHelp.push(message);
      } else errors.push({ path: inputExcerpt(ref), message: outcome.messageFor(ctx.scope.sight) });
    });
    const texts = files.map((file) => textOf.get(file) as string);
    const bodies = texts.map((text) => text.slice(bodyStart(text)));
    const shares = shareBudget(
      bodies.map((b) => b.length),
      BODY_BUDGET,
    );
    const instructionsOf = await ctx.notes.agentInstructionsForNotes(files, ctx.scope);
    const agentMd = new Map<string, AgentInstructions>();
    const notes: Array<Record<string, unknown>> = [];
    for (let i = 0; i < files.length; i++) {
      const body = shares[i] === 0 ? '' : pageText(bodies[i], 0, shares[i]).text;
      const entry = noteHeader(ctx, files[i], texts[i]);
      Object.assign(entry, { body, body_length: bodies[i].length, has_more: body.length < bodies[i].length });
      const instructions = instructionsOf[i];
      if (instructions) {
        entry.agent_md_path = instructions.path;
        agentMd.set(instructions.path, instructions);
      }
      notes.push(entry);
    }
    const out: Record<string, unknown> = { notes, not_found: notFound };
    if (errors.length > 0) out.errors = errors;
    if (agentMd.size > 0) out.agent_md = [...agentMd.values()].map(cappedInstructions);
    const remarks = [...missHelp];
    // A pasted link to part of a note is read whole here (read_note reads that section): said so, with the call that reads the part.
    const linkedParts = args.paths.filter((ref, i) => !(outcomes.get(i) instanceof ToolError) && wikilinkSubpath(ref) !== null);
    if (linkedParts.length > 0)
      remarks.push(
        `read_notes reads whole notes, so ${linkedParts.map((ref) => quoteInput(ref)).join(', ')} ${linkedParts.length === 1 ? 'was' : 'were'} ` +
          'read whole; for the part a link names, call read_note with that link (a heading is read as its section).',
      );
    if (notes.some((n) => n.has_more)) {
      remarks.push(
        `Bodies share a ${BODY_BUDGET}-char budget and some were cut; call read_note with the path and offset=<chars shown> for the rest.`,
      );
    }
    if (remarks.length > 0) out.note = remarks.join(' ');
    return out;
  },
});
