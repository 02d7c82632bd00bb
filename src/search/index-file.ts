import type { SavedEngine } from './lexical-engine';

/**
 * The saved search index: what lets a restart skip the full build. It holds the engine's
 * data, a manifest of the notes it was built from (vault path → mtime ms and size bytes, as
 * `TFile.stat` had them when the note was indexed) and a format version. A file of another
 * version, or one that does not parse, is ignored and the index rebuilt.
 */

/**
 * Version of the saved layout, tokenizer and field set. Bump it whenever any of them changes:
 * an index saved by an older version is then rebuilt instead of loaded.
 */
export const INDEX_FORMAT = 1;

/** File name of the saved index in the plugin folder. */
export const INDEX_FILE = 'search-index.json';

/** A note's stat when it was indexed: `[mtime ms, size bytes]`. */
export type NoteStamp = [mtime: number, size: number];

/** The saved index as parsed from {@link INDEX_FILE}. */
export interface SavedIndex {
  format: number;
  engine: SavedEngine;
  manifest: Record<string, NoteStamp>;
}

/** Serializes the index for {@link INDEX_FILE}. @returns JSON text. */
export function encodeIndex(engine: SavedEngine, manifest: ReadonlyMap<string, NoteStamp>): string {
  const saved: SavedIndex = { format: INDEX_FORMAT, engine, manifest: Object.fromEntries(manifest) };
  return JSON.stringify(saved);
}

/**
 * Parses a saved index.
 * @returns the saved index, or null when `text` is not JSON, has another format version or
 *   lacks the engine or manifest (the caller rebuilds; never throws).
 */
export function decodeIndex(text: string): SavedIndex | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const saved = data as Partial<SavedIndex>;
  if (saved.format !== INDEX_FORMAT || typeof saved.engine !== 'object' || saved.engine === null) return null;
  if (typeof saved.manifest !== 'object' || saved.manifest === null) return null;
  return saved as SavedIndex;
}
