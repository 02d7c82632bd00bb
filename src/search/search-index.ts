import type { TFile } from 'obsidian';
import { ToolError } from '../errors';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access/access';
import type { NoteChange, NoteStore } from '../vault/note-store';
import { decodeCursor, encodeCursor } from './results/cursor';
import { LexicalEngine, type EngineMatch } from './engine/lexical-engine';
import type { QueryNode } from './query/query-ast';
import { positiveLeaves } from './query/query-eval';
import { parseQuery, regexQuery } from './query/query-parser';
import { RegexGuard } from './query/regex-guard';
import { buildSnippet } from './results/snippet';
import { encodeIndex, isOtherIndexFormat, openIndex, type NoteStamp } from './engine/index-file';
import { Slicer } from './engine/slicer';
import type { SearchHit, SearchOptions, SearchPage } from './types';

/** How far the build is: `indexed` of `total` readable notes; `complete` once the build has ended. */
export interface IndexProgress {
  complete: boolean;
  indexed: number;
  total: number;
}

/** Figures of the last build, for the bench and the status line. Times in ms. */
export interface IndexStats extends IndexProgress {
  /** Wall time of the last build from start to end; null while it runs or before any. */
  buildMs: number | null;
  /** Longest stretch the build (saved index load included) or a save ran without yielding to the event loop. */
  longestSliceMs: number;
  /** True when the build started from the saved index and only reindexed notes changed since. */
  warm: boolean;
  /** Notes (re)indexed by the last build (all of them when cold, the changed ones when warm). */
  reindexed: number;
  /** Time the last save of the index took (serialize + write); null before any save. */
  saveMs: number | null;
}

/** Where the index is saved between runs (the plugin folder, see vault/plugin-files). */
export interface IndexStorage {
  /** The saved index text, or null when there is none. */
  load(): Promise<string | null>;
  /** Replaces the saved index text. May reject; the index then stays unsaved until the next save. */
  save(text: string): Promise<void>;
  /**
   * Called once when the saved text is damaged (not an index of another format version, which
   * is rebuilt silently), before the index is rebuilt from the notes: keep the file aside and
   * tell the user. `reason` is one short phrase. Its failure is logged, never thrown on.
   */
  damaged?(reason: string): Promise<void>;
}

/** Tuning of the initial build. Defaults keep each slice well under the 50 ms long-task budget. */
export interface SearchIndexOptions {
  /** Time budget of one build slice in ms before yielding to the UI (default 12). */
  sliceMs?: number;
  /** Most notes indexed in one slice before yielding (default 100). */
  sliceNotes?: number;
  /** Saves the index and loads it at start, so a restart reindexes only notes changed meanwhile. */
  storage?: IndexStorage;
  /** Delay after the last note change before the index is saved again, ms (default 60000). */
  saveDelayMs?: number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/** Access scopes whose per-note read decisions are cached (the most recently used ones). */
const CACHED_SCOPES = 8;

/**
 * The vault's lexical search index: the thin adapter between NoteStore and the pure
 * {@link LexicalEngine}. Builds after layout ready in time slices (docs/architecture.md#runtime-facts:
 * heavy work never blocks the UI), stays current through `NoteStore.onNoteChange`, and
 * answers queries for one caller's access scope.
 */
export class SearchIndex {
  private readonly engine = new LexicalEngine();
  private current: 'idle' | 'building' | 'ready' = 'idle';
  /** Note change tasks, run one after another; the build runs beside them (engine writes are synchronous). */
  private queue: Promise<void> = Promise.resolve();
  /** The running (or last) build. */
  private building: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  /** Bumped by start/stop so tasks of an earlier run do nothing. */
  private generation = 0;
  /** Bumped by each build so a superseded build stops. */
  private buildId = 0;
  /** Paths a change task indexed during the running build: the build must not overwrite them with what it read earlier. */
  private readonly touched = new Set<string>();
  private progress: IndexStats = emptyStats();
  /** Stat of every indexed note when it was indexed: tells a warm start which notes changed. */
  private readonly manifest = new Map<string, NoteStamp>();
  private readonly storage: IndexStorage | null;
  private readonly saveDelayMs: number;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  /** False only while the index equals the saved one just loaded (a warm start that found nothing to do needs no save). */
  private dirtySinceLoad = true;
  /** True once a start has tried the saved index (reindex() never loads it). */
  private loadedSaved = false;
  private readonly sliceMs: number;
  private readonly sliceNotes: number;
  /**
   * NoteStore.canRead per scope (key: roots and label) and note path. A note's readability
   * depends on the scope, the quarantine list (a change of it rebuilds the index, which
   * clears this) and the note's own frontmatter (a change of the note drops its entry), so
   * a search over thousands of matches does not ask the vault layer for each of them again.
   */
  private readonly readable = new Map<string, Map<string, boolean>>();

