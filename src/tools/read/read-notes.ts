import * as z from 'zod';
import type { TFile } from 'obsidian';
import { inputExcerpt, ToolError } from '../../errors';
import { bodyStart } from '../../vault/content/note-body';
import { nullIfReplaced } from '../../vault/access/disk-reads';
import type { AgentInstructions } from '../../vault/note-store';
import { BODY_BUDGET, cappedInstructions, noteHeader, pageText } from './read-note';
import { defineTool } from '../tool';
import { arrayOf, NOTE_HEADER_FIELDS, NOTE_HEADER_REQUIRED, objectOf, STRINGS } from '../output-schema';

/** Most notes one `read_notes` call takes (docs/architecture.md#tool-contract). */
export const MAX_NOTES_PER_CALL = 20;

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
    const errors: Array<{ path: string; message: string }> = [];
    const found: TFile[] = [];
    /** What each ref named, by position: a note, or null when not found (a refusal other than not_found goes to errors). */
    const named: Array<TFile | null | 'error'> = [];
    for (const ref of args.paths) {
      try {
        const file = ctx.notes.policy.resolveNote({ path: ref }, ctx.scope);
        if (!found.includes(file)) found.push(file);
        named.push(file);
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        if (err.code === 'not_found') named.push(null);
        else {
          named.push('error');
          errors.push({ path: inputExcerpt(ref), message: err.messageFor(ctx.scope.sight) });
        }
      }
    }
    // Each note read is a step of the wait a client can follow (a progressToken asks for it).
    let read = 0;
    const readTexts = await Promise.all(
      found.map(async (file) => {
        // A note whose path leads elsewhere on disk at the read (ReplacedOnDisk) is left out, as a missing one is.
        const text = await ctx.notes.read(file).catch(nullIfReplaced);
        ctx.progress?.(++read, found.length, `read ${read} of ${found.length} notes`);
        return text;
      }),
    );
    const files = found.filter((_, i) => readTexts[i] !== null);
    const texts = readTexts.filter((text): text is string => text !== null);
    // Refs in input order: those that named nothing, and those whose note was left out.
    const notFound = args.paths.filter((_, i) => {
      const file = named[i];
      return file === null || (file !== 'error' && !files.includes(file));
    });
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
    if (notes.some((n) => n.has_more)) {
      out.note = `Bodies share a ${BODY_BUDGET}-char budget and some were cut; call read_note with the path and offset=<chars shown> for the rest.`;
    }
    return out;
  },
});
