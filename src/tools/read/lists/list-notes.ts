import * as z from 'zod';
import { quoteInput, ToolError } from '../../../errors';
import { namesNoCalendarDay } from '../../../vault/content/frontmatter/calendar-date';
import { decodeAfterCursor, encodeAfterCursor } from '../../../search/results/cursor';
import { isPathInside } from '../../../vault/paths/paths';
import { defineTool } from '../../tool';

/** Default page size of `list_notes`, notes (docs/architecture.md#tool-contract). */
export const LIST_NOTES_DEFAULT_LIMIT = 200;
/** Largest page size of `list_notes`, notes (docs/architecture.md#tool-contract). */
export const LIST_NOTES_MAX_LIMIT = 1000;

/** ISO 8601 date (`2026-01-15`) or date-time (`2026-01-15T09:30`, seconds, fraction and zone optional). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The query a list_notes cursor belongs to: the normalized folder and the `since` text, so a
 * cursor reused with another folder or since is refused (search/cursor.ts fingerprints it).
 */
function cursorQuery(folder: string, since: string): string {
  return JSON.stringify(['list_notes', folder, since]);
}

/**
 * The last note of the page a list_notes cursor follows, as `[mtime ms, path]`.
 * @throws ToolError('invalid_argument') for a malformed cursor or one from another folder/since,
 *   with list_notes' own advice instead of search's.
 */
function cursorAfter(raw: string, folder: string, since: string): [number, string] {
  try {
    return decodeAfterCursor(raw, cursorQuery(folder, since));
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    throw new ToolError(
      'invalid_argument',
      'The cursor is not one list_notes returned for this folder and since (it is malformed or belongs to another folder or since); ' +
        'repeat the folder and since it came with, or call list_notes without cursor to start over.',
    );
  }
}

/**
 * Where the page after `[mtime, path]` starts in `files` (sorted newest first, then path in code-unit
 * order, as NoteStore.readableByMtime sorts): the first note that sorts after it, found by bisection.
 * The note itself need not be there any more (changed, moved or deleted since): the notes that sort
 * after its old place are those not yet shown, so none is shown twice or skipped.
 */
function pageStart(files: readonly { path: string; stat: { mtime: number } }[], [mtime, path]: [number, string]): number {
  let lo = 0;
  let hi = files.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const file = files[mid];
    const after = file.stat.mtime < mtime || (file.stat.mtime === mtime && file.path > path);
    if (after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Parses `since` (ISO 8601 date or date-time). A bare date is midnight UTC, a date-time
 * without a zone is local time (ECMAScript Date rules). The date must name a calendar day
 * (vault/content/frontmatter/calendar-date.ts, the check query_notes and search use): `2026-02-30` is refused, not read as 2 March.
 * @returns epoch ms. @throws ToolError('invalid_argument') for anything else.
 */
export function parseSince(since: string): number {
  const trimmed = since.trim();
  const ms = ISO_DATE.test(trimmed) ? Date.parse(trimmed.replace(' ', 'T')) : NaN;
  if (Number.isNaN(ms)) {
    throw new ToolError(
      'invalid_argument',
      `since ${quoteInput(since)} is not an ISO date; use e.g. "2026-01-15" or "2026-01-15T09:30:00Z".`,
    );
  }
  if (namesNoCalendarDay(trimmed)) {
    throw new ToolError(
      'invalid_argument',
      `since ${quoteInput(since)} is not a calendar date; write dates as YYYY-MM-DD, e.g. 2026-01-15.`,
    );
  }
  return ms;
}

/** `list_notes`: notes newest first, optionally under a folder and modified since a date. */
export const listNotesTool = defineTool({
  name: 'list_notes',
  title: 'List notes',
  description:
    'Notes, most recently modified first: path, id, title, frontmatter, mtime. folder includes subfolders; since (ISO date) ' +
    'keeps notes modified at or after it. Page with next_cursor.',
  kind: 'read',
  inputSchema: {
    folder: z.string().optional().describe('E.g. "Projects/Alpha"; default all.'),
    since: z.string().optional().describe('E.g. "2026-01-15".'),
    limit: z.number().int().min(1).max(LIST_NOTES_MAX_LIMIT).optional().describe('Default 200.'),
    cursor: z.string().optional().describe('next_cursor of the previous page.'),
  },
  annotations: { title: 'List notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const { notes, scope } = ctx;
    const folder = notes.requireFolder(args.folder, scope);
    const sinceText = args.since?.trim() ?? '';
    const sinceMs = sinceText === '' ? null : parseSince(sinceText);
    const limit = args.limit ?? LIST_NOTES_DEFAULT_LIMIT;
    const matching = notes
      .readableByMtime(scope)
      .filter((file) => isPathInside(file.path, folder) && (sinceMs === null || file.stat.mtime >= sinceMs));
    const start = args.cursor === undefined ? 0 : pageStart(matching, cursorAfter(args.cursor, folder, sinceText));
    const shown = matching.slice(start, start + limit);
    const page = shown.map((file) => ({
      path: file.path,
      id: notes.noteId(file),
      title: notes.noteTitle(file),
      frontmatter: notes.frontmatterOf(file),
      mtime: new Date(file.stat.mtime).toISOString(),
    }));
    const out: Record<string, unknown> = { notes: page, total: matching.length };
    const last = shown[shown.length - 1];
    if (start + limit < matching.length) out.next_cursor = encodeAfterCursor([last.stat.mtime, last.path], cursorQuery(folder, sinceText));
    return out;
  },
});
