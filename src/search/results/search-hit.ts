import type { NoteStore } from '../../vault/note-store';
import type { EngineMatch } from '../engine/lexical-engine';
import type { QueryNode } from '../query/parser/query-ast';
import type { RegexGuard } from '../query/regex-guard';
import type { SearchHit } from '../types';
import { placeSnippet, SNIPPET_WIDTH, snippetText } from './snippet';

/**
 * The result entry for one engine match: snippet and section from the note's current text
 * (the match's own text when the query read it); with `fields: "metadata"` the section only
 * (the snippet's text is not built). A note whose path leads elsewhere on disk now (a symbolic
 * link swapped in before the vault's event: NoteStore.liesWhereJudged) gives no hit.
 * @param leaves the query's positive leaves (where the snippet looks for matches)
 * @returns the hit, or null when the note vanished, cannot be read or leads elsewhere on disk
 */
export async function toHit(
  notes: NoteStore,
  m: EngineMatch,
  leaves: QueryNode[],
  fields: 'full' | 'metadata',
  guard: RegexGuard,
): Promise<SearchHit | null> {
  const file = notes.fileByPath(m.note.path);
  if (file === null) return null;
  let text: string;
  try {
    text = m.text ?? (await notes.readForIndex(file));
  } catch {
    return null;
  }
  // The text was read with no disk check when Obsidian may hold it in memory (NoteStore.readForIndex): a note whose path
  // leads elsewhere on disk now is left out, as a vanished one (one check per hit shown).
  if (!notes.liesWhereJudged(file)) return null;
  const place = placeSnippet(text, leaves, m.terms, guard, notes.outline(file, text));
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
