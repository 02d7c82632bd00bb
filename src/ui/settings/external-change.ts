import { migrateSettings } from '../../settings/migrate-settings';
import type { SettingsTabPlugin } from './tab-context';

/** What an external settings change did, for tests and logs. */
export interface ExternalChangeResult {
  /** True when the port changed and the server was restarted. */
  restarted: boolean;
}

/**
 * Picks up data.json edited elsewhere (a sync from another device; Obsidian calls
 * `Plugin.onExternalSettingsChange`): reloads and migrates it, restarts the server when the
 * port changed, rebuilds the search index when the quarantine or trusted-link list changed, closes sessions of keys that disappeared, tells connected
 * clients the tool list may have changed and lets the AI service see the new provider.
 * @param plugin the plugin whose `settings` are replaced
 */
export async function applyExternalSettings(plugin: SettingsTabPlugin): Promise<ExternalChangeResult> {
  const before = plugin.settings;
  const next = migrateSettings(await plugin.loadData());
  plugin.settings = next;
  // The master switch is read on every request: only a port change needs a new listener.
  const restarted = before.server.port !== next.server.port;
  if (restarted) await plugin.restartServer();
  const listsChanged = (['quarantine', 'trustedSymlinks'] as const).some((k) => before.access[k].join('\u0000') !== next.access[k].join('\u0000'));
  if (listsChanged) void plugin.search.reindex();
  await plugin.server.closeSessionsOfRevokedKeys();
  await plugin.server.notifyToolListChanged();
  await plugin.ai.settingsChanged();
  // AI settings or access lists may have changed: the semantic index syncs (and drops notes no longer readable).
  void plugin.semantic.refresh();
  return { restarted };
}
