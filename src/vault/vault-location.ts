import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { FileSystemAdapter, type App } from 'obsidian';

/** Where a vault is on disk, for the vault registry and for placing MCP roots. */
export interface VaultLocation {
  /** The vault's name (`vault.getName()`: its folder name). */
  name: string;
  /** Absolute path of the vault folder (`FileSystemAdapter.getBasePath`), or null when it has none (not a desktop adapter). */
  folder: string | null;
  /** Every spelling of the folder a path may be given in: as opened and its real path (symbolic links resolved); empty without a folder. */
  folderSpellings: string[];
}

/** The vault's name and folder (Obsidian API: `Vault.getName`, `FileSystemAdapter.getBasePath`). */
export function vaultLocation(app: App): VaultLocation {
  const adapter = app.vault.adapter;
  if (!(adapter instanceof FileSystemAdapter)) return { name: app.vault.getName(), folder: null, folderSpellings: [] };
  const folder = nodePath.resolve(adapter.getBasePath());
  const spellings = [folder];
  try {
    const real = fs.realpathSync.native(folder);
    if (real !== folder) spellings.push(real);
  } catch {
    // An unreadable folder keeps the spelling it was opened with.
  }
  return { name: app.vault.getName(), folder, folderSpellings: spellings };
}
