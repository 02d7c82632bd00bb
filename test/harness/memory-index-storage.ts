import type { IndexPart, PartLength } from '../../src/search/engine/index-file';
import type { IndexStorage } from '../../src/search/search-index';

/** An IndexStorage in memory (what it holds is open to the test), for runs that must not write into the vault folder. */
export interface MemoryIndexStorage extends IndexStorage {
  /** The saved head, or null. */
  head: string | null;
  /** Every part saved, by `<generation>.<n>`; a save's parts are replaced only once its head is in, as on disk. */
  parts: Map<string, IndexPart>;
  /** Saves made (heads written). */
  saves: number;
}

/** A new, empty {@link MemoryIndexStorage}. */
export function memoryIndexStorage(): MemoryIndexStorage {
  let count = 0;
  const storage: MemoryIndexStorage = {
    head: null,
    parts: new Map(),
    saves: 0,
    loadHead: async () => storage.head,
    loadPart: async (generation, n, withBytes) => {
      const part = storage.parts.get(`${generation}.${n}`);
      return part === undefined ? null : { text: part.text, bytes: withBytes ? part.bytes : new Uint8Array(0) };
    },
    save: async (parts, head) => {
      const generation = `${(++count).toString(36).padStart(9, '0')}-m`;
      const lengths: PartLength[] = [];
      for await (const part of parts) {
        storage.parts.set(`${generation}.${lengths.length}`, part);
        lengths.push({ chars: part.text.length, bytes: part.bytes.length });
      }
      storage.head = head(generation, lengths);
      storage.saves++;
      for (const key of storage.parts.keys()) if (!key.startsWith(`${generation}.`)) storage.parts.delete(key);
    },
  };
  return storage;
}
