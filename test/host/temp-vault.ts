import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { App, createHostApp, HostAppOptions } from './app';

/** A throwaway vault folder with an App over it. */
export interface TempVault {
  /** Absolute path of the vault folder (under os.tmpdir()). */
  dir: string;
  app: App;
  /** Closes the App and deletes the folder. */
  cleanup(): Promise<void>;
}

/**
 * Test helper: writes `files` (vault path → text) into a new folder made with fs.mkdtemp
 * under os.tmpdir(), then opens it with createHostApp (extra `options` passed through).
 */
export async function createTempVault(files: Record<string, string>, options: Omit<HostAppOptions, 'vaultPath'> = {}): Promise<TempVault> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'host-vault-'));
  for (const [path, text] of Object.entries(files)) {
    const full = nodePath.join(dir, ...path.split('/'));
    await fsp.mkdir(nodePath.dirname(full), { recursive: true });
    await fsp.writeFile(full, text);
  }
  const app = await createHostApp({ ...options, vaultPath: dir });
  return {
    dir,
    app,
    cleanup: async () => {
      await app.close();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
