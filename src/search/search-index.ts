import type { TFile } from 'obsidian';
import { ToolError } from '../errors';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access/access';
import type { NoteChange, NoteStore } from '../vault/note-store';
import { cursorQueryText, cursorTotal, decodeCursor, encodeCursor } from './results/cursor';
import { LexicalEngine, type CallerAccess, type EngineResult, type PhraseLines } from './engine/lexical-engine';
import type { QueryNode } from './query/parser/query-ast';
import { positiveLeaves, termNodes } from './query/query-eval';
import { unknownOperatorRemark } from './query/parser/query-operators';
import { joinRemarks } from '../vault/remarks';
import { absentPropertiesRemark, requiredPropertyNames } from './query/absent-properties';
import { propertyNameKey } from '../vault/content/frontmatter/property-names';
import { parseQuery, regexQuery } from './query/parser/query-parser';
import { RegexGuard, RegexTooSlow } from './query/regex-guard';
import { REFUSED, toHit } from './results/search-hit';
import { isOtherIndexFormat, type NoteStamp } from './engine/index-file';
import type { Slicer } from './engine/slicer';
import { changedSince, Debounce, IndexLifecycle, mapGrowsAtNextSet, reportDamaged, stampOf } from './index-lifecycle';
import { openSaved, saveIndex } from './index-persistence';
import { ReadableCache } from './readable-cache';
import { emptyStats, type IndexProgress, type IndexStats, type IndexStorage, type SearchIndexOptions } from './search-index-options';
import type { SearchHit, SearchOptions, SearchPage } from './types';

export type { IndexProgress, IndexStats, IndexStorage, SearchIndexOptions } from './search-index-options';

const DEFAULT_LIMIT = 20;
/** Longest a stop waits for a save it flushes before giving it up, ms (a 100k-note index saves in about 3 s). */
const STOP_SAVE_MS = 30_000;
const MAX_LIMIT = 100;
/**
 * How many times one search is made: a round that finds a text the caller may not read (that note
 * now private, dropped by a queued change) is made again without it; a later round's refusals
 * only drop their hits.
 */
const SEARCH_ROUNDS = 3;

/**
 * The vault's lexical search index: the thin adapter between NoteStore and the pure
 * {@link LexicalEngine}. Builds after layout ready in time slices (docs/architecture.md#runtime-facts:
 * heavy work never blocks the UI), stays current through `NoteStore.onNoteChange`, and
 * answers queries for one caller's access scope. Its run (subscription, generation, sliced
 * loop, debounced save, damaged file) is an {@link IndexLifecycle}, as SemanticIndex's is.
 */
export class SearchIndex {
  private readonly engine = new LexicalEngine();
  private status: 'idle' | 'building' | 'ready' = 'idle';
  /** Note change tasks, run one after another; the build runs beside them (engine writes are synchronous). */
  private queue: Promise<void> = Promise.resolve();
  /** The running (or last) build. */
  private building: Promise<void> = Promise.resolve();
  /** Subscription and generation (bumped by start/stop so tasks of an earlier run do nothing). */
  private readonly lifecycle: IndexLifecycle;
  /** Bumped by each build so a superseded build stops. */
  private buildId = 0;
  /** Paths a change task indexed during the running build: the build must not overwrite them with what it read earlier. */
  private readonly touched = new Set<string>();
  private progress: IndexStats = emptyStats();
  /** Stat of every indexed note when it was indexed: tells a warm start which notes changed. */
  private manifest = new Map<string, NoteStamp>();
  private readonly storage: IndexStorage | null;
  private readonly saveDelayMs: number;
  private readonly stopSaveMs: number;
  private readonly saveTimer = new Debounce(() => void this.save());
  /** False only while the index equals the saved one just loaded (a warm start that found nothing to do needs no save). */
  private dirtySinceLoad = true;
  /** The save running now (see {@link save}), or null. */
  private saving: Promise<void> | null = null;
  /** The saved phrase filters the running warm build left to load once the index is complete (see {@link loadPhrasesAfter}), or null. */
  private phraseLines: PhraseLines | null = null;
  /** While they load, and after: true when every one loaded, false when they were given up (a save waits for it: see {@link writeIndex}); null when none were left. */
  private phrasesLoaded: Promise<boolean> | null = null;
  /** The slicer whose slices the saved index's part reads are waits in (Slicer.mark): the build's during the load, then that of the phrase filters' load. */
  private partWaits: Slicer | null = null;
  /** True once a start has tried the saved index (reindex() never loads it). */
  private loadedSaved = false;
  private readonly sliceNotes: number;
  /** NoteStore.canRead per scope and path (see ReadableCache). */
  private readonly readable: ReadableCache;

