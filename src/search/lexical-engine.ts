import MiniSearch, { type AsPlainObject, type Options as MiniSearchConfig, type SearchOptions as MiniSearchOptions } from 'minisearch';
import type { QueryNode } from './query-ast';
import type { NoteRecord } from './note-filters';
import { fileName } from './note-filters';
import { decidedByIndex, evaluate, needsText, regexNodes, termNodes, type NoteText, type TermLookup } from './query-eval';
import type { RegexGuard } from './regex-guard';
import { bodyStart } from '../vault/note-body';
import { hasUnsegmented, indexTerms, queryTerms } from './tokenizer';

/**
 * The lexical index over plain note data, never the vault or metadata cache: MiniSearch 7 for
 * ranked term lookup (BM25+), plus per-note records for the filters. `SearchIndex` feeds it
 * from NoteStore; tests feed it plain objects.
 */

/** A note as handed to the engine: its record plus the full text and heading texts. */
export interface IndexedNote extends NoteRecord {
  /** Full file text, frontmatter included. */
  text: string;
  /** Heading texts in document order. */
  headings: string[];
}

/** One matching note, before paging. `text` is set when the query needed the note text. */
export interface EngineMatch {
  note: NoteRecord;
  score: number;
  /** Index terms the note matched for the query's positive index-decided words (for snippet placement). */
  terms: Set<string>;
  text?: string;
}

/** Reads a note's current full text by path; may reject when the note is gone. */
export type TextLoader = (path: string) => Promise<string>;

interface MiniDoc {
  id: string;
  title: string;
  path: string;
  body: string;
  headings: string;
  tags: string;
  properties: string;
}

/** Field boosts: a term in the title or path says more about the note than one in the body. */
const BOOST = { title: 4, path: 2, headings: 1.5, tags: 2, properties: 0.7, body: 1 };
/**
 * Longest term, in UTF-16 code units, still expanded by prefix and fuzzy matching: expanding
 * a long term walks much of MiniSearch's radix tree per character, blocking the event loop.
 */
const MAX_EXPANDED_TERM = 32;
/** Prefix matching from 3 characters (or a lone CJK-like character, see tokenizer) up to MAX_EXPANDED_TERM, fuzzy (≤ 20 % edits) from 5, for positive words. */
const prefixable = (term: string): boolean =>
  term.length <= MAX_EXPANDED_TERM && (term.length >= 3 || (hasUnsegmented(term) && [...term].length === 1));
const WORD_SEARCH: MiniSearchOptions = {
  combineWith: 'AND',
  prefix: prefixable,
  fuzzy: (term) => (term.length >= 5 && term.length <= MAX_EXPANDED_TERM && !hasUnsegmented(term) ? 0.2 : false),
  // One edit at most ("light typo tolerance"): each further edit widens the term-tree walk of every fuzzy word.
  maxFuzzy: 1,
};
/** Excluded words: prefix only, so `-draft` does not drop notes that merely contain "craft". */
const NEGATED_SEARCH: MiniSearchOptions = { combineWith: 'AND', prefix: prefixable, fuzzy: false };
/** Phrase candidates: every phrase term exactly (a lone CJK-like character by prefix); the order is then checked on the text. */
const PHRASE_SEARCH: MiniSearchOptions = { combineWith: 'AND', prefix: (term) => hasUnsegmented(term) && [...term].length === 1, fuzzy: false };
/** Notes whose text is read at once while verifying phrases and regexes. */
const READ_BATCH = 32;

/** The engine's state as plain JSON data (see {@link LexicalEngine.toJSON}). */
export interface SavedEngine {
  mini: AsPlainObject;
  records: NoteRecord[];
}

/** The in-memory lexical index. Not thread-safe across awaits: callers serialize writes. */
export class LexicalEngine {
  private mini = createMiniSearch();
  private readonly records = new Map<string, NoteRecord>();

  /** Number of indexed notes. */
  get size(): number {
    return this.records.size;
  }

