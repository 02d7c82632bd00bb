/**
 * The part of a warm start and of the first searches that depends on the JavaScript engine, written
 * to run unchanged in Node and in a Chromium page (profile-chromium.ts runs it in both): it fetches a
 * vault's notes and a saved search index over HTTP from the profiler's loopback server, holds every
 * note's text and its metadata as the test host's metadata cache parses it (test/host's
 * parseNoteMetadata: the live heap a warm start's collections work beside, as the host's vault and
 * metadata cache are in the bench's rows), loads the index into the engine in slices as
 * SearchIndex's warm start does (the load, its pack steps, then after completeness the block
 * bounds, the phrase filters and the ranking steps), then times each query's engine match (no
 * MCP, no result page), a first pass and a second one. Only fetch, performance and the engine's own
 * modules: no Node builtin is reached for these queries (regex-guard.ts's `node:vm` serves regex
 * queries only; the page's bundle stubs it).
 */
import { percentiles } from '../bench/percentiles';
import { openIndex, type ReadPart } from '../../src/search/engine/index-file';
import { LexicalEngine, type CallerAccess } from '../../src/search/engine/lexical-engine';
import { Slicer } from '../../src/search/engine/slicer';
import { parseQuery } from '../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';
import { parseNoteMetadata } from '../../test/host/markdown/markdown-metadata';

/** What to run: the server's base URL and the queries, each timed `passes` times per pass. */
export interface ProbeInput {
  /** The profiler's server, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  base: string;
  /** The bench's query mix (generate-vault.ts's generatedQueries). */
  queries: string[];
  /** Queries of the most frequent words (generate-vault.ts's heavyQueries). */
  heavy: string[];
  /** Times each query runs in one pass (the bench's row: 5). */
  passes: number;
  /** Most matches each query ranks (the search tool's page: 20). */
  limit: number;
}

/** p50 and p95 of a pass's engine times, ms, the mix and the heavy queries apart. */
export interface PassFigures {
  p50: number;
  p95: number;
  heavyP50: number;
  heavyP95: number;
  /** The pass's first call, ms. */
  firstMs: number;
  /** The pass's three slowest calls (the mix's and the heavy queries'), slowest first: the query, which of its runs (1 = its first), ms. */
  slowest: { query: string; run: number; ms: number }[];
}

/** What {@link runProbe} measured (times in ms, sizes in MB). */
export interface ProbeFigures {
  /** Notes whose text and metadata the run held, and their text, MB of UTF-16 code units × 2. */
  notesHeld: number;
  textMB: number;
  /** Fetching the notes and parsing their metadata, ms (not part of the warm start). */
  fetchMs: number;
  /** The JavaScript heap in use once the notes were held, MB, where the runtime tells it (Node; Chromium's performance.memory), else -1. */
  heldHeapMB: number;
  /** The warm start until complete (the load and its pack steps), ms, and its longest slice. */
  loadMs: number;
  loadSliceMs: number;
  /** After completeness: block bounds, phrase filters and ranking steps, ms, and their longest slice. */
  afterMs: number;
  afterSliceMs: number;
  first: PassFigures;
  again: PassFigures;
  /** The warm start's slices of {@link RECORDED_SLICE_MS} or more, longest first (at most 8), on this runtime's performance.now() clock. */
  longSlices: TimedSlice[];
  /** performance.now() when the probe called console.timeStamp('runtime-probe'), ms: ties a trace's clock to the slices'. */
  clockMarkMs: number;
}

/** One slice: when it started (performance.now(), ms), how long it ran (ms), and the calls that ended it (the stack's frames below the slicer, innermost first). */
export interface TimedSlice {
  at: number;
  ms: number;
  endedAt: string;
}

/** One garbage collection's pause on the main thread: when (performance.now() of the probe's runtime, ms), how long (ms), and its kind (minor, major, ...). */
export interface GcPause {
  at: number;
  ms: number;
  kind: string;
}

/** Slices at least this long are recorded (ms). */
const RECORDED_SLICE_MS = 30;

/**
 * A Slicer that also records each slice of {@link RECORDED_SLICE_MS} or more: a slice ends where
 * a pause yields (the budget was due) or where a part's read is marked as a wait.
 */
class RecordingSlicer extends Slicer {
  readonly slices: TimedSlice[] = [];
  private began = performance.now();
  private open = true;

  override async pause(): Promise<void> {
    const yields = this.open && this.due();
    const end = performance.now();
    await super.pause();
    if (yields) {
      this.record(end);
      this.began = performance.now();
    }
  }

  override mark(): void {
    if (this.open) this.record(performance.now());
    this.open = false;
    super.mark();
  }

  override restart(): void {
    super.restart();
    this.open = true;
    this.began = performance.now();
  }

  private record(end: number): void {
    if (end - this.began < RECORDED_SLICE_MS) return;
    // The stack's frames below this slicer and the runtime's own (the event loop's), innermost first: where the work stopped.
    const frames = (new Error().stack ?? '')
      .split('\n')
      .slice(1)
      .map((f) => f.trim().replace(/^at /, ''))
      .filter((f) => !/RecordingSlicer|processImmediate|node:internal|^<anonymous>/.test(f))
      .slice(0, 3);
    this.slices.push({ at: this.began, ms: end - this.began, endedAt: frames.join(' < ') });
  }
}

/** Slice budget of the warm start, ms: SearchIndex's default (search-index.ts). */
const SLICE_MS = 12;

