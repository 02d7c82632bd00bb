import type { TFile } from 'obsidian';
import { UNRESTRICTED_SCOPE, type AccessScope } from '../../vault/access/access';
import { withPreamble } from '../../vault/content/sections';
import type { NoteChange, NoteStore } from '../../vault/note-store';
import type { NoteStamp } from '../engine/index-file';
import { changedSince, Debounce, IndexLifecycle, reportDamaged, stampOf } from '../index-lifecycle';
import { ReadableCache, scopeKey } from '../readable-cache';
import { AdmittedRowsCache } from './admitted-rows';
import { chunkNote, type NoteChunk } from './chunker';
import { decodeSemanticIndex, encodeSemanticIndex } from './store-file';
import { VectorStore, type ChunkRecord, type StoredVector } from './vector-store';

/** What the semantic index needs of the AI funnel (AiService.embed / embeddingAvailability). */
export interface Embedder {
  /** Embeds texts through the gates; throws `AiError` when they refuse or the provider fails. */
  embed(texts: readonly string[]): Promise<{ vectors: Float32Array[] }>;
  /** Whether `embed` would be sent now, and with which model. */
  embeddingAvailability(): { ready: true; model: string } | { ready: false; reason: string };
}

/** Where the vectors are saved between runs (the plugin folder, `semantic-index.bin`). */
export interface SemanticStorage {
  load(): Promise<ArrayBuffer | null>;
  save(data: ArrayBuffer): Promise<void>;
}

/** Tuning; the defaults suit a local model on a laptop. */
export interface SemanticIndexOptions {
  /** The "Index for semantic search" setting, read on every sync. */
  enabled: () => boolean;
  storage?: SemanticStorage;
  /** Chunks to gather before one embed call (the client batches them further). Default 64. */
  chunksPerCall?: number;
  /** Wait before trying again after the provider was unreachable, ms. Default 60000. */
  retryMs?: number;
  /** Wait after a note change before embedding it, ms (edits come in bursts). Default 2000. */
  changeDelayMs?: number;
  /** Longest time between two saves during a build, ms. Default 30000. */
  saveEveryMs?: number;
}

/** Where the semantic index stands; `ready` is the only state a search can use. */
export type SemanticStatus =
  | { state: 'off'; reason: string }
  | { state: 'building'; indexed: number; total: number }
  | { state: 'paused'; reason: string; indexed: number; total: number }
  | { state: 'ready'; notes: number; chunks: number };

/** One note found by meaning: its best chunk. */
export interface SemanticMatch {
  path: string;
  /** Cosine similarity of the best chunk, −1…1. */
  score: number;
  section: string | null;
  heading: string | null;
  /** Offset of that chunk's text in the note. */
  start: number;
}

/** Why semantic search answers nothing while its index is off, and the setting that turns it on (the settings tab shows it too). */
export const SEMANTIC_OFF_REASON = 'semantic search is off; turn on "Index for semantic search" in Settings → Vault MCP → AI provider';
/** Hash length kept per chunk (hex chars of SHA-256): 64 bits, ample for one vault's chunks. */
const HASH_CHARS = 16;
/** Time budget of one slice of a sync's loop over notes, ms (docs/architecture.md#runtime-facts). */
const SLICE_MS = 12;

/**
 * The semantic index: chunks every readable note (chunker.ts), embeds the chunks through the AI
 * funnel, keeps the vectors in a {@link VectorStore} saved in the plugin folder, and answers
 * nearest-note queries for one caller's access scope. A sync re-chunks only notes whose stat
 * changed and embeds only chunks whose content hash is new; it yields to the UI between notes
 * and pauses (retrying after `retryMs`) when the provider is unreachable or busy. A different
 * embedding model, or vectors of another dimension, start over. Its run (subscription,
 * generation, sliced loop, debounced sync, damaged file) is an {@link IndexLifecycle}, as
 * SearchIndex's is.
 */
