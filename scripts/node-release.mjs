// A Node binary of a given major release, for what needs one other than the running Node: the
// conformance suite (Node 22 or newer: it calls fs.globSync, which Node 20 lacks) and the bench's
// `--node <major>` (a row on a newer V8, closer to Electron's, which runs the plugin in Obsidian).
// It is the running Node when that fits, else the npm package node-<platform>-<arch>@<major>
// installed on demand into build/node<major>/ (not a devDependency: its `node` binary would shadow
// the system Node in every npm script).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A node executable of release line `major`: this process's Node when its major is `major` (or,
 * with `orNewer`, at least `major`), else one installed with npm into build/node<major>/ (kept
 * between runs; the first install downloads about 30 MB from the npm registry). Exits the process
 * with a message when none can be had.
 * @param {number} major the Node release line, e.g. 22
 * @param {string} who what needs it, for the messages (e.g. "conformance: the suite")
 * @param {{ orNewer?: boolean }} [options] orNewer: a running Node newer than `major` will do
 * @returns {string} the path of the node executable
 */
export function nodeBinary(major, who, { orNewer = false } = {}) {
  const running = Number(process.versions.node.split('.')[0]);
  if (running === major || (orNewer && running > major)) return process.execPath;
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${platform}-${arch}`;
  const prefix = path.join(root, 'build', `node${major}`);
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(binary)) {
    console.log(`${who} needs Node ${major}; installing ${pkg}@${major} into build/node${major}/ (once)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = spawnSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `${pkg}@${major}`], {
      cwd: root,
      stdio: 'inherit',
    });
    if (install.status !== 0 || !existsSync(binary)) {
      console.error(`${who} could not install ${pkg}@${major} from npm; run it with Node ${major} instead.`);
      process.exit(1);
    }
  }
  return binary;
}
