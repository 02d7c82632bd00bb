import { Notice, Plugin } from 'obsidian';
import { AiService } from './ai/ai-service';
import { createPublicApi, publishApi } from './ai/public-api';
import { AI_API_KEY_SECRET_ID } from './ai/secret-id';
import type { VaultMcpApi } from '../types/vault-mcp-api';
import { KeyRing } from './keys/key-ring';
import { widgetReadRefusal, WidgetWriters } from './keys/widget-writers';
import { SearchIndex, type IndexStorage } from './search/search-index';
import { SemanticIndex } from './search/semantic/semantic-index';
import { addSemanticStatusBarItem } from './ui/semantic-status-bar';
import { searchIndexStorage, semanticIndexStorage } from './ui/index-files';
import { McpHttpServer } from './server/http/mcp-http-server';
import { ProposalReview } from './proposals/review/proposal-review';
import { ProposalStore } from './proposals/store/proposal-store';
import { registerReview } from './ui/review/register';
import { workspaceEditors } from './ui/review/workspace-editors';
import { ActivityLog } from './activity/activity-log';
import { ActivityRevert } from './activity/activity-revert';
import { keepAsideInTrash } from './activity/kept-aside';
import { registerActivity } from './ui/activity/register';
import { KeptAsideNotice } from './ui/activity/kept-aside-notice';
import { PluginFile } from './vault/plugin-files/plugin-file';
import { PartedFile } from './vault/plugin-files/parted-file';
import { WRITER_LOCK_FILE, WriterLock } from './vault/plugin-files/writer-lock';
import { createSessionServices } from './server/session/session-services';
import { toolSetSight } from './server/content/tool-set-routes';
import type { VaultSight } from './errors';
import { registerCliHandlers } from './ui/settings/cli-handlers';
import { applyExternalSettings } from './ui/settings/external-change';
import { keyRootsNotice } from './settings/key-roots';
import { quarantinedFileAt, quarantineNotice } from './vault/access/quarantine';
import { accessShapeNotice, migrateSettings, noSettingsNotice } from './settings/migrate-settings';
import { rememberRevocations, withDeviceRevocations } from './settings/device-revocations';
import { VaultMcpSettingTab } from './ui/settings/settings-tab';
import type { VaultMcpSettings } from './settings/settings';
import { NoteStore } from './vault/note-store';
import { VaultPeers } from './server/vaults/vault-peers';
import { registryFolder, VaultRegistry } from './server/vaults/vault-registry';
import { vaultLocation } from './vault/vault-location';
import { readSettingsData } from './vault/plugin-files/settings-data';
import { registerWidgetBlocks, vaultWidgetSource } from './ui/widgets/widget-block';

/**
 * Vault MCP: wires settings, keys, the note store, the search index and the loopback MCP server, and owns
 * their lifetimes. Heavy work starts in `workspace.onLayoutReady`; `onunload` stops the server at once.
 */
export default class VaultMcpPlugin extends Plugin {
  declare settings: VaultMcpSettings;
  keyRing!: KeyRing;
  /** Which key last wrote each widget, and the rights its query runs with (keys/widget-writers.ts). */
  widgetWriters!: WidgetWriters;
  notes!: NoteStore;
  search!: SearchIndex;
  /** One writer per plugin folder (vault/plugin-files/writer-lock.ts): guards proposals.json and the plugin's other shared files. */
  writerLock!: WriterLock;
  proposals!: ProposalStore;
  review!: ProposalReview;
  activity!: ActivityLog;
  reverts!: ActivityRevert;
  server!: McpHttpServer;
  ai!: AiService;
  semantic!: SemanticIndex;
  /** The public API other plugins use (`app.plugins.getPlugin('vault-mcp').api`); null when unloaded. */
  api: VaultMcpApi | null = null;
  settingTab!: VaultMcpSettingTab;