export class SemanticIndex {
  private store = new VectorStore('');
  private readonly stamps = new Map<string, NoteStamp>();
  private status: SemanticStatus = { state: 'off', reason: SEMANTIC_OFF_REASON };
  private readonly listeners = new Set<(status: SemanticStatus) => void>();
  private readonly dirty = new Set<string>();
  /** Subscription and generation (bumped by rebuild and stop so a sync of an earlier run stops). */
  private readonly lifecycle: IndexLifecycle;
  private running: Promise<void> | null = null;
  private again = false;
  /** The next sync, after changes settle or a pause. */
  private readonly timer = new Debounce(() => void this.refresh());
  private loaded = false;
  /** True once a sync finished for the current model: later syncs only update. */
  private built = false;
  private lastSave = 0;
  /** Saves run one after another (two writes of one file must not interleave their temp-copy swaps). */
  private saving: Promise<void> = Promise.resolve();
  /** NoteStore.canRead per scope and path (see ReadableCache); a note's decision is dropped when it changes. */
  private readonly readable: ReadableCache;
  /** Per scope, the store rows it may see (see AdmittedRowsCache). */
  private readonly admitted = new AdmittedRowsCache();

  /** @param notes the vault access layer. @param embedder the AI funnel. @param options see {@link SemanticIndexOptions} */
  constructor(
    private readonly notes: NoteStore,
    private readonly embedder: Embedder,
    private readonly options: SemanticIndexOptions,
  ) {
    this.lifecycle = new IndexLifecycle(notes, SLICE_MS);
    this.readable = new ReadableCache(notes);
  }

  /** The current status (see {@link SemanticStatus}). */
  get current(): SemanticStatus {
    return this.status;
  }

