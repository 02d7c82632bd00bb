import type { DataAdapter } from 'obsidian';
import { PluginFile } from './plugin-file';

/** What a generation name looks like: its time (ms, base 36, 9 digits, so names sort by time), a dash, a random tail. */
const GENERATION = /^[0-9a-z]{9}-[0-9a-z]{1,16}$/;
/** A part's file name in the parts folder: `<generation>.<n>.part` (its text) or `<generation>.<n>.bin` (its bytes). */
const PART_NAME = /^([0-9a-z]{9}-[0-9a-z]{1,16})\.(\d+)\.(?:part|bin)$/;

/** One part of a {@link PartedFile}: text, and bytes kept in a binary file beside it (none when empty). */
export interface FilePart {
  text: string;
  bytes: Uint8Array;
}

/** A part's length as a head lists it: characters of its text, bytes of its binary file. */
export interface FilePartLength {
  chars: number;
  bytes: number;
}

/**
 * A plugin file too large to read or write as one string (the saved search index: 118 MB at
 * 100k notes), kept as a small head file (`<name>`, swapped in atomically by PluginFile.write)
 * and part files in the folder `<name without extension>.parts` beside it, each written once
 * under a per-save generation name and never rewritten: a part's text as `<generation>.<n>.part`
 * and, when it has any, its bytes as `<generation>.<n>.bin` (DataAdapter.writeBinary). The head is
 * the caller's text, naming the generation and whatever it needs to check the parts (their
 * lengths): a save writes every part first and the head last, so the head on disk always names
 * whole parts, at every instant of a save and after a crash at any step. Parts of older
 * generations (the previous save's, or a crashed save's orphans) are removed after the head.
 */
export class PartedFile {
  private readonly head: PluginFile;
  /** The save running in this process (saves are made one after another: a later one removes the parts of earlier generations). */
  private saving: Promise<void> = Promise.resolve();

  /**
   * @param adapter the vault's DataAdapter.
   * @param folder the plugin folder (`manifest.dir`), vault-relative.
   * @param name the head's name inside it, e.g. `search-index.json`.
   * @param writer this instance's id when several instances save the file (the search index: every
   *   instance on the vault saves its own), so the head's temp copies are named per writer and one
   *   instance's read or save never removes the other's copy mid-write (PluginFile's `writer`).
   */
  constructor(
    private readonly adapter: DataAdapter,
    readonly folder: string,
    readonly name: string,
    writer?: string,
  ) {
    this.head = new PluginFile(adapter, folder, name, writer);
  }

  /** Vault-relative path of the head. */
  get path(): string {
    return this.head.path;
  }

  /** Vault-relative path of the parts folder: `<folder>/<name less its extension>.parts`. */
  get partsFolder(): string {
    return `${this.folder}/${this.name.replace(/\.[^.]*$/, '')}.parts`;
  }

  /** The head's text (PluginFile.read: an interrupted head swap is finished first), or null when there is none. Rethrows other read errors. */
  readHead(): Promise<string | null> {
    return this.head.read();
  }

  /**
   * Part `n` of `generation`: its text (DataAdapter.read: UTF-8, a BOM kept) and, when
   * `withBytes`, its binary file's bytes (DataAdapter.readBinary; else none). Reading the text's
   * bytes and decoding them at once (readBinary + TextDecoder) was tried and measured slower on a
   * quiet machine: the copy of every part's bytes doubled the garbage of a warm start
   * (docs/performance.md, "A saved index's parts decoded from their bytes: tried, reverted").
   * @returns the part, or null when its text file, or its binary file when asked for, does not exist. Rethrows other read errors.
   * @throws Error when `generation` is not a generation name (a head names only those)
   */
  async readPart(generation: string, n: number, withBytes: boolean): Promise<FilePart | null> {
    const path = this.partPath(generation, n, 'part');
    const binary = this.partPath(generation, n, 'bin');
    if (!(await this.adapter.exists(path)) || (withBytes && !(await this.adapter.exists(binary)))) return null;
    const [text, bytes] = await Promise.all([this.adapter.read(path), withBytes ? this.adapter.readBinary(binary) : null]);
    return { text, bytes: bytes === null ? NO_BYTES : new Uint8Array(bytes) };
  }

