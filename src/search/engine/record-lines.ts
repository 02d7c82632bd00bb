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

/**
 * Reads one saved record line into `into` (by path), keeping only the record's own fields.
 * @throws Error when the line is not a list of records with string path, id and title and a tags list (the caller then rebuilds)
 */
export function loadRecordLine(payload: unknown, into: Map<string, NoteRecord>): void {
  if (!Array.isArray(payload)) throw new Error('saved search index has a malformed record line');
  for (const r of payload as NoteRecord[]) {
    if (typeof r?.path !== 'string' || typeof r.id !== 'string' || typeof r.title !== 'string' || !Array.isArray(r.tags)) {
      throw new Error('saved search index has a malformed note record');
    }
    into.set(r.path, { path: r.path, id: r.id, title: r.title, tags: r.tags, frontmatter: r.frontmatter ?? {} });
  }
}

/**
 * Each record's document id in `index`: every document must name exactly one record and every
 * record one document.
 * @returns path → doc id
 * @throws Error when records and documents disagree (the caller then rebuilds)
 */
export function documentsOf(index: TermIndex, records: ReadonlyMap<string, NoteRecord>): Map<string, number> {
  const docs = new Map<string, number>();
  for (let doc = 0; doc < index.documentCount; doc++) {
    const path = index.keyOf(doc);
    if (path === null || !records.has(path) || docs.has(path)) throw new Error('saved search index records and documents disagree');
    docs.set(path, doc);
  }
  if (docs.size !== records.size) throw new Error('saved search index records and documents disagree');
  return docs;
}
