import type { PluginFile } from './plugin-file';

/** What {@link readSettingsData} found: the saved settings (null: none or unreadable) and, when unreadable, one sentence for a Notice. */
export interface SettingsData {
  data: unknown;
  problem?: string;
}

/**
 * Reads data.json through `load` (`Plugin.loadData`, which throws SyntaxError on invalid JSON
 * as Obsidian's does) without letting a damaged file stop the plugin from loading: a file
 * that does not parse, or holds something other than a settings object (a list, a string), is
 * moved aside as `data.json.corrupt-<time>` (kept for the user: it holds the key records) and
 * settings start from their defaults. The next load finds no damaged file, so it never loops.
 * @param load reads and parses data.json (null when there is none).
 * @param file data.json in the plugin folder, to move it aside.
 * @returns `{data}` to migrate, plus `{problem}` when the file was damaged.
 */
export async function readSettingsData(load: () => Promise<unknown>, file: PluginFile, now: Date = new Date()): Promise<SettingsData> {
  let reason: string;
  try {
    const data = await load();
    if (data === null || data === undefined || (typeof data === 'object' && !Array.isArray(data))) return { data };
    reason = `it holds ${Array.isArray(data) ? 'a list' : `a ${typeof data}`}, not settings`;
  } catch (err) {
    reason = (err as Error).message;
  }
  let kept: string;
  try {
    kept = `it was kept as ${await file.keepCorruptAside(now)}`;
  } catch (err) {
    kept = `it could not be moved aside either (${(err as Error).message}) and will be replaced when settings are next saved`;
  }
  return {
    data: null,
    problem: `Vault MCP could not read its settings file ${file.name} (${reason}); ${kept}, and settings start from their defaults. Your keys are listed in that file: copy them back, or create new keys.`,
  };
}