  /**
   * Saves a new generation (after any save of this object still running): each part as new files
   * (its text, then its bytes when it has any), written before the next is taken, then the head
   * `head(generation, lengths)` gives (`lengths`: each part's characters and bytes), then removes
   * the parts of older generations.
   * @param parts the parts in order; taken one at a time, between writes
   * @throws whatever `parts` throws or a write throws: the head is then untouched and this save's
   *   parts are removed (what a removal misses is removed by a later save)
   */
  write(parts: AsyncIterable<FilePart>, head: (generation: string, lengths: readonly FilePartLength[]) => string): Promise<void> {
    const next = this.saving.then(() => this.writeGeneration(parts, head));
    this.saving = next.catch(() => undefined);
    return next;
  }

  private async writeGeneration(
    parts: AsyncIterable<FilePart>,
    head: (generation: string, lengths: readonly FilePartLength[]) => string,
  ): Promise<void> {
    const generation = `${Date.now().toString(36).padStart(9, '0')}-${Math.random().toString(36).slice(2, 8) || '0'}`;
    if (!(await this.adapter.exists(this.partsFolder))) await this.adapter.mkdir(this.partsFolder);
    const lengths: FilePartLength[] = [];
    try {
      for await (const { text, bytes } of parts) {
        const n = lengths.length;
        await this.adapter.write(this.partPath(generation, n, 'part'), text);
        if (bytes.length > 0) await this.adapter.writeBinary(this.partPath(generation, n, 'bin'), wholeBuffer(bytes));
        lengths.push({ chars: text.length, bytes: bytes.length });
      }
    } catch (err) {
      await this.removeParts((gen) => gen === generation).catch(() => undefined);
      throw err;
    }
    await this.head.write(head(generation, lengths));
    await this.removeParts((gen) => gen < generation);
  }

  /** Removes the part files whose generation `old` accepts (other files in the folder are left). */
  private async removeParts(old: (generation: string) => boolean): Promise<void> {
    if (!(await this.adapter.exists(this.partsFolder))) return;
    for (const path of (await this.adapter.list(this.partsFolder)).files) {
      const part = PART_NAME.exec(path.slice(path.lastIndexOf('/') + 1));
      if (part !== null && old(part[1])) await this.adapter.remove(path);
    }
  }

  /**
   * Moves the head and the parts folder aside as `<name>.<tag>` and `<parts folder>.<tag>` (e.g.
   * `search-index.json.corrupt-2026-12-03T18-00-00-000Z`), so a save that could not be read is
   * kept for the user, never silently dropped; the next save starts a new parts folder.
   * @returns the vault-relative paths moved to (the head's first; the folder's when it existed).
   */
  async keepAside(tag: string): Promise<string[]> {
    const moved: string[] = [];
    if (await this.adapter.exists(this.path)) moved.push(await this.head.keepAside(tag));
    if (await this.adapter.exists(this.partsFolder)) {
      const aside = `${this.partsFolder}.${tag}`;
      await this.adapter.rename(this.partsFolder, aside);
      moved.push(aside);
    }
    return moved;
  }

  /** Vault-relative path of part `n` of `generation`, its text file or its binary file. @throws Error when `generation` is not a generation name */
  private partPath(generation: string, n: number, kind: 'part' | 'bin'): string {
    if (!GENERATION.test(generation) || !Number.isSafeInteger(n) || n < 0) throw new Error(`not a part: ${generation}`);
    return `${this.partsFolder}/${generation}.${n}.${kind}`;
  }
}

/** The bytes of a part without any (its text alone). */
const NO_BYTES = new Uint8Array(0);

/** `bytes` as an ArrayBuffer of exactly its length (DataAdapter.writeBinary writes a whole buffer): its own when it spans it, else a copy. */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  return byteOffset === 0 && byteLength === buffer.byteLength && buffer instanceof ArrayBuffer ? buffer : bytes.slice().buffer;
}
