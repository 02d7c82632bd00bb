/**
 * The vault side of `npm start` (scripts/headless.ts): which folder to serve, whether the
 * run's `--roots` name folders a key can see there, and the clean-up when the run stops.
 */
import { existsSync, promises as fsp, type Dirent } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { isIgnoredLink } from '../../test/host/vault/watcher';
import { Quarantine, QUARANTINE_ADVICE, quarantineFileReason, readQuarantineEntry } from '../../src/vault/access/quarantine';
import { matchName } from '../../src/vault/paths/lookup';
import { pickListedRoot } from '../../src/settings/key-roots';
import { lexicalVaultPath } from '../../src/vault/paths/paths';
import { vaultOnDisk } from '../../src/vault/paths/path-spelling';
import { shownPath } from './run-options';

/** The folder `npm start` serves; `temporary` when it is a copy of the demo vault to remove at the end. */
export interface RunVault {
  dir: string;
  temporary: boolean;
  /**
   * The folders of the plugin's path (`<config folder>`, its `plugins/`, `plugins/vault-mcp/`) that
   * did not exist when the run began, outermost first: the run's `writer.lock` creates them, and
   * {@link stopRun} removes each again when it is empty. Absent for the demo copy (removed whole).
   */
  madeFolders?: readonly string[];
}

/**
 * The plugin's folders under `vaultDir` (`<configDir>`, `<configDir>/plugins`,
 * `<configDir>/plugins/vault-mcp`) that do not exist now, outermost first: what the run's
 * writer.lock will create, to remove on stop when still empty. A folder without a config folder
 * otherwise gained an empty `.obsidian/plugins/vault-mcp/` (newcomer report s29, L5), which
 * Obsidian then takes for a vault and which made the home-folder check of {@link prepareVault} pass.
 */
async function missingPluginFolders(vaultDir: string, configDir: string): Promise<string[]> {
  const missing: string[] = [];
  let folder = vaultDir;
  for (const part of [configDir, 'plugins', 'vault-mcp']) {
    folder = nodePath.join(folder, part);
    if (missing.length || !(await fsp.lstat(folder).catch(() => null))) missing.push(folder);
  }
  return missing;
}

/**
 * The folder to serve: `vaultArg` resolved against `cwd` (run-options.ts runCwd: where the user
 * typed `npm start`; served in place,
 * never copied), or a new temporary copy of `demoVault`. The whole disk (a filesystem or drive
 * root) and the home folder itself are refused unless they hold the vault's config folder (then
 * Obsidian opens them as a vault too): agents would see every file of the user's, and loading
 * them takes minutes, so either is a slip for the folder that holds the notes.
 * @param configDir the vault's config folder name (`--config-dir`). @param home the user's home folder.
 * @param cwd the folder a relative `vaultArg` is resolved from.
 * @throws Error naming `--vault` as typed and the absolute folder looked at (when that differs) when `vaultArg` does not exist, is a file, or is the disk or home folder.
 */
export async function prepareVault(
  vaultArg: string | undefined,
  demoVault: string,
  configDir = '.obsidian',
  home = os.homedir(),
  cwd = process.cwd(),
): Promise<RunVault> {
  if (vaultArg !== undefined) {
    const dir = nodePath.resolve(cwd, vaultArg);
    const named = `--vault ${shownPath(vaultArg, dir)}`;
    const stat = await fsp.stat(dir).catch(() => null);
    if (!stat) throw new Error(`${named}: no such folder; pass the folder that holds your notes.`);
    if (!stat.isDirectory()) throw new Error(`${named}: that is a file, not a folder; pass the folder that holds your notes.`);
    const whole = dir === nodePath.parse(dir).root ? 'the whole disk' : dir === nodePath.resolve(home) ? 'your home folder' : null;
    if (whole && !(await fsp.stat(nodePath.join(dir, configDir)).catch(() => null))?.isDirectory()) {
      throw new Error(
        `${named}: that is ${whole}, not a vault, and agents would see every file in it; pass the folder that holds your notes (an Obsidian vault has a ${configDir} folder).`,
      );
    }
    return { dir, temporary: false, madeFolders: await missingPluginFolders(dir, configDir) };
  }
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-demo-'));
  await fsp.cp(demoVault, dir, { recursive: true });
  return { dir, temporary: true };
}

/** A run key's roots as checked against the vault on disk ({@link resolveRoots}). */
export interface ResolvedRoots {
  /** Each root in the spelling of the folder it names (`projects` → `Projects`), in order; the refused ones left out. */
  roots: string[];
  /** One sentence per refused root, empty when every root is fine. */
  problems: string[];
}

