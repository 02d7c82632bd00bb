// `npm version <patch|minor|major|x.y.z>` runs this as the package's "version" script, after
// package.json has the new version and before npm commits and tags: manifest.json takes the
// same version, and versions.json maps it to manifest.json's minAppVersion (how Obsidian picks
// the newest release an older app can install). Both files are staged for npm's commit.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (name) => JSON.parse(readFileSync(path.join(root, name), 'utf8'));
const write = (name, value) => writeFileSync(path.join(root, name), `${JSON.stringify(value, null, 2)}\n`);

const version = process.env.npm_package_version ?? read('package.json').version;
if (!/^\d+\.\d+\.\d+$/.test(version)) {
  console.error(
    `version-bump: "${version}" is not x.y.z; Obsidian's release tags and manifest versions are plain x.y.z (no "v", no pre-release suffix).`,
  );
  process.exit(1);
}
const manifest = read('manifest.json');
manifest.version = version;
write('manifest.json', manifest);
const versions = read('versions.json');
versions[version] = manifest.minAppVersion;
write('versions.json', versions);
execFileSync('git', ['add', 'manifest.json', 'versions.json'], { cwd: root, stdio: 'inherit' });
console.log(`version-bump: manifest.json ${version}, versions.json ${version} -> minAppVersion ${manifest.minAppVersion}`);
