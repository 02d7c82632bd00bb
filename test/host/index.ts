/**
 * The host's `obsidian` module: Jest maps `import ... from 'obsidian'` here, and `npm start`
 * runs the built plugin against it. Names match obsidian.d.ts; host-only helpers
 * (createHostApp, loadPluginInHost, ...) are exported alongside for tests and the runner.
 */
export { Events } from './events';
export type { HostEventRef } from './events';
export { TAbstractFile, TFile, TFolder } from './vault/abstract-file';
export { Vault } from './vault/vault';
export { FileSystemAdapter } from './vault/vault-adapter';
export { MetadataCache } from './markdown/metadata-cache';
export type { SavedMetadata, SavedMetadataEntry } from './markdown/metadata-cache';
export { FileManager } from './vault/file-manager';
export { Workspace } from './workspace/workspace';
export type { NoteSelection, HostLeaf, OpenNoteOptions } from './workspace/workspace';
export { WorkspaceLeaf } from './workspace/workspace-leaf';
export type { LeafSide } from './workspace/workspace-leaf';
export { View, ItemView } from './workspace/view';
export { MarkdownView } from './workspace/markdown-view';
export { HostEditor, HostEditor as Editor } from './workspace/editor';
export { CodeMirrorEditor } from './workspace/cm-editor';
export { editorInfoField, editorEditorField, editorLivePreviewField, editorInfoField as editorViewField } from './workspace/editor-fields';
export { drawIcon as setIcon } from './ui/icons';
export { Component } from './component';
export { Plugin } from './plugin';
export { MarkdownRenderChild, HostPostProcessorContext } from './workspace/markdown-render-child';
export { PluginSettingTab } from './ui/setting-tab';
export {
  Setting,
  BaseComponent,
  ValueComponent,
  AbstractTextComponent,
  TextComponent,
  TextAreaComponent,
  ToggleComponent,
  DropdownComponent,
  ButtonComponent,
  ExtraButtonComponent,
  SecretComponent,
} from './ui/setting';
export { Notice } from './ui/notice';
export { SecretStorage } from './secret-storage';
export { Platform } from './functions/platform';
export { normalizePath } from './vault/path';
export { parseYaml, stringifyYaml } from './markdown/yaml';
export { requestUrl, request } from './functions/request-url';
export { debounce } from './functions/debounce';
export { apiVersion, requireApiVersion, iterateRefs, iterateCacheRefs, setHostApiVersion } from './functions/refs';
export {
  getAllTags,
  getFrontMatterInfo,
  parseFrontMatterAliases,
  parseFrontMatterEntry,
  parseFrontMatterStringArray,
  parseFrontMatterTags,
} from './markdown/frontmatter';
export { getLinkpath, parseLinktext } from './markdown/link-text';
export { parseNoteMetadata } from './markdown/markdown-metadata';
export { createHostElement, HostElement } from './ui/dom';
export { HostCommands } from './commands';
export { App, HostPlugins, createHostApp, loadPluginInHost, unloadPluginInHost, simulateExternalSettingsChange } from './app';
export type { HostAppOptions } from './app';
export { App as HostApp } from './app';
export { createTempVault } from './temp-vault';
export type { TempVault } from './temp-vault';
