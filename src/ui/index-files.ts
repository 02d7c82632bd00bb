import { Notice } from 'obsidian';
import { INDEX_FILE } from '../search/engine/index-file';
import type { IndexStorage } from '../search/search-index';
import type { SemanticStorage } from '../search/semantic/semantic-index';
import { SEMANTIC_INDEX_FILE } from '../search/semantic/store-file';
import type { PartedFile } from '../vault/plugin-files/parted-file';
import { corruptTag, type PluginFile } from '../vault/plugin-files/plugin-file';

/**
 * The lexical search index's storage: the head `search-index.json` in the plugin folder and its
 * parts (text and binary files) in `search-index.parts/` (PartedFile). An unreadable head reads as none and an unreadable
 * part as missing; a damaged save (head and parts) is kept aside with one tag
 * (PartedFile.keepAside, `corrupt-<time>`) and a Notice tells the user where, while the index is
 * rebuilt from the notes.
 * @param fileOf the plugin's parted file of a name (in its folder, as VaultMcpPlugin.indexStorage makes it).
 */
export function searchIndexStorage(fileOf: (name: string) => PartedFile): IndexStorage {
  const file = fileOf(INDEX_FILE);
  return {
    loadHead: () => file.readHead().catch(() => null),
    loadPart: (generation, n, withBytes) => file.readPart(generation, n, withBytes).catch(() => null),
    save: (parts, head) => file.write(parts, head),
    damaged: async (reason) => {
      const aside = await file.keepAside(corruptTag());
      new Notice(
        `Vault MCP's search index file was damaged (${reason}); it was kept as ${aside.join(' and ')} and the index is rebuilt from your notes.`,
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
