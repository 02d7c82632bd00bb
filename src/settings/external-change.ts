import { migrateSettings } from './migrate-settings';
import type { SettingsTabPlugin } from './tab-context';

/** What an external settings change did, for tests and logs. */
export interface ExternalChangeResult {
  /** True when the port or master switch changed and the server was restarted. */
  restarted: boolean;
}

/**
 * Picks up data.json edited elsewhere (a sync from another device; Obsidian calls
 * `Plugin.onExternalSettingsChange`): reloads and migrates it, restarts the server when the
 * port or master switch changed, closes sessions of keys that disappeared, tells connected
 * clients the tool list may have changed and lets the AI service see the new provider.
 * @param plugin the plugin whose `settings` are replaced
 */
export async function applyExternalSettings(plugin: SettingsTabPlugin): Promise<ExternalChangeResult> {
  const before = plugin.settings.server;
  const next = migrateSettings(await plugin.loadData());
  plugin.settings = next;
  const restarted = before.port !== next.server.port || before.enabled !== next.server.enabled;
  if (restarted) await plugin.restartServer();
  await plugin.server.closeSessionsOfRevokedKeys();
  await plugin.server.notifyToolListChanged();
  await plugin.ai.settingsChanged();
  return { restarted };
}
