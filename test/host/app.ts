import type * as O from 'obsidian';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { Vault } from './vault/vault';
import { MetadataCache, type SavedMetadata } from './markdown/metadata-cache';
import { FileManager } from './vault/file-manager';
import { Workspace } from './workspace/workspace';
import { SecretStorage } from './secret-storage';
import { HostCommands } from './commands';
import type { Plugin } from './plugin';

/** Options of createHostApp. */
export interface HostAppOptions {
  /** The vault folder on disk (must exist). */
  vaultPath: string;
  /** Config folder inside the vault; default `.obsidian`. */
  configDir?: string;
  /** Secret store to use; pass the same Map to a later App to keep secrets across restarts. */
  secrets?: Map<string, string>;
  /** This vault's localStorage (loadLocalStorage, saveLocalStorage); pass the same Map to a later App to keep it across restarts. */
  localStorage?: Map<string, string>;
  /** How long disk events from other programs are gathered before they are applied, ms (default 50); false = no watching. */
  watchIntervalMs?: number | false;
  /** Ms from the first edit in a Markdown view to its save (`workspace.saveDelayMs`; Obsidian: 2000). */
  saveDelayMs?: number;
  /**
   * Open the vault with the metadata cache's indexer held (`metadataCache.holdIndexing()`): no
   * note has a cache until `metadataCache.releaseIndexing()`, as in a vault Obsidian opens for
   * the first time, whose plugins start while its indexer is still parsing notes. Default false.
   */
  holdIndexing?: boolean;
  /**
   * The metadata cache a previous run saved for this folder (`metadataCache.savedForRestart()`),
   * as Obsidian keeps it across restarts: notes unchanged since start from their saved entries, and
   * a note changed while the app was closed keeps its old entry until the indexer re-parses it.
   */
  savedMetadata?: SavedMetadata;
  /**
   * Load files and folders whose disk name holds a backslash (only a POSIX disk has them) under
   * that name, as an Obsidian build that lists them would, instead of leaving them out (the
   * default, VaultOptions `listBackslashNames`): for tests of the plugin's own guard. Default false.
   */
  listBackslashNames?: boolean;
}

/** Obsidian's internal plugin registry (`app.plugins`) as far as plugins use it. */
export class HostPlugins {
  /** Loaded plugins by manifest id. */
  readonly plugins: Record<string, O.Plugin> = {};
  /** Ids of enabled (loaded) plugins. */
  readonly enabledPlugins = new Set<string>();

  /** The loaded plugin with this id, or null. */
  getPlugin(id: string): O.Plugin | null {
    return this.plugins[id] ?? null;
  }
}

/**
 * Obsidian's `App` (obsidian.d.ts) in the host: vault, metadataCache, fileManager,
 * workspace and secretStorage over one real folder, plus Obsidian's internal `plugins` and
 * `commands` registries. Build it with createHostApp and end it with `close()`.
 */
export class App implements Pick<
  O.App,
  'vault' | 'metadataCache' | 'fileManager' | 'secretStorage' | 'lastEvent' | 'isDarkMode' | 'loadLocalStorage' | 'saveLocalStorage'
