import { Notice } from 'obsidian';
import { mergeSyncedKeys } from '../../keys/key-ring';
import { rememberRevocations } from '../../settings/device-revocations';
import { mergeRevokedKeys, revokedIdsIn } from '../../settings/revoked-keys';
import { mergeWidgetRecords } from '../../keys/widget-writers';
import { keyRootsNotice } from '../../settings/key-roots';
import { mergeAccessLists } from '../../settings/access-entries';
import { FIELD_BLOCKS, mergeFields, predatesStamps } from '../../settings/field-times';
import { accessShapeNotice, holdsSettings, migrateSettings } from '../../settings/migrate-settings';
import { defaultSettings } from '../../settings/settings';
import { quarantinedFileAt, quarantineNotice } from '../../vault/access/quarantine';
import type { SettingsTabPlugin } from './tab-context';
import type { PluginFile } from '../../vault/plugin-files/plugin-file';
import { loadSettingsData } from '../../vault/plugin-files/settings-data';

/** What an external settings change did, for tests and logs. */
export interface ExternalChangeResult {
  /** True when the port changed and the server was restarted. */
  restarted: boolean;
}

/**
 * Picks up data.json edited elsewhere (a sync from another device; Obsidian calls
 * `Plugin.onExternalSettingsChange`): reloads and migrates it, restarts the server when the
 * port changed, rebuilds the search index when the quarantine or trusted-link list or the widgets folder changed, closes sessions of keys that disappeared, tells connected
 * clients the tool list may have changed, re-judges their subscriptions and prompts when a key's
 * label or roots or the access settings changed (McpHttpServer.accessChanged) and lets the AI service see the new provider.
 * A data.json met half-written (another instance or a sync saving it in place) is read again
 * (loadSettingsData), so a torn read neither drops the change nor passes for "no settings" (which
 * would put the defaults in place and have the next save write them over the user's settings);
 * one that still does not parse or holds no settings object (a sync caught half-way) changes
 * nothing: the current settings stay, with a Notice, and are saved back to it after `saveBackMs`
 * unless settings arrived meanwhile ({@link saveBackLater}); so do a
 * data.json removed (a sync replacing it by delete and create) and one holding none of the settings
 * (`{}`: migrate-settings.ts holdsSettings), which would otherwise pass for an old version's file and drop keys.
 * The widget records (`widgetWriters`, `widgetTexts`) are merged, not replaced: the newer record
 * per widget and per text wins and none is dropped (keys/widget-writers.ts mergeWidgetRecords). The
 * revocations (`revokedKeys`) of both sides are kept, a key revoked on either side is dropped
 * wherever it is still held and its token blanked here (the device that minted it holds it), so
 * no older data.json brings it back; a key both hold keeps this device's record when it changed
 * later, field by field, so an older data.json never widens a key narrowed here since; a key only this device
 * holds stays when the synced file lists revocations (it was minted here since) and goes when it
 * lists none (a version before them: it may have been revoked there) (keys/key-ring.ts
 * mergeSyncedKeys). The quarantine and trusted-link lists are merged entry by entry
 * (settings/access-entries.ts mergeAccessLists): an entry is listed when its latest `added` on
 * either side is later than its latest `removed` on either side, so only an explicit later removal
 * lifts a quarantine or drops a trusted link, and a device that never touched the entry cannot,
 * whatever its clock. The `server`, `tools`, `skills`, `widgets` and `ai` blocks
 * (settings/field-times.ts FIELD_BLOCKS) are merged field by field (mergeFields): a field is this
 * device's when the user changed it here later (`fieldTimes`, stamped by the settings tab), so an
 * older data.json, or a newer one from a device that changed only other fields, never switches the
 * server back on, turns writes or a tool back on, moves the skills or widgets folder back, or turns
 * AI, remote providers or the semantic index back on or points them at another provider; a synced
 * block with no `changed_at` (a version before stamps) wins whole, as before. The AI
 * token counters (`ai.usage`) are this device's whatever the merge takes. data.json is saved again whenever this device kept
 * something the synced one lacked (records, keys, fields or their stamps, access entries or their times, revocations). A key
 * whose roots break the roots rule gets a Notice too (it is refused at the door until they are fixed), and so does
 * a quarantine entry that names no folder (kept as written; it quarantines nothing until fixed) or names a
 * note or file (kept: it hides that file alone, but quarantine takes folders), and an access block whose
 * lists could not be read as written (migrate-settings.ts accessShapeNotice) when the merge kept nothing of this device's in their place.
 * @param plugin the plugin whose `settings` are replaced
 * @param dataFile data.json in the plugin folder (its stamp and text, to tell a torn read)
 * @param saveBackMs the wait before a data.json left without settings gets the current ones back, ms (default {@link SAVE_BACK_MS})
 */
