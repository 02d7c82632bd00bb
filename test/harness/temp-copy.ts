import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';

/** The demo vault shipped with the repo. */
export const DEMO_VAULT = nodePath.resolve(__dirname, '../fixtures/demo-vault');
/** The shared real vaults (absent on some machines: tests skip with a message). */
export const HELP_EN_VAULT = nodePath.resolve(__dirname, '../../../shared/vaults/obsidian-help-en');
export const HELP_INTL_VAULT = nodePath.resolve(__dirname, '../../../shared/vaults/obsidian-help-intl');

/** Copies `source` into a new temp folder. @returns the folder and a remover. */
export async function copyToTemp(source: string): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-it-'));
  await fsp.cp(source, dir, { recursive: true });
  return { dir, cleanup: () => fsp.rm(dir, { recursive: true, force: true }) };
}