  /** True when a note with this vault-relative path is indexed. */
  has(path: string): boolean {
    return this.records.has(path);
  }

  /** Indexes `note`, replacing an earlier version at the same path. */
  add(note: IndexedNote): void {
    this.remove(note.path);
    const { text, headings, ...record } = note;
    this.records.set(note.path, record);
    this.mini.add({
      id: note.path,
      title: note.title,
      path: note.path.replace(/\.md$/i, ''),
      body: text.slice(bodyStart(text)),
      headings: headings.join('\n'),
      tags: note.tags.join(' '),
      properties: propertyText(note.frontmatter),
    });
  }

  /** Drops the note at `path`; returns false when it was not indexed. */
  remove(path: string): boolean {
    if (!this.records.delete(path)) return false;
    this.mini.discard(path);
    return true;
  }

  /** Drops every note. */
  clear(): void {
    this.records.clear();
    this.mini = createMiniSearch();
  }

  /** Vault paths of every indexed note. */
  paths(): string[] {
    return [...this.records.keys()];
  }

  /** The whole index as plain data for JSON, to be given back to {@link load}. */
  toJSON(): SavedEngine {
    return { mini: this.mini.toJSON(), records: [...this.records.values()] };
  }

  /**
   * Replaces the index with one saved by {@link toJSON}, yielding to the event loop while
   * the term tree is rebuilt (MiniSearch.loadJSAsync).
   * @throws Error when `saved` does not have the saved shape (the caller then rebuilds).
   */
  async load(saved: SavedEngine): Promise<void> {
    if (!saved || typeof saved.mini !== 'object' || !Array.isArray(saved.records)) throw new Error('saved search index has an unknown shape');
    const mini = await MiniSearch.loadJSAsync<MiniDoc>(saved.mini, MINI_CONFIG);
    const records = new Map<string, NoteRecord>();
    for (const r of saved.records) {
      if (typeof r?.path !== 'string' || typeof r.id !== 'string' || typeof r.title !== 'string' || !Array.isArray(r.tags)) {
        throw new Error('saved search index has a malformed note record');
      }
      records.set(r.path, { path: r.path, id: r.id, title: r.title, tags: r.tags, frontmatter: r.frontmatter ?? {} });
    }
    if (records.size !== mini.documentCount) throw new Error('saved search index records and terms disagree');
    this.mini = mini;
    this.records.clear();
    for (const [path, r] of records) this.records.set(path, r);
  }