export async function applyExternalSettings(
  plugin: SettingsTabPlugin,
  dataFile: PluginFile,
  saveBackMs: number = SAVE_BACK_MS,
): Promise<ExternalChangeResult> {
  const before = plugin.settings;
  const loaded = await loadSettingsData(() => plugin.loadData(), dataFile);
  // Each case below keeps the settings in memory and saves them back unless settings arrive first: else the next start would meet the bad file.
  const keptUntil = `the current settings are kept and saved to it again in ${saveBackMs / 1000} s unless settings arrive meanwhile`;
  if ('reason' in loaded) {
    new Notice(`Vault MCP: data.json changed outside Obsidian but could not be read (${loaded.reason}); ${keptUntil}.`);
    saveBackLater(plugin, dataFile, saveBackMs);
    return { restarted: false };
  }
  if (loaded.data === null) {
    // Gone (a sync replacing it, or removing it): the defaults must not take the user's settings' place.
    new Notice(`Vault MCP: data.json was removed outside Obsidian; ${keptUntil}.`);
    saveBackLater(plugin, dataFile, saveBackMs);
    return { restarted: false };
  }
  const saved: unknown = loaded.data;
  if (!holdsSettings(saved)) {
    // `{}` (a sync or tool that emptied it) would pass for a file of an old version and drop this device's keys.
    new Notice(`Vault MCP: data.json changed outside Obsidian but holds no settings; ${keptUntil}.`);
    saveBackLater(plugin, dataFile, saveBackMs);
    return { restarted: false };
  }
  const next = migrateSettings(saved);
  // Widget records only ever confine a widget: the newest of each is kept, never dropped by an older data.json.
  const { added, ...records } = mergeWidgetRecords(before, next);
  Object.assign(next, records);
  const raw = saved as { keys?: unknown; revokedKeys?: unknown } & Partial<Record<(typeof FIELD_BLOCKS)[number], unknown>>;
  // Revoked on either side stays revoked: both lists are kept, and a key in them is dropped wherever it is still held.
  next.revokedKeys = mergeRevokedKeys(before.revokedKeys, raw.revokedKeys);
  rememberRevocations(plugin.app, next.revokedKeys);
  // Applied whole: the bound on the stored list must not spare a key the synced file revokes.
  const revoked = revokedIdsIn(before.revokedKeys, raw.revokedKeys);
  // A key narrowed here since the synced file was written keeps its narrower record; one minted here since stays.
  const rawKeys: unknown[] = Array.isArray(raw.keys) ? raw.keys : [];
  const unstamped = new Set(
    rawKeys
      .filter(predatesStamps)
      .map((k) => (k as { id?: unknown }).id)
      .filter((id): id is string => typeof id === 'string'),
  );
  const { keys, kept } = mergeSyncedKeys(before.keys, next.keys, unstamped, {
    revoked,
    tracksRevocations: Array.isArray(raw.revokedKeys),
  });
  next.keys = keys;
  // The token of a key revoked elsewhere is only on the device that minted it: this one forgets it if it is that device.
  plugin.keyRing.forgetTokens(revoked);
  // Each field of a block (server, tools, skills, widgets, ai) changed here later than in the synced file is kept;
  // a block written by a version before stamps wins whole, as before.
  let keptFields = false;
  const defaults = defaultSettings();
  for (const block of FIELD_BLOCKS) {
    if (predatesStamps(raw[block])) continue;
    // A value chosen here with no stamp (an older version's, a hand edit) beats a default the file holds unchosen.
    const { merged, keptMine } = mergeFields(block, before[block], next[block], defaults[block]);
    Object.assign(next, { [block]: merged });
    keptFields ||= keptMine;
  }
  // The access lists are merged entry by entry: only a later removal (a tombstone) lifts a quarantine or drops a trusted link.
  const access = mergeAccessLists(before.access, next.access);
  next.access = {
    quarantine: access.quarantine as string[],
    trustedSymlinks: access.trustedSymlinks as string[],
    entryTimes: access.entryTimes,
  };
  // Token counters are this device's figures (AiService counts them here): a synced file's never replace them.
  // A provider or base URL changed by the synced block resets them (AiService.settingsChanged, below).
  next.ai.usage = before.ai.usage;
  // Revocations this device knew that the synced file lacked are written back too, so they reach the other devices.
  const theirRevoked = revokedIdsIn(raw.revokedKeys);
  const moreRevoked = next.revokedKeys.some((r) => !theirRevoked.has(r.id));
  plugin.settings = next;
  if (added || kept || keptFields || access.keptMine || moreRevoked) await plugin.saveData(next).catch(() => undefined); // else kept in memory and written by the next save
  const quarantine = quarantineNotice(next.access.quarantine, (e) => plugin.notes.policy.literalPath(e), quarantinedFileAt(plugin.notes));
  // The synced access block's shape matters only when nothing of this device's replaced what it lost (then data.json is saved again whole).
  const shape = access.keptMine ? null : accessShapeNotice(saved);
  for (const problem of [keyRootsNotice(next.keys), quarantine, shape]) if (problem) new Notice(problem, 0);
  // The master switch is read on every request: only a port change needs a new listener.
  const restarted = before.server.port !== next.server.port;
  if (restarted) await plugin.restartServer();
  const listsChanged = access.changed || before.widgets.folder !== next.widgets.folder;
  if (listsChanged) void plugin.search.reindex();
  await plugin.server.closeSessionsOfRevokedKeys();
  await plugin.server.notifyToolListChanged();
  // A key's label or roots, or the access settings, may differ: what each client was told is judged again.
  await plugin.server.accessChanged();
  await plugin.ai.settingsChanged();
  // AI settings or access lists may have changed: the semantic index syncs (and drops notes no longer readable).
  void plugin.semantic.refresh();
  return { restarted };
}

