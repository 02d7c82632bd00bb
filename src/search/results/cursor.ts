import { ToolError } from '../../errors';

/**
 * Opaque paging cursors: base64url JSON of the next offset (search) or of the last item shown
 * (list_notes), plus a fingerprint of the query it belongs to, so a cursor replayed with a different query is refused instead of
 * silently skipping results (MCP spec 2025-06-18, "Pagination": cursors are opaque).
 */

/**
 * The query text a search cursor is bound to: a regex exactly as typed (a space in it matches a
 * space); an Obsidian-syntax query without its outer whitespace, which changes nothing it finds, so
 * a cursor from `meeting` pages `meeting ` too (an agent's query re-typed with a trailing space).
 * @param query the query as the agent gave it
 * @param regex whether the query is one regex (search's `regex` argument)
 */
export function cursorQueryText(query: string, regex: boolean): string {
  return regex ? query : query.trim();
}

/**
 * Encodes the offset of the next page for `query`.
 * @param offset index of the first result of the next page (≥ 0)
 * @param query the exact query key (query text plus options that change the result set)
 * @param total the page's exact total of matches, when it has one ({@link cursorTotal})
 */
export function encodeCursor(offset: number, query: string, total?: number): string {
  const fields = total === undefined ? { o: offset, q: fingerprint(query) } : { o: offset, q: fingerprint(query), t: total };
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

/**
 * The `total` of the page that made `cursor` ({@link encodeCursor}'s `total`), for telling the next page that the matches
 * changed in between; null when the cursor holds none (an estimated total, or a cursor of another kind). Decode the
 * cursor with {@link decodeCursor} first: this reads it without checking.
 */
export function cursorTotal(cursor: string): number | null {
  try {
    const t = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { t?: unknown }).t;
    return typeof t === 'number' && Number.isInteger(t) && t >= 0 ? t : null;
  } catch {
    return null;
  }
}

/**
 * Decodes a cursor made by {@link encodeCursor} for the same `query`.
 * @returns the offset of the next page
 * @throws ToolError('invalid_argument') when the cursor is malformed or belongs to another query.
 */
export function decodeCursor(cursor: string, query: string): number {
  const offset = openCursor(cursor, query).o;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw invalidCursor();
  return offset;
}

/**
 * Encodes the place after the last item of a page sorted by modification time, newest first, then
 * path (list_notes): unlike an offset, it stays put when items before it change, move or go.
 * @param after the last item's `[mtime ms, path]`
 * @param query the exact query key (as for {@link encodeCursor})
 */
export function encodeAfterCursor(after: readonly [number, string], query: string): string {
  return Buffer.from(JSON.stringify({ a: after, q: fingerprint(query) }), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor made by {@link encodeAfterCursor} for the same `query`.
 * @returns the last item's `[mtime ms, path]`
 * @throws ToolError('invalid_argument') when the cursor is malformed or belongs to another query.
 */
export function decodeAfterCursor(cursor: string, query: string): [number, string] {
  const after = openCursor(cursor, query).a;
  if (!Array.isArray(after) || after.length !== 2 || !Number.isFinite(after[0]) || typeof after[1] !== 'string') throw invalidCursor();
  return [after[0] as number, after[1]];
}

/**
 * A cursor's JSON object, its fingerprint checked against `query`.
 * @throws ToolError('invalid_argument') when it is not base64url JSON with a fingerprint, or belongs to another query.
 */
function openCursor(cursor: string, query: string): { o?: unknown; a?: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const p = parsed as { o?: unknown; a?: unknown; q?: unknown } | null;
  if (p === null || typeof p !== 'object' || typeof p.q !== 'string') throw invalidCursor();
  if (p.q !== fingerprint(query)) {
    throw new ToolError(
      'invalid_argument',
      'The cursor belongs to a different query; repeat the same query with it, or search again without a cursor.',
    );
  }
  return p;
}

function invalidCursor(): ToolError {
  return new ToolError(
    'invalid_argument',
    'The cursor is not valid; pass the next_cursor from the previous search result unchanged, or search again without a cursor.',
  );
}

/** FNV-1a 32-bit hash of the UTF-16 code units, as 8 hex digits. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