/**
 * Checks each of a key's roots (already vault-relative and checked by the roots rule: the run
 * key's from parseRunOptions, a settings key's from checkSettingsData) against the vault folder
 * on disk, and gives it the spelling of the folder it names. Each segment is matched to the
 * folder's entries by the rule every lookup in the vault follows (src/vault/paths/lookup.ts
 * matchName: exact, then NFC, then the one entry equal ignoring case; the same rule places client
 * MCP roots, NoteStore.rootSpelling), so `projects` names `Projects/` on a case-sensitive disk as
 * it does on macOS and Windows. The folder must exist in some case, be a folder, be inside the vault
 * once symlinks are followed, and not be quarantined (src/vault/access/quarantine.ts: `configDir`,
 * dot-folders, `_private` and the settings' own `access.quarantine` folders), so no key of a run
 * silently sees nothing.
 * @param vaultDir absolute vault folder. @param roots the roots as typed (after trimming).
 * @param configDir the vault's config folder (Obsidian's default `.obsidian`).
 * @param quarantined the run's settings' `access.quarantine` list.
 * @param name how a message names a root (default `--roots <root>`; a settings key's is `<file>: keys[i].roots[j] "<root>"`);
 *   `spaces` is true when the refusal is about the entry's outer spaces (both spellings name folders).
 * @param exact index for index, the root an entry of `--roots` names with its outer spaces kept
 *   (run-options.ts parseRootsFlag), or null: when that spelling names a folder and the trimmed one
 *   names none, the folder as typed is the root; when both name folders, the root is refused
 *   (src/settings/key-roots.ts pickListedRoot, the rule the settings tab's roots field follows).
 *   Default: none (a settings file's roots are taken as written).
 * @returns the roots in the folders' spelling, and one sentence per refused root saying what to do.
 */
export async function resolveRoots(
  vaultDir: string,
  roots: string[],
  configDir = '.obsidian',
  quarantined: readonly string[] = [],
  name: (root: string, index: number, spaces?: boolean) => string = (root) => `--roots ${root}`,
  exact: ReadonlyArray<string | null> = [],
): Promise<ResolvedRoots> {
  const quarantine = new Quarantine(configDir, () => [...quarantined]);
  const realVault = await fsp.realpath(vaultDir);
  const out: ResolvedRoots = { roots: [], problems: [] };
  const quarantinedProblem = (named: string): string =>
    `${named}: that folder is quarantined (no tool reads it: the config folder, dot-folders, _private and the settings' quarantined folders); give a folder agents may see, such as Projects.`;
  for (const [index, listed] of roots.entries()) {
    const named = name(listed, index);
    const spaced = exact[index] ?? null;
    const picked =
      spaced === null
        ? ({ ok: true, root: listed } as const)
        : pickListedRoot(
            { root: listed, folder: await existingFolder(vaultDir, listed) },
            { root: spaced, folder: await existingFolder(vaultDir, spaced) },
          );
    if (!picked.ok) {
      // The refusal is about the entry's outer spaces: named so they show.
      out.problems.push(`${name(listed, index, true)}: that root ${picked.reason}.`);
      continue;
    }
    const root = picked.root;
    if (quarantine.contains(root)) {
      out.problems.push(quarantinedProblem(named));
      continue;
    }
    const found = await folderOnDisk(vaultDir, root);
    if ('problem' in found) {
      out.problems.push(`${named}: ${found.problem}`);
      continue;
    }
    if (quarantine.contains(found.path)) {
      out.problems.push(quarantinedProblem(named));
      continue;
    }
    const full = nodePath.join(vaultDir, found.path);
    const stat = await fsp.stat(full).catch(() => null);
    if (!stat?.isDirectory()) {
      out.problems.push(`${named}: that is a note or file, not a folder; give a folder of the vault, such as Projects.`);
      continue;
    }
    const relative = nodePath.relative(realVault, await fsp.realpath(full));
    if (relative.startsWith('..') || nodePath.isAbsolute(relative)) {
      out.problems.push(`${named}: that folder links outside the vault; give a folder inside the vault, such as Projects.`);
      continue;
    }
    if (!out.roots.includes(found.path)) out.roots.push(found.path);
  }
  return out;
}

