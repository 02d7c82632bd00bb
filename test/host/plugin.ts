import type * as O from 'obsidian';
import type { Extension } from '@codemirror/state';
import { Component } from './component';
import { createHostElement } from './ui/dom';
import { drawIcon } from './ui/icons';
import type { App } from './app';
import type { HostViewCreator } from './workspace/view';

type PluginMembers =
  | 'app'
  | 'manifest'
  | 'onload'
  | 'addRibbonIcon'
  | 'addStatusBarItem'
  | 'addCommand'
  | 'removeCommand'
  | 'addSettingTab'
  | 'registerView'
  | 'registerExtensions'
  | 'registerMarkdownPostProcessor'
  | 'registerMarkdownCodeBlockProcessor'
  | 'registerEditorExtension'
  | 'registerObsidianProtocolHandler'
  | 'registerEditorSuggest'
  | 'registerHoverLinkSource'
  | 'registerCliHandler'
  | 'registerBasesView'
  | 'loadData'
  | 'saveData'
  | 'onUserEnable';

/**
 * Obsidian's `Plugin` (obsidian.d.ts) in the host. Everything a plugin registers is recorded
 * on the instance for tests (`commands`, `settingTabs`, `statusBarItems`, `ribbonIcons`,
 * `views`, `editorExtensions`, `cliHandlers`, ...) and released on unload. Commands get
 * Obsidian's `<plugin-id>:` id prefix and `<Plugin name>: ` name prefix and go into the
 * app's command registry. `loadData`/`saveData` use
 * `<vault>/<configDir>/plugins/<id>/data.json` (pretty-printed JSON, written in place by the adapter, as Obsidian does).
 */
export abstract class Plugin extends Component implements Pick<O.Plugin, PluginMembers> {
  app: O.App;
  manifest: O.PluginManifest;
  settings?: unknown;
  /** Host records of what the plugin registered (cleared on unload where Obsidian removes it). */
  readonly commands: O.Command[] = [];
  readonly settingTabs: O.PluginSettingTab[] = [];
  readonly statusBarItems: HTMLElement[] = [];
  readonly ribbonIcons: Array<{ icon: string; title: string; callback: (evt: MouseEvent) => any; el: HTMLElement }> = [];
  readonly views = new Map<string, HostViewCreator>();
  readonly extensions = new Map<string, string>();
  readonly editorExtensions: Extension[] = [];
  readonly cliHandlers = new Map<string, { description: string; flags: O.CliFlags | null; handler: O.CliHandler }>();
  readonly protocolHandlers = new Map<string, O.ObsidianProtocolHandler>();
  readonly markdownPostProcessors: O.MarkdownPostProcessor[] = [];
  readonly codeBlockProcessors = new Map<
    string,
    (source: string, el: HTMLElement, ctx: O.MarkdownPostProcessorContext) => Promise<any> | void
  >();
  readonly editorSuggests: O.EditorSuggest<any>[] = [];
  readonly hoverLinkSources = new Map<string, O.HoverLinkSource>();

  /** Creates the plugin; Obsidian (here: loadPluginInHost) calls `load()` afterwards. */
  constructor(app: O.App, manifest: O.PluginManifest) {
    super();
    this.app = app;
    this.manifest = manifest;
  }

  private get host(): App {
    return this.app as unknown as App;
  }

  /** Folder of the plugin's files: `manifest.dir` or `<configDir>/plugins/<id>`. */
  private get dataPath(): string {
    const dir = this.manifest.dir ?? `${this.host.vault.configDir}/plugins/${this.manifest.id}`;
    return `${dir}/data.json`;
  }

  override onload(): Promise<void> | void {}

  onUserEnable(): void {}

  /** Adds `div.clickable-icon.side-dock-ribbon-action` (icon, `aria-label` = title); a click calls `callback`. */
  addRibbonIcon(icon: O.IconName, title: string, callback: (evt: MouseEvent) => any): HTMLElement {
    const el = createHostElement('div', { cls: ['clickable-icon', 'side-dock-ribbon-action'], attr: { 'aria-label': title } });
    drawIcon(el, icon);
    const record = { icon, title, callback, el };
    this.ribbonIcons.push(record);
    el.addEventListener('click', callback as EventListener);
    this.register(() => this.ribbonIcons.splice(this.ribbonIcons.indexOf(record), 1));
    return el;
  }

  /** A `div.status-bar-item.plugin-<id>` (a real element under a DOM) recorded in `statusBarItems`. */
  addStatusBarItem(): HTMLElement {
    const el = createHostElement('div', `status-bar-item plugin-${this.manifest.id}`);
    this.statusBarItems.push(el);
    this.register(() => {
      this.statusBarItems.splice(this.statusBarItems.indexOf(el), 1);
      el.detach();
    });
    return el;
  }

