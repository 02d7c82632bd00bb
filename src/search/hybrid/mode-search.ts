import { ToolError } from '../../errors';
import type { AccessScope } from '../../vault/access/access';
import { bodyStart } from '../../vault/content/note-body';
import type { NoteStore } from '../../vault/note-store';
import { parseQuery, regexQuery } from '../query/parser/query-parser';
import { queryShape, type QueryShape } from '../query/query-plan';
import { cursorQueryText, decodeCursor, encodeCursor } from '../results/cursor';
import { SNIPPET_WIDTH, snippetText } from '../results/snippet';
import type { SearchIndex } from '../search-index';
import {
  isTransientAiError,
  SEMANTIC_OFF_REASON,
  type SemanticIndex,
  type SemanticMatch,
  type SemanticStatus,
} from '../semantic/semantic-index';
import type { SearchHit, SearchOptions, SearchPage } from '../types';
import { fusedSource, FUSION_POOL, hybridLists } from './candidates';
import { fuse, HYBRID_FUSION, type ScoredKey } from './fusion';

/** How `search` ranks: keywords, meaning, or both fused. */
export type SearchMode = 'hybrid' | 'lexical' | 'semantic';

/** The search services a mode search uses; `semantic` null when the plugin has none. */
export interface SearchServices {
  notes: NoteStore;
  lexical: SearchIndex;
  semantic: SemanticIndex | null;
}

/** A page and whether its hits came from more than the lexical ranking (then each hit's `source` matters). */
export interface ModePage {
  page: SearchPage;
  mixed: boolean;
}

/**
 * Runs `search` in a mode (docs/architecture.md#tool-contract, search):
 * - `lexical`: the lexical index as is;
 * - `semantic`: the notes nearest in meaning to the query read as plain language; a query the
 *   search syntax reads as a filter (quotes, parentheses, `-`, `OR`, an operator, a property
 *   filter, a regex: {@link queryShape} `syntax`) is refused, as `regex: true` is, rather than
 *   its operators silently read as words (a CJK question or one the syntax cannot parse is
 *   text to embed); without a usable semantic index a ToolError naming the setting;
 * - `hybrid` (default): lexical and semantic candidates ({@link FUSION_POOL} each) fused by
 *   {@link HYBRID_FUSION} (fusion.ts); each hit's `source` is `lexical`, `semantic` or `both`. Falls back to
 *   lexical when the semantic index is off, building or its provider unreachable, or the query
 *   is a filter to the lexical engine (any {@link QueryShape} but `words`: the same judgement
 *   that makes it a filter there, so a filter's page holds only the notes matching it); the
 *   page's `note` then says so once, with the reason.
 * The lists fused are the lexical hits holding every word (`all_terms`), the whole lexical
 * ranking (partial matches included) and the semantic hits ({@link hybridLists}).
 * @returns one page, as `SearchIndex.search`, and `mixed` (false when only lexical ranking ran)
 * @throws ToolError invalid_argument (bad query, limit or cursor; regex or a filter query in semantic mode) | unavailable
 */
export async function searchByMode(
  services: SearchServices,
  mode: SearchMode,
  query: string,
  scope: AccessScope,
  options: SearchOptions = {},
): Promise<ModePage> {
  // A semantic hit whose text the caller may not read (semanticHit) makes that note private: the search is made again
  // without it, so neither the page nor its total tells it was there; a later round's refusals only drop their hits.
  for (let round = 1; ; round++) {
    const refused = { seen: false };
    const out = await searchOnce(services, mode, query, scope, options, refused);
    if (!refused.seen || round >= SEARCH_ROUNDS) return out;
  }
}

/** How many times one search by mode is made (see {@link searchByMode}). */
const SEARCH_ROUNDS = 3;