/** The JavaScript heap in use, MB: Node's process.memoryUsage, Chromium's performance.memory; -1 elsewhere. */
function heapUsedMB(): number {
  const node = (globalThis as { process?: { memoryUsage?: () => { heapUsed: number } } }).process;
  if (node?.memoryUsage !== undefined) return node.memoryUsage().heapUsed / 1e6;
  const page = (performance as { memory?: { usedJSHeapSize: number } }).memory;
  return page === undefined ? -1 : page.usedJSHeapSize / 1e6;
}

/** GETs `url` as text or bytes. @throws Error naming the URL on a status other than 200 */
async function get(url: string, as: 'text'): Promise<string>;
async function get(url: string, as: 'bytes'): Promise<Uint8Array>;
async function get(url: string, as: 'text' | 'bytes'): Promise<string | Uint8Array> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`runtime probe: GET ${url} answered ${res.status}`);
  return as === 'text' ? res.text() : new Uint8Array(await res.arrayBuffer());
}

/**
 * Runs the probe: notes, warm start, then the passes.
 * @returns the figures (ms, MB)
 * @throws Error when the server lacks a file or holds no index head of this format
 */
export async function runProbe(input: ProbeInput): Promise<ProbeFigures> {
  const { base } = input;
  const t0 = performance.now();
  const held = new Map<string, { text: string; metadata: ReturnType<typeof parseNoteMetadata> }>();
  const chunks = Number(await get(`${base}/notes`, 'text'));
  let chars = 0;
  for (let i = 0; i < chunks; i++) {
    for (const [path, text] of JSON.parse(await get(`${base}/notes/${i}`, 'text')) as [string, string][]) {
      held.set(path, { text, metadata: parseNoteMetadata(text) });
      chars += text.length;
    }
  }
  const fetchMs = performance.now() - t0;
  const heldHeapMB = heapUsedMB();

  const head = await get(`${base}/index/head`, 'text');
  let waiting: RecordingSlicer | null = null;
  const saved = openIndex(head, (generation) => ({
    read: async (n: number, withBytes: boolean): Promise<ReadPart | null> => {
      const text = await get(`${base}/index/part/${generation}.${n}.part`, 'text');
      return { text, bytes: withBytes ? await get(`${base}/index/part/${generation}.${n}.bin`, 'bytes') : new Uint8Array(0) };
    },
    // As SearchIndex's storage does (index-persistence.ts openSaved): a part's read is a wait, not a slice.
    wait: async <T>(pending: Promise<T>): Promise<T> => {
      const slicer = waiting;
      slicer?.mark();
      try {
        return await pending;
      } finally {
        slicer?.restart();
      }
    },
  }));
  if (saved === null) throw new Error('runtime probe: the server holds no index head of this format');

  const engine = new LexicalEngine();
  const clockMarkMs = performance.now();
  console.timeStamp('runtime-probe');
  const loadSlicer = new RecordingSlicer(SLICE_MS);
  waiting = loadSlicer;
  const l0 = performance.now();
  const phrases = await engine.load(saved.lines(), () => loadSlicer.pause(), true);
  for (const step of engine.packSteps()) {
    void step;
    await loadSlicer.pause();
  }
  const loadMs = performance.now() - l0;
  const loadSliceMs = loadSlicer.longestMs;

  const afterSlicer = new RecordingSlicer(SLICE_MS);
  waiting = afterSlicer;
  const a0 = performance.now();
  for (const step of engine.boundSteps()) {
    void step;
    await afterSlicer.pause();
  }
  if (phrases !== null) await engine.loadPhrases(phrases, () => afterSlicer.pause());
  const everyone: CallerAccess = { key: 'all', allow: () => true };
  for (const step of engine.rankingSteps()) {
    void step;
    await afterSlicer.pause();
  }
  for (const step of engine.baseViewSteps(everyone)) {
    void step;
    await afterSlicer.pause();
  }
  const afterMs = performance.now() - a0;
  const afterSliceMs = afterSlicer.longestMs;

  const loadText = async (path: string): Promise<string> => {
    const note = held.get(path);
    if (note === undefined) throw new Error(`runtime probe: no note ${path}`);
    return note.text;
  };
  const pass = async (): Promise<PassFigures> => {
    const mix: number[] = [];
    const heavy: number[] = [];
    const calls: { query: string; run: number; ms: number }[] = [];
    for (const [queries, into] of [
      [input.queries, mix],
      [input.heavy, heavy],
    ] as const) {
      for (const q of queries) {
        for (let i = 0; i < input.passes; i++) {
          const s = performance.now();
          await engine.match(parseQuery(q), loadText, everyone, new RegexGuard(), input.limit);
          const ms = performance.now() - s;
          into.push(ms);
          calls.push({ query: q, run: i + 1, ms });
        }
      }
    }
    const [m, h] = [percentiles(mix), percentiles(heavy)];
    const slowest = calls.sort((a, b) => b.ms - a.ms).slice(0, 3);
    return { p50: m.p50, p95: m.p95, heavyP50: h.p50, heavyP95: h.p95, firstMs: mix[0], slowest };
  };
  const first = await pass();
  const again = await pass();
  return {
    notesHeld: held.size,
    textMB: (chars * 2) / 1e6,
    fetchMs,
    heldHeapMB,
    loadMs,
    loadSliceMs,
    afterMs,
    afterSliceMs,
    first,
    again,
    longSlices: [...loadSlicer.slices, ...afterSlicer.slices].sort((a, b) => b.ms - a.ms).slice(0, 8),
    clockMarkMs,
  };
}
