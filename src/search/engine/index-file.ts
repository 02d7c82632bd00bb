import type { EngineLine, LexicalEngine } from './lexical-engine';

/**
 * The saved search index: what lets a restart skip the full build. It holds the engine's
 * data, a manifest of the notes it was built from (vault path → mtime ms and size bytes, as
 * `TFile.stat` had them when the note was indexed) and a format version. A save of another
 * version, or one that does not parse, is ignored and the index rebuilt.
 *
 * Layout (format 10): a small head, `{"format":10,"generation":G,"parts":[n, …],"bytes":[b, …]}`
 * (the file users know, `search-index.json`), names the save's generation and each part's length:
 * `n` characters of text and `b` bytes of posting lists; the storage keeps each part as a text
 * file and, when `b` > 0, a binary file of its own (IndexStorage). A part's text is whole lines
 * joined by line breaks, about {@link PART_SIZE} characters and bytes together; each line is
 * `[kind, payload]`: `"M"` a chunk of the manifest as `[path, mtime, size]` rows, then the
 * engine's lines (`"R"` note records, `"D"` document rows, `"T"` `[terms, byte sizes]`: terms with
 * their posting lists' byte sizes, `"P"` `[word counts]`: each note's phrase filter's length in
 * 32-bit words; see LexicalEngine.lines). A term line's posting lists, and a phrase filter line's
 * words (32-bit, little-endian as on every platform Obsidian runs on; their parts hold no other
 * lines, so each line's words start at a multiple of 4 bytes), are the next bytes of its part's
 * binary file, in line order: the load hands them to the engine as views of the bytes it read,
 * with nothing decoded (format 9 wrote both as base64url text after a tab in the line: 105 MB of
 * text at 100k notes, whose reading, joining, checking and decoding were 0.5 s of a warm start
 * and 1.3 s of CPU after it). Parts are made, written, read and parsed one at a time, lines one at
 * a time within them, so neither load nor save blocks the event loop for long or holds the whole
 * index at once.
 * Format 9 was format 10 with the posting lists' bytes and the phrase filters' words as base64url
 * text after a tab in each term and phrase filter line. Format 8 was format 9 but for the phrase filter lines, which held each note's filter
 * as a string in their JSON (`["P",["…", …]]`). Format 7 was format 8 but for the term lines, which
 * held the base64url string inside their JSON (`["T",[terms,sizes,"…"]]`); format 6 was format
 * 7's lines in one file after a header line `{"format":6}` (149 MB at 100k notes, read as one
 * string); format 1 was MiniSearch's JSON in one object; format 4 had no phrase filters; format 5
 * wrote each term's postings as base-32 varints of the numbers; such files are rebuilt.
 */

/**
 * Version of the saved layout, tokenizer, fields and posting encoding. Bump it whenever any
 * of them changes: an index saved by an older version is then rebuilt instead of loaded.
 */
export const INDEX_FORMAT = 10;

/** File name of the saved index's head in the plugin folder (its parts: IndexStorage). */
export const INDEX_FILE = 'search-index.json';

/** A note's stat when it was indexed: `[mtime ms, size bytes]`. */
export type NoteStamp = [mtime: number, size: number];

/** Manifest rows per saved line. */
const MANIFEST_LINE_ROWS = 500;
/**
 * Characters of whole lines plus bytes of their posting lists per part (a longer line is a part
 * alone) for what a warm start loads before the index is complete (manifest, records, terms).
 * 4 M: at 100k notes about 26 parts; a part's read, decoding and join are a few ms each, and fewer
 * reads keep the warm start short (1 MB parts throughout made it 3.4–4.5 s against 3.1–3.3:
 * docs/performance.md, "filters" round, session 19). Loading reads the head's lengths, so a save
 * made with other part sizes loads as it is.
 */
export const PART_SIZE = 4 << 20;
/**
 * Characters per part of phrase filter lines, loaded after completeness in slices: 1 MB. A part
 * comes back from the host's read as a string of chunks that its first scan flattens into one new
 * string, a step that cannot be split; on a host whose fresh memory is slow to touch it cost
 * 6–8 ms a MB (4 MB parts: 12–50 ms each in a bare process, up to 56 ms inside a warm start's
 * slices; docs/performance.md, "filters" round, session 19).
 */
export const PHRASE_PART_CHARS = 1 << 20;
/** Bytes of a part's posting lists {@link indexParts} copies into the part between two pauses: 1 MB. */
const JOIN_STEP_BYTES = 1 << 20;
/** Longest head accepted (characters): a head lists a few numbers per part; a longer text is not one. */
const HEAD_MAX_CHARS = 1 << 16;
/** What a generation name looks like (IndexStorage names it; it becomes part of a file name). */
const GENERATION = /^[0-9a-z]{1,16}-[0-9a-z]{1,16}$/;

