import type { QueryNode } from '../query/parser/query-ast';
import type { NoteRecord } from '../query/note-filters';
import {
  decidedByIndex,
  evaluate,
  evaluateBatch,
  needsText,
  recordRegexInputs,
  scoreBound,
  regexNodes,
  termNodes,
  userRegex,
  type NoteText,
  type TermLookup,
} from '../query/query-eval';
import type { RegexGuard } from '../query/regex-guard';
import { bodyStart } from '../../vault/content/note-body';
import { distinctPropertyNames } from '../query/absent-properties';
import { FIELD_BOOSTS, fieldTexts } from './text/note-fields';
import { LazyMatch, type EngineMatch, type EngineResult, type MatchedTerms } from './engine-match';
import { FilterScratch, scoreFilterWord, type NodeHits } from './filters/filter-terms';
import { TermIndex, type Expansion, type IndexLine } from './term-index';
import type { CorpusView, ScoreSheet } from './corpus-view';
import { CorpusViews } from './corpus-views';
import { RankingScratch } from './ranked/ranked-search';
import { TitleStemTable } from './ranked/title-stems';
import { TagDocTable } from './filters/tag-docs';
import { PathRanks } from './filters/path-ranks';
import { documentsOf, loadRecordLine, recordLines } from './record-lines';
import { rankedMatches } from './ranked/ranked-matches';
import { PhraseFilters, phraseKeys } from './filters/phrase-filter';
import { bestFirst } from './ranked/top-k';
import { bestPositions, docScorer, NO_MATCH } from './filters/index-filter';
import { byRank, ESTIMATE_SAMPLE, textPass, type TextCandidates, type VerifyBatch } from './filters/text-pass';
import { flatBound, flatPhrasePass, sumBound } from './filters/flat-phrases';
import { queryTerms } from './text/tokenizer';
import { phraseMode, plainWords, requiredNodes, wordMode } from '../query/query-plan';

/**
 * The lexical index over plain note data, never the vault or metadata cache: an inverted
 * index of our own ({@link TermIndex}, BM25F over the field table of note-fields.ts) for ranked
 * term lookup, plus per-note records for the filters. A query of plain words is ranked
 * retrieval (ranked-search.ts); a query with any operator is a filter with Obsidian's meaning
 * (query-eval.ts), its matches ordered by the same scores. `SearchIndex` feeds it from
 * NoteStore; tests feed it plain objects.
 */

/** A note as handed to the engine: its record plus the full text and heading texts. */
export interface IndexedNote extends NoteRecord {
  /** Full file text, frontmatter included. */
  text: string;
  /** Heading texts in document order. */
  headings: string[];
}

/**
 * Who is searching: `allow` says which notes they may read (by path); `key` names that access
 * rule: the same key must give the same answer for a note as long as the note is not changed
 * (re-added or removed), so the statistics over what they may see are computed once and then
 * patched with the notes that change (corpus-views.ts).
 */
export interface CallerAccess {
  key: string;
  allow(path: string): boolean;
  /**
   * How `allow` relates to the base view's access ({@link LexicalEngine.baseViewSteps}), when it
   * does: for every note the index has not changed since the base view was made and that is not
   * among `asked`, `allow` answers as the base's access and `within` both do. The caller's first
   * view is then the base view narrowed by `within`, with only the changed and the asked notes
   * given to `allow` (corpus-views.ts, BaseNarrowing).
   */
  narrows?: { base: string; within: ((path: string) => boolean) | null; asked: readonly string[] };
}

/** Reads a note's current full text by path; may reject when the note is gone. */
export type TextLoader = (path: string) => Promise<string>;

/** Notes whose text is read at once while verifying phrases and regexes. */
const READ_BATCH = 32;
/**
 * A filter query whose text must be read decides every candidate (the notes holding its
 * required words), for an exact total, when there are at most this many; beyond, it reads
 * them in rank order only until the page is settled, and estimates the total (text-pass.ts).
 * A thousand notes' texts take a few ms to test in memory.
 */
export const EXACT_TOTAL_UP_TO = 1000;
/** Dictionary terms stemmed, and titles stemmed, per step of {@link LexicalEngine.rankingSteps} (a few ms each; steps of 1000 titles took up to 40 ms at 100k notes). */
const RANKING_STEP_TERMS = 500;
const RANKING_STEP_TITLES = 250;
/** Notes whose tags are listed per step of {@link LexicalEngine.rankingSteps} (TagDocTable: a map lookup per tag). */
const RANKING_STEP_TAGS = 10000;
/** Paths ranked per step of {@link LexicalEngine.rankingSteps} (PathRanks: a sort of these and a binary search each among those ranked before). */
const RANKING_STEP_PATHS = 5000;
/** Note records per saved line. */
const RECORD_LINE_ROWS = 1000;
/** Notes {@link LexicalEngine.load} links to their records between two pauses. */
const LOAD_STEP_NOTES = 5000;

