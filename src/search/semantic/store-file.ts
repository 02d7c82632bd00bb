import type { NoteStamp } from '../engine/index-file';
import { VectorStore, type ChunkRecord } from './vector-store';

/** Name of the semantic index file in the plugin folder. */
export const SEMANTIC_INDEX_FILE = 'semantic-index.bin';
/** Bumped when the layout below changes; a file of another format is rebuilt. */
const FORMAT = 1;
const MAGIC = 0x564d5345; // "VMSE"

/** What a saved semantic index holds besides the vectors. */
export interface SavedSemanticIndex {
  store: VectorStore;
  /** `[mtime, size]` of each note when it was chunked: a warm start re-chunks only notes whose stat changed. */
  stamps: Map<string, NoteStamp>;
}

/**
 * Encodes the store: `u32 magic, u32 format, u32 header bytes`, a UTF-8 JSON header
 * `{model, dim, stamps: [[path, mtime, size]…], rows: [[pathIndex, section, heading, start, hash]…]}`
 * padded to 4 bytes, then `float32 scale × rows`, then `int8 × rows × dim`. Little-endian.
 * @returns the file's bytes
 */
export function encodeSemanticIndex(store: VectorStore, stamps: ReadonlyMap<string, NoteStamp>): ArrayBuffer {
  const { records, scales, values } = store.snapshot();
  const pathIndex = new Map<string, number>();
  const paths: string[] = [];
  const rows = records.map((r) => {
    let i = pathIndex.get(r.path);
    if (i === undefined) {
      i = paths.push(r.path) - 1;
      pathIndex.set(r.path, i);
    }
    return [i, r.section, r.heading, r.start, r.hash];
  });
  const header = new TextEncoder().encode(
    JSON.stringify({ model: store.model, dim: store.dim, paths, stamps: [...stamps].map(([p, [m, s]]) => [p, m, s]), rows }),
  );
  const headerPadded = Math.ceil(header.length / 4) * 4;
  const total = 12 + headerPadded + scales.byteLength + values.byteLength;
  const buffer = new ArrayBuffer(total);
  const view = new DataView(buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, FORMAT, true);
  view.setUint32(8, header.length, true);
  new Uint8Array(buffer, 12, header.length).set(header);
  const scalesAt = 12 + headerPadded;
  new Float32Array(buffer, scalesAt, scales.length).set(scales);
  new Int8Array(buffer, scalesAt + scales.byteLength, values.length).set(values);
  return buffer;
}

/**
 * Decodes a file written by {@link encodeSemanticIndex}.
 * @returns the store and stamps, or null when the bytes are not such a file, of another format, or damaged
 */
export function decodeSemanticIndex(data: ArrayBuffer): SavedSemanticIndex | null {
  try {
    if (data.byteLength < 12) return null;
    const view = new DataView(data);
    if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== FORMAT) return null;
    const headerLength = view.getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(data, 12, headerLength))) as {
      model: string;
      dim: number;
      paths: string[];
      stamps: Array<[string, number, number]>;
      rows: Array<[number, string | null, string | null, number, string]>;
    };
    const records: ChunkRecord[] = header.rows.map(([p, section, heading, start, hash]) => ({ path: header.paths[p], section, heading, start, hash }));
    if (records.some((r) => typeof r.path !== 'string')) return null;
    const scalesAt = 12 + Math.ceil(headerLength / 4) * 4;
    const n = records.length;
    if (data.byteLength !== scalesAt + n * 4 + n * header.dim) return null;
    const store = new VectorStore(header.model);
    store.restore(header.dim, records, new Float32Array(data, scalesAt, n), new Int8Array(data, scalesAt + n * 4, n * header.dim));
    return { store, stamps: new Map(header.stamps.map(([p, m, s]) => [p, [m, s] as NoteStamp])) };
  } catch {
    return null;
  }
}