/** Thrown by {@link indexParts} when the engine changed while it was being serialized: the save is given up. */
export class IndexChangedError extends Error {
  constructor() {
    super('the search index changed while it was being saved');
  }
}

/** One part of a save: its lines' text, and the bytes of its term and phrase filter lines, one line's after another. */
export interface IndexPart {
  text: string;
  bytes: Uint8Array;
}

/**
 * A part's checksum as the head lists it (see {@link partSumSteps}).
 */
export function partSum(text: string, bytes: Uint8Array): number {
  const steps = partSumSteps(text, bytes);
  for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/**
 * A part's checksum, in steps a caller may pause between (a save does: the whole sum of a 4 MB
 * part at once was a step of 40-60 ms): FNV-1a (32-bit; Fowler, Noll, Vo) over its text's UTF-8
 * bytes (TextEncoder, native) in stretches of {@link SUM_CHARS} code units (one more where a
 * stretch would end between a surrogate pair), then over its bytes in stretches of
 * {@link SUM_BYTES}, each stretch as 32-bit words (little-endian, as on every platform Obsidian
 * runs on; its last 1–3 bytes as one more word). Each step is a bijection of the state, so any one
 * changed byte or bit changes the sum: a flipped bit in a posting list or a phrase filter, which
 * the lists' own checks may not see, reads as damage instead of wrong answers. Over a 100k-note
 * save's 118 MB about 60-100 ms in all.
 * @returns (as the generator's return value) the sum, a 32-bit unsigned number
 */
export function* partSumSteps(text: string, bytes: Uint8Array): Generator<void, number> {
  let h = 0x811c9dc5;
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + SUM_CHARS);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to++;
    const { written } = (textEncoder ??= new TextEncoder()).encodeInto(text.slice(from, to), textScratch);
    h = fnvWords(textScratch.subarray(0, written), h);
    from = to;
    yield;
  }
  for (let from = 0; from < bytes.length; from += SUM_BYTES) {
    h = fnvWords(bytes.subarray(from, Math.min(bytes.length, from + SUM_BYTES)), h);
    yield;
  }
  return h >>> 0;
}

/** Code units of a part's text {@link partSumSteps} encodes and sums in one step. */
const SUM_CHARS = 1 << 18;
/** Bytes of a part {@link partSumSteps} sums in one step (a multiple of 4). */
const SUM_BYTES = 1 << 20;
/** {@link partSumSteps}'s buffer for a stretch of text as UTF-8 (3 bytes a code unit at most, one more unit for a pair), kept. */
const textScratch = new Uint8Array(3 * (SUM_CHARS + 1));
/** {@link partSumSteps}'s encoder, made on first use. */
let textEncoder: TextEncoder | null = null;

/**
 * FNV-1a from state `h` over `bytes` as 32-bit little-endian words, the last 1–3 bytes as one more word. Bytes not at a
 * multiple of 4 in their buffer are copied first, so the words are always read by one loop over a Uint32Array: a second
 * way of reading them, which V8 had compiled without, threw the compiled loop away again and again in a warm start.
 */
function fnvWords(bytes: Uint8Array, h: number): number {
  const whole = bytes.length >>> 2;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  h = fnvOfWords(new Uint32Array(aligned.buffer, aligned.byteOffset, whole), h);
  if (bytes.length % 4 !== 0) {
    let last = 0;
    for (let i = 4 * whole; i < bytes.length; i++) last |= bytes[i] << (8 * (i - 4 * whole));
    h = Math.imul(h ^ last, 0x01000193);
  }
  return h >>> 0;
}

/** FNV-1a from state `h` over `words`. */
function fnvOfWords(words: Uint32Array, h: number): number {
  for (let w = 0; w < words.length; w++) h = Math.imul(h ^ words[w], 0x01000193);
  return h;
}

/** A part's length as the head lists it: characters of its text, bytes of its binary file. */
export interface PartLength {
  chars: number;
  bytes: number;
}

/**
 * Serializes the index into the parts of a save, awaiting `pause()` after each line. Each part
 * is made only when taken (the caller writes one before asking for the next), so the save never
 * holds more than one part's lines.
 * @throws IndexChangedError (while iterating) when the engine changed meanwhile (the caller
 *   gives the save up; the change has scheduled another)
 */