/** One line of the saved engine: note records (`R`), a line of the term index (`D`, `T`), or phrase filters (`P`: words per document and their encodeWordRun text, in doc order). */
export type EngineLine = IndexLine | { kind: 'R'; records: NoteRecord[] } | { kind: 'P'; sizes: number[]; words: Uint32Array };

/** The phrase filter lines a {@link LexicalEngine.load} left for {@link LexicalEngine.loadPhrases}: the first, the rest, and what they fill. */
export interface PhraseLines {
  first: EngineLine;
  /** The lines after {@link first}: the load's own iterator, async when the load's lines were (a saved index read part by part). */
  rest: Iterator<EngineLine | null> | AsyncIterator<EngineLine | null>;
  /** The filters of the load (the engine's until it is cleared or loaded again). */
  phrases: PhraseFilters;
  /** Documents the load held (doc ids 0 … docs - 1, in the order the filters come). */
  docs: number;
}

export type { EngineMatch, EngineResult } from './engine-match';

/** The in-memory lexical index. Not thread-safe across awaits: callers serialize writes. */
export class LexicalEngine {
  private index = new TermIndex();
  /** Each doc id's phrase filter (phrase-filter.ts): which notes the text pass of a phrase need not read. */
  private phrases = new PhraseFilters();
  private records = new Map<string, NoteRecord>();
  /** Doc id in `index` of every indexed note, by path. */
  private docs = new Map<string, number>();
  /** The record of each live doc id (holes for removed ids): the hot loop of a search indexes it. */
  private byDoc: (NoteRecord | undefined)[] = [];
  /** The title stems of each doc id's title, computed when a ranked query first needs them (doc ids are never reused). */
  private titles = this.titleTable();
  /** The doc ids of each tag's notes, listed when a `tag:` filter first needs them (doc ids are never reused). */
  private tags = this.tagTable();
  /** Each doc id's rank in path order, ranked when a query first orders notes of equal score (doc ids are never reused). */
  private pathRanks = this.pathRankTable();
  /** The view of each recent caller (by CallerAccess.key), patched as notes change. */
  private readonly views = new CorpusViews(() => this.index);
  /** The per-document arrays ranked queries sum scores in (reused: see RankingScratch). */
  private readonly scratch = new RankingScratch();
  /** The arrays a filter query's words are scored in (scoreFilterWord), kept between queries. */
  private readonly filterScratch = new FilterScratch();
  /** The matching doc ids of an index-decided filter and their scores (reused: {@link indexFilter} runs without awaiting). */
  private filterDocs = new Int32Array(0);
  private filterScores = new Float64Array(0);

  private readonly passOptions: { exactUpTo: number; sample: number; batch: number };

  /**
   * @param options how a filter query's text pass reads (text-pass.ts; tests lower them):
   *   `exactTotalUpTo` the most candidates decided whole, for an exact total (default
   *   {@link EXACT_TOTAL_UP_TO}), `estimateSample` the sample an estimated total is read from
   *   (default ESTIMATE_SAMPLE), `readBatch` the notes read at once (default {@link READ_BATCH})
   * @throws Error when an option is not a whole number (exactTotalUpTo ≥ 0, the others ≥ 1)
   */
  constructor(options: { exactTotalUpTo?: number; estimateSample?: number; readBatch?: number } = {}) {
    const exactUpTo = options.exactTotalUpTo ?? EXACT_TOTAL_UP_TO;
    const sample = options.estimateSample ?? ESTIMATE_SAMPLE;
    const batch = options.readBatch ?? READ_BATCH;
    if (!Number.isInteger(exactUpTo) || exactUpTo < 0)
      throw new Error(`LexicalEngine: exactTotalUpTo must be a whole number ≥ 0, got ${exactUpTo}`);
    if (!Number.isInteger(sample) || sample < 1) throw new Error(`LexicalEngine: estimateSample must be a whole number ≥ 1, got ${sample}`);
    if (!Number.isInteger(batch) || batch < 1) throw new Error(`LexicalEngine: readBatch must be a whole number ≥ 1, got ${batch}`);
    this.passOptions = { exactUpTo, sample, batch };
  }