  addCommand(command: O.Command): O.Command {
    const full: O.Command = { ...command, id: `${this.manifest.id}:${command.id}`, name: `${this.manifest.name}: ${command.name}` };
    this.host.commands.addCommand(full);
    this.commands.push(full);
    this.register(() => this.removeCommand(command.id));
    return full;
  }

  /** Removes a command added by this plugin (by its id without the plugin prefix). */
  removeCommand(commandId: string): void {
    const id = `${this.manifest.id}:${commandId}`;
    this.host.commands.removeCommand(id);
    const i = this.commands.findIndex((c) => c.id === id);
    if (i >= 0) this.commands.splice(i, 1);
  }

  addSettingTab(settingTab: O.PluginSettingTab): void {
    this.settingTabs.push(settingTab);
    this.register(() => this.settingTabs.splice(this.settingTabs.indexOf(settingTab), 1));
  }

  /**
   * Registers a view type for `leaf.setViewState({type})`; on unload the type is removed and
   * its leaves detached, as in Obsidian. Throws when the type is already registered.
   */
  registerView(type: string, viewCreator: HostViewCreator): void {
    this.host.workspace.registerViewType(type, viewCreator);
    this.views.set(type, viewCreator);
    this.register(() => {
      this.views.delete(type);
      this.host.workspace.unregisterViewType(type);
    });
  }

  registerExtensions(extensions: string[], viewType: string): void {
    for (const ext of extensions) this.extensions.set(ext, viewType);
  }

  registerMarkdownPostProcessor(postProcessor: O.MarkdownPostProcessor, _sortOrder?: number): O.MarkdownPostProcessor {
    this.markdownPostProcessors.push(postProcessor);
    return postProcessor;
  }

  /**
   * Registers `handler` for fenced code of `language`; the returned post processor replaces
   * each `pre > code.language-<language>` in a rendered element with a `div` the handler fills.
   */
  registerMarkdownCodeBlockProcessor(
    language: string,
    handler: (source: string, el: HTMLElement, ctx: O.MarkdownPostProcessorContext) => Promise<any> | void,
    _sortOrder?: number,
  ): O.MarkdownPostProcessor {
    this.codeBlockProcessors.set(language, handler);
    const processor = async (el: HTMLElement, ctx: O.MarkdownPostProcessorContext): Promise<void> => {
      const blocks = typeof el.querySelectorAll === 'function' ? Array.from(el.querySelectorAll(`pre > code.language-${language}`)) : [];
      for (const code of blocks) {
        const div = createHostElement('div', `block-language-${language}`);
        code.parentElement?.replaceWith(div);
        await handler(code.textContent ?? '', div, ctx);
      }
    };
    this.markdownPostProcessors.push(processor);
    return processor;
  }

  /**
   * Adds a CodeMirror extension to every Markdown editor, open ones included. An array
   * passed here may be changed later; `workspace.updateOptions()` applies its new content.
   * Removed again on unload.
   */
  registerEditorExtension(extension: Extension): void {
    this.editorExtensions.push(extension);
    this.host.workspace.registerEditorExtension(extension);
    this.register(() => {
      this.editorExtensions.splice(this.editorExtensions.indexOf(extension), 1);
      this.host.workspace.unregisterEditorExtension(extension);
    });
  }

  registerObsidianProtocolHandler(action: string, handler: O.ObsidianProtocolHandler): void {
    this.protocolHandlers.set(action, handler);
  }

  registerEditorSuggest(editorSuggest: O.EditorSuggest<any>): void {
    this.editorSuggests.push(editorSuggest);
  }

  registerHoverLinkSource(id: string, info: O.HoverLinkSource): void {
    this.hoverLinkSources.set(id, info);
  }

  /** Bases are not part of the host: returns false, as Obsidian does when Bases is disabled. */
  registerBasesView(_viewId: string, _registration: O.BasesViewRegistration): boolean {
    return false;
  }

  /** Registers a CLI command; throws when the command id is already registered by any plugin. */
  registerCliHandler(command: string, description: string, flags: O.CliFlags | null, handler: O.CliHandler): void {
    const registry = this.host.cliHandlers;
    if (registry.has(command)) throw new Error(`CLI command "${command}" is already registered.`);
    const entry = { description, flags, handler };
    registry.set(command, entry);
    this.cliHandlers.set(command, entry);
    this.register(() => {
      registry.delete(command);
      this.cliHandlers.delete(command);
    });
  }

  /** The parsed data.json, or null when there is none. Throws SyntaxError for invalid JSON. */
  async loadData(): Promise<any> {
    const adapter = this.host.vault.adapter;
    if (!(await adapter.exists(this.dataPath))) return null;
    return JSON.parse(await adapter.read(this.dataPath));
  }

  /** Writes `data` as data.json (creating the plugin folder if needed). */
  async saveData(data: any): Promise<void> {
    const adapter = this.host.vault.adapter;
    await adapter.mkdir(this.dataPath.slice(0, this.dataPath.lastIndexOf('/')));
    await adapter.write(this.dataPath, JSON.stringify(data, null, 2));
  }
}
