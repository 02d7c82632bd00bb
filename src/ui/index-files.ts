import { Notice } from 'obsidian';
import { INDEX_FILE } from '../search/engine/index-file';
import type { IndexStorage } from '../search/search-index';
import type { SemanticStorage } from '../search/semantic/semantic-index';
import { SEMANTIC_INDEX_FILE } from '../search/semantic/store-file';
import type { PluginFile } from '../vault/plugin-file';

/**
 * The lexical search index's storage, `search-index.json` in the plugin folder: an unreadable
 * file reads as none (the index is rebuilt); a damaged one is kept aside
 * (PluginFile.keepCorruptAside) and a Notice tells the user where, while the index is rebuilt from the notes.
 * @param fileOf the plugin's file of a name (VaultMcpPlugin.pluginFile).
 */
export function searchIndexStorage(fileOf: (name: string) => PluginFile): IndexStorage {
  const file = fileOf(INDEX_FILE);
  return {
    load: () => file.read().catch(() => null),
    save: (chunks) => file.writeChunks(chunks),
    damaged: async (reason) => {
      const aside = await file.keepCorruptAside();
      new Notice(
        `Vault MCP's search index file was damaged (${reason}); it was kept as ${aside} and the index is rebuilt from your notes.`,
      );
    },
  };
}

/**
 * The semantic index's storage, `semantic-index.bin` in the plugin folder (an unreadable file reads as none).
 * @param fileOf the plugin's file of a name (VaultMcpPlugin.pluginFile).
 */
export function semanticIndexStorage(fileOf: (name: string) => PluginFile): SemanticStorage {
  const file = fileOf(SEMANTIC_INDEX_FILE);
  return { load: () => file.readBinary().catch(() => null), save: (data) => file.writeBinary(data) };
}