/** What lies at a trusted-link entry of a run's settings ({@link trustedLinkStates}). */
export interface TrustedLinkState {
  /** The entry as saved: the link's exact vault path, outer spaces included. */
  link: string;
  /** `link`: a symbolic link is there; `missing`: nothing is (trusted once made); `not-a-link`: a plain file or folder, nothing to trust. */
  state: 'link' | 'missing' | 'not-a-link';
}

/**
 * What lies at each `access.trustedSymlinks` entry of a run, so the start lines can say when one
 * trusts nothing (a misspelt entry was silently ignored). Entries are exact vault paths, never
 * trimmed (docs/security.md#symbolic-links); each is looked at with `lstat`, which sees the link
 * itself. Never throws: an unreadable entry is `missing`.
 * @param vaultDir absolute vault folder. @param entries the settings' trusted links, as saved.
 * @returns one state per entry, in order
 */
export async function trustedLinkStates(vaultDir: string, entries: readonly string[]): Promise<TrustedLinkState[]> {
  return Promise.all(
    entries.map(async (link) => {
      const stat = await fsp.lstat(nodePath.join(vaultDir, link)).catch(() => null);
      const state: TrustedLinkState['state'] = stat === null ? 'missing' : stat.isSymbolicLink() ? 'link' : 'not-a-link';
      return { link, state };
    }),
  );
}

/** A run's quarantine list as the plugin applies it ({@link resolveQuarantine}). */
export interface ResolvedQuarantine {
  /** Each usable entry: its vault folder (in the spelling of the folder on disk when one exists), and whether one does. */
  folders: Array<{ folder: string; exists: boolean }>;
  /** One sentence per entry that can name no folder or names a note or file, empty when every entry names a folder. */
  problems: string[];
}

/**
 * Reads a run's `access.quarantine` entries as the plugin does (src/vault/access/quarantine.ts
 * readQuarantineEntry, with this vault's folder: an absolute path or `file://` URL inside the vault
 * names the folder below it), then finds each folder on disk by matchName as {@link resolveRoots}
 * does (`journal` → `Journal`). An entry that can never name a vault folder (empty, `/`, `.`, `..`
 * out, an absolute path outside the vault, a wildcard) is a problem: the settings file is read
 * strictly, and the run must not claim a protection that does not hold. A folder that does not
 * exist yet is kept (it is quarantined once created), marked `exists: false` for the banner. An
 * entry that names an existing note or file is a problem too (quarantine takes folders: such an
 * entry would hide that file alone; src/vault/access/quarantine.ts quarantineFileReason).
 * @param vaultDir absolute vault folder. @param entries the settings' `access.quarantine`.
 * @param name how a message names an entry (e.g. `vault-mcp: q.json: access.quarantine[0] "Jour*"`).
 * @returns the folders (duplicates dropped, order kept) and one sentence per refused entry saying what to write instead.
 */
export async function resolveQuarantine(
  vaultDir: string,
  entries: readonly string[],
  name: (entry: string, index: number) => string,
): Promise<ResolvedQuarantine> {
  const folders = [vaultDir, await fsp.realpath(vaultDir)];
  const disk = vaultOnDisk(folders, (top) => existsSync(nodePath.join(vaultDir, top)));
  const out: ResolvedQuarantine = { folders: [], problems: [] };
  // Entries by the thousand (a generated list) must not cost a scan of those kept, nor a listing of the same folder, each.
  const kept = new Set<string>();
  const listings: FolderListings = new Map();
  for (const [index, entry] of entries.entries()) {
    const verdict = readQuarantineEntry(entry, (e) => lexicalVaultPath(e, disk));
    if (!verdict.ok) {
      out.problems.push(`${name(entry, index)} ${verdict.reason}; ${QUARANTINE_ADVICE}.`);
      continue;
    }
    const found = await folderOnDisk(vaultDir, verdict.folder, listings);
    // Quarantine takes folders: an entry naming a note or file would pass for a quarantined folder while it hides one file.
    const stat = 'path' in found ? await fsp.stat(nodePath.join(vaultDir, found.path)).catch(() => null) : null;
    if ('path' in found && stat?.isFile()) {
      out.problems.push(`${name(entry, index)} ${quarantineFileReason(found.path)}.`);
      continue;
    }
    const { folder, exists } = 'path' in found ? { folder: found.path, exists: true } : { folder: verdict.folder, exists: !found.missing };
    if (kept.has(folder)) continue;
    kept.add(folder);
    out.folders.push({ folder, exists });
  }
  return out;
}