  /** @param notes the vault access layer. @param options build slice tuning. */
  constructor(
    private readonly notes: NoteStore,
    options: SearchIndexOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? 12;
    this.sliceNotes = options.sliceNotes ?? 100;
    this.storage = options.storage ?? null;
    this.saveDelayMs = options.saveDelayMs ?? 60_000;
  }

  /** `idle` before start and after stop, `building` during the first build, then `ready`. */
  get state(): 'idle' | 'building' | 'ready' {
    return this.current;
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
    if (this.current !== 'idle') return this.building;
    const generation = ++this.generation;
    this.unsubscribe = this.notes.onNoteChange((change) => {
      void this.enqueue(generation, () => this.applyChange(change, generation));
    });
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
    if (this.current === 'idle') return Promise.resolve();
    return this.runBuild(this.generation, false);
  }

  /**
   * Saves the index now (serialize, then `storage.save`); does nothing without storage, before
   * start or during a build. Failures are logged: a missing save only costs a longer next start.
   */
  async save(): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.storage || this.current !== 'ready') return;
    const started = performance.now();
    const slicer = new Slicer(this.sliceMs);
    try {
      const text = await encodeIndex(this.engine, this.manifest, () => slicer.pause());
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
      // The index changed while it was being serialized: the change has scheduled another save.
      if (text === null) return;
      await this.storage.save(text);
      this.progress.saveMs = performance.now() - started;
    } catch (err) {
      console.error('[vault-mcp] saving the search index failed', err);
    }
  }

  /** Unsubscribes from note changes, abandons a running build and drops the index. */
  stop(): void {
    this.generation++;
    this.buildId++;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.manifest.clear();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.engine.clear();
    this.current = 'idle';
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
    const cursorKey = JSON.stringify([query, options.regex === true]);
    const offset = options.cursor === undefined ? 0 : decodeCursor(options.cursor, cursorKey);
    if (this.current === 'idle') {
      throw new ToolError('unavailable', 'The search index is not running (the plugin is starting or stopping); try again in a moment.');
    }
    await this.queue;
    const progress: IndexProgress | null = this.current === 'building' ? { complete: false, indexed: this.progress.indexed, total: this.progress.total } : null;
    const guard = new RegexGuard();
    let notesRead = 0;
    const onTextRead = options.onTextRead;
    const { matches, total, ranked } = await this.engine.match(
      ast,
      onTextRead ? (path) => this.readPath(path).finally(() => onTextRead(++notesRead)) : (path) => this.readPath(path),
      { key: scopeKey(scope), allow: this.readableIn(scope) },
      guard,
      offset + limit,
    );
    const leaves = positiveLeaves(ast);
    const page = matches.slice(offset, offset + limit);
    const hits = await Promise.all(page.map((m) => this.toHit(m, leaves, options.fields ?? 'full', guard)));
    const results = hits.filter((h): h is SearchHit => h !== null);
    const next = offset + limit;
    const out: SearchPage = next < total ? { results, next_cursor: encodeCursor(next, cursorKey), total } : { results, total };
    if (ranked !== null) {
      out.all_terms_total = ranked.allTerms;
      if (ranked.ignored.length > 0) out.ignored_terms = ranked.ignored;
    }
    if (progress) {
      out.index = progress;
      out.note =
        `The search index is still being built (${progress.indexed} of ${progress.total} notes so far): ` +
        'these results may miss notes; repeat the search in a few seconds for complete results.';
    }
    return out;
  }

  /** `canRead(note, scope)` by path, answered from the cache of {@link readable} when it can. */
  private readableIn(scope: AccessScope): (path: string) => boolean {
    const key = scopeKey(scope);
    let known = this.readable.get(key);
    if (known === undefined) {
      known = new Map();
      if (this.readable.size >= CACHED_SCOPES) this.readable.delete(this.readable.keys().next().value as string);
    } else this.readable.delete(key);
    this.readable.set(key, known);
    const cache = known;
    return (path) => {
      let ok = cache.get(path);
      if (ok === undefined) {
        const file = this.notes.fileByPath(path);
        ok = file !== null && this.notes.canRead(file, scope);
        cache.set(path, ok);
      }
      return ok;
    };
  }

  /** Adds a task to the queue; tasks of a stopped run are skipped. Failures are logged, not thrown. */
  private enqueue(generation: number, task: () => Promise<void>): Promise<void> {
    this.queue = this.queue
      .then(() => (generation === this.generation ? task() : undefined))
      .catch((err: unknown) => console.error('[vault-mcp] search index update failed', err));
    return this.queue;
  }

  /**
   * Starts a build that replaces any running one; searches answer partially until it ends.
   * @param warm start from the saved index when there is a valid one
   */
  private runBuild(generation: number, warm: boolean): Promise<void> {
    const id = ++this.buildId;
    this.current = 'building';
    this.engine.clear();
    this.manifest.clear();
    this.touched.clear();
    this.readable.clear();
    this.progress = emptyStats();
    this.building = this.build(generation, id, warm)
      .catch((err: unknown) => console.error('[vault-mcp] search index build failed', err))
      .then(() => (this.current === 'ready' && this.buildId === id && this.dirtySinceLoad ? this.save() : undefined));
    return this.building;
  }

  /**
   * Loads the saved index into the engine and manifest.
   * @returns true when it loaded; false (engine left empty) when absent, corrupt or of another format.
   */
  private async loadSaved(): Promise<boolean> {
    if (!this.storage || this.loadedSaved) return false;
    this.loadedSaved = true;
    const text = await this.storage.load().catch(() => null);
    const saved = text === null ? null : openIndex(text);
    if (saved === null) {
      if (text !== null && isOtherIndexFormat(text)) console.warn('[vault-mcp] the saved search index is of another version; rebuilding it');
      else if (text !== null) await this.reportDamaged('its first line is not an index header');
      return false;
    }
    const slicer = new Slicer(this.sliceMs);
    try {
      await this.engine.load(saved.lines(), () => slicer.pause());
    } catch (err) {
      this.engine.clear();
      await this.reportDamaged((err as Error).message);
      return false;
    } finally {
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, slicer.longestMs);
    }
    for (const [path, stamp] of saved.manifest) {
      if (this.engine.has(path)) this.manifest.set(path, stamp);
    }
    return true;
  }

  /** Logs a damaged saved index and hands it to `storage.damaged` (which keeps it aside and tells the user). */
  private async reportDamaged(reason: string): Promise<void> {
    console.warn(`[vault-mcp] the saved search index is damaged (${reason}); rebuilding it`);
    try {
      await this.storage?.damaged?.(reason);
    } catch (err) {
      console.error('[vault-mcp] could not keep the damaged search index aside', err);
    }
  }

  private async build(generation: number, id: number, warm: boolean): Promise<void> {
    const live = (): boolean => generation === this.generation && id === this.buildId;
    const started = performance.now();
    try {
      this.progress.total = this.notes.readableNotes(UNRESTRICTED_SCOPE).length;
      const loaded = warm && (await this.loadSaved());
      if (!live()) return;
      const readable = this.notes.readableNotes(UNRESTRICTED_SCOPE);
      let files = readable;
      if (loaded) {
        const current = new Set(readable.map((f) => f.path));
        for (const path of this.engine.paths()) {
          if (!current.has(path)) this.forget(path);
        }
        files = readable.filter((f) => {
          const stamp = this.manifest.get(f.path);
          return stamp === undefined || stamp[0] !== f.stat.mtime || stamp[1] !== f.stat.size;
        });
      }
      this.progress.warm = loaded;
      this.dirtySinceLoad = !loaded || files.length > 0 || this.engine.size !== readable.length;
      this.progress.total = readable.length;
      this.progress.indexed = readable.length - files.length;
      this.progress.reindexed = files.length;
      let sliceStart = performance.now();
      let inSlice = 0;
      for (const file of files) {
        if (inSlice >= this.sliceNotes || performance.now() - sliceStart >= this.sliceMs) {
          this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, performance.now() - sliceStart);
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
          if (!live()) return;
          sliceStart = performance.now();
          inSlice = 0;
        }
        if (!this.touched.has(file.path)) await this.indexFile(file, () => live() && !this.touched.has(file.path));
        this.progress.indexed++;
        inSlice++;
      }
      const trim = this.engine.trimSteps();
      while (trim.next().done !== true) {
        if (performance.now() - sliceStart < this.sliceMs) continue;
        this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, performance.now() - sliceStart);
        await new Promise<void>((resolve) => setTimeout(resolve, 0));
        if (!live()) return;
        sliceStart = performance.now();
      }
      this.progress.longestSliceMs = Math.max(this.progress.longestSliceMs, performance.now() - sliceStart);
    } finally {
      if (live()) {
        this.current = 'ready';
        this.touched.clear();
        this.progress.complete = true;
        this.progress.buildMs = performance.now() - started;
      }
    }
  }

  private async applyChange(change: NoteChange, generation: number): Promise<void> {
    if (this.current === 'building') {
      this.touched.add(change.path);
      if (change.oldPath !== undefined) this.touched.add(change.oldPath);
    }
    this.scheduleSave();
    for (const known of this.readable.values()) {
      known.delete(change.path);
      if (change.oldPath !== undefined) known.delete(change.oldPath);
    }
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
    await this.indexFile(file, () => generation === this.generation);
  }

  /**
   * Reads and (re)indexes one note; a note that cannot be read is dropped from the index.
   * Nothing is written when `stillWanted()` is false after the read (index stopped, build
   * superseded, or a newer change already indexed the note).
   */
  private async indexFile(file: TFile, stillWanted: () => boolean): Promise<void> {
    let text: string | null;
    try {
      text = await this.notes.read(file);
    } catch {
      text = null;
    }
    if (!stillWanted()) return;
    if (text === null) {
      this.forget(file.path);
      return;
    }
    this.manifest.set(file.path, [file.stat.mtime, file.stat.size]);
    this.engine.add({
      path: file.path,
      id: this.notes.noteId(file),
      title: this.notes.noteTitle(file),
      tags: this.notes.tagsOf(file).map((t) => t.replace(/^#/, '').normalize('NFC').toLowerCase()),
      frontmatter: this.notes.frontmatterOf(file),
      text,
      headings: this.notes.outline(file, text).map((s) => s.heading),
    });
  }

  /** Drops a note from the engine and the manifest. */
  private forget(path: string): void {
    this.engine.remove(path);
    this.manifest.delete(path);
  }

  /** Saves the index `saveDelayMs` after the last change (timer restarted by each change). */
  private scheduleSave(): void {
    if (!this.storage) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save(), this.saveDelayMs);
  }

  private readPath(path: string): Promise<string> {
    const file = this.notes.fileByPath(path);
    return file === null ? Promise.reject(new Error(`note ${path} is gone`)) : this.notes.read(file);
  }

  /** The result entry for one match: snippet and section from the current text; null when the note vanished. */
  private async toHit(m: EngineMatch, leaves: QueryNode[], fields: 'full' | 'metadata', guard: RegexGuard): Promise<SearchHit | null> {
    const file = this.notes.fileByPath(m.note.path);
    if (file === null) return null;
    let text: string;
    try {
      text = m.text ?? (await this.notes.read(file));
    } catch {
      return null;
    }
    const snippet = buildSnippet(text, leaves, m.terms, guard, this.notes.outline(file, text));
    const section = snippet.section;
    return {
      path: m.note.path,
      id: m.note.id,
      title: m.note.title,
      score: Math.round(m.score * 1000) / 1000,
      ...(fields === 'full' ? { snippet: snippet.text } : {}),
      section: section?.path ?? null,
      section_heading: section?.heading ?? null,
      source: 'lexical',
      ...(m.allTerms === undefined ? {} : { all_terms: m.allTerms, ...(m.missing?.length ? { missing_terms: m.missing } : {}) }),
    };
  }
}

/** What a scope's read decisions depend on besides the notes themselves: its label (agent_overrides) and roots (key and client roots). */
function scopeKey(scope: AccessScope): string {
  return JSON.stringify([scope.label, scope.roots]);
}

function emptyStats(): IndexStats {
  return { complete: false, indexed: 0, total: 0, buildMs: null, longestSliceMs: 0, warm: false, reindexed: 0, saveMs: null };
}
