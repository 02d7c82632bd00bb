import type { EngineLine, LexicalEngine } from './lexical-engine';

/**
 * The saved search index: what lets a restart skip the full build. It holds the engine's
 * data, a manifest of the notes it was built from (vault path → mtime ms and size bytes, as
 * `TFile.stat` had them when the note was indexed) and a format version. A file of another
 * version, or one that does not parse, is ignored and the index rebuilt.
 *
 * Layout (format 2 and later): newline-separated JSON values. The first line is the header
 * `{"format":2}`; every other line is `[kind, payload]`: `"M"` a chunk of the manifest as
 * `[path, mtime, size]` rows, then the engine's lines (`"R"` note records, `"D"` document
 * rows, `"T"` `[terms, byte sizes, bytes]`: terms with their posting lists' bytes in one base64url
 * string, `"P"` phrase filters; see LexicalEngine.lines). Lines are parsed and written one at
 * a time so neither load nor save blocks the event loop for long. Format 1 was MiniSearch's
 * JSON in one object; format 4 had no phrase filters; format 5 wrote each term's postings as
 * base-32 varints of the numbers (`"T"` pairs of term and text); such files are rebuilt.
 */

/**
 * Version of the saved layout, tokenizer, fields and posting encoding. Bump it whenever any
 * of them changes: an index saved by an older version is then rebuilt instead of loaded.
 */
export const INDEX_FORMAT = 6;

/** File name of the saved index in the plugin folder. */
export const INDEX_FILE = 'search-index.json';

/** A note's stat when it was indexed: `[mtime ms, size bytes]`. */
export type NoteStamp = [mtime: number, size: number];

/** Manifest rows per saved line. */
const MANIFEST_LINE_ROWS = 500;
/** Characters per chunk the file is written in ({@link fileChunks}): joining and encoding one takes a ms or two. */
const WRITE_CHUNK_CHARS = 1 << 20;

/**
 * Serializes the index for {@link INDEX_FILE}, awaiting `pause()` after each line.
 * @returns the file's lines (write them with {@link fileChunks}), or null when the engine
 *   changed while it was being serialized (the caller saves again later)
 */
export async function encodeIndex(
  engine: LexicalEngine,
  manifest: ReadonlyMap<string, NoteStamp>,
  pause: () => Promise<void>,
): Promise<string[] | null> {
  const version = engine.version;
  const out: string[] = [JSON.stringify({ format: INDEX_FORMAT })];
  let rows: [string, number, number][] = [];
  // A pause after each manifest line too: the whole manifest at once was a 290 ms step (CPU) at 100k notes.
  for (const [path, [mtime, size]] of manifest) {
    rows.push([path, mtime, size]);
    if (rows.length < MANIFEST_LINE_ROWS) continue;
    out.push(JSON.stringify(['M', rows]));
    rows = [];
    await pause();
    // The manifest changes only with the engine: a change meanwhile shows in its version.
    if (engine.version !== version) return null;
  }
  if (rows.length > 0) out.push(JSON.stringify(['M', rows]));
  await pause();
  if (engine.version !== version) return null;
  for (const line of engine.savedSteps()) {
    if (line !== null) out.push(lineText(line));
    await pause();
    if (engine.version !== version) return null;
  }
  return out;
}

/**
 * The file's text from its lines, in chunks of about {@link WRITE_CHUNK_CHARS} characters
 * (each chunk ends with a line break but the last), each joined only when it is taken: their
 * concatenation is `lines.join('\n')`, which is never built (joining a 100k-note index at once
 * blocked the event loop for hundreds of ms).
 */
export function* fileChunks(lines: readonly string[]): Generator<string> {
  let first = 0;
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    chars += lines[i].length + 1;
    if (chars < WRITE_CHUNK_CHARS && i < lines.length - 1) continue;
    const chunk = lines.slice(first, i + 1).join('\n');
    yield i < lines.length - 1 ? chunk + '\n' : chunk;
    first = i + 1;
    chars = 0;
  }
}

/** A saved index opened for loading: its engine lines, read lazily, and the manifest they fill. */
export interface SavedIndex {
  /** Filled while {@link lines} is iterated (manifest lines come first). */
  manifest: Map<string, NoteStamp>;
  /**
   * The engine's lines, each parsed when reached, and null for each manifest line (taken into
   * {@link manifest}), so that a caller pausing after each value pauses after those too: the
   * 200 manifest lines of a 100k-note index read in one go were a step of 1.2–2.2 s.
   * @throws Error (while iterating) when a line is not JSON or not of a known kind
   */
  lines(): Generator<EngineLine | null>;
}

/**
 * Opens a saved index.
 * @returns the saved index, or null when `text` does not start with the header of
 *   {@link INDEX_FORMAT} (another version, MiniSearch JSON of format 1, or garbage; the
 *   caller rebuilds). Never throws; damage further in surfaces while iterating `lines()`.
 */
export function openIndex(text: string): SavedIndex | null {
  const firstBreak = text.indexOf('\n');
  const head = firstBreak < 0 ? text : text.slice(0, firstBreak);
  if (head.length > 200) return null;
  try {
    const header = JSON.parse(head) as { format?: unknown } | null;
    if (header === null || typeof header !== 'object' || header.format !== INDEX_FORMAT) return null;
  } catch {
    return null;
  }
  const manifest = new Map<string, NoteStamp>();
  return {
    manifest,
    *lines(): Generator<EngineLine | null> {
      let at = firstBreak;
      while (at >= 0 && at < text.length) {
        const end = text.indexOf('\n', at + 1);
        const line = text.slice(at + 1, end < 0 ? text.length : end);
        at = end;
        if (line.length === 0) continue;
        const value = JSON.parse(line) as unknown;
        if (!Array.isArray(value) || value.length !== 2 || !Array.isArray(value[1]))
          throw new Error('saved search index has a malformed line');
        const [kind, payload] = value as [unknown, unknown[]];
        if (kind === 'M') {
          for (const row of payload) {
            if (Array.isArray(row) && typeof row[0] === 'string') manifest.set(row[0], [Number(row[1]), Number(row[2])]);
          }
          yield null;
        } else if (kind === 'R') yield { kind, records: payload as never };
        else if (kind === 'D') yield { kind, rows: payload as never };
        else if (kind === 'T') yield { kind, terms: payload[0] as never, sizes: payload[1] as never, bytes: payload[2] as never };
        else if (kind === 'P') yield { kind, filters: payload as never };
        else throw new Error(`saved search index has a line of unknown kind ${JSON.stringify(kind)}`);
      }
    },
  };
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

/**
 * One engine line as saved: `JSON.stringify([kind, payload])`. A term line's posting text is
 * base64url, which JSON writes as it is: it is joined to the rest rather than copied by a
 * stringify (a third of a MB a line, 60 MB a save at 100k notes).
 */
function lineText(line: EngineLine): string {
  switch (line.kind) {
    case 'R':
      return JSON.stringify(['R', line.records]);
    case 'D':
      return JSON.stringify(['D', line.rows]);
    case 'T':
      return `["T",[${JSON.stringify(line.terms)},${JSON.stringify(line.sizes)},"${line.bytes}"]]`;
    case 'P':
      return JSON.stringify(['P', line.filters]);
  }
}