  override async onload(): Promise<void> {
    const saved = await readSettingsData(() => this.loadData(), this.pluginFile('data.json'));
    this.settings = migrateSettings(saved.data);
    for (const problem of [saved.problem, noSettingsNotice(saved.data), keyRootsNotice(this.settings.keys), accessShapeNotice(saved.data)])
      if (problem) new Notice(problem, 0);
    this.keyRing = new KeyRing(
      this.app.secretStorage,
      () => this.settings.keys,
      async (keys) => {
        this.settings.keys = keys;
        await this.saveSettings();
      },
      {
        get: () => this.settings.revokedKeys,
        set: (list) => {
          this.settings.revokedKeys = list;
          rememberRevocations(this.app, list);
        },
      },
    );
    // This device's own copy of the revocations: an older data.json synced over this one while Obsidian was closed lacks those made here.
    const revocations = withDeviceRevocations(this.settings.revokedKeys, this.app);
    this.settings.revokedKeys = revocations.list;
    this.settings.keys = this.settings.keys.filter((k) => !revocations.revoked.has(k.id));
    rememberRevocations(this.app, revocations.list);
    if (revocations.dataLacked) await this.saveData(this.settings).catch(() => undefined);
    // A data.json synced in while Obsidian was closed may revoke a key minted here: its token goes now.
    this.keyRing.forgetTokens(revocations.revoked);
    this.widgetWriters = new WidgetWriters({
      keys: () => this.keyRing.list(),
      records: () => this.settings.widgetWriters,
      texts: () => this.settings.widgetTexts,
      save: () => this.saveSettings(),
      widgetsFolder: () => this.notes.policy.widgetsFolder(),
      readRefusal: (key) => widgetReadRefusal(key, this.settings),
    });
    this.notes = new NoteStore(this.app, {
      widgetProvenance: this.widgetWriters,
      quarantine: () => this.settings.access.quarantine,
      trustedSymlinks: () => this.settings.access.trustedSymlinks,
      widgetsFolder: () => this.settings.widgets.folder,
      editors: workspaceEditors(this.app),
    });
    this.writerLock = new WriterLock(this.app.vault.adapter, this.pluginFile(WRITER_LOCK_FILE).folder);
    this.search = new SearchIndex(this.notes, { storage: this.indexStorage() });
    this.proposals = new ProposalStore(this.notes, this.pluginFile('proposals.json'), undefined, this.writerLock);
    const keyRoots = (id: string): string[] | null => this.keyRing.list().find((k) => k.id === id)?.roots ?? null;
    const keySight = (id: string): VaultSight | undefined => {
      const key = this.keyRing.list().find((k) => k.id === id);
      return key === undefined ? undefined : toolSetSight(key.tools);
    };
    this.review = new ProposalReview(this.proposals, this.notes, keyRoots, keySight);
    const keepAside = keepAsideInTrash(
      this.app.vault.adapter,
      {
        trashUsable: () => this.notes.policy.localTrashRefusal() === null,
        isFreeNow: (path) => this.notes.policy.isFreeNow(path),
        fallbackFolder: `${this.pluginFolder()}/kept-aside`,
      },
      new KeptAsideNotice().report,
    );
    const activityFile = this.pluginFile('activity.json', this.writerLock.id);
    this.activity = new ActivityLog(activityFile, () => this.settings.activity, undefined, keepAside);
    this.reverts = new ActivityRevert(this.activity, this.notes, keyRoots);
    const peers = new VaultPeers(vaultLocation(this.app), new VaultRegistry(registryFolder()));
    this.ai = new AiService({
      getSettings: () => this.settings.ai,
      getApiKey: () => this.app.secretStorage.getSecret(AI_API_KEY_SECRET_ID),
      saveUsage: async (usage) => {
        this.settings.ai.usage = usage;
        await this.saveSettings();
      },
    });
    this.semantic = new SemanticIndex(this.notes, this.ai, {
      enabled: () => this.settings.ai.semanticIndex,
      // Every instance on the vault saves the index files: temp copies named per instance (PluginFile's `writer`).
      storage: semanticIndexStorage((name) => this.pluginFile(name, this.writerLock.id)),
    });
    const services = createSessionServices(
      this.notes,
      this.search,
      this.proposals,
      this.review,
      () => this.settings,
      this.manifest.version,
      peers,
      this.semantic,
      this.activity,
    );
    this.server = new McpHttpServer(this.keyRing, () => this.settings, services);
    publishApi(this, createPublicApi(this.ai));
    this.settingTab = new VaultMcpSettingTab(this.app, this);
    this.addSettingTab(this.settingTab);
    registerCliHandlers(this);
    registerReview(this);
    registerActivity(this);
    registerWidgetBlocks(this, vaultWidgetSource(this.notes, this.widgetWriters));
    this.register(this.widgetWriters.followRenames(this.notes));
    this.register(() => {
      this.api = null;
      // A save the index owed is still made, in slices, after the unload (SearchIndex.stop).
      void this.search.stop();
      this.semantic.stop();
      this.notes.close();
      void Promise.all([this.server.stop(), this.writerLock.release()]);
    });
    this.app.workspace.onLayoutReady(() => void this.startServices());
  }

  /** A file of the plugin's own in its folder (`manifest.dir`); `writer`: this instance's id, for a file several instances write (PluginFile). */
  pluginFile(name: string, writer?: string): PluginFile {
    return new PluginFile(this.app.vault.adapter, this.pluginFolder(), name, writer);
  }

  /** The plugin's own folder, vault-relative (`manifest.dir`, else `<configDir>/plugins/<id>`). */
  private pluginFolder(): string {
    return this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
  }

  /** Where the search index is saved between runs: `search-index.json` and its parts in the plugin folder (ui/index-files.ts); the head's temp copies named per instance, as every instance saves it. */
  indexStorage(): IndexStorage {
    return searchIndexStorage((name) => new PartedFile(this.app.vault.adapter, this.pluginFile(name).folder, name, this.writerLock.id));
  }

  /** Loads proposals, starts the index and the server (not when the plugin unloaded meanwhile); problems are shown as Notices, not thrown. */
  async startServices(): Promise<void> {
    const { problem, stopped } = await this.proposals.load();
    if (stopped) return;
    if (problem) new Notice(problem);
    // A synced or hand-edited entry that names no folder is kept as written, and the user is told it quarantines nothing;
    // one naming a note or file is told too (it hides that file alone). Here, once the vault is loaded, so a file is seen.
    const quarantine = this.settings.access.quarantine;
    const unusable = quarantineNotice(quarantine, (entry) => this.notes.policy.literalPath(entry), quarantinedFileAt(this.notes));
    if (unusable) new Notice(unusable, 0);
    this.register(this.proposals.followNotes());
    void this.search.start();
    addSemanticStatusBarItem(this, this.semantic);
    void this.semantic.start();
    await this.restartServer();
  }

  /** (Re)binds the server to the configured port; failures become a Notice and the status line. */
  async restartServer(): Promise<void> {
    try {
      await this.server.start();
    } catch (error) {
      new Notice(`Vault MCP: ${(error as Error).message}`);
    }
  }

  /** data.json changed on another device: reload it, move the server if needed, redraw the tab. */
  override async onExternalSettingsChange(): Promise<void> {
    await applyExternalSettings(this, this.pluginFile('data.json'));
    this.review.accessChanged();
    this.settingTab.refreshIfOpen();
  }

  /** Persists settings to data.json (no secrets are in them); the server and the review then re-judge what each key sees and may change. */
  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
    this.review?.accessChanged();
    await this.server?.accessChanged();
  }
}
