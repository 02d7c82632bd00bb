import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { App } from 'obsidian';
import { createHostApp, type HostApp } from '../host';

/** The demo vault shipped with the repo (test/fixtures/demo-vault). */
export const DEMO_VAULT = nodePath.resolve(__dirname, '../fixtures/demo-vault');

/** A private copy of the demo vault, opened in the host. */
export interface DemoVault {
  /** The host app, typed as Obsidian's App for NoteStore. */
  app: App;
  /** The host app with host-only helpers (workspace.setActiveNote...). */
  host: HostApp;
  /** Absolute path of the copy (under os.tmpdir()). */
  dir: string;
  /** Closes the app and deletes the copy. */
  close(): Promise<void>;
}

/**
 * Copies the demo vault to a new fs.mkdtemp folder, lets `prepare` change the copy on disk
 * (extra files, mtimes), then opens it with the host's createHostApp (disk watching off, so
 * only the test's own changes happen). The copy is removed again when opening fails.
 */
export async function openDemoVault(prepare?: (dir: string) => Promise<void>): Promise<DemoVault> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-demo-'));
  let host: HostApp;
  try {
    await fsp.cp(DEMO_VAULT, dir, { recursive: true });
    if (prepare) await prepare(dir);
    host = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    app: host as unknown as App,
    host,
    dir,
    close: async () => {
      await host.close();
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
