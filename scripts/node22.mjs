// A Node 22 binary for what needs one (the conformance suite, which calls fs.globSync; the bench's
// --node22, which measures on a V8 with Maglev as Electron's has): the running Node when it is 22 or
// newer, else the npm package node-<platform>-<arch>@22 installed on demand into build/node22/ (not a
// devDependency: its `node` binary would shadow the system Node in every npm script).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * This process's Node when it is 22 or newer, else one installed with npm into build/node22/ (kept
 * between runs; the first install downloads about 30 MB from the npm registry). Exits the process
 * with a message when none can be had.
 * @param {string} who what needs it, for the messages (e.g. "conformance: the suite")
 * @returns {string} the path of the node executable
 */
export function node22Binary(who) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${platform}-${arch}`;
  const prefix = path.join(root, 'build', 'node22');
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(binary)) {
    console.log(`${who} needs Node 22; installing ${pkg}@22 into build/node22/ (once)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `${pkg}@22`], {
      cwd: root,
      stdio: 'inherit',
    });
    if (install.status !== 0 || !existsSync(binary)) {
      console.error(`${who} could not install ${pkg}@22 from npm; run it with Node 22 instead.`);
      process.exit(1);
    }
  }
  return binary;
}