/** The folder `root` names below `vaultDir` by {@link folderOnDisk} (a folder, not a file), in the disk's spelling; null when it names none. */
async function existingFolder(vaultDir: string, root: string): Promise<string | null> {
  const found = await folderOnDisk(vaultDir, root);
  if (!('path' in found)) return null;
  const stat = await fsp.stat(nodePath.join(vaultDir, found.path)).catch(() => null);
  return stat?.isDirectory() ? found.path : null;
}

/** Folder listings read once per call of {@link resolveQuarantine}, by absolute folder path. */
type FolderListings = Map<string, Promise<Dirent[]>>;

/**
 * The entry `root` names below `vaultDir`, one segment at a time by matchName (see {@link resolveRoots}):
 * its vault path in the disk's spelling (NFC, as vault paths are), or why nothing is named, in words
 * that say what to do (`missing` when nothing is there in any case; false for case twins).
 * @param listings folders already listed, shared by the lookups of one list (a folder unreadable lists as empty)
 */
async function folderOnDisk(
  vaultDir: string,
  root: string,
  listings: FolderListings = new Map(),
): Promise<{ path: string } | { problem: string; missing: boolean }> {
  const found: string[] = [];
  const segments = root.split('/');
  for (const [i, segment] of segments.entries()) {
    const at = nodePath.join(vaultDir, ...found);
    let listing = listings.get(at);
    if (listing === undefined) {
      listing = fsp.readdir(at, { withFileTypes: true }).catch(() => []);
      listings.set(at, listing);
    }
    const entries = await listing;
    const last = i === segments.length - 1;
    const match = matchName(
      entries,
      segment,
      (e) => e.name,
      (e) => last || e.isDirectory() || e.isSymbolicLink(),
    );
    const where = found.length === 0 ? 'the vault' : `'${found.join('/')}'`;
    if (Array.isArray(match)) {
      const twins = match.map((e) => [...found, e.name].join('/').normalize('NFC')).sort();
      return {
        problem: `that names ${twins.length} folders that differ only in case (${twins.join(', ')}); give the one you mean as it is spelt.`,
        missing: false,
      };
    }
    if (match === null) {
      return {
        problem: `${where} has no folder named '${segment}' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.`,
        missing: true,
      };
    }
    found.push(match.name);
    // The test host's own rule (help.obsidian.md/symlinks), which is how this run lists the vault.
    if (match.isSymbolicLink() && (await isIgnoredLink(nodePath.join(vaultDir, ...found), await fsp.realpath(vaultDir)))) {
      return {
        problem: `'${found.join('/')}' is a folder link into the vault (or to a folder holding it), which Obsidian ignores, so no note is below it; give the folder's own path.`,
        missing: true,
      };
    }
  }
  return { path: found.join('/').normalize('NFC') };
}

/** How often and how long to retry removing the temporary vault (files still closing on Ctrl-C). */
const REMOVE_RETRIES = 10;
const REMOVE_RETRY_DELAY_MS = 100;

/**
 * Stops a run in order: `stopServer` (awaited: running calls get the server's grace, then
 * connections close), then `unload` (the plugin and host app), then removes the plugin folders
 * the run made ({@link RunVault.madeFolders}) that are empty, then the temporary vault copy with retries. Never throws: each failure is reported through `report`.
 * @returns true when every step succeeded.
 */
export async function stopRun(
  steps: { stopServer(): Promise<void>; unload(): Promise<void> },
  vault: RunVault,
  report: (message: string) => void,
): Promise<boolean> {
  let ok = true;
  const attempt = async (what: string, step: () => Promise<void>): Promise<void> => {
    try {
      await step();
    } catch (error) {
      ok = false;
      report(`${what}: ${(error as Error).message}`);
    }
  };
  await attempt('Stopping the server failed', () => steps.stopServer());
  await attempt('Unloading the plugin failed', () => steps.unload());
  // The plugin folders the run made for its writer.lock, innermost first, each only while empty (rmdir
  // refuses a folder with anything in it: proposals, activity, a semantic index stay with their folders).
  for (const folder of [...(vault.madeFolders ?? [])].reverse()) await fsp.rmdir(folder).catch(() => undefined);
  if (vault.temporary) {
    await attempt(`Could not remove the temporary vault ${vault.dir}`, () =>
      fsp.rm(vault.dir, { recursive: true, force: true, maxRetries: REMOVE_RETRIES, retryDelay: REMOVE_RETRY_DELAY_MS }),
    );
  }
  return ok;
}
