import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { simulateExternalSettingsChange } from '../../host';
import { AiError } from '../../../src/ai/ai-error';
import VaultMcpPlugin from '../../../src/main';
import type { VaultMcpSettings } from '../../../src/settings/settings';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from '../boot-plugin';
import { installDom, settingRow, settle, type InstalledDom } from './settings-dom-env';

/**
 * Device A of a settings-sync test: the plugin booted on a fresh vault (`Journal/Today.md`,
 * `Plan.md`) with its settings tab shown in a DOM, plus what such tests do to it. Made by
 * {@link syncedSettingsPerTest}.
 */
export interface SyncedSettingsEnv {
  /** The plugin running now: the one booted before the test, or the last {@link reboot}'s. */
  readonly booted: BootedPlugin<VaultMcpPlugin>;
  /** The vault folder (under os.tmpdir()), kept across reboots, removed after the test. */
  readonly vaultDir: string;
  /**
   * Stops the running plugin and boots it again on the same vault with `options` (as Obsidian
   * restarting); the new boot is `booted` from then on and is the one stopped after the test.
   * @returns the new boot.
   * @throws what bootPlugin throws (the old plugin is stopped by then).
   */
  reboot(options: Omit<BootOptions, 'vaultPath'>): Promise<BootedPlugin<VaultMcpPlugin>>;
  /** This device's settings as a synced copy would hold them now (the port as bound, so no sync moves the server). */
  snapshot(): VaultMcpSettings;
  /** Puts `file` in data.json as a sync would while the plugin runs, announces it (onExternalSettingsChange) and lets it settle. */
  syncIn(file: unknown): Promise<void>;
  /** data.json as the plugin last saved it. */
  savedFile(): Promise<VaultMcpSettings>;
  /** An SDK client connected with `token` (default the boot's key); closed after the test. */
  client(token?: string): Promise<Client>;
  /** The settings tab's container element. */
  el(): HTMLElement;
  /** Clicks the toggle of the settings tab's row named `name`. */
  toggle(name: string): void;
  /** What an AI chat call through the plugin gives now: the reply, or the refusal's AiError code. */
  chat(): Promise<string>;
}

/**
 * Registers a beforeEach that boots the plugin as device A (a propose key labelled "Claude Code",
 * writes allowed) on a new vault folder named `tempPrefix`… with the settings tab displayed, and an
 * afterEach that closes the clients, stops the current boot and removes the folder and the DOM.
 * Call it at the top of a test file (or describe block).
 * @returns the env, whose getters read the current test's boot.
 * @throws Error from a getter read outside a test (before beforeEach booted it).
 */
export function syncedSettingsPerTest(tempPrefix: string): SyncedSettingsEnv {
  let dom: InstalledDom | undefined;
  let vaultDir: string | undefined;
  let booted: BootedPlugin<VaultMcpPlugin> | undefined;
  const clients: Client[] = [];
  const current = (): BootedPlugin<VaultMcpPlugin> => {
    if (!booted) throw new Error('the synced-settings env is read before its beforeEach booted the plugin');
    return booted;
  };

  beforeEach(async () => {
    dom = installDom();
    vaultDir = await fs.mkdtemp(path.join(os.tmpdir(), tempPrefix));
    await fs.mkdir(path.join(vaultDir, 'Journal'), { recursive: true });
    await fs.writeFile(path.join(vaultDir, 'Journal/Today.md'), 'Dear diary\n');
    await fs.writeFile(path.join(vaultDir, 'Plan.md'), '# Plan\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir, label: 'Claude Code', allowWrites: true });
    booted.plugin.settingTab.display();
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    await booted?.stop();
    booted = undefined;
    if (vaultDir) await fs.rm(vaultDir, { recursive: true, force: true });
    dom?.uninstall();
  });

  const env: SyncedSettingsEnv = {
    get booted() {
      return current();
    },
    get vaultDir() {
      if (!vaultDir) throw new Error('the synced-settings env is read before its beforeEach made the vault');
      return vaultDir;
    },
    async reboot(options) {
      await current().stop();
      booted = undefined;
      booted = await bootPlugin(VaultMcpPlugin, { ...options, vaultPath: env.vaultDir });
      return booted;
    },
    snapshot() {
      const { plugin, port } = current();
      plugin.settings.server.port = port;
      return JSON.parse(JSON.stringify(plugin.settings)) as VaultMcpSettings;
    },
    async syncIn(file) {
      await current().plugin.saveData(file);
      await simulateExternalSettingsChange(current().plugin);
      await settle();
    },
    async savedFile() {
      return (await current().plugin.loadData()) as VaultMcpSettings;
    },
    async client(token = current().token) {
      const c = await connectClient(current().url, token);
      clients.push(c);
      return c;
    },
    el: () => current().plugin.settingTab.containerEl,
    toggle(name) {
      settingRow(env.el(), name).querySelector<HTMLElement>('.checkbox-container')!.click();
    },
    async chat() {
      try {
        return (await current().plugin.ai.chat([{ role: 'user', content: 'say OK' }])).text;
      } catch (error) {
        if (error instanceof AiError) return error.code;
        throw error;
      }
    },
  };
  return env;
}

/** What read_note gives `c` for `notePath`: the note's text (its parts joined by line feeds), or 'refused' for a tool error. */
export async function readNote(c: Client, notePath: string): Promise<string> {
  const result = await c.callTool({ name: 'read_note', arguments: { path: notePath } });
  if (result.isError) return 'refused';
  return (result.content as Array<{ text: string }>).map((part) => part.text).join('\n');
}

/** The ISO 8601 stamp `ms` milliseconds after `stamp` (an ISO 8601 stamp; negative `ms` for before). */
export function after(stamp: string | undefined, ms: number): string {
  return new Date(Date.parse(stamp!) + ms).toISOString();
}
