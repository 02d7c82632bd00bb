import type { TFile } from 'obsidian';
import { ToolError } from '../errors';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../vault/access';
import type { NoteChange, NoteStore } from '../vault/note-store';
import { decodeCursor, encodeCursor } from './cursor';
import { LexicalEngine, type EngineMatch } from './lexical-engine';
import type { QueryNode } from './query-ast';
import { positiveLeaves } from './query-eval';
import { parseQuery, regexQuery } from './query-parser';
import { RegexGuard } from './regex-guard';
import { buildSnippet } from './snippet';
import type { SearchHit, SearchOptions, SearchPage } from './types';

/** Tuning of the initial build. Defaults keep each slice well under the 50 ms long-task budget. */
export interface SearchIndexOptions {
  /** Time budget of one build slice in ms before yielding to the UI (default 12). */
  sliceMs?: number;
  /** Most notes indexed in one slice before yielding (default 100). */
  sliceNotes?: number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/**
 * The vault's lexical search index: the thin adapter between NoteStore and the pure
 * {@link LexicalEngine}. Builds after layout ready in time slices (DESIGN.md, Runtime facts:
 * heavy work never blocks the UI), stays current through `NoteStore.onNoteChange`, and
 * answers queries for one caller's access scope.
 */
export class SearchIndex {
  private readonly engine = new LexicalEngine();
  private current: 'idle' | 'building' | 'ready' = 'idle';
  /** Build and change tasks, run one after another so the engine is never written concurrently. */
  private queue: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | null = null;
  /** Bumped by start/stop so tasks of an earlier run do nothing. */
  private generation = 0;
  private readonly sliceMs: number;
  private readonly sliceNotes: number;

  /** @param notes the vault access layer. @param options build slice tuning. */
  constructor(
    private readonly notes: NoteStore,
    options: SearchIndexOptions = {},
  ) {
    this.sliceMs = options.sliceMs ?? 12;
    this.sliceNotes = options.sliceNotes ?? 100;
  }

  /** `idle` before start and after stop, `building` during the first build, then `ready`. */
  get state(): 'idle' | 'building' | 'ready' {
    return this.current;
  }

  /**
   * Subscribes to note changes and builds the index over every readable note, yielding to
   * the event loop (`setTimeout(0)`) between slices of at most `sliceNotes` notes or
   * `sliceMs` ms. Call from `workspace.onLayoutReady`. A second call while running returns
   * the same build.
   * @returns resolves when the first build is done (changes keep being applied afterwards).
   */
  start(): Promise<void> {
    if (this.current !== 'idle') return this.queue;
    const generation = ++this.generation;
    this.current = 'building';
    this.unsubscribe = this.notes.onNoteChange((change) => {
      void this.enqueue(generation, () => this.applyChange(change, generation));
    });
    return this.enqueue(generation, () => this.build(generation));
  }

  /**
   * Rebuilds the whole index (after the quarantine list changed: notes it released must be
   * found, notes it now covers must not). Searches meanwhile wait for the rebuild, as they
   * wait for the first build. Does nothing before `start()`.
   * @returns resolves when the rebuild is done.
   */
  reindex(): Promise<void> {
    if (this.current === 'idle') return Promise.resolve();
    const generation = this.generation;
    this.current = 'building';
    return this.enqueue(generation, async () => {
      this.engine.clear();
      await this.build(generation);
    });
  }

  /** Unsubscribes from note changes, abandons a running build and drops the index. */
  stop(): void {
    this.generation++;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.engine.clear();
    this.current = 'idle';
  }

  /**
   * Searches the notes `scope` may read (NoteStore.canRead), waiting for the build and any
   * queued note changes first.
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
    const guard = new RegexGuard();
    const matches = await this.engine.match(
      ast,
      (path) => this.readPath(path),
      (path) => {
        const file = this.notes.fileByPath(path);
        return file !== null && this.notes.canRead(file, scope);
      },
      guard,
    );
    const leaves = positiveLeaves(ast);
    const page = matches.slice(offset, offset + limit);
    const hits = await Promise.all(page.map((m) => this.toHit(m, leaves, options.fields ?? 'full', guard)));
    const results = hits.filter((h): h is SearchHit => h !== null);
    const next = offset + limit;
    return next < matches.length
      ? { results, next_cursor: encodeCursor(next, cursorKey), total: matches.length }
      : { results, total: matches.length };
  }

  /** Adds a task to the queue; tasks of a stopped run are skipped. Failures are logged, not thrown. */
  private enqueue(generation: number, task: () => Promise<void>): Promise<void> {
    this.queue = this.queue
      .then(() => (generation === this.generation ? task() : undefined))
      .catch((err: unknown) => console.error('[vault-mcp] search index update failed', err));
    return this.queue;
  }

  private async build(generation: number): Promise<void> {
    try {
      const files = this.notes.readableNotes(UNRESTRICTED_SCOPE);
      let sliceStart = performance.now();
      let inSlice = 0;
      for (const file of files) {
        if (inSlice >= this.sliceNotes || performance.now() - sliceStart >= this.sliceMs) {
          await new Promise<void>((resolve) => setTimeout(resolve, 0));
          if (generation !== this.generation) return;
          sliceStart = performance.now();
          inSlice = 0;
        }
        await this.indexFile(file, generation);
        inSlice++;
      }
    } finally {
      if (generation === this.generation) this.current = 'ready';
    }
  }

  private async applyChange(change: NoteChange, generation: number): Promise<void> {
    if (change.type === 'delete') {
      this.engine.remove(change.path);
      return;
    }
    if (change.type === 'rename' && change.oldPath !== undefined) this.engine.remove(change.oldPath);
    const file = this.notes.fileByPath(change.path);
    if (file === null || file.extension !== 'md' || !this.notes.canRead(file, UNRESTRICTED_SCOPE)) {
      // Gone, not a note, or now quarantined / private: it must not be found.
      this.engine.remove(change.path);
      return;
    }
    await this.indexFile(file, generation);
  }

  /**
   * Reads and (re)indexes one note; a note that cannot be read is dropped from the index.
   * Nothing is written when the index was stopped during the read.
   */
  private async indexFile(file: TFile, generation: number): Promise<void> {
    let text: string | null;
    try {
      text = await this.notes.read(file);
    } catch {
      text = null;
    }
    if (generation !== this.generation) return;
    if (text === null) {
      this.engine.remove(file.path);
      return;
    }
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
    };
  }
}