export async function* indexParts(
  engine: LexicalEngine,
  manifest: ReadonlyMap<string, NoteStamp>,
  pause: () => Promise<void>,
): AsyncGenerator<IndexPart> {
  const version = engine.version;
  let lines: string[] = [];
  let chunks: Uint8Array[] = [];
  let size = 0;
  let inPhrases = false;
  const take = async (): Promise<IndexPart> => {
    const part = { text: lines.join('\n'), bytes: await joinedBytes(chunks, pause) };
    lines = [];
    chunks = [];
    size = 0;
    return part;
  };
  for (const line of savedLines(engine, manifest)) {
    if (line !== null) {
      const { text, bytes } = line;
      const lineSize = text.length + 1 + (bytes?.length ?? 0);
      const phrases = text.startsWith(PHRASE_LINE_START);
      // A line that would take the part past its size starts the next one (phrase filter lines: the
      // smaller size), and so does the first phrase filter line: a part of them alone has its words at multiples of 4 bytes.
      if (size > 0 && (size + lineSize > (phrases ? PHRASE_PART_CHARS : PART_SIZE) || (phrases && !inPhrases))) yield await take();
      inPhrases = phrases;
      lines.push(text);
      if (bytes !== undefined) chunks.push(bytes);
      size += lineSize;
    }
    await pause();
    // The manifest changes only with the engine: a change meanwhile shows in its version.
    if (engine.version !== version) throw new IndexChangedError();
  }
  if (lines.length > 0) yield await take();
}

/**
 * `chunks` one after another in one new array, copied at most {@link JOIN_STEP_BYTES} between two
 * `pause()`s: the first writes to a new array of megabytes touch fresh memory, which on some
 * hosts costs tens of ms a MB (a 4 MB part's join in one step took 80–113 ms in 2 of 30 parts
 * of a 100k-note save, under 3 ms in most: docs/performance.md, session 32).
 */
export async function joinedBytes(chunks: readonly Uint8Array[], pause: () => Promise<void>): Promise<Uint8Array> {
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  let sinceStep = 0;
  for (const chunk of chunks) {
    for (let from = 0; from < chunk.length;) {
      const n = Math.min(chunk.length - from, JOIN_STEP_BYTES - sinceStep);
      joined.set(from === 0 && n === chunk.length ? chunk : chunk.subarray(from, from + n), at);
      at += n;
      from += n;
      sinceStep += n;
      if (sinceStep === JOIN_STEP_BYTES) {
        sinceStep = 0;
        await pause();
      }
    }
  }
  return joined;
}

/** A saved line: its text and, for a term or phrase filter line, its bytes. */
interface SavedLine {
  text: string;
  bytes?: Uint8Array;
}

/** The saved lines in order (manifest, then the engine's), null where the work may pause (TermIndex.savedSteps). */
function* savedLines(engine: LexicalEngine, manifest: ReadonlyMap<string, NoteStamp>): Generator<SavedLine | null> {
  let rows: [string, number, number][] = [];
  // A pause after each manifest line too: the whole manifest at once was a 290 ms step (CPU) at 100k notes.
  for (const [path, [mtime, size]] of manifest) {
    rows.push([path, mtime, size]);
    if (rows.length < MANIFEST_LINE_ROWS) continue;
    yield { text: JSON.stringify(['M', rows]) };
    rows = [];
  }
  if (rows.length > 0) yield { text: JSON.stringify(['M', rows]) };
  for (const line of engine.savedSteps()) yield line === null ? null : savedLine(line);
}

/**
 * The head of a save: its format, generation and each part's length in characters and bytes and its checksum.
 * @param generation the save's name for its parts (IndexStorage.save)
 * @param sums each part's {@link partSum}, in order
 */
export function indexHead(generation: string, lengths: readonly PartLength[], sums: readonly number[]): string {
  return JSON.stringify({ format: INDEX_FORMAT, generation, parts: lengths.map((l) => l.chars), bytes: lengths.map((l) => l.bytes), sums });
}

/** A saved index opened for loading: its engine lines, read lazily part by part, and the manifest they fill. */
export interface SavedIndex {
  /** The save's generation, as its head names it. */
  generation: string;
  /** Filled while {@link lines} is iterated (manifest lines come first). */
  manifest: Map<string, NoteStamp>;
  /**
   * The engine's lines, each parsed when reached, and null for each manifest line (taken into
   * {@link manifest}), so that a caller pausing after each value pauses after those too: the
   * 200 manifest lines of a 100k-note index read in one go were a step of 1.2–2.2 s. Each part
   * is read when the one before it is begun (one read ahead).
   * @throws Error (while iterating) when a part is missing or not of its listed length, or a
   *   line is not JSON or not of a known kind
   */
  lines(): AsyncGenerator<EngineLine | null>;
}

