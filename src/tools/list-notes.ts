import { z } from 'zod';
import { ToolError } from '../errors';
import { isPathInside } from '../vault/paths';
import { defineTool } from './tool';

/** Default page size of `list_notes`, notes (DESIGN.md, "Tools"). */
export const LIST_NOTES_DEFAULT_LIMIT = 200;
/** Largest page size of `list_notes`, notes (DESIGN.md, "Tools"). */
export const LIST_NOTES_MAX_LIMIT = 1000;

/** ISO 8601 date (`2026-01-15`) or date-time (`2026-01-15T09:30`, seconds, fraction and zone optional). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** What a cursor remembers: where the next page starts and which query it belongs to. */
interface ListCursor {
  o: number;
  f: string;
  s: string;
}

/** Encodes a cursor as an opaque base64url string. */
export function encodeListCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

/**
 * Decodes a cursor and checks it belongs to the same `folder`/`since` query.
 * @throws ToolError('invalid_argument') for a malformed cursor or one from another query.
 */
export function decodeListCursor(raw: string, folder: string, since: string): number {
  let cursor: Partial<ListCursor> | null = null;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<ListCursor>;
  } catch {
    cursor = null;
  }
  const valid = cursor !== null && typeof cursor === 'object' && Number.isInteger(cursor.o) && (cursor.o as number) >= 0;
  if (!valid || cursor === null) {
    throw new ToolError('invalid_argument', 'The cursor is not one list_notes returned; call list_notes without cursor to start over.');
  }
  if (cursor.f !== folder || cursor.s !== since) {
    throw new ToolError('invalid_argument', 'The cursor belongs to a list_notes call with another folder or since; repeat those arguments or start over.');
  }
  return cursor.o as number;
}

/**
 * Parses `since` (ISO 8601 date or date-time). A bare date is midnight UTC, a date-time
 * without a zone is local time (ECMAScript Date rules).
 * @returns epoch ms. @throws ToolError('invalid_argument') for anything else.
 */
export function parseSince(since: string): number {
  const trimmed = since.trim();
  const ms = ISO_DATE.test(trimmed) ? Date.parse(trimmed.replace(' ', 'T')) : NaN;
  if (Number.isNaN(ms)) {
    throw new ToolError('invalid_argument', `since '${since}' is not an ISO date; use e.g. "2026-01-15" or "2026-01-15T09:30:00Z".`);
  }
  return ms;
}

/** `list_notes`: notes newest first, optionally under a folder and modified since a date. */
export const listNotesTool = defineTool({
  name: 'list_notes',
  title: 'List notes',
  description:
    'List notes, most recently modified first: path, id, title, frontmatter, mtime. Optional folder (includes subfolders) ' +
    'and since (ISO date; only notes modified at or after it). Pages of limit notes (default 200, max 1000); pass next_cursor back as cursor for more.',
  kind: 'read',
  inputSchema: {
    folder: z.string().optional().describe('Vault folder, e.g. "Projects/Alpha"; default the whole vault.'),
    since: z.string().optional().describe('ISO date or date-time, e.g. "2026-01-15".'),
    limit: z.number().int().min(1).max(LIST_NOTES_MAX_LIMIT).optional().describe('Notes per page, default 200, max 1000.'),
    cursor: z.string().optional().describe('next_cursor from the previous page.'),
  },
  annotations: { title: 'List notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const { notes, scope } = ctx;
    const folder = notes.normalizeFolderPath(args.folder, scope);
    if (folder !== '' && !notes.folderAt(folder)) {
      throw new ToolError('not_found', `Folder '${folder}' not found; call list_folders to see the folders.`);
    }
    const sinceText = args.since?.trim() ?? '';
    const sinceMs = sinceText === '' ? null : parseSince(sinceText);
    const offset = args.cursor === undefined ? 0 : decodeListCursor(args.cursor, folder, sinceText);
    const limit = args.limit ?? LIST_NOTES_DEFAULT_LIMIT;
    const matching = notes
      .readableNotes(scope)
      .filter((file) => isPathInside(file.path, folder) && (sinceMs === null || file.stat.mtime >= sinceMs))
      .sort((a, b) => b.stat.mtime - a.stat.mtime || a.path.localeCompare(b.path));
    const page = matching.slice(offset, offset + limit).map((file) => ({
      path: file.path,
      id: notes.noteId(file),
      title: notes.noteTitle(file),
      frontmatter: notes.frontmatterOf(file),
      mtime: new Date(file.stat.mtime).toISOString(),
    }));
    const out: Record<string, unknown> = { notes: page, total: matching.length };
    if (offset + limit < matching.length) out.next_cursor = encodeListCursor({ o: offset + limit, f: folder, s: sinceText });
    return out;
  },
});