  /** Number of indexed notes. */
  get size(): number {
    return this.records.size;
  }

  /** Bumped by every change (add, remove, clear, load): a sliced save compares it before and after. */
  get version(): number {
    return this.index.version;
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
    const fields = fieldTexts(note);
    const doc = this.index.add(note.path, fields);
    this.views.changed(doc);
    this.phrases.add(doc, note.title, text);
    this.docs.set(note.path, doc);
    this.byDoc[doc] = record;
  }

  /** Drops the note at `path`; returns false when it was not indexed. */
  remove(path: string): boolean {
    if (!this.records.delete(path)) return false;
    const doc = this.docs.get(path);
    this.docs.delete(path);
    if (doc !== undefined) {
      this.index.remove(doc);
      this.views.changed(doc);
      this.phrases.remove(doc);
      this.byDoc[doc] = undefined;
    }
    return true;
  }

  /** Drops every note. */
  clear(): void {
    const version = this.index.version;
    this.records.clear();
    this.docs.clear();
    this.byDoc = [];
    this.titles = this.titleTable();
    this.tags = this.tagTable();
    this.pathRanks = this.pathRankTable();
    this.views.clear();
    this.index = new TermIndex();
    this.phrases = new PhraseFilters();
    this.index.version = version + 1;
  }

  /**
   * Does ahead of time, in steps the caller may yield between, what the first ranked query would
   * otherwise do in one go: stem the dictionary's terms (StemGroups) and every title
   * (TitleStemTable), hundreds of ms at 14k notes, and rank the paths (PathRanks, for filters
   * whose matches tie on score: 10 ms or more at 100k notes); and what the first query of
   * another kind would: the dictionary's sorted view for prefixes (TermDictionary.sortSteps) and
   * the tag table (TagDocTable, for `tag:`), tens of ms each at 100k notes. Run after a build (SearchIndex runs it once the
   * index is complete); what the steps have not reached yet, and later changes, are covered by
   * the queries themselves.
   */
  *rankingSteps(): Generator<void> {
    while (!this.index.stems.advance(RANKING_STEP_TERMS)) yield;
    // One memo of the title words' stems for every step (a common word stemmed once, not once a step); dropped with the steps.
    const stems = new Map<string, string>();
    for (let docs = RANKING_STEP_TITLES; ; docs += RANKING_STEP_TITLES) {
      this.titles.cover(Math.min(docs, this.byDoc.length), stems);
      if (docs >= this.byDoc.length) break;
      yield;
    }
    for (let docs = 0; docs < this.byDoc.length;) {
      yield;
      docs = Math.min(docs + RANKING_STEP_PATHS, this.byDoc.length);
      this.pathRanks.cover(docs);
    }
    yield;
    yield* this.index.dict.sortSteps();
    for (let docs = 0; docs < this.byDoc.length;) {
      yield;
      docs = Math.min(docs + RANKING_STEP_TAGS, this.byDoc.length);
      this.tags.cover(docs);
    }
  }

  /**
   * Makes the base view in steps the caller may yield between (CorpusViews.baseSteps): the view
   * of `access` over every indexed note, kept under its key and patched as notes change, from
   * which a caller whose CallerAccess `narrows` names it derives its first view. Run after a build
   * (SearchIndex, for the unrestricted scope's decisions from the build's scan). `access.allow`
   * must answer for the index as it is at this call: the steps give up if a note changes meanwhile.
   */
  baseViewSteps(access: CallerAccess): Iterable<void> {
    return this.views.baseSteps(access.key, (doc) => {
      const note = this.byDoc[doc];
      return note !== undefined && access.allow(note.path);
    });
  }

  /** See TermIndex.trimSteps: drops the index's spare capacity, then makes the lists' block bounds, in steps the caller may yield between. */
  *trimSteps(): Generator<void> {
    yield* this.index.trimSteps();
    this.phrases.trim();
  }

  /** See TermIndex.packSteps: drops the index's spare capacity in steps the caller may yield between, without making block bounds ({@link boundSteps}). */
  *packSteps(): Generator<void> {
    yield* this.index.packSteps();
    this.phrases.trim();
  }

  /**
   * See TermIndex.boundSteps: makes the block bounds and dense terms of the lists long enough to
   * have them and without, in steps the caller may yield between (the engine may change between
   * steps). Until a list has its bounds, a ranked query scores it whole: the same answers, slower
   * for a common word.
   */
  boundSteps(): Generator<void> {
    return this.index.boundSteps();
  }