  /** @param notes the vault access layer. @param options build slice tuning. */
  constructor(
    private readonly notes: NoteStore,
    options: SearchIndexOptions = {},
  ) {
    this.lifecycle = new IndexLifecycle(notes, options.sliceMs ?? 12);
    this.readable = new ReadableCache(notes);
    this.sliceNotes = options.sliceNotes ?? 100;
    this.storage = options.storage ?? null;
    this.saveDelayMs = options.saveDelayMs ?? 60_000;
    this.stopSaveMs = options.stopSaveMs ?? STOP_SAVE_MS;
  }

  /** `idle` before start and after stop, `building` during the first build, then `ready`. */
  get state(): 'idle' | 'building' | 'ready' {
    return this.status;
  }

  /** Resolves when the running build (if any) has ended; at once when none runs. */
  whenBuilt(): Promise<void> {
    return this.building;
  }

  /** Build progress and figures (see {@link IndexStats}). */
  get stats(): IndexStats {
    return { ...this.progress };
  }

  /**
   * Subscribes to note changes and builds the index over every readable note, yielding to
   * the event loop (`setTimeout(0)`) between slices of at most `sliceNotes` notes or
   * `sliceMs` ms. Call from `workspace.onLayoutReady`. Searches made meanwhile answer at
   * once from the notes indexed so far (see {@link search}). A second call while running
   * returns the same build.
   * @returns resolves when the first build is done (changes keep being applied afterwards).
   */
  start(): Promise<void> {
    if (this.status !== 'idle') return this.building;
    const generation = this.lifecycle.follow((change, gen) => void this.enqueue(gen, () => this.applyChange(change, gen)));
    this.loadedSaved = false;
    return this.runBuild(generation, this.storage !== null);
  }

  /**
   * Rebuilds the whole index (after the quarantine list changed: notes it released must be
   * found, notes it now covers must not). Searches meanwhile answer from what is indexed, as
   * during the first build. Does nothing before `start()`.
   * @returns resolves when the rebuild is done.
   */
  reindex(): Promise<void> {
    if (this.status === 'idle') return Promise.resolve();
    return this.runBuild(this.lifecycle.generation, false);
  }

  /**
   * Saves the index now (serialize, then `storage.save`); does nothing without storage, before
   * start or during a build. Failures are logged: a missing save only costs a longer next start.
   */
  save(): Promise<void> {
    this.saveTimer.cancel();
    if (!this.storage || this.status !== 'ready') return Promise.resolve();
    const saving = this.writeIndex(this.storage).finally(() => {
      if (this.saving === saving) this.saving = null;
    });
    this.saving = saving;
    return saving;
  }

  /** Resolves when no save runs (the one {@link stop} makes included); at once when none does. */
  async whenSaved(): Promise<void> {
    while (this.saving !== null) await this.saving;
  }

