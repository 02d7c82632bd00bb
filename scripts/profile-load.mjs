// `node scripts/profile-load.mjs <plugin folder> [--notes <vault folder>]`: see scripts/profile/profile-load.ts.
import { runBundled } from './run-bundled.mjs';

await runBundled('profile/profile-load.ts');