/** One round of {@link searchByMode}; `refused.seen` is set when a semantic hit's text was refused (and the hit left out). */
async function searchOnce(
  services: SearchServices,
  mode: SearchMode,
  query: string,
  scope: AccessScope,
  options: SearchOptions,
  refused: { seen: boolean },
): Promise<ModePage> {
  if (mode === 'lexical') return { page: await services.lexical.search(query, scope, options), mixed: false };
  const limit = options.limit ?? 20;
  const cursorKey = JSON.stringify([cursorQueryText(query, options.regex === true), mode, options.regex === true]);
  // A fallback page pages with the lexical index's own cursors, so the offset is decoded only where fused or semantic pages are made.
  const ownOffset = (): number => (options.cursor === undefined ? 0 : decodeCursor(options.cursor, cursorKey));
  const status = services.semantic?.current ?? null;
  if (mode === 'semantic') {
    if (options.regex)
      throw new ToolError('invalid_argument', 'regex does not apply to semantic search; call search with mode "lexical" for a regex.');
    if (shapeOf(query, false, true) === 'syntax') throw new ToolError('invalid_argument', SEMANTIC_FILTER);
    const reason = unusableReason(status);
    if (reason !== null) {
      throw new ToolError(
        'unavailable',
        `Semantic search is unavailable: ${reason}. Call search with mode "lexical" or "hybrid" meanwhile.`,
      );
    }
    const offset = ownOffset();
    let matches: SemanticMatch[];
    try {
      matches = await services.semantic!.nearest(query, scope, offset + limit + 1);
    } catch (err) {
      throw new ToolError(
        'unavailable',
        `Semantic search is unavailable: ${providerReason(err)}. Call search with mode "lexical" meanwhile.`,
      );
    }
    const hits = await Promise.all(
      matches.slice(offset, offset + limit).map((m) => semanticHit(services.notes, m, options.fields ?? 'full', scope, refused)),
    );
    return { page: page(shown(hits), offset, limit, matches.length, cursorKey), mixed: true };
  }
  const unusable = unusableReason(status);
  const filter = unusable === null ? filterReason(shapeOf(query, options.regex === true, false)) : null;
  const note = unusable !== null ? fallbackNote(unusable) : filter !== null ? filterNote(filter) : null;
  if (note !== null) return { page: withNote(await services.lexical.search(query, scope, options), note), mixed: false };
  const offset = ownOffset();
  let semantic: SemanticMatch[];
  try {
    semantic = await services.semantic!.nearest(query, scope, FUSION_POOL);
  } catch (err) {
    return { page: withNote(await services.lexical.search(query, scope, options), fallbackNote(providerReason(err))), mixed: false };
  }
  const lexicalPage = await services.lexical.search(query, scope, { limit: FUSION_POOL, fields: options.fields });
  const ranked = lexicalPage.results.map(scoredHit);
  const byPath = new Map(lexicalPage.results.map((h) => [h.path, h]));
  const semanticByPath = new Map(semantic.map((m) => [m.path, m]));
  const lists = hybridLists(
    ranked.filter((_, i) => lexicalPage.results[i].all_terms !== false),
    ranked,
    semantic.map((m) => ({ key: m.path, score: shownScore(m.score) })),
  );
  const fused = fuse(lists, HYBRID_FUSION);
  const hits = await Promise.all(
    fused.slice(offset, offset + limit).map(async (f): Promise<SearchHit | null> => {
      const hit =
        byPath.get(f.key) ?? (await semanticHit(services.notes, semanticByPath.get(f.key)!, options.fields ?? 'full', scope, refused));
      return hit === null ? null : { ...hit, score: Math.round(f.score * 10000) / 10000, source: fusedSource(f.lists) };
    }),
  );
  const out = page(shown(hits), offset, limit, fused.length, cursorKey);
  if (lexicalPage.index) {
    out.index = lexicalPage.index;
    out.note = lexicalPage.note;
  }
  return { page: out, mixed: true };
}

/** A cosine as a hit shows it (3 decimals); fusion uses the same value (and the lexical hits' shown scores), so a page can be recomputed from what `search` returns. */
function shownScore(cosine: number): number {
  return Math.round(cosine * 1000) / 1000;
}

function scoredHit(h: SearchHit): ScoredKey {
  return { key: h.path, score: h.score };
}

/**
 * How an agent's user turns semantic search on in a headless run (`npm start`, docs/npm-start.md),
 * which has no settings tab: the agent cannot tell which of the two it talks to.
 */
const HEADLESS_TURN_ON = ' (in a run of npm start, which has no settings tab: its --embed-url and --embed-model flags)';

/** Why the semantic index cannot answer now, in words for the agent; null when it can. */
export function unusableReason(status: SemanticStatus | null): string | null {
  if (status === null) return SEMANTIC_OFF_REASON + HEADLESS_TURN_ON;
  switch (status.state) {
    case 'ready':
      return null;
    case 'off':
      return status.reason === SEMANTIC_OFF_REASON ? status.reason + HEADLESS_TURN_ON : status.reason;
    case 'building':
      return `the semantic index is being built (${status.total === 0 ? 0 : Math.floor((100 * status.indexed) / status.total)} %)`;
    case 'paused':
      return status.reason;
  }
}