/** A part as read back: its text and its binary file's bytes (empty when its head lists none). */
export interface ReadPart {
  text: string;
  bytes: Uint8Array;
}

/**
 * How {@link openIndex} reads parts: `read(n, withBytes)` starts reading part n, its binary file
 * too when `withBytes` (the head lists bytes for it), resolving null when either file is missing;
 * `wait` awaits such a read (the caller marks the time as a wait, not work: Slicer.mark).
 */
export interface PartReader {
  read(n: number, withBytes: boolean): Promise<ReadPart | null>;
  wait<T>(pending: Promise<T>): Promise<T>;
}

/**
 * Opens a saved index from its head.
 * @param head the head's text (see {@link indexHead})
 * @param parts reads the parts of the head's generation
 * @returns the saved index, or null when `head` is not a head of {@link INDEX_FORMAT} (another
 *   version, a file of format 6 or older, or garbage; the caller rebuilds, telling the two apart
 *   with {@link isOtherIndexFormat}). Never throws; damage in the parts surfaces while iterating `lines()`.
 */
export function openIndex(head: string, parts: (generation: string) => PartReader): SavedIndex | null {
  const listing = headListing(head);
  if (listing === null) return null;
  const { generation, lengths } = listing;
  const reader = parts(generation);
  const manifest = new Map<string, NoteStamp>();
  const read = (n: number): Promise<ReadPart | null> | null => (n < lengths.length ? reader.read(n, lengths[n].bytes > 0) : null);
  return {
    generation,
    manifest,
    async *lines(): AsyncGenerator<EngineLine | null> {
      let next = read(0);
      for (let n = 0; n < lengths.length; n++) {
        const part = await reader.wait(next as Promise<ReadPart | null>);
        next = read(n + 1);
        // A read of the next part that fails while this one is parsed is reported when it is awaited.
        next?.catch(() => undefined);
        // Missing, cut short or longer than its head says: damage, as a line that does not parse is.
        const { chars, bytes, sum } = lengths[n];
        if (part === null || part.text.length !== chars || part.bytes.length !== bytes)
          throw new Error(`saved search index part ${n + 1} of ${lengths.length} is ${part === null ? 'missing' : 'cut'}`);
        // Of its length but changed (a flipped bit, a letter): damage, before a line of it is read.
        if (partSum(part.text, part.bytes) !== sum)
          throw new Error(`saved search index part ${n + 1} of ${lengths.length} does not match its checksum`);
        yield* partLines(part, manifest);
      }
    },
  };
}

/** The head's generation and each part's lengths and checksum, or null when `head` is not a head of {@link INDEX_FORMAT}. */
function headListing(head: string): { generation: string; lengths: (PartLength & { sum: number })[] } | null {
  if (head.length > HEAD_MAX_CHARS) return null;
  try {
    const value = JSON.parse(head) as { format?: unknown; generation?: unknown; parts?: unknown; bytes?: unknown; sums?: unknown } | null;
    if (value === null || typeof value !== 'object' || value.format !== INDEX_FORMAT) return null;
    const { generation, parts, bytes, sums } = value;
    if (typeof generation !== 'string' || !GENERATION.test(generation)) return null;
    // A negative length never matches a part: only whole numbers need checking.
    const listed = (list: unknown): list is number[] =>
      Array.isArray(list) && list.length === (parts as unknown[]).length && list.every(Number.isSafeInteger);
    if (!Array.isArray(parts) || !listed(parts) || !listed(bytes) || !listed(sums)) return null;
    return { generation, lengths: parts.map((chars, n) => ({ chars, bytes: bytes[n], sum: sums[n] })) };
  } catch {
    return null;
  }
}

/**
 * The lines of one part, parsed as reached; manifest lines go into `manifest` and stand as nulls;
 * each term line takes the next of the part's bytes as its posting lists, each phrase filter line
 * as its words (views, not copies).
 * @throws Error (while iterating) when a line is not JSON or not of a known kind, or the term and
 *   phrase filter lines' sizes do not add up to the part's bytes
 */
