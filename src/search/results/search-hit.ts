import type { AccessScope } from '../../vault/access/access';
import type { NoteStore } from '../../vault/note-store';
import type { EngineMatch } from '../engine/lexical-engine';
import type { QueryNode } from '../query/parser/query-ast';
import type { RegexGuard } from '../query/regex-guard';
import type { SearchHit } from '../types';
import { placeSnippet, SNIPPET_WIDTH, snippetText } from './snippet';

/** What {@link toHit} answers for a note whose text the caller may not read: the note now counts as private, and the search is made again. */
export const REFUSED = Symbol('refused');

/**
 * The result entry for one engine match: snippet and section from the note's current text
 * (the match's own text when the query read it); with `fields: "metadata"` the section only
 * (the snippet's text is not built). The text is judged as every served text is
 * (NotePolicy.mayServe: its own rules, and the disk's when the vault has not caught up), and only
 * while the note lies on disk where the access checks place it (NoteStore.read and mayServe: a
 * symbolic link swapped in before the vault's event refuses it as well).
 * @param leaves the query's positive leaves (where the snippet looks for matches)
 * @param scope the caller, who must be able to read the very text the hit shows
 * @returns the hit; null when the note vanished or cannot be read; {@link REFUSED} when its text
 *   must not be served to `scope`
 */
export async function toHit(
  notes: NoteStore,
  m: EngineMatch,
  leaves: QueryNode[],
  fields: 'full' | 'metadata',
  guard: RegexGuard,
  scope: AccessScope,
): Promise<SearchHit | null | typeof REFUSED> {
  const file = notes.fileByPath(m.note.path);
  if (file === null) return null;
  let text: string | null;
  try {
    text = m.text !== undefined ? (notes.mayServe(file, m.text, scope) ? m.text : null) : await notes.read(file, scope);
  } catch {
    return null;
  }
  if (text === null) return REFUSED;
  const place = placeSnippet(text, leaves, m.terms, guard, notes.outline(file, text), SNIPPET_WIDTH, m.note.path);
  const section = place.section;
  return {
    path: m.note.path,
    id: m.note.id,
    title: m.note.title,
    score: Math.round(m.score * 1000) / 1000,
    ...(fields === 'full' ? { snippet: snippetText(text.slice(place.bodyAt), place.spans, place.anchor, SNIPPET_WIDTH) } : {}),
    section: section?.path ?? null,
    section_heading: section?.heading ?? null,
    source: 'lexical',
    ...(m.allTerms === undefined ? {} : { all_terms: m.allTerms, ...(m.missing?.length ? { missing_terms: m.missing } : {}) }),
  };
}
