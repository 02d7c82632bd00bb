// `node scripts/profile-cold.mjs [notes | x7] [--cpu] [--alloc]`: see scripts/profile-cold.ts. Runs it with the bench row's heap limit (8 GB), as a row's process has.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runBundled } from './run-bundled.mjs';

if (process.execArgv.some((flag) => flag.startsWith('--max-old-space-size'))) await runBundled('profile-cold.ts');
else {
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, '--max-old-space-size=8192', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exitCode = run.status ?? 1;
}
