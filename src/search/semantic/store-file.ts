import type { NoteStamp } from '../engine/index-file';
import { Slicer } from '../engine/slicer';
import { VectorStore, type ChunkRecord } from './vector-store';

/** Name of the semantic index file in the plugin folder. */
export const SEMANTIC_INDEX_FILE = 'semantic-index.bin';
/**
 * Bumped when the layout below changes; a file of another format is rebuilt. Format 1 held the
 * records in one JSON text (one blocking parse of megabytes at 100k chunks); 2 splits it in parts.
 */
const FORMAT = 2;
const MAGIC = 0x564d5345; // "VMSE"
/** Stamps or rows per JSON part: about 100–300 KB of text, a few ms to build or parse. */
const PART_ITEMS = 2048;
/** Bytes of vectors copied per step of a save. */
const COPY_BYTES = 1 << 22;
/** Time a save or load may run before it yields to the event loop, ms (docs/architecture.md#runtime-facts: heavy work never blocks the UI). */
const SLICE_MS = 12;
/** Saves started over because the store changed under them before a save gives up. */
const ATTEMPTS = 3;

/** What a saved semantic index holds besides the vectors. */
export interface SavedSemanticIndex {
  store: VectorStore;
  /** `[mtime, size]` of each note when it was chunked: a warm start re-chunks only notes whose stat changed. */
  stamps: Map<string, NoteStamp>;
}

/** One JSON part of the file: some stamps, or some rows with the paths they name first. */
interface Part {
  stamps?: Array<[string, number, number]>;
  paths?: string[];
  rows?: Array<[number, string | null, string | null, number, string]>;
}

/**
 * Encodes the store over several event-loop turns: `u32 magic, u32 format, u32 header bytes`,
 * a UTF-8 JSON header `{model, dim, rows, parts: [byte length…]}`, the parts back to back (UTF-8
 * JSON {@link Part}s: stamps `[path, mtime, size]`, then rows `[pathIndex, section, heading,
 * start, hash]` with the paths they introduce), padded to 4 bytes, then `float32 scale × rows`,
 * then `int8 × rows × dim`. Little-endian. The store may change between turns (a note deleted
 * or renamed meanwhile): the save then starts over from the new state.
 * @param slicer paces the work (default: 12 ms slices)
 * @returns the file's bytes
 * @throws Error when the store changed during {@link ATTEMPTS} saves in a row (the next save writes it)
 */
export async function encodeSemanticIndex(
  store: VectorStore,
  stamps: ReadonlyMap<string, NoteStamp>,
  slicer = new Slicer(SLICE_MS),
): Promise<ArrayBuffer> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const bytes = await encodeOnce(store, stamps, slicer);
    if (bytes !== null) return bytes;
  }
  throw new Error(`the semantic index changed during ${ATTEMPTS} saves in a row; it is saved at its next change`);
}

