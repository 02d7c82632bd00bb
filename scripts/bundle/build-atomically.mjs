// Builds with esbuild and puts each output file in place by rename, so a process reading it
// (an `npm start` in another terminal, a test starting the runner) never meets it half-written.
import esbuild from 'esbuild';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

/**
 * Runs `esbuild.build(options)` in memory (`write: false`) and writes each output file to a
 * temporary name beside it (`<file>.<pid>.tmp`), then renames it over the file: on POSIX a
 * rename replaces the name at once, so a reader gets the old bytes or the new, never a part.
 * esbuild's own write truncates the file first; two `npm start` runs at once (two vaults in
 * two terminals) could then load an empty or cut bundle, which ran nothing and exited 0.
 * @param {import('esbuild').BuildOptions} options esbuild options with `outfile` or `outdir`
 * @returns {Promise<import('esbuild').BuildResult>} esbuild's result (its `outputFiles` are written)
 * @throws esbuild's error when the build fails (nothing is written then), or a file system error
 *   when an output cannot be written (its temporary file is removed)
 */
export async function buildAtomically(options) {
  const result = await esbuild.build({ ...options, write: false });
  for (const file of result.outputFiles ?? []) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    try {
      await fsp.mkdir(path.dirname(file.path), { recursive: true });
      await fsp.writeFile(temporary, file.contents);
      await fsp.rename(temporary, file.path);
    } catch (error) {
      await fsp.rm(temporary, { force: true });
      throw error;
    }
  }
  return result;
}
