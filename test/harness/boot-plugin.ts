import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type * as O from 'obsidian';
import { createHostApp, loadPluginInHost, unloadPluginInHost, type HostApp, type SavedMetadata } from '../host';
import { secretIdForKey, type KeyMode, type KeyRecord } from '../../src/settings/key-record';
import { defaultSettings, type VaultMcpSettings } from '../../src/settings/settings';
import { ALL_TOOLS } from '../../src/tools/registry';
import type { IndexStorage } from '../../src/search/search-index';
import { memoryIndexStorage } from './memory-index-storage';
import { PLUGIN_MANIFEST } from '../fixtures/plugin-manifest';
import { REGISTRY_DIR_ENV } from '../../src/server/vaults/vault-registry';

export { connectClient } from './server/connect-client';

/** The plugin surface the harness needs (what src/main.ts's VaultMcpPlugin exposes). */
export interface BootablePlugin extends O.Plugin {
  settings: VaultMcpSettings;
  server: { getStatus(): { state: string; port?: number; url?: string; message?: string } };
  search: { whenBuilt(): Promise<void> };
  indexStorage(): IndexStorage;
}

/** The id of the key bootPlugin seeds (its token is `token`). */
export const BOOT_KEY_ID = 'runkey';

/** How to start the plugin in the host. */
export interface BootOptions {
  /** The vault folder (used in place: copy fixtures first). */
  vaultPath: string;
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Bearer token of the run's key; random when absent. */
  token?: string;
  /** The key's label (default "Test client"). */
  label?: string;
  /** The key's mode (default propose). */
  mode?: KeyMode;
  /** Turns on "Allow writes" and every write tool. */
  allowWrites?: boolean;
  /** Folders the key is confined to. */
  roots?: string[];
  /** Last-minute changes to the seeded settings. */
  configure?: (settings: VaultMcpSettings) => void;
  /**
   * Wait until the search index is built before resolving (default true, so tests see every
   * note); false returns as soon as the server listens, as a client meets a starting plugin.
   */
  waitForIndex?: boolean;
  /** Save the search index in the vault's plugin folder as the plugin does (default false: kept in memory, like data.json). */
  persistIndex?: boolean;
  /** More secrets for the host's SecretStorage, by id (other keys' tokens, the AI API key). */
  secrets?: Record<string, string>;
  /** The host's localStorage for this vault; pass the same Map to a later boot to keep it across a restart. */
  localStorage?: Map<string, string>;
  /** The vault's config folder (`vault.configDir`; default `.obsidian`). */
  configDir?: string;
  /**
   * Start with the metadata cache's indexer held (HostAppOptions `holdIndexing`): no note is
   * parsed until the test calls `app.metadataCache.releaseIndexing()`, as in a vault Obsidian
   * opens for the first time. Default false.
   */
  holdIndexing?: boolean;
  /**
   * Start the metadata cache from a previous run's (`app.metadataCache.savedForRestart()`,
   * HostAppOptions `savedMetadata`), as Obsidian does after a restart. Default: parse every note.
   */
  savedMetadata?: SavedMetadata;
  /** Load disk names holding a backslash under that name, as an Obsidian that lists them would (HostAppOptions `listBackslashNames`). Default false. */
  listBackslashNames?: boolean;
}

/** A running plugin with its server. */
export interface BootedPlugin<P extends BootablePlugin = BootablePlugin> {
  app: HostApp;
  plugin: P;
  url: string;
  port: number;
  token: string;
  key: KeyRecord;
  /** Unloads the plugin (server stopped, port freed) and closes the host app. */
  stop(): Promise<void>;
}

/**
 * The registry folder of this Jest worker: `worker-<JEST_WORKER_ID>` inside the run's folder
 * (test/harness/env/registry-setup.cjs), so that plugins booted by suites running at the same time in two
 * workers never see each other as peers (a second open vault adds `vault` to every tool's input and
 * lists itself in `list_vaults`). Null outside Jest's workers, and when a suite chose a registry folder
 * of its own (several-vaults.test.ts).
 * @param env the process environment.
 * @returns an absolute folder path, or null.
 */
export function workerRegistryFolder(env: NodeJS.ProcessEnv): string | null {
  const runFolder = env.VAULT_MCP_REGISTRY_DIR_MADE_BY_JEST;
  const worker = env.JEST_WORKER_ID;
  if (!runFolder || !worker) return null;
  const own = nodePath.join(runFolder, `worker-${worker}`);
  const current = env[REGISTRY_DIR_ENV];
  return current === runFolder || current === own ? own : null;
}

/**
 * Seeds settings and one key (token in the host's SecretStorage), enables the plugin in a
 * host app over `vaultPath` as Obsidian would (onload, then layout ready), and waits until
 * the server listens.
 * @throws Error with the server's own message when it cannot listen.
 */