function* partLines({ text, bytes }: ReadPart, manifest: Map<string, NoteStamp>): Generator<EngineLine | null> {
  let taken = 0;
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    const lineEnd = end < 0 ? text.length : end;
    const from = at;
    at = lineEnd + 1;
    if (lineEnd === from) continue;
    const value = JSON.parse(text.slice(from, lineEnd)) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || !Array.isArray(value[1])) throw new Error('saved search index has a malformed line');
    const [kind, payload] = value as [unknown, unknown[]];
    if (kind === 'M') {
      for (const row of payload) {
        if (Array.isArray(row) && typeof row[0] === 'string') manifest.set(row[0], [Number(row[1]), Number(row[2])]);
      }
      yield null;
    } else if (kind === 'T') {
      const line = termLine(payload, bytes, taken);
      taken += line.bytes.length;
      yield line;
    } else if (kind === 'P') {
      const line = phraseLine(payload, bytes, taken);
      taken += line.words.byteLength;
      yield line;
    } else if (kind === 'R') yield { kind, records: payload as never };
    else if (kind === 'D') yield { kind, rows: payload as never };
    else throw new Error(`saved search index has a line of unknown kind ${JSON.stringify(kind)}`);
  }
  if (taken !== bytes.length) throw new Error('saved search index has bytes no term or phrase filter line names');
}

/** How a phrase filter line starts: `JSON.stringify(['P', …])`. */
const PHRASE_LINE_START = '["P",';

/**
 * A term line's payload `[terms, sizes]` with its posting lists: the `bytes` of its part from
 * `from` on, as many as its sizes add up to, as a view (TermIndex.loadLine checks each list).
 * @throws Error when the payload is not `[terms, sizes]`, a size is not a whole number ≥ 0, or
 *   the sizes run past the part's bytes (cut short)
 */
function termLine(payload: unknown[], bytes: Uint8Array, from: number): EngineLine & { kind: 'T' } {
  const [terms, sizes] = payload;
  if (payload.length !== 2 || !Array.isArray(terms) || !Array.isArray(sizes))
    throw new Error('saved search index has a malformed term line');
  let total = 0;
  for (const size of sizes) {
    if (!Number.isSafeInteger(size) || (size as number) < 0) throw new Error('saved search index has a malformed term line');
    total += size as number;
  }
  if (from + total > bytes.length) throw new Error('saved search index has a truncated posting line');
  return { kind: 'T', terms: terms as string[], sizes: sizes as number[], bytes: bytes.subarray(from, from + total) };
}

/**
 * A phrase filter line's payload, its sizes (each document's filter's words), with its words: the
 * `bytes` of its part from `from` on, 4 a word as many as its sizes add up to, as a view when they
 * start at a multiple of 4 bytes (a save puts them there), else copied (PhraseFilters.loadSavedLine
 * checks the sizes). Format 8 held each document's filter as a string of the JSON, format 9 the
 * words as base64url text after a tab.
 * @throws Error when a size is not a whole number ≥ 0, or the words run past the part's bytes (cut short)
 */
function phraseLine(sizes: unknown[], bytes: Uint8Array, from: number): EngineLine & { kind: 'P' } {
  let words = 0;
  for (const size of sizes) {
    if (!Number.isSafeInteger(size) || (size as number) < 0) throw new Error('saved search index has a malformed phrase filter line');
    words += size as number;
  }
  const end = from + 4 * words;
  if (end > bytes.length) throw new Error('saved search index has a truncated phrase filter line');
  const at = bytes.byteOffset + from;
  const view = at % 4 === 0 ? new Uint32Array(bytes.buffer, at, words) : new Uint32Array(bytes.slice(from, end).buffer);
  return { kind: 'P', sizes: sizes as number[], words: view };
}

/**
 * True when `text` starts like a saved index of another format version (`{"format": N` with
 * N other than {@link INDEX_FORMAT}: an older or newer plugin wrote it): not damage, just a
 * file to rebuild.
 */
export function isOtherIndexFormat(text: string): boolean {
  const format = /^\s*\{\s*"format"\s*:\s*(\d+)/.exec(text.slice(0, 100));
  return format !== null && Number(format[1]) !== INDEX_FORMAT;
}

/** One engine line as saved: `JSON.stringify([kind, payload])`, a term line's posting lists and a phrase filter line's words apart as bytes. */
function savedLine(line: EngineLine): SavedLine {
  switch (line.kind) {
    case 'R':
      return { text: JSON.stringify(['R', line.records]) };
    case 'D':
      return { text: JSON.stringify(['D', line.rows]) };
    case 'T':
      return { text: JSON.stringify(['T', [line.terms, line.sizes]]), bytes: line.bytes };
    case 'P':
      return {
        text: JSON.stringify(['P', line.sizes]),
        bytes: new Uint8Array(line.words.buffer, line.words.byteOffset, line.words.byteLength),
      };
  }
}
