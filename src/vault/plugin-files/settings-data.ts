import type { PluginFile } from './plugin-file';

/** What {@link readSettingsData} found: the saved settings (null: none or unreadable) and, when unreadable, one sentence for a Notice. */
export interface SettingsData {
  data: unknown;
  problem?: string;
}

/** What {@link loadSettingsData} found: the saved settings object (null: no file), or why the file holds none. */
export type LoadedSettings = { data: Record<string, unknown> | null } | { reason: string };

/**
 * Reads of data.json that fail alike, the file unchanged between them, before it counts as damaged.
 * Obsidian writes data.json in place (`Plugin.saveData`: the adapter truncates the file, then writes
 * it), so another instance saving it (two windows or `npm start` on one vault, a sync) can be met
 * half-written; the writer lock re-reads its file for the same reason (writer-lock.ts TORN_READS).
 */
export const SETTINGS_TORN_READS = 3;
/** Reads of data.json at most (about 2 s of waits) while it keeps changing between them (being saved), before it counts as damaged. */
const MAX_SETTINGS_READS = 50;
/** The wait before each further read of data.json, ms: a save of it takes a few ms. */
const SETTINGS_REREAD_MS = 40;

/** Options of {@link loadSettingsData} (tests shorten the wait). */
export interface LoadSettingsOptions {
  /** Waits `ms` before a further read (default: a timer). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Reads data.json through `load` (`Plugin.loadData`) and tells a whole settings object from a file
 * met half-written: a read that does not parse (`load` throws, as the test host's `loadData` and
 * Obsidian's `JSON.parse` do), that holds no settings object, or that answers null while the file
 * exists and does not say `null` (a `loadData` that swallows a parse error answers null, which must not
 * pass for "no settings" and start the defaults) is made again after a short wait, until the same
 * failure is seen {@link SETTINGS_TORN_READS} times with the file unchanged (its stamp: mtime, ctime,
 * size) or {@link MAX_SETTINGS_READS} times in all. A whole file is never judged by one torn read.
 * @param load reads and parses data.json (null when there is none).
 * @param file data.json in the plugin folder: its stamp, and its text when `load` answers null.
 * @returns `{data}` (null: no file) or `{reason}` (a phrase: why the file holds no settings).
 */
export async function loadSettingsData(
  load: () => Promise<unknown>,
  file: PluginFile,
  options: LoadSettingsOptions = {},
): Promise<LoadedSettings> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let alike = 0;
  let lastStamp: string | null = null;
  for (let read = 1; ; read++) {
    const loaded = await loadOnce(load, file);
    if (!('reason' in loaded)) return loaded;
    const stamp = await file.stamp().catch(() => '?');
    alike = stamp === lastStamp ? alike + 1 : 1;
    lastStamp = stamp;
    if (alike >= SETTINGS_TORN_READS || read >= MAX_SETTINGS_READS) return loaded;
    await sleep(SETTINGS_REREAD_MS);
  }
}

/** One read of data.json for {@link loadSettingsData}. */
async function loadOnce(load: () => Promise<unknown>, file: PluginFile): Promise<LoadedSettings> {
  let data: unknown;
  try {
    data = await load();
  } catch (err) {
    return { reason: (err as Error).message };
  }
  if (data === null || data === undefined) {
    // No file, or a loadData that answered null for a file it could not parse: look at the file itself.
    const text = await file.readAsIs().catch(() => null);
    if (text === null || text.trim() === 'null') return { data: null };
    try {
      JSON.parse(text);
    } catch (err) {
      return { reason: (err as Error).message };
    }
    // It parses now: it was written in between; read it again through load.
    return { reason: 'it changed while it was read' };
  }
  if (typeof data === 'object' && !Array.isArray(data)) return { data: data as Record<string, unknown> };
  return { reason: `it holds ${Array.isArray(data) ? 'a list' : `a ${typeof data}`}, not settings` };
}

/**
 * Reads data.json at load ({@link loadSettingsData}: a file met half-written is read again)
 * without letting a damaged file stop the plugin from loading: a file that still does not parse,
 * or holds something other than a settings object (a list, a string), is moved aside as
 * `data.json.corrupt-<time>` (kept for the user: it holds the key records) and settings start from
 * their defaults. The next load finds no damaged file, so it never loops.
 * @param load reads and parses data.json (null when there is none).
 * @param file data.json in the plugin folder, to move it aside.
 * @returns `{data}` to migrate, plus `{problem}` when the file was damaged.
 */
export async function readSettingsData(
  load: () => Promise<unknown>,
  file: PluginFile,
  now: Date = new Date(),
  options: LoadSettingsOptions = {},
): Promise<SettingsData> {
  const loaded = await loadSettingsData(load, file, options);
  if (!('reason' in loaded)) return { data: loaded.data };
  let kept: string;
  try {
    kept = `it was kept as ${await file.keepCorruptAside(now)}`;
  } catch (err) {
    kept = `it could not be moved aside either (${(err as Error).message}) and will be replaced when settings are next saved`;
  }
  return {
    data: null,
    problem: `Vault MCP could not read its settings file ${file.name} (${loaded.reason}); ${kept}, and settings start from their defaults. Your keys are listed in that file: copy them back, or create new keys.`,
  };
}