  /** Bytes of the index's typed arrays by structure (see TermIndex.bytes), and its term count; for the bench. */
  footprint(): ReturnType<TermIndex['bytes']> & { phraseFilters: number; terms: number } {
    return { ...this.index.bytes(), phraseFilters: this.phrases.bytes(), terms: this.index.dict.size };
  }

  /**
   * The property names of the indexed notes the caller may read (absent-properties.ts
   * distinctPropertyNames): what a search that found nothing for a `[name…]` filter compares the
   * name with. One pass over the caller's notes: for an empty answer only.
   */
  readablePropertyNames(access: CallerAccess): string[] {
    const { visible } = this.viewOf(access);
    const readable = this.byDoc.filter((note, doc): note is NoteRecord => note !== undefined && visible[doc] === 1);
    return distinctPropertyNames(readable.map((note) => note.frontmatter));
  }

  /** Vault paths of every indexed note. */
  paths(): string[] {
    return [...this.records.keys()];
  }

  /**
   * The whole index as saved lines (records, then the term index, then the phrase filters),
   * for `index-file`, with `null` where a long line's work may pause (TermIndex.savedSteps):
   * each line, and each piece between nulls, is a bounded piece of work. The caller must not
   * change the engine while iterating (compare {@link version} at each pause).
   */
  *savedSteps(): Generator<EngineLine | null> {
    for (const records of recordLines(this.records.values(), RECORD_LINE_ROWS)) yield { kind: 'R', records };
    yield* this.index.savedSteps();
    for (const { sizes, words } of this.phrases.savedLines(this.indexedDocs(), RECORD_LINE_ROWS)) yield { kind: 'P', sizes, words };
  }

  /** Doc ids that hold a note, ascending. */
  private *indexedDocs(): Generator<number> {
    for (let doc = 0; doc < this.byDoc.length; doc++) if (this.index.keyOf(doc) !== null) yield doc;
  }

  /**
   * Replaces the index with one saved by {@link savedSteps}, awaiting `pause()` between lines so
   * the caller can yield to the event loop. The engine keeps its old content until the
   * whole load has succeeded. The lists' block bounds are not made (the file holds none): the
   * loaded engine answers without them, and {@link boundSteps} makes them (SearchIndex runs it
   * once the index is complete: made during the load, they were 0.4–0.65 s of a 100k-note warm start).
   * @param lines the saved lines, or an async iterable of them (index-file.ts reads its parts as it
   *   goes); a null stands for a line of the file that is not the engine's (the caller's reader
   *   took it in: index-file.ts's manifest), after which the load pauses too
   * @param phrasesLater leave the phrase filters (the last lines) for {@link loadPhrases}: the
   *   engine answers without them (a note without its filter is read by a phrase query, never missed)
   * @returns with `phrasesLater`, the phrase filter lines left (null when the file has none);
   *   otherwise null
   * @throws Error when a line does not have the saved shape, or records and documents
   *   disagree (the caller then rebuilds)
   */
  async load(
    lines: Iterable<EngineLine | null> | AsyncIterable<EngineLine | null>,
    pause: () => Promise<void>,
    phrasesLater = false,
  ): Promise<PhraseLines | null> {
    const index = new TermIndex();
    const phrases = new PhraseFilters();
    let filtered = 0;
    const records = new Map<string, NoteRecord>();
    const it = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : lines[Symbol.iterator]();
    let later: EngineLine | null = null;
    for (let next = await it.next(); next.done !== true; next = await it.next()) {
      const line = next.value;
      if (line === null) {
        await pause();
        continue;
      }
      if (line.kind === 'P' && phrasesLater) {
        later = line;
        break;
      }
      if (line.kind === 'P') filtered += phrases.loadSavedLine(line.sizes, line.words, filtered);
      else if (line.kind === 'R') loadRecordLine(line.records, records);
      // A row's key is its record's path (record lines come first): one string per path.
      else index.loadLine(line, (key) => records.get(key)?.path ?? key);
      await pause();
    }
    const docs = await documentsOf(index, records, pause);
    if (filtered > index.documentCount) throw new Error('saved search index records and documents disagree');
    // The loaded maps become the engine's own, swapped in at once: copying 100k notes' entries was one step of hundreds of ms.
    const byDoc: (NoteRecord | undefined)[] = [];
    let filled = 0;
    for (const [path, doc] of docs) {
      byDoc[doc] = records.get(path);
      if (++filled % LOAD_STEP_NOTES === 0) await pause();
    }
    index.version = this.index.version + 1;
    this.index = index;
    this.views.clear();
    this.phrases = phrases;
    this.records = records;
    this.docs = docs;
    this.byDoc = byDoc;
    this.titles = this.titleTable();
    this.tags = this.tagTable();
    this.pathRanks = this.pathRankTable();
    return later === null ? null : { first: later, rest: it, phrases, docs: byDoc.length };
  }