  /** The body of {@link save}: serialize in slices, writing each part as it is made (saveIndex); failures are logged. */
  private async writeIndex(storage: IndexStorage): Promise<void> {
    // The file must hold every phrase filter: a save before a warm start's filters had all loaded would drop the rest.
    if (this.phrasesLoaded !== null && !(await this.phrasesLoaded)) return;
    const started = performance.now();
    const slicer = this.lifecycle.slicer();
    try {
      // False: the index changed while it was being serialized, and the change has scheduled another save.
      if (await saveIndex(this.engine, this.manifest, storage, slicer)) this.progress.saveMs = performance.now() - started;
    } catch (err) {
      console.error('[vault-mcp] saving the search index failed', err);
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
    }
  }

  /**
   * Unsubscribes from note changes, abandons a running build and drops the index. A save that
   * changes made due (waiting for its debounce) is made now, and a running save is let finish,
   * in slices as ever, for at most `stopSaveMs` (default {@link STOP_SAVE_MS}); the index's
   * memory goes when it ends. Without this a plugin stopped within `saveDelayMs` of a change
   * (or during a save) lost it, and the next start reindexed what had changed, or everything
   * when no file was saved yet.
   * @returns resolves when that save has ended or been given up (at once when none was due); never rejects
   */
  stop(): Promise<void> {
    const due = this.status === 'ready' && (this.saveTimer.pending || this.saving !== null);
    const flush = due ? (this.saving ?? this.save()) : null;
    this.lifecycle.end();
    this.buildId++;
    this.saveTimer.cancel();
    this.status = 'idle';
    const drop = (): void => {
      // A start after this stop owns the engine now: leave it alone.
      if (this.status !== 'idle') return;
      this.manifest.clear();
      this.engine.clear();
    };
    if (flush === null) {
      drop();
      return Promise.resolve();
    }
    // Past the bound, dropping the engine ends a serialization still running (indexParts sees the change and the save is given up before its head).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        drop();
        resolve();
      }, this.stopSaveMs);
    });
    const done = flush.finally(() => {
      clearTimeout(timer);
      drop();
    });
    return Promise.race([done, bound]);
  }

  /**
   * Searches the notes `scope` may read (NoteStore.canRead), after any queued note changes.
   * During a build it answers at once from the notes indexed so far: the page then carries
   * `index: {complete: false, indexed, total}` and a `note` saying so.
   * @param query Obsidian-style query (see `parseQuery`), or a regex source when `options.regex`
   * @returns one page of hits, best first, with `total` and `next_cursor` when more remain
   * @throws ToolError('invalid_argument') for a bad query, regex, limit or cursor
   *   (including a regex too slow for the search's time budget); ToolError('unavailable') when
   *   the index is not started.
   */
  async search(query: string, scope: AccessScope, options: SearchOptions = {}): Promise<SearchPage> {
    const limit = options.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new ToolError('invalid_argument', `limit must be a whole number from 1 to ${MAX_LIMIT}; got ${String(limit)}.`);
    }
    const ast: QueryNode = options.regex ? regexQuery(query) : parseQuery(query);
    const cursorKey = JSON.stringify([cursorQueryText(query, options.regex === true), options.regex === true]);
    const offset = options.cursor === undefined ? 0 : decodeCursor(options.cursor, cursorKey);
    if (this.status === 'idle') {
      throw new ToolError('unavailable', 'The search index is not running (the plugin is starting or stopping); try again in a moment.');
    }
    await this.queue;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.searchRounds(ast, scope, options, { offset, limit, cursorKey });
      } catch (error) {
        // A too-slow regex names a note the query read with no disk check (readToMatch): named only while it may be
        // served. One that may not (swapped on disk for a link out) is dropped by the index once its read is refused,
        // and the search is made again without it.
        if (!(error instanceof RegexTooSlow) || error.note === undefined || (await this.mayServePath(error.note, scope))) throw error;
        if (attempt === 2) throw error.unnamed();
        await this.queue;
      }
    }
  }

  /**
   * {@link search}'s rounds: the engine's matches and the page's hits, made again (up to SEARCH_ROUNDS) while a note
   * turned out unreadable for `scope` on the way.
   */
  private async searchRounds(
    ast: QueryNode,
    scope: AccessScope,
    options: SearchOptions,
    { offset, limit, cursorKey }: { offset: number; limit: number; cursorKey: string },
  ): Promise<SearchPage> {
    const guard = new RegexGuard();
    let notesRead = 0;
    const onTextRead = options.onTextRead;
    const leaves = positiveLeaves(ast);
    // A text the caller may not read (its rules newer than the metadata the index decided by: NoteStore.read) makes that
    // note private at once, and the index drops it (a queued change): the search is made again without it, so neither
    // its hits nor its totals or scores tell it was there.
    for (let round = 1; ; round++) {
      let refused = false;
      const refuse = (): never => {
        refused = true;
        throw new Error('not readable');
      };
      const progress: IndexProgress | null =
        this.status === 'building' ? { complete: false, indexed: this.progress.indexed, total: this.progress.total } : null;
      const load = (path: string): Promise<string> => this.readPath(path, scope).then((text) => text ?? refuse());
      const access = this.readable.caller(scope, this.status === 'ready');
      const found = await this.engine.match(
        ast,
        onTextRead ? (path) => load(path).finally(() => onTextRead(++notesRead)) : load,
        access,
        guard,
        offset + limit,
      );
      const page = found.matches.slice(offset, offset + limit);
      const hits = await Promise.all(page.map((m) => toHit(this.notes, m, leaves, options.fields ?? 'full', guard, scope)));
      if ((refused || hits.includes(REFUSED)) && round < SEARCH_ROUNDS) {
        await this.queue;
        continue;
      }
      const results = hits.filter((h): h is SearchHit => h !== null && h !== REFUSED);
      const out = this.pageOf(results, found, { offset, limit, cursorKey, cursor: options.cursor }, progress);
      const words = termNodes(ast).flatMap(({ node }) => (node.kind === 'word' ? [node.text] : []));
      const note = joinRemarks(out.note, found.total === 0 ? this.absentProperties(ast, access) : null, unknownOperatorRemark(words));
      if (note !== '') out.note = note;
      return out;
    }
  }

  /**
   * For a search that found nothing: the note naming the `[name…]` filters' properties that no
   * note the caller may read has (absentPropertiesRemark), or null when the query names none such.
   */
  private absentProperties(ast: QueryNode, access: CallerAccess): string | null {
    const required = requiredPropertyNames(ast);
    if (required.length === 0) return null;
    const held = this.engine.readablePropertyNames(access);
    const keys = new Set(held.map(propertyNameKey));
    const absent = required.filter((name) => !keys.has(propertyNameKey(name)));
    return absent.length === 0 ? null : absentPropertiesRemark(absent, held, 'tag:name finds the notes tagged #name');
  }

  /** The page {@link search} answers: its hits, `total` and the cursor, the ranking's facts, and the build's progress when partial. */
  private pageOf(
    results: SearchHit[],
    { total, ranked, estimated }: EngineResult,
    { offset, limit, cursorKey, cursor }: { offset: number; limit: number; cursorKey: string; cursor?: string },
    progress: IndexProgress | null,
  ): SearchPage {
    const next = offset + limit;
    const exact = estimated === true ? undefined : total;
    const out: SearchPage = next < total ? { results, next_cursor: encodeCursor(next, cursorKey, exact), total } : { results, total };
    if (estimated === true) out.total_estimated = true;
    if (ranked !== null) {
      out.all_terms_total = ranked.allTerms;
      if (ranked.ignored.length > 0) out.ignored_terms = ranked.ignored;
    }
    // Pages are offsets into the ranking as it is now: notes written since the previous page shift it (search.md, "Paging").
    const before = cursor === undefined ? null : cursorTotal(cursor);
    if (before !== null && exact !== undefined && before !== total) {
      out.note =
        `The matches changed since the previous page (${before} then, ${total} now: notes were written meanwhile), so this page ` +
        'may repeat or skip some; search again without a cursor for a fresh list.';
    }
    if (progress) {
      out.index = progress;
      out.note =
        `The search index is still being built (${progress.indexed} of ${progress.total} notes so far): ` +
        'these results may miss notes; repeat the search in a few seconds for complete results.';
    }
    return out;
  }

  /** Adds a task to the queue; tasks of a stopped run are skipped. Failures are logged, not thrown. */
  private enqueue(generation: number, task: () => Promise<void>): Promise<void> {
    this.queue = this.queue
      .then(() => (this.lifecycle.isLive(generation) ? task() : undefined))
      .catch((err: unknown) => console.error('[vault-mcp] search index update failed', err));
    return this.queue;
  }

  /**
   * Starts a build that replaces any running one; searches answer partially until it ends.
   * @param warm start from the saved index when there is a valid one
   */
  private runBuild(generation: number, warm: boolean): Promise<void> {
    const id = ++this.buildId;
    this.status = 'building';
    this.engine.clear();
    this.manifest.clear();
    this.touched.clear();
    this.readable.clear();
    this.progress = emptyStats();
    this.phraseLines = null;
    this.phrasesLoaded = null;
    this.building = this.build(generation, id, warm)
      .catch((err: unknown) => console.error('[vault-mcp] search index build failed', err))
      .then(() => {
        if (this.status !== 'ready' || this.buildId !== id) return undefined;
        const phrases = this.phraseLines;
        this.phraseLines = null;
        const bounded = this.progress.warm ? this.boundAfter(generation, id) : Promise.resolve();
        this.phrasesLoaded = phrases === null ? null : bounded.then(() => this.loadPhrasesAfter(generation, id, phrases));
        void (this.phrasesLoaded ?? bounded).then(() => this.rankAhead(generation, id));
        return this.dirtySinceLoad ? this.save() : undefined;
      });
    return this.building;
  }

  /**
   * After a warm build has made the index complete: the posting lists' block bounds and dense
   * terms (LexicalEngine.boundSteps; the saved file holds none), in slices. They only let a
   * ranked query skip blocks that cannot reach its top results: until a list has them, a query
   * scores it whole, with the same answers. Left out of the build, they no longer delay the
   * index's completeness (0.4–0.65 s of a 100k-note warm start; a cold build still makes them
   * as it ends, LexicalEngine.trimSteps). Stops when the build is superseded or the index stopped.
   */
  private async boundAfter(generation: number, id: number): Promise<void> {
    const live = (): boolean => this.lifecycle.isLive(generation) && id === this.buildId;
    const slicer = this.lifecycle.slicer();
    try {
      for await (const step of this.lifecycle.sliced(this.engine.boundSteps(), slicer, live)) void step;
    } catch (err) {
      console.error('[vault-mcp] search index block bounds failed', err);
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
    }
  }

  /**
   * After a warm build has made the index complete (and its block bounds: boundAfter): the saved phrase filters it left
   * (LexicalEngine.loadPhrases), in slices. A filter only spares a phrase query the reading of
   * notes that cannot hold the phrase: until a note's filter is in, the query reads it, so
   * answers are the same. Left out of the build, they no longer delay the index's completeness
   * (0.65 s of a 100k-note warm start). Damaged lines are reported and the index rebuilt, as a
   * damaged file is at the load.
   * @returns true when every filter loaded; false when the build was superseded, the index
   *   stopped or the lines were damaged
   */
  private async loadPhrasesAfter(generation: number, id: number, lines: PhraseLines): Promise<boolean> {
    const live = (): boolean => this.lifecycle.isLive(generation) && id === this.buildId;
    const slicer = this.lifecycle.slicer();
    // The filters' lines are read part by part as they load: those reads are this slicer's waits.
    this.partWaits = slicer;
    try {
      return await this.engine.loadPhrases(lines, () => slicer.pause(), live);
    } catch (err) {
      if (!live()) return false;
      await this.reportDamaged((err as Error).message);
      if (live()) void this.reindex();
      return false;
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
    }
  }

  /**
   * After a build has made the index complete: the ranking work the first ranked query would
   * otherwise do (LexicalEngine.rankingSteps: stems of the dictionary's terms and of every title),
   * then the base view a new caller's first view derives from (LexicalEngine.baseViewSteps, over
   * ReadableCache.baseCaller: a set lookup per note instead of one per note for each new key), in slices. Searches answer complete and correct meanwhile: a ranked query that comes first
   * stems what it needs itself. Left out of the build, it no longer delays the index's
   * completeness (0.5 s of a 100k-note warm start). Stops when the build is superseded or the index stopped.
   */
  private async rankAhead(generation: number, id: number): Promise<void> {
    const live = (): boolean => this.lifecycle.isLive(generation) && id === this.buildId;
    const slicer = this.lifecycle.slicer();
    try {
      for await (const step of this.lifecycle.sliced(this.engine.rankingSteps(), slicer, live)) void step;
      if (!live()) return;
      // The unrestricted scope's view from the build's scan, while it is current: a new caller's first view derives from it.
      const base = this.readable.baseCaller();
      if (base !== null) for await (const step of this.lifecycle.sliced(this.engine.baseViewSteps(base), slicer, live)) void step;
    } catch (err) {
      console.error('[vault-mcp] search index ranking steps failed', err);
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
    }
  }

  /**
   * Loads the saved index into the engine and manifest (the manifest only while `live()` holds).
   * @returns true when it loaded; false (engine left empty) when absent, corrupt or of another format.
   */
  private async loadSaved(slicer: Slicer, live: () => boolean): Promise<boolean> {
    if (!this.storage || this.loadedSaved) return false;
    this.loadedSaved = true;
    slicer.mark();
    const head = await this.storage.loadHead().catch(() => null);
    slicer.restart();
    const storage = this.storage;
    this.partWaits = slicer;
    const saved = head === null ? null : openSaved(head, storage, () => this.partWaits);
    if (saved === null) {
      if (head !== null && isOtherIndexFormat(head))
        console.warn('[vault-mcp] the saved search index is of another version; rebuilding it');
      else if (head !== null) await this.reportDamaged('its head is not an index head');
      return false;
    }
    try {
      this.phraseLines = await this.engine.load(saved.lines(), () => slicer.pause(), true);
    } catch (err) {
      this.engine.clear();
      await this.reportDamaged((err as Error).message);
      return false;
    }
    // The saved manifest becomes the index's own, less the paths the engine does not hold: no copy of 100k entries.
    // (Stamps of changes applied meanwhile went into the engine the load replaced: those notes are applied again, touched.)
    for (const path of saved.manifest.keys()) {
      if (slicer.due()) await slicer.pause();
      if (!this.engine.has(path)) saved.manifest.delete(path);
    }
    if (!live()) return false;
    this.manifest = saved.manifest;
    return true;
  }

  /** Logs a damaged saved index and hands it to `storage.damaged` (which keeps it aside and tells the user). */
  private reportDamaged(reason: string): Promise<void> {
    return reportDamaged('search index', reason, this.storage?.damaged?.bind(this.storage));
  }

  /** The build itself: the saved index (when `warm`), then every note changed since or not in it, then trimming; one Slicer over all of it (the ranking steps follow it: {@link rankAhead}). */
  private async build(generation: number, id: number, warm: boolean): Promise<void> {
    const live = (): boolean => this.lifecycle.isLive(generation) && id === this.buildId;
    const started = performance.now();
    const slicer = this.lifecycle.slicer(this.sliceNotes);
    try {
      // Until the scan below has counted the readable notes, a search during the build names the vault's notes as the total.
      this.progress.total = this.notes.markdownCount();
      // Listing the vault's notes is tens of ms at 100k notes: the scan's checks start a slice of their own.
      if (slicer.due()) await slicer.pause();
      // In steps: the first scan of a large vault is seconds of disk checks (NoteStore.readableNotesInSteps).
      let readable = await this.notes.readableNotesInSteps(UNRESTRICTED_SCOPE, slicer);
      if (!live()) return;
      this.progress.total = readable.length;
      const loaded = warm && (await this.loadSaved(slicer, live));
      if (!live()) return;
      let files = readable;
      if (loaded) {
        // Changes applied while the saved index loaded went into the engine the load replaced: apply them again (queued, after it).
        for (const path of this.touched) void this.enqueue(generation, () => this.applyChange({ type: 'modify', path }, generation));
        // Each pass over every note checks the slice's budget: at 100k notes these three were one step of a quarter second and more.
        files = [];
        let kept = 0;
        const closed = new Set<string>();
        for (const f of readable) {
          if (slicer.due()) await slicer.pause();
          // The manifest holds only notes the engine holds (loadSaved): a stamp counts one of them.
          const stamp = this.manifest.get(f.path);
          if (stamp === undefined) {
            files.push(f);
            continue;
          }
          if (changedSince(stamp, f)) {
            // Changed while the plugin was not running: the metadata cache may still hold the note as it was (the scan above
            // judged it so) until Obsidian parses it again; its file says whether the change made it private.
            this.notes.changedWhileAway(f);
            if (!this.notes.canRead(f, UNRESTRICTED_SCOPE)) {
              closed.add(f.path);
              this.forget(f.path);
              continue;
            }
            files.push(f);
          }
          kept++;
        }
        if (closed.size > 0) readable = readable.filter((f) => !closed.has(f.path));
        if (!live()) return;
        // No change has touched the loaded notes and every one of them is still readable (the usual warm start): none to forget, no set of 100k paths to build.
        if (kept !== this.engine.size || this.touched.size > 0) await this.forgetUnreadable(readable, slicer, live);
        if (!live()) return;
      }
      this.progress.warm = loaded;
      this.dirtySinceLoad = !loaded || files.length > 0 || this.engine.size !== readable.length;
      this.progress.total = readable.length;
      this.progress.indexed = readable.length - files.length;
      this.progress.reindexed = files.length;
      for await (const file of this.lifecycle.sliced(files, slicer, live)) {
        if (!this.touched.has(file.path)) await this.indexFile(file, () => live() && !this.touched.has(file.path), slicer);
        this.progress.indexed++;
      }
      if (!live()) return;
      // A warm start's block bounds come after completeness (boundAfter); a cold build makes them as it ends.
      const trimSteps = loaded ? this.engine.packSteps() : this.engine.trimSteps();
      for await (const step of this.lifecycle.sliced(trimSteps, slicer, live)) void step;
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
      if (live()) {
        this.status = 'ready';
        this.touched.clear();
        this.progress.complete = true;
        this.progress.buildMs = performance.now() - started;
      }
    }
  }

  /** Drops the notes the loaded index holds that are not among `readable` (gone, or no longer readable since it was saved), unless a change indexed them meanwhile; stops when `live()` turns false. */
  private async forgetUnreadable(readable: readonly TFile[], slicer: Slicer, live: () => boolean): Promise<void> {
    const current = new Set<string>();
    for (const f of readable) {
      if (slicer.due()) await slicer.pause();
      current.add(f.path);
    }
    for (const path of this.engine.paths()) {
      if (slicer.due()) await slicer.pause();
      if (!live()) return;
      if (!current.has(path) && !this.touched.has(path)) this.forget(path);
    }
  }

  private async applyChange(change: NoteChange, generation: number): Promise<void> {
    if (this.status === 'building') {
      this.touched.add(change.path);
      if (change.oldPath !== undefined) this.touched.add(change.oldPath);
    }
    this.scheduleSave();
    this.readable.forget(change.path);
    if (change.oldPath !== undefined) this.readable.forget(change.oldPath);
    if (change.type === 'delete') {
      this.forget(change.path);
      return;
    }
    if (change.type === 'rename' && change.oldPath !== undefined) this.forget(change.oldPath);
    const file = this.notes.fileByPath(change.path);
    if (file === null || file.extension !== 'md' || !this.notes.canRead(file, UNRESTRICTED_SCOPE)) {
      // Gone, not a note, or now quarantined / private: it must not be found.
      this.forget(change.path);
      return;
    }
    await this.indexFile(file, () => this.lifecycle.isLive(generation));
  }

  /**
   * Reads and (re)indexes one note: into the engine, then its stamp into the manifest; a note that
   * cannot be read is dropped from the index. Nothing more is written once `stillWanted()` is false
   * after an await (index stopped, build superseded, or a newer change already indexed the note).
   * With a build's `slicer`, a note whose new key rebuilds a large map's table (the engine's maps
   * by path, then the manifest: 12–13 ms a map at 65,536 paths, all on the same note of a cold
   * build; see mapGrowsAtNextSet) gives each rebuild a slice of its own: as one step, that note
   * was a slice of 48–66 ms at generated 100k.
   */
  private async indexFile(file: TFile, stillWanted: () => boolean, slicer?: Slicer): Promise<void> {
    let text: string | null;
    try {
      // A text whose own rules close it (newer than the metadata canRead judged) is not indexed: it now counts as private.
      text = await this.notes.readToMatch(file, UNRESTRICTED_SCOPE);
    } catch {
      text = null;
    }
    if (!stillWanted()) return;
    if (text === null) {
      this.forget(file.path);
      return;
    }
    const { path } = file;
    if (slicer !== undefined && !this.engine.has(path) && mapGrowsAtNextSet(this.engine.size)) {
      await slicer.endSlice();
      if (!stillWanted()) return;
    }
    this.engine.add({
      path: file.path,
      id: this.notes.noteId(file),
      title: this.notes.noteTitle(file),
      tags: this.notes.tagsOf(file).map((t) => t.replace(/^#/, '').normalize('NFC').toLowerCase()),
      frontmatter: this.notes.frontmatterOf(file),
      text,
      headings: this.notes.headingTexts(file),
    });
    if (slicer !== undefined && !this.manifest.has(path) && mapGrowsAtNextSet(this.manifest.size)) {
      await slicer.endSlice();
      // A change applied meanwhile put its own stamp (or none) with the note: keep it.
      if (!stillWanted()) return;
    }
    this.manifest.set(path, stampOf(file));
  }

  /** Drops a note from the engine and the manifest. */
  private forget(path: string): void {
    this.engine.remove(path);
    this.manifest.delete(path);
  }

  /** Saves the index `saveDelayMs` after the last change (timer restarted by each change). */
  private scheduleSave(): void {
    if (this.storage) this.saveTimer.schedule(this.saveDelayMs);
  }

  /**
   * Whether the note at `path` may be shown to `scope` now, judged as a hit is: read from the disk where the access checks
   * place it (NoteStore.read; a refused read has the index drop the note).
   */
  private async mayServePath(path: string, scope: AccessScope): Promise<boolean> {
    const file = this.notes.fileByPath(path);
    return file !== null && (await this.notes.read(file, scope).catch(() => null)) !== null;
  }

  /** The text of the note at `path` for a phrase or regex check of `scope`'s candidates (NoteStore.readToMatch): null when `scope` may not read that text; rejects when the note is gone. */
  private readPath(path: string, scope: AccessScope): Promise<string | null> {
    const file = this.notes.fileByPath(path);
    return file === null ? Promise.reject(new Error(`note ${path} is gone`)) : this.notes.readToMatch(file, scope);
  }
}
