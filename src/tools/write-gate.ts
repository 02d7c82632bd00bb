import { z } from 'zod';
import { ToolError } from '../errors';
import { normalizeKeyMode } from '../keys/key-record';
import type { WriteRequest } from '../vault/write-types';
import type { ToolContext } from './tool';

/**
 * The one place that decides whether a write is applied or staged (DESIGN.md, "Keys": a
 * `force` key's writes apply directly; `propose`, the default and what any unknown mode
 * means, stages them for review). Every write tool calls {@link submitWrite}.
 */

/** The optional `expected_hash` argument of every write tool that changes an existing note. */
export const expectedHashArg = z
  .string()
  .optional()
  .describe('`hash` from read_note: if the note changed since, nothing is written (conflict).');

/**
 * Validates `request` against the vault for the caller (paths, access rules, expected_hash,
 * anchors and headings: the same checks in every mode), then applies it for a `force` key.
 * @returns the write's result: `{status: 'applied', path, hash, size_before, size_after, lines?}`.
 * @throws ToolError from validation or the write; ToolError('unavailable') for a `propose`
 *   key, since staging proposals is not available yet (nothing is written).
 */
export async function submitWrite(ctx: ToolContext, request: WriteRequest): Promise<Record<string, unknown>> {
  const prepared = await ctx.notes.writes.prepare(request, ctx.scope);
  if (normalizeKeyMode(ctx.caller.mode) !== 'force') {
    throw new ToolError(
      'unavailable',
      `propose mode is not available yet, so ${request.tool} changed nothing; ask the user to set this key's mode to force in the Vault MCP settings if direct writes are wanted.`,
    );
  }
  const result = await ctx.notes.writes.apply(prepared, ctx.scope);
  return { ...result };
}
