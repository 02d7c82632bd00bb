import * as z from 'zod';
import { orderedAsText, propertiesNoNoteHas, runNotesQuery, type NoteFacts, type QueryResult } from '../../../search/query-notes/evaluate';
import { absentPropertiesRemark, distinctPropertyNames } from '../../../search/query/absent-properties';
import { parseNotesQuery, QuerySyntaxError, type Condition, type NotesQuery } from '../../../search/query-notes/parse';
import type { NoteStore } from '../../../vault/note-store';
import type { AccessScope } from '../../../vault/access/access';
import { clusterPrefix, clusterStart } from '../../../vault/content/text/graphemes';
import { visibleText } from '../../../diff/visible-text';
import { quoteInput } from '../../../errors';
import { defineTool } from '../../tool';

/** Chars of the query shown after an error position, so the agent sees what was found there (cut between whole characters, see clusterPrefix). */
const NEAR_CHARS = 24;

/**
 * Up to {@link NEAR_CHARS} chars of `query` from 1-based `position`, started and cut between grapheme clusters, with
 * any character drawn as nothing or acted on written out (visibleText: `<U+202E>`), so the agent sees what is there.
 */
function nearPosition(query: string, position: number): string {
  return visibleText(clusterPrefix(query.slice(clusterStart(query, Math.max(0, position - 1))), NEAR_CHARS));
}

/**
 * `query_notes`: a base-style query over frontmatter and file fields (docs/architecture.md#tool-contract). Runs
 * over the notes the caller may read (NoteStore.readableNotes: quarantine, roots and
 * `access: private` / `no-access` applied, exactly as list_notes). A query that does not
 * parse is answered as a result with `error` and `position` (docs/architecture.md#tool-contract: parse
 * errors are results, not failures).
 */
export const queryNotesTool = defineTool({
  name: 'query_notes',
  title: 'Query notes',
  description:
    'Find notes by properties and file fields, like a base: WHERE status is "draft" AND file.folder under "Projects" ' +
    'SORT file.mtime desc LIMIT 20 COLUMNS title, status. All clauses optional. Tests: is, is not, contains, not contains, ' +
    'exists, missing, gt, lt, gte, lte, under (or = != > < >= <=), joined by AND, OR, NOT, ( ). Fields: any property, ' +
    'file.name/basename/path/folder/ext/mtime/ctime/size/tags. ' +
    'Returns {columns, rows, total}; a bad query returns {error, position}.',
  kind: 'read',
  inputSchema: {
    query: z.string().max(2000).describe('E.g. `WHERE tags contains "project" SORT due LIMIT 10`; "" lists the newest notes.'),
  },
  annotations: { title: 'Query notes', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    let query;
    try {
      query = parseNotesQuery(args.query);
    } catch (err) {
      if (!(err instanceof QuerySyntaxError)) throw err;
      return { error: err.message, position: err.position, near: nearPosition(args.query, err.position) };
    }
    const facts = readableFacts(ctx.notes, ctx.scope);
    const result = runNotesQuery(query, facts);
    const out: Record<string, unknown> = { ...result };
    const remarks: string[] = [];
    if (result.rows.length < result.total) {
      remarks.push(`${result.rows.length} of ${result.total} notes shown; raise LIMIT (at most 1000) or narrow WHERE for the rest.`);
    }
    const absent = propertiesNoNoteHas(query, facts);
    if (absent.length > 0)
      remarks.push(
        absentPropertiesRemark(absent, distinctPropertyNames(facts.map((note) => note.frontmatter)), 'file.tags has every tag of a note'),
      );
    for (const { field, op, value, notes, example } of orderedAsText(query, facts)) {
      const shown = quoteInput(value);
      remarks.push(
        `${quoteInput(field)} ${op} ${shown} ordered text: ${notes === 1 ? '1 note holds' : `${notes} notes hold`} a number or date there ` +
          `(such as ${quoteInput(example)}), and ${shown} is neither, so ${op} compared them as text; to compare numbers or dates, give one (${field} ${op} ${example}).`,
      );
    }
    const bare = result.total === 0 ? nameWithoutExtension(query.where) : null;
    if (bare !== null) {
      remarks.push(
        `file.name holds the extension ('${bare}.md'); for the name without it, compare file.basename ('file.basename is "${bare}"').`,
      );
    }
    if (remarks.length > 0) out.note = remarks.join(' ');
    return out;
  },
});

/**
 * Runs a parsed query_notes query over the notes `scope` may read (NoteStore.readableNotes),
 * as query_notes does; widgets get their data through it too.
 * @returns `{columns, rows, total}` (see runNotesQuery).
 */
export function queryReadableNotes(query: NotesQuery, notes: NoteStore, scope: AccessScope): QueryResult {
  return runNotesQuery(query, readableFacts(notes, scope));
}

/**
 * The value of a `file.name is …` test in `where` that has no extension (`file.name is "Home"`),
 * which no note's file name equals (Obsidian's `file.name` is `Home.md`): the query meant
 * `file.basename` (session 43's newcomer found nothing, unsaid). Null when there is none.
 */
function nameWithoutExtension(where: Condition | null): string | null {
  if (where === null) return null;
  if (where.kind === 'test') {
    const { field, op, value } = where;
    return field.kind === 'file' && field.name === 'file.name' && op === 'is' && value !== null && !value.includes('.') ? value : null;
  }
  if (where.kind === 'not') return null;
  return nameWithoutExtension(where.left) ?? nameWithoutExtension(where.right);
}

/** What a query can ask of each note `scope` may read (NoteStore.readableNotes), for runNotesQuery. */
function readableFacts(notes: NoteStore, scope: AccessScope): NoteFacts[] {
  return notes.readableNotes(scope).map((file) => ({
    path: file.path,
    mtime: file.stat.mtime,
    ctime: file.stat.ctime,
    size: file.stat.size,
    tags: notes.tagsOf(file),
    frontmatter: notes.frontmatterOf(file),
  }));
}