/**
 * How long after a data.json change that left no settings (unreadable, removed, holding none) the
 * current settings are saved back to it, ms, unless settings arrived meanwhile: a sync that replaces
 * the file by delete and create, or writes it in parts, has finished by then, and its own change event merges what it brought.
 */
export const SAVE_BACK_MS = 10_000;

/** The save-back each plugin has pending ({@link saveBackLater}): one at a time. */
const pendingSaveBacks = new WeakMap<SettingsTabPlugin, unknown>();

/**
 * Saves `plugin.settings` to data.json `delayMs` from now unless data.json then holds settings
 * (read as at a change: loadSettingsData, holdsSettings). Without it the bad file would stay until
 * the next change of a setting, and a start meeting it begins from the defaults: no keys, none of the
 * user's quarantined folders. One pending save per plugin (a later call while one waits does nothing);
 * cancelled when the plugin unloads (Component.register). A failed save gets a Notice with its error.
 */
function saveBackLater(plugin: SettingsTabPlugin, dataFile: PluginFile, delayMs: number): void {
  if (pendingSaveBacks.has(plugin)) return;
  const timer = setTimeout(() => {
    pendingSaveBacks.delete(plugin);
    void (async () => {
      const loaded = await loadSettingsData(() => plugin.loadData(), dataFile);
      if (!('reason' in loaded) && holdsSettings(loaded.data)) return;
      await plugin.saveData(plugin.settings);
      new Notice('Vault MCP: data.json still held no settings, so the current settings were saved to it again.');
    })().catch(
      (err: unknown) =>
        new Notice(
          `Vault MCP: the current settings could not be saved to data.json (${(err as Error).message}); change any setting to try again.`,
          0,
        ),
    );
  }, delayMs);
  pendingSaveBacks.set(plugin, timer);
  plugin.register(() => clearTimeout(timer));
}
