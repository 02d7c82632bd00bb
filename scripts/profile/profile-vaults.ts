/** The real-note vaults the profile scripts run on, made by bench runs (scripts/bench/scaling/scaling.ts), and a vault's notes read into memory. */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';

/**
 * The bench's seven copies of the PowerShell vault (98,994 notes; scripts/bench/scaling/scaling.ts makes them).
 * @returns the folder holding the copies
 * @throws Error when no bench run has made them yet
 */
export function sevenCopies(): { path: string } {
  const path = nodePath.join(os.tmpdir(), 'vault-mcp-bench-powershell-x7');
  if (!existsSync(`${path}.done`))
    throw new Error(`${path} is not made yet: run npm run bench -- --only scale --scale 100000 --rows powershell-x7 once`);
  return { path };
}

/**
 * Every `.md` file under `folder` (dot-folders and dot-files skipped), as [vault path, text]: the
 * notes a profiler holds in memory as the host's vault does after its metadata pass.
 * @param folder the vault's folder. @param under a subfolder's vault path (internal; '' for the root).
 * @returns [path with `/`, UTF-8 text] per note, in directory order
 */
export async function vaultNotes(folder: string, under = '', into: [string, string][] = []): Promise<[string, string][]> {
  for (const e of await fsp.readdir(nodePath.join(folder, under), { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const path = under === '' ? e.name : `${under}/${e.name}`;
    if (e.isDirectory()) await vaultNotes(folder, path, into);
    else if (e.name.endsWith('.md')) into.push([path, await fsp.readFile(nodePath.join(folder, path), 'utf8')]);
  }
  return into;
}
