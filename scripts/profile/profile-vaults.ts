/** The real-note vaults the profile scripts run on, made by bench runs (scripts/bench/scaling/scaling.ts). */
import { existsSync } from 'node:fs';
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
