import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { secretIdForKey, type KeyMode, type KeyRecord, type KeyToolSet } from '../../../src/settings/key-record';
import { bootPlugin, type BootedPlugin } from '../boot-plugin';
import { writeVaultFiles } from '../edits/write-helpers';

/** A key beside the run's own: its mode (default force) and tool set. */
export interface ToolSetKey {
  mode?: KeyMode;
  tools: KeyToolSet;
}

/** The bearer token {@link bootWithToolSetKeys} gives the key labelled `label`. */
export function toolSetKeyToken(label: string): string {
  return `${label.toLowerCase()}-token-0123456789abcdef`;
}

/** A plugin booted by {@link bootWithToolSetKeys}. */
export interface ToolSetVault {
  /** The running plugin; its own key is "Writer" (force, every tool, writes allowed). */
  booted: BootedPlugin<VaultMcpPlugin>;
  /** Stops the plugin and removes the vault folder. */
  done(): Promise<void>;
}

/**
 * Writes `files` (vault path → text) to a new folder named `tempPrefix`… under os.tmpdir() and
 * boots the plugin there with its run key "Writer" (force, writes allowed) plus one key per entry
 * of `keys`: id the label in lower case, no roots, the given mode and tool set, token
 * {@link toolSetKeyToken}(label) in the host's SecretStorage.
 * @returns the boot and its clean-up.
 * @throws what writing the files or bootPlugin throws, after removing the folder.
 */
export async function bootWithToolSetKeys(
  tempPrefix: string,
  files: Record<string, string>,
  keys: Record<string, ToolSetKey>,
): Promise<ToolSetVault> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), tempPrefix));
  const remove = (): Promise<void> => fsp.rm(dir, { recursive: true, force: true });
  try {
    await writeVaultFiles(dir, files);
    const now = new Date().toISOString();
    const records: KeyRecord[] = Object.entries(keys).map(([label, key]) => ({
      id: label.toLowerCase(),
      label,
      mode: key.mode ?? 'force',
      scope: 'local',
      roots: [],
      tools: key.tools,
      created_at: now,
      last_used_at: null,
    }));
    const booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: dir,
      label: 'Writer',
      mode: 'force',
      allowWrites: true,
      configure: (settings) => settings.keys.push(...records),
      secrets: Object.fromEntries(records.map((k) => [secretIdForKey(k.id), toolSetKeyToken(k.label)])),
    });
    return {
      booted,
      done: async () => {
        await booted.stop();
        await remove();
      },
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