  /**
   * Loads the phrase filters {@link load} left (`phrasesLater`), awaiting `pause()` between
   * lines; the engine may change meanwhile: a document removed since the load gets no filter.
   * @param wanted checked before each line: false drops the rest
   * @returns false when the engine was cleared or loaded again meanwhile, or `wanted()` turned false (the rest is dropped)
   * @throws Error when a line is not a phrase filter line, or the lines name more documents than
   *   the load held (the filters loaded so far stay: each is right for its document)
   */
  async loadPhrases(lines: PhraseLines, pause: () => Promise<void>, wanted: () => boolean = () => true): Promise<boolean> {
    let filtered = 0;
    const live = (doc: number): boolean => this.byDoc[doc] !== undefined;
    lines.phrases.expectDocs(lines.docs);
    // Undefined once the lines have ended; a null (a line not the engine's) among them is damage: none follows the phrase filters.
    for (let line: EngineLine | null | undefined = lines.first; line !== undefined;) {
      if (this.phrases !== lines.phrases || !wanted()) return false;
      if (line === null || line.kind !== 'P' || !Array.isArray(line.sizes) || filtered + line.sizes.length > lines.docs)
        throw new Error('saved search index has a malformed phrase filter line');
      filtered += lines.phrases.loadSavedLine(line.sizes, line.words, filtered, live);
      await pause();
      const next = await lines.rest.next();
      line = next.done === true ? undefined : next.value;
      // The next line's read (at times a part's read and decoding) and its filters' decoding were one step: 58–154 ms at 100k notes (format 8).
      if (line !== undefined) await pause();
    }
    if (this.phrases !== lines.phrases || !wanted()) return false;
    lines.phrases.trim();
    return true;
  }

  /**
   * The indexed notes that match `query` and that the caller may read: the best `ranked` of
   * them first, in order, then, for a filter query that read note text, the others in no
   * particular order (sorting thousands of matches costs more than the rest of a search; a
   * ranked query, or a filter the index decides alone, lists the best `ranked` only; `total`
   * counts them all). Plain words (see `plainWords`) are ranked
   * retrieval: notes holding any informative term, those with all of them first, then by
   * score (ranked-search.ts). Any other query is a filter, ordered by score descending. Ties
   * go by path ascending. Every score is computed over the notes the caller may read only.
   * @param query parsed query
   * @param loadText reads a note's text, called only when the query has phrases, regexes or
   *   token-less words, and only for notes the cheap pass could not rule out; a rejected
   *   read drops that note
   * @param access who is searching (e.g. NoteStore.canRead for the caller's scope), applied
   *   before any text is read and to every statistic of the scores
   * @param guard runs the query's user regexes (path, file name, body) in timed batches
   * @param ranked how many of the best matches must come in order (default: all); a page
   *   ending at offset n needs n. A filter query whose candidates' text must be read reads
   *   them best bound first and stops once these are settled (and one more match is known), if
   *   it has more than the engine's `exactTotalUpTo` candidates: its other matches are then not
   *   all listed, and `total` is an estimate (`estimated`; text-pass.ts)
   * @throws ToolError('invalid_argument') from `guard` when a regex exceeds the search's time budget
   */
  async match(query: QueryNode, loadText: TextLoader, access: CallerAccess, guard: RegexGuard, ranked = Infinity): Promise<EngineResult> {
    const view = this.viewOf(access);
    const words = plainWords(query);
    if (words !== null) {
      const source = {
        index: this.index,
        boosts: FIELD_BOOSTS,
        view,
        note: (doc: number) => this.byDoc[doc],
        titles: this.titles,
        scratch: this.scratch,
      };
      return rankedMatches(words, source, (path, expansions) => this.matchedTerms(path, expansions), ranked);
    }
    const regexHits = new Map<QueryNode, Set<string>>();
    const lookup = this.lookup(query, regexHits, view);
    // The candidates' doc ids and bounds (a common phrase has tens of thousands at 100k notes), in arrays lent as the words' are.
    const lent = needsText(query) ? this.filterScratch.lend(lookup.required()?.length ?? this.byDoc.length) : null;
    try {
      return await this.filter(query, lookup, regexHits, view, lent, loadText, guard, ranked);
    } finally {
      // The words' hits and the candidates are read no more: their arrays go back for the next query.
      for (const found of lookup.hits.values()) this.filterScratch.give(found.values, found.docs);
      if (lent !== null) this.filterScratch.give(lent.values, lent.docs);
    }
  }