/** The page note of a hybrid search that fell back to lexical because the semantic index cannot answer ({@link unusableReason}). */
export function fallbackNote(reason: string): string {
  return `Semantic ranking unavailable (${reason}); lexical results only.`;
}

/** The page note of a hybrid search answered lexically because of its query's shape ({@link filterReason}): semantic ranking is there, but fuses plain words only. */
function filterNote(reason: string): string {
  return `Lexical results only: ${reason}; hybrid fuses semantic ranking for plain words.`;
}

function providerReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return isTransientAiError(err) ? `the embedding provider is unreachable: ${message}` : message;
}

function withNote(page: SearchPage, note: string): SearchPage {
  return { ...page, note: page.note === undefined ? note : `${page.note} ${note}` };
}

function page(results: SearchHit[], offset: number, limit: number, total: number, cursorKey: string): SearchPage {
  const next = offset + limit;
  return next < total ? { results, next_cursor: encodeCursor(next, cursorKey), total } : { results, total };
}

/** The search syntax that makes a query a filter (QueryShape `syntax`), as the agent is told. */
const SYNTAX = 'quotes, parentheses, -, OR, an operator, a property filter or a regex';
/** The refusal of a filter query in semantic mode. */
const SEMANTIC_FILTER = `Semantic search reads plain language, not search syntax (${SYNTAX}); call search with mode "lexical" or "hybrid" to filter.`;

/**
 * The {@link QueryShape} of `query` as the lexical index parses it (SearchIndex.search): the
 * whole query as one regex with `regex`, else Obsidian syntax.
 * @param lenient a query the parser refuses is `words` (semantic mode embeds any text) instead of an error
 * @throws ToolError invalid_argument, the parser's, for a bad query unless `lenient`
 */
function shapeOf(query: string, regex: boolean, lenient: boolean): QueryShape {
  try {
    return queryShape(regex ? regexQuery(query) : parseQuery(query));
  } catch (err) {
    if (lenient) return 'words';
    throw err;
  }
}

/**
 * Why hybrid answers a query of this shape lexically, in words for the agent (the page's
 * `note`, through {@link fallbackNote}); null for plain words, which it fuses.
 */
export function filterReason(shape: QueryShape): string | null {
  switch (shape) {
    case 'words':
      return null;
    case 'syntax':
      return `the query is a filter (${SYNTAX})`;
    case 'unsegmented':
      return 'the query has CJK-like words, matched as written like a phrase';
    case 'symbols':
      return 'the query has only symbols, matched as written';
  }
}

/** The hits of a page that are shown: those not refused. */
function shown(hits: ReadonlyArray<SearchHit | null>): SearchHit[] {
  return hits.filter((hit): hit is SearchHit => hit !== null);
}

/**
 * The result entry for a semantic match: snippet from the start of the matched chunk, of the
 * note's text read for `scope` (NoteStore.read, also with `fields: "metadata"`, so a note whose
 * text `scope` may not read is never listed).
 * @returns the hit; null when the text must not be served (`refused.seen` is then set; the note now counts as private)
 */
async function semanticHit(
  notes: NoteStore,
  m: SemanticMatch,
  fields: 'full' | 'metadata',
  scope: AccessScope,
  refused: { seen: boolean },
): Promise<SearchHit | null> {
  const file = notes.fileByPath(m.path);
  let snippet = '';
  if (file !== null) {
    const text = await notes.read(file, scope).catch(() => '');
    if (text === null) {
      refused.seen = true;
      return null;
    }
    if (fields === 'full') {
      const at = bodyStart(text);
      const offset = Math.max(0, m.start - at);
      snippet = snippetText(text.slice(at), [], m.start >= at ? { start: offset, end: offset } : null, SNIPPET_WIDTH);
    }
  }
  return {
    path: m.path,
    id: file ? notes.noteId(file) : m.path,
    title: file ? notes.noteTitle(file) : m.path,
    score: shownScore(m.score),
    ...(fields === 'full' ? { snippet } : {}),
    section: m.section,
    section_heading: m.heading,
    source: 'semantic',
  };
}
