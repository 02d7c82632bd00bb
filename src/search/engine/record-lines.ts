import type { NoteRecord } from '../query/note-filters';
import type { TermIndex } from './term-index';

/**
 * The saved form of the engine's note records (the `"R"` lines of index-file.ts): records in
 * lines of a bounded size, read back strictly, and matched to the term index's documents.
 */

/** Groups `records` into saved lines of at most `perLine` records, in the order given. */
export function* recordLines(records: Iterable<NoteRecord>, perLine: number): Generator<NoteRecord[]> {
  let line: NoteRecord[] = [];
  for (const r of records) {
    line.push(r);
    if (line.length === perLine) {
      yield line;
      line = [];
    }
  }
  if (line.length > 0) yield line;
}

/** The prefix of a note's synthetic id, `path:<path>` (NoteStore.noteId, for a note without a frontmatter `id`). */
const PATH_ID = 'path:';

/**
 * Reads one saved record line into `into` (by path), keeping only the record's own fields.
 * Strings that repeat the path or the title are kept as one string, not as the parsed copies
 * (a synthetic id `path:<path>` becomes the prefix joined to the path, a frontmatter `title`
 * equal to the title the title itself): at 100k notes the copies were megabytes of strings that
 * live on, which the young generation's collections, run inside the load, had to copy.
 * @throws Error when the line is not a list of records with string path, id and title and a tags list (the caller then rebuilds)
 */
export function loadRecordLine(payload: unknown, into: Map<string, NoteRecord>): void {
  if (!Array.isArray(payload)) throw new Error('saved search index has a malformed record line');
  for (const r of payload as NoteRecord[]) {
    if (typeof r?.path !== 'string' || typeof r.id !== 'string' || typeof r.title !== 'string' || !Array.isArray(r.tags)) {
      throw new Error('saved search index has a malformed note record');
    }
    const { path, title } = r;
    const synthetic = r.id.length === path.length + PATH_ID.length && r.id.startsWith(PATH_ID) && r.id.endsWith(path);
    const frontmatter = r.frontmatter ?? {};
    if (frontmatter.title === title) frontmatter.title = title;
    into.set(path, { path, id: synthetic ? PATH_ID + path : r.id, title, tags: r.tags, frontmatter });
  }
}

/** Documents {@link documentsOf} matches to their records between two pauses (the 100k of a large vault in one go were a step of 150 ms). */
const DOCUMENTS_STEP = 2000;

/**
 * Each record's document id in `index`: every document must name exactly one record and every
 * record one document. Awaits `pause()` after every {@link DOCUMENTS_STEP} documents.
 * @returns path → doc id
 * @throws Error when records and documents disagree (the caller then rebuilds)
 */
export async function documentsOf(
  index: TermIndex,
  records: ReadonlyMap<string, NoteRecord>,
  pause: () => Promise<void>,
): Promise<Map<string, number>> {
  const docs = new Map<string, number>();
  for (let doc = 0; doc < index.documentCount; doc++) {
    if (doc % DOCUMENTS_STEP === DOCUMENTS_STEP - 1) await pause();
    const path = index.keyOf(doc);
    if (path === null || !records.has(path) || docs.has(path)) throw new Error('saved search index records and documents disagree');
    docs.set(path, doc);
  }
  if (docs.size !== records.size) throw new Error('saved search index records and documents disagree');
  return docs;
}