export async function bootPlugin<P extends BootablePlugin>(
  PluginClass: new (app: O.App, manifest: O.PluginManifest) => P,
  options: BootOptions,
): Promise<BootedPlugin<P>> {
  // Test runs register their vaults in a throwaway registry folder, never the user's app-data one.
  const ownFolder = workerRegistryFolder(process.env);
  if (ownFolder !== null) {
    fs.mkdirSync(ownFolder, { recursive: true });
    process.env[REGISTRY_DIR_ENV] = ownFolder;
  } else if (!process.env[REGISTRY_DIR_ENV]) {
    const registry = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'vault-mcp-registry-'));
    process.env[REGISTRY_DIR_ENV] = registry;
    // One folder per test or bench process: removed when it exits, not left behind in the temp folder by every run.
    process.once('exit', () => fs.rmSync(registry, { recursive: true, force: true }));
  }
  const token = options.token ?? `test-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const key: KeyRecord = {
    id: BOOT_KEY_ID,
    label: options.label ?? 'Test client',
    mode: options.mode ?? 'propose',
    scope: 'local',
    roots: options.roots ?? [],
    created_at: new Date().toISOString(),
    last_used_at: null,
  };
  const settings = defaultSettings();
  settings.server.port = options.port ?? 0;
  settings.keys = [key];
  if (options.allowWrites) {
    settings.tools.allowWrites = true;
    for (const tool of ALL_TOOLS) if (tool.kind === 'write') settings.tools.enabled[tool.name] = true;
  }
  options.configure?.(settings);
  const secrets = new Map<string, string>([...Object.entries(options.secrets ?? {}), [secretIdForKey(key.id), token]]);
  const app = await createHostApp({
    vaultPath: options.vaultPath,
    secrets,
    localStorage: options.localStorage,
    configDir: options.configDir,
    holdIndexing: options.holdIndexing,
    savedMetadata: options.savedMetadata,
    listBackslashNames: options.listBackslashNames,
  });
  let data: unknown = JSON.parse(JSON.stringify(settings));
  // data.json (and, unless persistIndex, the search index) stay in memory so a run never writes plugin data into the vault folder.
  class Bootable extends (PluginClass as new (app: O.App, manifest: O.PluginManifest) => BootablePlugin) {
    override async loadData(): Promise<unknown> {
      return JSON.parse(JSON.stringify(data));
    }
    override async saveData(next: unknown): Promise<void> {
      data = JSON.parse(JSON.stringify(next));
    }
    override indexStorage(): IndexStorage {
      return options.persistIndex ? super.indexStorage() : memoryIndexStorage();
    }
    // Settings validation keeps ports in 1024–65535; tests may ask for 0 (any free port).
    override async onload(): Promise<void> {
      await super.onload();
      this.settings.server.port = options.port ?? 0;
    }
  }
  const plugin = (await loadPluginInHost(app, Bootable as never, PLUGIN_MANIFEST)) as P;
  const status = await waitForServer(plugin);
  if (options.waitForIndex !== false && status.state === 'listening') await plugin.search.whenBuilt();
  const stop = async (): Promise<void> => {
    const server = (plugin as unknown as { server: { stop(): Promise<void> } }).server;
    const writerLock = (plugin as unknown as { writerLock?: { release(): Promise<void> } }).writerLock;
    const writers = pluginFolderWriters(plugin);
    unloadPluginInHost(plugin);
    await server.stop();
    // Writes into the plugin folder may still be landing, as after npm start's stop (Obsidian keeps running after an unload:
    // the activity log's last write, the search index's save the unload makes, a semantic index or proposals save under
    // way): let them, so that the process never exits and a test's clean-up never removes the folder under them (ENOTEMPTY).
    for (const landed of writers) await landed().catch(() => undefined);
    // The unload started the lock's removal without waiting (Obsidian keeps running); a run that exits next must not leave it behind.
    await writerLock?.release();
    await app.close();
  };
  if (status.state !== 'listening' || status.port === undefined || status.url === undefined) {
    await stop();
    throw new Error(`Vault MCP server did not start: ${status.message ?? status.state}`);
  }
  return { app, plugin, url: status.url, port: status.port, token, key, stop };
}

/** What waits for each of the plugin's writes into its folder still under way (see the stop in {@link bootPlugin}); read before the unload. */
function pluginFolderWriters(plugin: BootablePlugin): Array<() => Promise<void>> {
  const parts = plugin as unknown as {
    activity?: { whenSaved(): Promise<void> };
    search?: { whenSaved(): Promise<void> };
    semantic?: { whenSaved(): Promise<void> };
    proposals?: { flush(): Promise<void> };
  };
  const { activity, search, semantic, proposals } = parts;
  return [
    () => activity?.whenSaved() ?? Promise.resolve(),
    () => search?.whenSaved() ?? Promise.resolve(),
    () => semantic?.whenSaved() ?? Promise.resolve(),
    () => proposals?.flush() ?? Promise.resolve(),
  ];
}

async function waitForServer(plugin: BootablePlugin): Promise<ReturnType<BootablePlugin['server']['getStatus']>> {
  for (let i = 0; i < 500; i++) {
    const status = plugin.server?.getStatus();
    if (status && status.state !== 'stopped') return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return plugin.server.getStatus();
}