  /**
   * Every indexed note that matches `query` and passes `allow`, best first (score
   * descending, then path ascending).
   * @param query parsed query
   * @param loadText reads a note's text, called only when the query has phrases, regexes or
   *   token-less words, and only for notes the cheap pass could not rule out; a rejected
   *   read drops that note
   * @param allow access check by path (e.g. NoteStore.canRead for the caller's scope),
   *   applied before any text is read
   * @param guard runs the query's user regexes (path, file name, body) in timed batches
   * @throws ToolError('invalid_argument') from `guard` when a regex exceeds the search's time budget
   */
  async match(query: QueryNode, loadText: TextLoader, allow: (path: string) => boolean, guard: RegexGuard): Promise<EngineMatch[]> {
    const regexHits = new Map<QueryNode, Set<string>>();
    const lookup = this.lookup(query, regexHits);
    const bodyRegexes: (QueryNode & { kind: 'regex' })[] = [];
    const paths = [...this.records.keys()];
    for (const node of regexNodes(query)) {
      if (node.kind === 'regex') {
        bodyRegexes.push(node);
        regexHits.set(node, new Set());
      } else if ((node.kind === 'path' || node.kind === 'file') && node.match.kind === 'regex') {
        const values = node.kind === 'path' ? paths : paths.map(fileName);
        const ok = guard.testAll(node.match.regex, values);
        regexHits.set(node, new Set(paths.filter((_, k) => ok[k])));
      }
    }
    const candidates: EngineMatch[] = [];
    for (const note of this.records.values()) {
      const v = evaluate(query, note, lookup.index);
      if (v.truth !== 'no' && allow(note.path)) {
        candidates.push({ note, score: v.score, terms: lookup.termsOf(note.path) });
      }
    }
    let matches = candidates;
    if (needsText(query)) {
      matches = [];
      for (let i = 0; i < candidates.length; i += READ_BATCH) {
        const batch = candidates.slice(i, i + READ_BATCH);
        const texts = await Promise.all(batch.map((c) => loadText(c.note.path).catch(() => null)));
        const loaded = batch.flatMap((c, k) => {
          const full = texts[k];
          return full === null ? [] : [{ c, text: { full, body: full.slice(bodyStart(full)) } as NoteText }];
        });
        for (const node of bodyRegexes) {
          const ok = guard.testAll(node.regex, loaded.map((l) => l.text.body));
          const set = regexHits.get(node) as Set<string>;
          loaded.forEach((l, k) => {
            if (ok[k]) set.add(l.c.note.path);
          });
        }
        loaded.forEach(({ c, text }) => {
          const v = evaluate(query, c.note, lookup.index, text);
          if (v.truth === 'yes') matches.push({ ...c, score: v.score, text: text.full });
        });
      }
    }
    return matches.sort((a, b) => b.score - a.score || (a.note.path < b.note.path ? -1 : a.note.path > b.note.path ? 1 : 0));
  }

  /**
   * Runs one MiniSearch lookup per word/phrase node and indexes the hits by node and path.
   * @param regexHits paths each regex node matched, filled by `match` (body regexes batch by batch)
   */
  private lookup(query: QueryNode, regexHits: ReadonlyMap<QueryNode, ReadonlySet<string>>): { index: TermLookup; termsOf(path: string): Set<string> } {
    const hits = new Map<QueryNode, Map<string, number>>();
    const positiveTerms = new Map<string, Set<string>>();
    for (const { node, negated } of termNodes(query)) {
      if ((node.kind !== 'word' && node.kind !== 'phrase') || queryTerms(node.text).length === 0) continue;
      const options = node.kind === 'phrase' ? PHRASE_SEARCH : negated ? NEGATED_SEARCH : WORD_SEARCH;
      const byPath = new Map<string, number>();
      for (const r of this.mini.search(node.text, options)) {
        byPath.set(String(r.id), r.score);
        if (!negated && node.kind === 'word' && decidedByIndex(node.text)) {
          const set = positiveTerms.get(String(r.id)) ?? new Set<string>();
          r.terms.forEach((t) => set.add(t));
          positiveTerms.set(String(r.id), set);
        }
      }
      hits.set(node, byPath);
    }
    return {
      index: { score: (node, path) => hits.get(node)?.get(path) ?? null, regex: (node, path) => regexHits.get(node)?.has(path) ?? false },
      termsOf: (path) => positiveTerms.get(path) ?? new Set(),
    };
  }
}

/** MiniSearch's configuration; a saved index must be loaded with the same one. */
const MINI_CONFIG: MiniSearchConfig<MiniDoc> = {
  idField: 'id',
  fields: ['title', 'path', 'body', 'headings', 'tags', 'properties'],
  storeFields: [],
  tokenize: (text) => indexTerms(text),
  processTerm: (term) => term,
  searchOptions: {
    boost: BOOST,
    tokenize: (text) => queryTerms(text),
    processTerm: (term) => term,
  },
};

function createMiniSearch(): MiniSearch<MiniDoc> {
  return new MiniSearch<MiniDoc>(MINI_CONFIG);
}

/** Frontmatter values as searchable text (keys left out; nested values flattened). */
function propertyText(frontmatter: Record<string, unknown>): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object') Object.values(v as Record<string, unknown>).forEach(walk);
    else out.push(String(v));
  };
  walk(frontmatter);
  return out.join('\n');
}