  /**
   * {@link match} for a filter query (any query that is not plain words), after its words are
   * looked up: the query's regexes run, then the index decides it alone (indexFilter) or its
   * candidates are judged and read (text-pass.ts).
   * @param lent the candidates' arrays when the query needs text: room for every required doc
   *   id (or every doc id when nothing is required), values all 0
   */
  private async filter(
    query: QueryNode,
    lookup: LookupResult,
    regexHits: Map<QueryNode, Set<string>>,
    view: CorpusView,
    lent: ScoreSheet | null,
    loadText: TextLoader,
    guard: RegexGuard,
    ranked: number,
  ): Promise<EngineResult> {
    const bodyRegexes: (QueryNode & { kind: 'regex' })[] = [];
    let records: NoteRecord[] | null = null;
    for (const node of regexNodes(query)) {
      if (node.kind === 'regex') {
        bodyRegexes.push(node);
        regexHits.set(node, new Set());
      } else {
        // path:/re/, file:/re/, [prop:/re/]: one guarded run over every note's inputs.
        records ??= [...this.records.values()];
        const owners: string[] = [];
        const inputs: string[] = [];
        for (const r of records) {
          for (const input of recordRegexInputs(node, r)) {
            owners.push(r.path);
            inputs.push(input);
          }
        }
        const ok = await guard.testAllInSlices(userRegex(node), inputs);
        regexHits.set(node, new Set(owners.filter((_, k) => ok[k])));
      }
    }
    // The view says whom the caller may read (CallerAccess.allow, per doc id): no path lookup per note.
    const required = lookup.required();
    const visible = view.visible;
    if (lent === null) return this.indexFilter(query, lookup, required, visible, ranked);
    const terms = flatBound(query, lookup.hits);
    // Flat arrays sized for every candidate, trimmed to those kept.
    const n = required === null ? this.byDoc.length : required.length;
    const { docs: candidateDocs, values: candidateBounds } = lent;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const doc = required === null ? i : required[i];
      const note = this.byDoc[doc];
      if (note === undefined || visible[doc] !== 1) continue;
      // Judged when it comes up (text-pass.ts): most candidates of a common phrase never do.
      candidateDocs[count] = doc;
      if (terms === null) {
        lookup.focus(doc);
        candidateBounds[count++] = scoreBound(query, note, lookup.index);
      } else candidateBounds[count++] = sumBound(terms, doc);
    }
    const docs = candidateDocs.subarray(0, count);
    const bounds = candidateBounds.subarray(0, count);
    const judge = (doc: number): EngineMatch | null | undefined => {
      const note = this.byDoc[doc] as NoteRecord;
      lookup.focus(doc);
      const v = evaluate(query, note, lookup.index);
      if (v.truth === 'no') return null;
      // A `yes` without the text is final; reading could only raise its score, never above the bound.
      return v.truth === 'yes' && v.score === scoreBound(query, note, lookup.index) ? lookup.match(note, v.score) : undefined;
    };
    const verify: VerifyBatch = async (batch) => {
      const texts = await Promise.all(batch.map((doc) => loadText((this.byDoc[doc] as NoteRecord).path).catch(() => null)));
      const loaded = batch.flatMap((doc, k) => {
        const full = texts[k];
        return full === null ? [] : [{ doc, note: this.byDoc[doc] as NoteRecord, at: k, text: new LoadedText(full) }];
      });
      for (const node of bodyRegexes) {
        await guard.pause();
        const ok = guard.testAll(
          node.regex,
          loaded.map((l) => l.text.body),
          loaded.map((l) => l.note.path),
        );
        const set = regexHits.get(node) as Set<string>;
        loaded.forEach((l, k) => {
          if (ok[k]) set.add(l.note.path);
        });
      }
      await guard.pause();
      const verdicts = evaluateBatch(
        query,
        loaded.map((l) => ({ note: l.note, text: l.text })),
        lookup.index,
        guard,
        (k) => lookup.focus(loaded[k].doc),
      );
      const out: (EngineMatch | null)[] = batch.map(() => null);
      loaded.forEach(({ note, at, text }, k) => {
        if (verdicts[k].truth === 'yes') out[at] = lookup.match(note, verdicts[k].score, text.full);
      });
      return out;
    };
    // A phrase, or phrases beside words and note filters: judged and read without the tree walk (flat-phrases.ts).
    const source = {
      note: (doc: number) => this.byDoc[doc],
      lookup: lookup.index,
      focus: (doc: number) => lookup.focus(doc),
      match: (note: NoteRecord, score: number, text?: string) => lookup.match(note, score, text),
      loadText,
    };
    const flat = flatPhrasePass(query, lookup.hits, terms, source, judge);
    const candidates: TextCandidates = { docs, bounds, path: (doc) => (this.byDoc[doc] as NoteRecord).path, judge: flat?.judge ?? judge };
    const found = await textPass(candidates, flat?.verify ?? verify, { ranked, ...this.passOptions });
    return {
      matches: bestFirst(found.matches, ranked, (m) => m.score, byRank),
      total: found.total,
      ranked: null,
      ...(found.estimated ? { estimated: true } : {}),
    };
  }

  /**
   * The matches of a filter query the index decides alone (`needsText` false): every candidate
   * (the doc ids of `words`, the required word with the fewest notes, or of a tag every match
   * holds, whichever are fewer, else every doc id) the caller may see is scored by the compiled
   * query (index-filter.ts), and only the best `ranked` become matches, in rank order.
   */
  private indexFilter(
    query: QueryNode,
    lookup: LookupResult,
    words: ArrayLike<number> | null,
    visible: Uint8Array,
    ranked: number,
  ): EngineResult {
    const byDoc = this.byDoc;
    let required = words;
    // The tag whose notes are the candidates: each holds it (a doc id's record never changes), so it is not tested again.
    let tagOfAll: QueryNode | null = null;
    for (const node of query.kind === 'and' ? query.children : [query]) {
      if (node.kind !== 'tag') continue;
      this.tags.cover(byDoc.length);
      const tagged = this.tags.docsOf(node.tag);
      if (required === null || tagged.length < required.length) {
        required = tagged;
        tagOfAll = node;
      }
    }
    const scorer = docScorer(query, lookup.hits, (doc) => byDoc[doc] as NoteRecord, lookup.index, tagOfAll);
    const n = required === null ? byDoc.length : required.length;
    if (this.filterDocs.length < n) {
      this.filterDocs = new Int32Array(n);
      this.filterScores = new Float64Array(n);
    }
    const { filterDocs: docs, filterScores: scores } = this;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const doc = required === null ? i : required[i];
      if (visible[doc] !== 1 || byDoc[doc] === undefined) continue;
      const score = scorer(doc);
      if (score === NO_MATCH) continue;
      docs[count] = doc;
      scores[count++] = score;
    }
    this.pathRanks.cover(byDoc.length);
    const best = bestPositions(docs, scores, count, ranked, this.pathRanks.byDoc);
    return { matches: best.map((at) => lookup.match(byDoc[docs[at]] as NoteRecord, scores[at])), total: count, ranked: null };
  }

  /** An empty title stem table over this engine's records. */
  private titleTable(): TitleStemTable {
    return new TitleStemTable((doc) => this.byDoc[doc]?.title);
  }

  /** An empty path rank table over this engine's records. */
  private pathRankTable(): PathRanks {
    return new PathRanks((doc) => this.byDoc[doc]?.path);
  }

  /** An empty tag table over this engine's records. */
  private tagTable(): TagDocTable {
    return new TagDocTable((doc) => this.byDoc[doc]?.tags);
  }

  /** The caller's {@link CorpusView}: kept while the index is unchanged, patched with the notes changed since (CorpusViews). */
  private viewOf(access: CallerAccess): CorpusView {
    const { narrows } = access;
    const within = narrows?.within ?? null;
    const narrowing =
      narrows === undefined
        ? null
        : {
            base: narrows.base,
            // A note removed since the base view was made has no record: it is among the changed documents, judged again.
            keep:
              within === null
                ? null
                : (doc: number) => {
                    const note = this.byDoc[doc];
                    return note !== undefined && within(note.path);
                  },
            asked: () => narrows.asked.map((path) => this.docs.get(path)).filter((doc) => doc !== undefined),
          };
    return this.views.of(
      access.key,
      (doc) => {
        const note = this.byDoc[doc];
        return note !== undefined && access.allow(note.path);
      },
      narrowing,
    );
  }

  /** The index terms among `expansions` that the note at `path` holds. */
  private matchedTerms(path: string, expansions: readonly Expansion[]): Set<string> {
    const doc = this.docs.get(path);
    const out = new Set<string>();
    // A query of no word the index decides (a tag, a path) holds none: no term list is decoded.
    if (doc === undefined || expansions.length === 0) return out;
    // The note's own term list, decoded once, rather than each expansion's postings (`toan` has hundreds of prefix matches).
    const held = this.index.termIdsOf(doc);
    for (const e of expansions) if (held !== null ? held.has(e.id) : this.index.contains(e.id, doc)) out.add(this.index.dict.term(e.id));
    return out;
  }

  /**
   * Looks up every word/phrase node once and indexes the hits by node and path.
   * @param regexHits paths each regex node matched, filled by `match` (body regexes batch by batch)
   * @returns see {@link LookupResult}
   */
  private lookup(query: QueryNode, regexHits: ReadonlyMap<QueryNode, ReadonlySet<string>>, view: CorpusView): LookupResult {
    const hits = new Map<QueryNode, NodeHits>();
    const positive: Expansion[] = [];
    for (const { node, negated } of termNodes(query)) {
      if ((node.kind !== 'word' && node.kind !== 'phrase') || queryTerms(node.text).length === 0 || hits.has(node)) continue;
      const mode = node.kind === 'phrase' ? phraseMode : wordMode;
      const found = scoreFilterWord(this.index, node.text, mode, FIELD_BOOSTS, view, this.filterScratch, !negated);
      hits.set(node, found);
      if (!negated && node.kind === 'word' && decidedByIndex(node.text)) positive.push(...found.expansions);
    }
    const required = (): ArrayLike<number> | null => {
      let smallest: ArrayLike<number> | null = null;
      for (const node of requiredNodes(query)) {
        const found = hits.get(node)?.docs;
        if (found !== undefined && (smallest === null || found.length < smallest.length)) smallest = found;
      }
      return smallest;
    };
    // The doc id of the note being evaluated: the filter asks once per node for the same path.
    let lastPath: string | null = null;
    let lastDoc = -1;
    const docOf = (path: string): number => {
      if (path !== lastPath) {
        lastPath = path;
        lastDoc = this.docs.get(path) ?? -1;
      }
      return lastDoc;
    };
    const focus = (doc: number): void => {
      lastPath = this.byDoc[doc]?.path ?? null;
      lastDoc = doc;
    };
    const termSets = new Map<QueryNode, Set<string>>();
    const phraseKeyCache = new Map<QueryNode, number[] | null>();
    for (const node of hits.keys()) if (node.kind === 'phrase') phraseKeyCache.set(node, phraseKeys(node.text.normalize('NFC')));
    const index: TermLookup = {
      score: (node, path) => {
        const doc = docOf(path);
        const found = doc < 0 ? undefined : hits.get(node)?.values[doc];
        return found !== undefined && found > 0 ? found : null;
      },
      terms: (node) => {
        let set = termSets.get(node);
        if (set === undefined) {
          set = new Set((hits.get(node)?.expansions ?? []).map((e) => this.index.dict.term(e.id)));
          termSets.set(node, set);
        }
        return set;
      },
      regex: (node, path) => regexHits.get(node)?.has(path) ?? false,
      mayHold: (node, path) => {
        const keys = phraseKeyCache.get(node);
        if (keys === undefined || keys === null) return true;
        const doc = docOf(path);
        return doc < 0 || this.phrases.mayHold(doc, keys);
      },
    };
    const terms: MatchedTerms = (path) => this.matchedTerms(path, positive);
    return { index, hits, required, focus, match: (note, score, text) => new LazyMatch(note, score, terms, text) };
  }
}

/** A note's text as the text pass reads it: the body (after the frontmatter) is found only when a node asks for it. */
class LoadedText implements NoteText {
  private after: string | null = null;
  runs?: NoteText['runs'];

  constructor(readonly full: string) {}

  get body(): string {
    this.after ??= this.full.slice(bodyStart(this.full));
    return this.after;
  }
}

/** What {@link LexicalEngine.lookup} found for a query. */
interface LookupResult {
  index: TermLookup;
  hits: Map<QueryNode, NodeHits>;
  /** Doc ids of the required word or phrase with the fewest hits (only those notes can match), or null when none is required. */
  required(): ArrayLike<number> | null;
  /** Tells the lookup which doc id the next evaluation is of (saves a path lookup per node). */
  focus(doc: number): void;
  match(note: NoteRecord, score: number, text?: string): EngineMatch;
}