> {
  vault: Vault;
  metadataCache: MetadataCache;
  fileManager: FileManager;
  workspace: Workspace;
  secretStorage: SecretStorage;
  lastEvent: O.UserEvent | null = null;
  readonly plugins = new HostPlugins();
  readonly commands: HostCommands;
  /** CLI handlers registered by plugins (registerCliHandler), by command id. */
  readonly cliHandlers = new Map<string, { description: string; flags: O.CliFlags | null; handler: O.CliHandler }>();
  private readonly localStorage: Map<string, string>;
  private closed = false;

  /** Wires the parts over `options.vaultPath`; createHostApp also loads and indexes the vault. */
  constructor(options: HostAppOptions) {
    this.vault = new Vault(options.vaultPath, { configDir: options.configDir, listBackslashNames: options.listBackslashNames });
    this.metadataCache = new MetadataCache(this.vault);
    this.fileManager = new FileManager(this.vault, this.metadataCache);
    this.workspace = new Workspace(this as unknown as O.App);
    if (options.saveDelayMs !== undefined) {
      if (!Number.isFinite(options.saveDelayMs) || options.saveDelayMs < 0)
        throw new Error(`saveDelayMs must be a number of milliseconds >= 0; got ${options.saveDelayMs}.`);
      this.workspace.saveDelayMs = options.saveDelayMs;
    }
    this.secretStorage = new SecretStorage(options.secrets);
    this.localStorage = options.localStorage ?? new Map();
    this.commands = new HostCommands(this.workspace);
  }

  isDarkMode(): boolean {
    return false;
  }

  /** The value saved under `key` (a JSON copy, as localStorage stores JSON), or null. */
  loadLocalStorage(key: string): any | null {
    const raw = this.localStorage.get(key);
    return raw === undefined ? null : JSON.parse(raw);
  }

  /** Saves a JSON-serializable value under `key`; null or undefined clears the entry. */
  saveLocalStorage(key: string, data: unknown | null): void {
    if (data === null || data === undefined) this.localStorage.delete(key);
    else this.localStorage.set(key, JSON.stringify(data));
  }

  /**
   * Host: shuts the app down like quitting Obsidian: closes every leaf (Markdown views save),
   * unloads every loaded plugin (releasing their listeners, intervals and servers), stops the
   * disk watcher and waits for pending indexing. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.workspace.close();
    for (const plugin of Object.values(this.plugins.plugins)) unloadPluginInHost(plugin);
    await this.vault.stopWatching();
    await this.metadataCache.whenResolved();
    this.metadataCache.detach();
  }
}

/**
 * Opens the folder `options.vaultPath` as a vault: loads its files, builds the metadata cache
 * (all notes parsed, links resolved; with `holdIndexing`, none parsed yet) and starts watching the disk. Resolves to the ready App.
 * Throws an Error naming the path when it is not an existing folder.
 */
export async function createHostApp(options: HostAppOptions): Promise<App> {
  const full = nodePath.resolve(options.vaultPath);
  const stat = await fsp.stat(full).catch(() => null);
  if (!stat?.isDirectory())
    throw new Error(`Vault folder "${full}" does not exist or is not a folder; pass an existing folder as vaultPath.`);
  const app = new App({ ...options, vaultPath: full });
  await app.vault.load();
  if (options.holdIndexing) app.metadataCache.holdIndexing();
  await app.metadataCache.initialize(options.savedMetadata);
  const interval = options.watchIntervalMs ?? 50;
  if (interval !== false) app.vault.startWatching(interval);
  return app;
}

/**
 * Enables a plugin as Obsidian does: constructs `PluginClass(app, manifest)`, runs `load()`
 * and awaits an async `onload`, registers it in `app.plugins`, then makes the layout ready
 * (running `onLayoutReady` callbacks). Throws when a plugin with the same id is loaded, or
 * rethrows what `onload` throws after unloading the half-loaded plugin.
 */
export async function loadPluginInHost<T extends O.Plugin>(
  app: App,
  PluginClass: new (app: O.App, manifest: O.PluginManifest) => T,
  manifest: O.PluginManifest,
): Promise<T> {
  if (app.plugins.plugins[manifest.id]) throw new Error(`Plugin "${manifest.id}" is already loaded; unload it first.`);
  const plugin = new PluginClass(app as unknown as O.App, manifest);
  const host = plugin as unknown as Plugin;
  host.load();
  try {
    await host.whenLoaded();
  } catch (err) {
    host.unload();
    throw err;
  }
  app.plugins.plugins[manifest.id] = plugin;
  app.plugins.enabledPlugins.add(manifest.id);
  app.workspace.triggerLayoutReady();
  return plugin;
}

/**
 * Disables a plugin as Obsidian does: `unload()` runs every registered cleanup and
 * `onunload()`, and the plugin leaves `app.plugins`.
 */
export function unloadPluginInHost(plugin: O.Plugin): void {
  const host = plugin as unknown as Plugin;
  host.unload();
  const app = plugin.app as unknown as App;
  if (app.plugins.plugins[plugin.manifest.id] === plugin) {
    delete app.plugins.plugins[plugin.manifest.id];
    app.plugins.enabledPlugins.delete(plugin.manifest.id);
  }
}

/** Tells the plugin its data.json changed on disk (Obsidian calls `onExternalSettingsChange`). */
export async function simulateExternalSettingsChange(plugin: O.Plugin): Promise<void> {
  await plugin.onExternalSettingsChange?.();
}
