/**
 * What `npm start` prints while a large `--vault` folder loads, so a slow start (or a folder
 * far larger than meant) shows itself: the notes counted first, then a line every few seconds
 * until the server listens. The host reads and parses every note before the plugin starts, as
 * Obsidian does when it opens a vault.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';

/** From this many notes on, a run says it is loading them before the server listens. */
export const LARGE_VAULT_NOTES = 1000;
/** How often a slow count or load prints a line (ms). */
export const PROGRESS_INTERVAL_MS = 5000;

/**
 * Counts the notes (`.md` files) Obsidian would load from `dir`, skipping what the host skips
 * (dot-files and dot-folders, `node_modules`, the config folder; test/host/vault/watcher.ts) and
 * symbolic links; unreadable folders count as empty.
 * @param dir the absolute vault folder. @param configDir its config folder name.
 * @param onProgress called with the running count every {@link PROGRESS_INTERVAL_MS} while counting.
 * @returns the number of notes.
 */
export async function countNotes(dir: string, configDir: string, onProgress: (notes: number) => void): Promise<number> {
  let notes = 0;
  const timer = setInterval(() => onProgress(notes), PROGRESS_INTERVAL_MS);
  const walk = async (folder: string): Promise<void> => {
    const entries = await fsp.readdir(folder, { withFileTypes: true }).catch(() => []);
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === configDir) continue;
      if (entry.isDirectory()) folders.push(nodePath.join(folder, entry.name));
      else if (entry.isFile() && entry.name.endsWith('.md')) notes++;
    }
    for (const sub of folders) await walk(sub);
  };
  try {
    await walk(dir);
  } finally {
    clearInterval(timer);
  }
  return notes;
}

/** `n` with thousands separators, as the lines print counts (`14,142`). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Prints loading lines while `loading` runs, for a vault of {@link LARGE_VAULT_NOTES} notes or
 * more: one at once, then one every {@link PROGRESS_INTERVAL_MS} with the seconds so far.
 * @param notes the count from {@link countNotes}. @param dir the folder, as shown. @param print where lines go.
 * @returns what `loading` resolves to (or rejects with), once it settles.
 */
export async function reportLoading<T>(notes: number, dir: string, print: (line: string) => void, loading: Promise<T>): Promise<T> {
  if (notes < LARGE_VAULT_NOTES) return loading;
  const started = Date.now();
  print(
    `Loading ${formatCount(notes)} notes from ${dir}; a large vault takes a while (a line every ${PROGRESS_INTERVAL_MS / 1000} s until the server listens).`,
  );
  const timer = setInterval(
    () => print(`Still loading ${formatCount(notes)} notes (${Math.round((Date.now() - started) / 1000)} s)…`),
    PROGRESS_INTERVAL_MS,
  );
  try {
    return await loading;
  } finally {
    clearInterval(timer);
  }
}
