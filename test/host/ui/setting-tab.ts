import type * as O from 'obsidian';
import { createHostElement } from './dom';

/**
 * Obsidian's `PluginSettingTab` (obsidian.d.ts, incl. the 1.13 declarative settings API)
 * with the data side complete and the DOM side minimal: `containerEl` is a real element when
 * a DOM exists (jsdom) and the host stand-in otherwise; `display()` renders nothing by
 * itself (subclasses render imperatively); declarative definitions are collected by
 * `update()` into `settingItems` but not drawn, so `refreshDomState()` has nothing to touch.
 * Control values live in `plugin.settings[key]` and are saved with `plugin.saveData`.
 */
export abstract class PluginSettingTab implements O.PluginSettingTab {
  app: O.App;
  plugin: O.Plugin;
  containerEl: HTMLElement;
  icon = 'settings';
  settingItems: O.SettingDefinitionItem[] = [];

  /** Creates the tab of `plugin` with an empty `containerEl`. */
  constructor(app: O.App, plugin: O.Plugin) {
    this.app = app;
    this.plugin = plugin;
    this.containerEl = createHostElement('div', 'vertical-tab-content');
  }

  /** Declarative setting definitions; none unless a subclass overrides it. */
  getSettingDefinitions(): O.SettingDefinitionItem[] {
    return [];
  }

  /** Stores `getSettingDefinitions()` in `settingItems`. */
  update(): void {
    this.settingItems = this.getSettingDefinitions();
  }

  /** `plugin.settings[key]` (undefined when settings are not an object). */
  getControlValue(key: string): unknown {
    const settings = this.plugin.settings;
    return settings && typeof settings === 'object' ? (settings as Record<string, unknown>)[key] : undefined;
  }

  /** Sets `plugin.settings[key] = value` and saves the settings with `plugin.saveData`. */
  async setControlValue(key: string, value: unknown): Promise<void> {
    if (!this.plugin.settings || typeof this.plugin.settings !== 'object') this.plugin.settings = {};
    (this.plugin.settings as Record<string, unknown>)[key] = value;
    await this.plugin.saveData(this.plugin.settings);
  }

  /** No declarative settings are drawn by the host, so there is no predicate state to refresh. */
  refreshDomState(): void {}

  /** Renders the tab; the base version only clears the container. */
  display(): void {
    this.containerEl.empty();
  }

  /** Empties the container, as Obsidian does when the tab closes. */
  hide(): void {
    this.containerEl.empty();
  }
}
