/**
 * The host's `obsidian` module: Jest maps `import ... from 'obsidian'` here, and `npm start`
 * runs the built plugin against it. Names match obsidian.d.ts; host-only helpers
 * (createHostApp, loadPluginInHost, ...) are exported alongside for tests and the runner.
 */
export { Events } from './events';
export type { HostEventRef } from './events';
export { TAbstractFile, TFile, TFolder } from './abstract-file';
export { Vault } from './vault';
export { FileSystemAdapter } from './vault-adapter';
export { MetadataCache } from './metadata-cache';
export type { SavedMetadata, SavedMetadataEntry } from './metadata-cache';
export { FileManager } from './file-manager';
export { Workspace } from './workspace';
export type { NoteSelection, HostLeaf, OpenNoteOptions } from './workspace';
export { WorkspaceLeaf } from './workspace-leaf';
export type { LeafSide } from './workspace-leaf';
export { View, ItemView } from './view';
export { MarkdownView } from './markdown-view';
export { HostEditor, HostEditor as Editor } from './editor';
export { CodeMirrorEditor } from './cm-editor';
export { editorInfoField, editorEditorField, editorLivePreviewField, editorInfoField as editorViewField } from './editor-fields';
export { drawIcon as setIcon } from './icons';
export { Component } from './component';
export { Plugin } from './plugin';
export { MarkdownRenderChild, HostPostProcessorContext } from './markdown-render-child';
export { PluginSettingTab } from './setting-tab';
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
} from './setting';
export { Notice } from './notice';
export { SecretStorage } from './secret-storage';
export { Platform } from './platform';
export { normalizePath } from './path';
export { parseYaml, stringifyYaml } from './yaml';
export { requestUrl, request } from './request-url';
export { debounce } from './debounce';
export { apiVersion, requireApiVersion, iterateRefs, iterateCacheRefs, setHostApiVersion } from './refs';
export {
  getAllTags,
  getFrontMatterInfo,
  parseFrontMatterAliases,
  parseFrontMatterEntry,
  parseFrontMatterStringArray,
  parseFrontMatterTags,
} from './frontmatter';
export { getLinkpath, parseLinktext } from './link-text';
export { parseNoteMetadata } from './markdown-metadata';
export { createHostElement, HostElement } from './dom';
export { HostCommands } from './commands';
export { App, HostPlugins, createHostApp, loadPluginInHost, unloadPluginInHost, simulateExternalSettingsChange } from './app';
export type { HostAppOptions } from './app';
export { App as HostApp } from './app';
export { createTempVault } from './temp-vault';
export type { TempVault } from './temp-vault';