/** One try of {@link encodeSemanticIndex}; null when the store changed meanwhile. */
async function encodeOnce(store: VectorStore, stamps: ReadonlyMap<string, NoteStamp>, slicer: Slicer): Promise<ArrayBuffer | null> {
  const { records, scales, values, revision } = store.snapshot();
  const changed = (): boolean => store.revision !== revision;
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  // One part's stamps at a time (the whole list of 100k rows at once was a 30-40 ms step).
  let stampRows: Array<[string, number, number]> = [];
  for (const [p, [m, s]] of stamps) {
    stampRows.push([p, m, s]);
    if (stampRows.length < PART_ITEMS) continue;
    parts.push(encoder.encode(JSON.stringify({ stamps: stampRows } satisfies Part)));
    stampRows = [];
    await slicer.pause();
  }
  if (stampRows.length > 0) parts.push(encoder.encode(JSON.stringify({ stamps: stampRows } satisfies Part)));
  const pathIndex = new Map<string, number>();
  for (let i = 0; i < records.length; i += PART_ITEMS) {
    const part: Required<Pick<Part, 'paths' | 'rows'>> = { paths: [], rows: [] };
    for (const r of records.slice(i, i + PART_ITEMS)) {
      let p = pathIndex.get(r.path);
      if (p === undefined) {
        p = pathIndex.size;
        pathIndex.set(r.path, p);
        part.paths.push(r.path);
      }
      part.rows.push([p, r.section, r.heading, r.start, r.hash]);
    }
    parts.push(encoder.encode(JSON.stringify(part)));
    await slicer.pause();
  }
  const header = encoder.encode(
    JSON.stringify({ model: store.model, dim: store.dim, rows: records.length, parts: parts.map((p) => p.length) }),
  );
  const textBytes = header.length + parts.reduce((sum, p) => sum + p.length, 0);
  const scalesAt = 12 + Math.ceil(textBytes / 4) * 4;
  const buffer = new ArrayBuffer(scalesAt + scales.byteLength + values.byteLength);
  const view = new DataView(buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, header.length, true);
  const text = new Uint8Array(buffer, 12, textBytes);
  text.set(header);
  let at = header.length;
  for (const p of parts) {
    text.set(p, at);
    at += p.length;
    await slicer.pause();
  }
  if (changed()) return null;
  new Float32Array(buffer, scalesAt, scales.length).set(scales);
  const target = new Int8Array(buffer, scalesAt + scales.byteLength, values.length);
  for (let i = 0; i < values.length; i += COPY_BYTES) {
    target.set(values.subarray(i, i + COPY_BYTES), i);
    await slicer.pause();
    if (changed()) return null;
  }
  return buffer;
}

/**
 * Decodes a file written by {@link encodeSemanticIndex} over several event-loop turns; the
 * store keeps the file's vector bytes (no copy).
 * @param slicer paces the work (default: 12 ms slices)
 * @returns the store and stamps, or null when the bytes are not such a file, of another format
 * (format 1 included: the caller rebuilds), or damaged
 */
export async function decodeSemanticIndex(data: ArrayBuffer, slicer = new Slicer(SLICE_MS)): Promise<SavedSemanticIndex | null> {
  try {
    if (data.byteLength < 12) return null;
    const view = new DataView(data);
    if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FORMAT) return null;
    const headerLength = view.getUint32(8, true);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const header = JSON.parse(decoder.decode(new Uint8Array(data, 12, headerLength))) as {
      model: string;
      dim: number;
      rows: number;
      parts: number[];
    };
    const { model, dim, rows: n, parts } = header;
    if (typeof model !== 'string' || !Number.isInteger(dim) || dim < 0 || !Number.isInteger(n) || n < 0 || !Array.isArray(parts))
      return null;
    if (parts.some((length) => !Number.isInteger(length) || length < 0)) return null;
    const textBytes = headerLength + parts.reduce((sum, length) => sum + length, 0);
    const scalesAt = 12 + Math.ceil(textBytes / 4) * 4;
    if (data.byteLength !== scalesAt + n * 4 + n * dim) return null;
    const stamps = new Map<string, NoteStamp>();
    const paths: string[] = [];
    const records: ChunkRecord[] = [];
    let at = 12 + headerLength;
    for (const length of parts) {
      await slicer.pause();
      const part = JSON.parse(decoder.decode(new Uint8Array(data, at, length))) as Part;
      at += length;
      for (const [p, m, s] of part.stamps ?? []) stamps.set(p, [m, s]);
      if (part.paths) paths.push(...part.paths);
      for (const [p, section, heading, start, hash] of part.rows ?? []) {
        const path = paths[p];
        if (typeof path !== 'string' || typeof start !== 'number' || typeof hash !== 'string') return null;
        records.push({ path, section, heading, start, hash });
      }
    }
    if (records.length !== n) return null;
    const store = new VectorStore(model);
    await store.restore(dim, records, new Float32Array(data, scalesAt, n), new Int8Array(data, scalesAt + n * 4, n * dim), () =>
      slicer.pause(),
    );
    return { store, stamps };
  } catch {
    return null;
  }
}
