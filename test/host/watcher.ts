import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { isHiddenPath, joinPath } from './path';

/** What the disk holds at one vault path (times in ms since the epoch, size in bytes). */
export interface DiskEntry {
  type: 'file' | 'folder';
  ctime: number;
  mtime: number;
  size: number;
  /** The name as stored on disk when it differs from the NFC name in the key (a macOS NFD name). */
  diskName?: string;
}

/**
 * Lists every file and folder Obsidian would load from `basePath`: skips dot-files,
 * dot-folders, `node_modules` and the config dir (see isHiddenPath). Returns a Map from vault
 * path to DiskEntry. Vault paths are Unicode NFC, as Obsidian's `normalizePath` makes them; a
 * name stored in another form on disk (NFD, as macOS-synced vaults have) keeps its disk
 * spelling in `diskName`. Entries that vanish mid-scan are skipped; an unreadable vault root throws.
 */
export async function scanVaultFolder(basePath: string, configDir: string): Promise<Map<string, DiskEntry>> {
  const out = new Map<string, DiskEntry>();
  const walk = async (folder: string, full: string): Promise<void> => {
    let names: string[];
    try {
      names = await fsp.readdir(full);
    } catch (err) {
      if (folder === '/') throw err;
      return;
    }
    await Promise.all(
      names.map(async (name) => {
        const nfc = name.normalize('NFC');
        const path = joinPath(folder, nfc);
        if (isHiddenPath(path, configDir) || out.has(path)) return;
        const diskName = nfc === name ? {} : { diskName: name };
        let s;
        try {
          s = await fsp.stat(nodePath.join(full, name));
        } catch {
          return;
        }
        const ctime = s.birthtimeMs > 0 ? Math.round(s.birthtimeMs) : Math.round(s.ctimeMs);
        if (s.isDirectory()) {
          out.set(path, { type: 'folder', ctime, mtime: Math.round(s.mtimeMs), size: 0, ...diskName });
          await walk(path, nodePath.join(full, name));
        } else if (s.isFile()) {
          out.set(path, { type: 'file', ctime, mtime: Math.round(s.mtimeMs), size: s.size, ...diskName });
        }
      }),
    );
  };
  await walk('/', basePath);
  return out;
}

/**
 * Polls the vault folder so changes made by other programs reach the host like Obsidian's
 * file watcher: every `intervalMs` it calls `sync()` (scan + diff + events), waiting for one
 * run to finish before scheduling the next. Timers are unref'd; `stop()` ends polling and
 * resolves once a running sync has finished.
 */
export class DiskPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  /** `sync` must not throw for ordinary races; a thrown error is logged and polling goes on. */
  constructor(private readonly sync: () => Promise<void>, private readonly intervalMs: number) {}

  /** Starts polling (no-op if started). */
  start(): void {
    if (this.timer || this.stopped) return;
    this.schedule();
  }

  /** Stops polling and waits for an in-flight sync. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sync()
        .catch((err) => console.error('[host] disk sync failed:', err))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, this.intervalMs);
    this.timer.unref();
  }
}