  /** Calls `listener` on every status change (progress included). @returns unsubscribe */
  onStatus(listener: (status: SemanticStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows note changes and starts a sync (which does nothing while the setting is off). Call after layout ready. */
  start(): Promise<void> {
    if (!this.lifecycle.following) this.lifecycle.follow((change) => this.noteChanged(change));
    return this.refresh();
  }

  /**
   * Syncs now: call after the settings changed (toggle, provider, model). Resolves when the sync
   * ended (finished, paused or off); a sync already running is run again after it.
   */
  refresh(): Promise<void> {
    // Settings that decide what a caller may read (quarantine, symlinks, widgets folder) may have changed.
    this.readable.clear();
    this.admitted.accessChanged();
    this.timer.cancel();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const generation = this.lifecycle.generation;
    this.running = (async () => {
      do {
        this.again = false;
        await this.sync(generation);
      } while (this.again && this.lifecycle.isLive(generation));
    })().finally(() => {
      if (this.lifecycle.isLive(generation)) this.running = null;
    });
    return this.running;
  }

  /** Forgets every vector and embeds the vault again (the settings tab's Rebuild button). */
  async rebuild(): Promise<void> {
    this.lifecycle.supersede();
    this.running = null;
    this.store = new VectorStore('');
    this.stamps.clear();
    this.built = false;
    this.loaded = true;
    await this.refresh();
  }

  /** Resolves when every save of the index file started so far has ended (failures are logged by the save); at once when none runs. */
  whenSaved(): Promise<void> {
    return this.saving;
  }

  /** Stops following changes and any sync; saves nothing more (a save already started lands: {@link whenSaved}). */
  stop(): void {
    this.lifecycle.end();
    this.running = null;
    this.timer.cancel();
  }

  /**
   * The notes nearest in meaning to `query` that `scope` may read (NoteStore.canRead, asked at
   * query time, so a note made private since it was embedded is never returned).
   * @param query plain-language text, embedded through the funnel
   * @param limit most notes to return
   * @returns best chunk per note, best first
   * @throws Error when the status is not `ready` (check {@link current} first); AiError from the provider
   */
  async nearest(query: string, scope: AccessScope, limit: number): Promise<SemanticMatch[]> {
    if (this.status.state !== 'ready') throw new Error(`semantic index not ready (${this.status.state})`);
    const { vectors } = await this.embedder.embed([query]);
    const allowed = this.readable.of(scope);
    const rows = this.admitted.rowsFor(this.store, scopeKey(scope), allowed);
    const out: SemanticMatch[] = [];
    const seen = new Set<string>();
    for (const c of this.store.nearest(vectors[0], limit * 4, rows)) {
      if (seen.has(c.path)) continue;
      seen.add(c.path);
      // Kept rows may predate a settings change not yet announced (refresh): each note returned is asked again.
      const file = this.notes.fileByPath(c.path);
      if (file === null || !this.notes.canRead(file, scope)) continue;
      out.push({ path: c.path, score: c.score, section: c.section, heading: c.heading, start: c.start });
      if (out.length >= limit) break;
    }
    return out;
  }

  private setStatus(status: SemanticStatus): void {
    this.status = status;
    for (const listener of this.listeners) listener(status);
  }

  private noteChanged(change: NoteChange): void {
    this.readable.forget(change.path);
    if (change.oldPath !== undefined) this.readable.forget(change.oldPath);
    this.admitted.accessChanged();
    if (change.type === 'rename' && change.oldPath !== undefined) {
      this.store.renameNote(change.oldPath, change.path);
      const stamp = this.stamps.get(change.oldPath);
      this.stamps.delete(change.oldPath);
      if (stamp) this.stamps.set(change.path, stamp);
    }
    const file = this.notes.fileByPath(change.path);
    if (change.type === 'delete' || file === null || !this.notes.canRead(file, UNRESTRICTED_SCOPE)) {
      // Gone, quarantined or private now: its vectors go at once, not at the next sync.
      this.store.removeNote(change.path);
      this.stamps.delete(change.path);
      return;
    }
    this.dirty.add(change.path);
    this.timer.schedule(this.options.changeDelayMs ?? 2000);
  }

  private async sync(generation: number): Promise<void> {
    const live = (): boolean => this.lifecycle.isLive(generation);
    if (!this.options.enabled()) {
      this.setStatus({ state: 'off', reason: SEMANTIC_OFF_REASON });
      return;
    }
    const availability = this.embedder.embeddingAvailability();
    if (!availability.ready) {
      this.setStatus({ state: 'off', reason: availability.reason });
      return;
    }
    await this.loadSaved();
    if (!live()) return;
    if (this.store.model !== availability.model) this.startOver(availability.model);
    // In steps, sharing the lexical index's scan when the vault has not changed since (NoteStore's scan cache).
    const readable = await this.notes.readableNotesInSteps(UNRESTRICTED_SCOPE, this.lifecycle.slicer());
    if (!live()) return;
    const current = new Set(readable.map((f) => f.path));
    for (const path of [...this.store.paths(), ...this.stamps.keys()]) {
      if (!current.has(path)) {
        this.store.removeNote(path);
        this.stamps.delete(path);
      }
    }
    let todo = readable.filter((f) => this.dirty.has(f.path) || changedSince(this.stamps.get(f.path), f));
    // A note changed since its saved stamp, unheard (while the plugin was not running), is judged from its file until Obsidian
    // parses it again (as SearchIndex's warm start does): one the change made private is dropped, and its text never embedded.
    const closed = new Set<string>();
    for (const f of todo) {
      if (!this.stamps.has(f.path) || !changedSince(this.stamps.get(f.path), f)) continue;
      this.notes.changedWhileAway(f);
      if (!this.notes.canRead(f, UNRESTRICTED_SCOPE)) closed.add(f.path);
    }
    for (const path of closed) {
      this.store.removeNote(path);
      this.stamps.delete(path);
    }
    if (closed.size > 0) todo = todo.filter((f) => !closed.has(f.path));
    this.dirty.clear();
    const progress = { indexed: readable.length - closed.size - todo.length, total: readable.length - closed.size };
    const report = (): void => {
      if (!this.built) this.setStatus({ state: 'building', ...progress });
    };
    report();
    try {
      await this.embedAll(todo, progress, report, live);
      if (!live()) return;
      this.built = true;
      this.setStatus({ state: 'ready', notes: [...this.store.paths()].length, chunks: this.store.size });
      await this.save();
    } catch (err) {
      if (!live()) return;
      for (const f of todo) if (changedSince(this.stamps.get(f.path), f)) this.dirty.add(f.path);
      if (err instanceof DimensionChanged) {
        this.startOver(availability.model);
        this.again = true;
        return;
      }
      const reason = err instanceof Error ? err.message : String(err);
      if (isTransientAiError(err)) {
        this.setStatus({
          state: 'paused',
          reason: `the embedding provider is unreachable or busy (${reason}); retrying in a minute`,
          ...progress,
        });
        this.timer.schedule(this.options.retryMs ?? 60_000);
      } else {
        if (errorCode(err) === undefined) console.error('[vault-mcp] semantic index sync failed', err);
        this.setStatus({ state: 'off', reason });
      }
      await this.save();
    }
  }

  /** Chunks and embeds `todo`, gathering chunks of several notes per embed call; a note is stored once all its chunks have vectors. */
  private async embedAll(todo: TFile[], progress: { indexed: number }, report: () => void, live: () => boolean): Promise<void> {
    const slicer = this.lifecycle.slicer();
    type Pending = { file: TFile; stamp: NoteStamp; chunks: NoteChunk[]; reuse: Map<string, StoredVector> };
    let pending: Pending[] = [];
    let needed = 0;
    const flush = async (): Promise<void> => {
      const texts = pending.flatMap((p) => p.chunks.filter((c) => !p.reuse.has(short(c.hash))).map((c) => c.input));
      const vectors = texts.length > 0 ? (await this.embedder.embed(texts)).vectors : [];
      if (!live()) return;
      if (this.store.dim !== 0 && vectors.length > 0 && vectors[0].length !== this.store.dim) throw new DimensionChanged();
      let k = 0;
      for (const p of pending) {
        const file = this.notes.fileByPath(p.file.path);
        const entries = p.chunks.map((c) => ({ record: recordOf(p.file.path, c), vector: p.reuse.get(short(c.hash)) ?? vectors[k++] }));
        if (file === null || !this.notes.canRead(file, UNRESTRICTED_SCOPE)) continue;
        this.store.setNote(p.file.path, entries);
        this.stamps.set(p.file.path, p.stamp);
        progress.indexed++;
      }
      pending = [];
      needed = 0;
      report();
      if (performance.now() - this.lastSave > (this.options.saveEveryMs ?? 30_000)) await this.save();
    };
    for await (const file of this.lifecycle.sliced(todo, slicer, live)) {
      let text: string | null;
      try {
        // A text whose own rules close it (newer than the metadata canRead judged) is not embedded: it now counts as private.
        text = await this.notes.readToMatch(file, UNRESTRICTED_SCOPE);
      } catch {
        continue;
      }
      if (text === null) continue;
      const chunks = chunkNote({ title: this.notes.noteTitle(file), text, sections: withPreamble(this.notes.outline(file, text), text) });
      // The metadata cache has not caught up with this text: its change event brings the note back.
      if (chunks === null) continue;
      const reuse = this.store.vectorsOf(file.path);
      pending.push({ file, stamp: stampOf(file), chunks, reuse });
      needed += chunks.filter((c) => !reuse.has(short(c.hash))).length;
      if (needed >= (this.options.chunksPerCall ?? 64)) await flush();
    }
    if (live() && pending.length > 0) await flush();
  }

  private startOver(model: string): void {
    this.store = new VectorStore(model);
    this.stamps.clear();
    this.built = false;
  }

  private async loadSaved(): Promise<void> {
    if (this.loaded || !this.options.storage) return;
    this.loaded = true;
    const data = await this.options.storage.load().catch(() => null);
    const saved = data === null ? null : await decodeSemanticIndex(data);
    if (saved === null) {
      if (data !== null) await reportDamaged('semantic index', 'unreadable or of another version');
      return;
    }
    this.store = saved.store;
    for (const [path, stamp] of saved.stamps) if (this.store.has(path)) this.stamps.set(path, stamp);
  }

  private save(): Promise<void> {
    const storage = this.options.storage;
    if (!storage || this.store.model === '') return this.saving;
    this.lastSave = performance.now();
    const store = this.store;
    this.saving = this.saving
      .then(() => encodeSemanticIndex(store, this.stamps))
      .then((bytes) => storage.save(bytes))
      .catch((err: unknown) => console.error('[vault-mcp] saving the semantic index failed', err));
    return this.saving;
  }
}

/** Vectors came back with another length than the stored ones: the model behind the name changed. */
class DimensionChanged extends Error {}

function short(hash: string): string {
  return hash.slice(0, HASH_CHARS);
}

function recordOf(path: string, c: NoteChunk): ChunkRecord {
  return { path, section: c.section, heading: c.heading, start: c.start, hash: short(c.hash) };
}

/** The `code` of an AI error (ai/ai-error.ts, read by shape so search/ does not import ai/). */
function errorCode(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Unreachable, rate-limited or failing on its side (`aiHttpError` without status, 429, 5xx): worth
 * trying again later. Not an error marked `lasting` (ai-error.ts: a refused TLS certificate, an
 * answer over the size cap), which retrying every minute cannot fix.
 * @param err anything thrown by an AI call
 * @returns true when the semantic index should pause and retry
 */
export function isTransientAiError(err: unknown): boolean {
  const status = err instanceof Error ? (err as Error & { status?: unknown }).status : undefined;
  if (err instanceof Error && (err as Error & { lasting?: unknown }).lasting === true) return false;
  return errorCode(err) === 'aiHttpError' && (status === undefined || status === 429 || (typeof status === 'number' && status >= 500));
}
