import { PluginSettingTab, type App } from 'obsidian';
import { renderAccessSection } from './sections/access-section';
import { renderAiSection } from './sections/ai-section';
import { renderConnectSection } from './sections/connect-section';
import { renderKeysSection } from './sections/keys-section';
import { renderReviewSection } from './sections/review-section';
import { renderActivitySection } from './sections/activity-section';
import { renderServerSection } from './sections/server-section';
import type { SectionContext, SettingsTabPlugin } from './tab-context';
import { renderToolsSection } from './sections/tools-section';

/**
 * Vault MCP's tab in Settings → Community plugins (Obsidian `PluginSettingTab`, drawn
 * imperatively with `Setting` rows and `setHeading()` sections): Server, Keys, Connect a
 * client, Tools, Access, AI provider. Every action saves at once and redraws the tab.
 */
export class VaultMcpSettingTab extends PluginSettingTab {
  private readonly ctx: SectionContext;
  private open = false;

  /** @param plugin the Vault MCP plugin (or a stand-in with the same surface, see {@link SettingsTabPlugin}) */
  constructor(app: App, plugin: SettingsTabPlugin) {
    super(app, plugin);
    this.ctx = { app, plugin, redisplay: () => this.display(), selectedKeyId: null };
  }

  /** Redraws every section from the current settings. */
  override display(): void {
    const el = this.containerEl;
    this.open = true;
    el.empty();
    el.addClass('vault-mcp-settings');
    renderServerSection(el, this.ctx);
    renderKeysSection(el, this.ctx);
    renderConnectSection(el, this.ctx);
    renderToolsSection(el, this.ctx);
    renderReviewSection(el, this.ctx);
    renderActivitySection(el, this.ctx);
    renderAccessSection(el, this.ctx);
    renderAiSection(el, this.ctx);
  }

  /** Empties the tab when Obsidian closes it. */
  override hide(): void {
    this.open = false;
    super.hide();
  }

  /** Redraws the tab only while it is open, e.g. after settings changed on another device. */
  refreshIfOpen(): void {
    if (this.open) this.display();
  }
}
