import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { REGISTRY_FILE, registryFolder, vaultIdOf, VaultRegistry, type VaultEntry } from '../../../src/server/vaults/vault-registry';

let folder: string;
beforeEach(async () => {
  folder = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-registry-unit-'));
});
afterEach(async () => {
  await fsp.rm(folder, { recursive: true, force: true });
});

function entry(name: string, pid = process.pid): VaultEntry {
  const path = nodePath.join(os.tmpdir(), name);
  return { id: vaultIdOf(path), name, path, port: 27200, pid, public_key: 'AAAA', started_at: new Date(0).toISOString() };
}

describe('registryFolder', () => {
  it('honours the override, else the platform app-data folder', () => {
    expect(registryFolder({ VAULT_MCP_REGISTRY_DIR: '/tmp/reg' }, 'linux', '/home/me')).toBe(nodePath.resolve('/tmp/reg'));
    expect(registryFolder({}, 'linux', '/home/me')).toBe(nodePath.join('/home/me', '.config', 'vault-mcp'));
    expect(registryFolder({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/me')).toBe(nodePath.join('/xdg', 'vault-mcp'));
    expect(registryFolder({}, 'darwin', '/Users/me')).toBe(nodePath.join('/Users/me', 'Library', 'Application Support', 'vault-mcp'));
    expect(registryFolder({ APPDATA: 'C:/Users/me/AppData/Roaming' }, 'win32', 'C:/Users/me')).toBe(
      nodePath.join('C:/Users/me/AppData/Roaming', 'vault-mcp'),
    );
  });
});

describe('VaultRegistry', () => {
  it('parallel registrations from several windows all land; unregister removes only the own entry', async () => {
    const registries = Array.from({ length: 6 }, () => new VaultRegistry(folder));
    await Promise.all(registries.map((r, i) => r.register(entry(`V${i}`))));
    expect((await registries[0].list()).map((e) => e.name).sort()).toEqual(['V0', 'V1', 'V2', 'V3', 'V4', 'V5']);
    await registries[1].unregister(entry('V1').id, process.pid + 1);
    expect(await registries[0].list()).toHaveLength(6);
    await registries[1].unregister(entry('V1').id, process.pid);
    expect((await registries[0].list()).map((e) => e.name)).not.toContain('V1');
    expect((await fsp.readdir(folder)).filter((f) => f !== REGISTRY_FILE)).toEqual([]);
  });

  it('prunes entries whose process is gone, and reads a broken file as empty', async () => {
    const alive = new Set([1, 2]);
    const registry = new VaultRegistry(folder, (pid) => alive.has(pid));
    await registry.register(entry('A', 1));
    await registry.register(entry('B', 2));
    alive.delete(2);
    expect((await registry.list()).map((e) => e.name)).toEqual(['A']);
    expect(await fsp.readFile(nodePath.join(folder, REGISTRY_FILE), 'utf8')).not.toContain('"B"');
    await fsp.writeFile(nodePath.join(folder, REGISTRY_FILE), '{not json');
    expect(await registry.list()).toEqual([]);
    await fsp.writeFile(
      nodePath.join(folder, REGISTRY_FILE),
      JSON.stringify({ vaults: [{ ...entry('C', 1), port: 'x' }, { ...entry('D', 1), path: 'relative' }, entry('E', 1)] }),
    );
    expect((await registry.list()).map((e) => e.name)).toEqual(['E']);
  });

  it('breaks a lock left by a crashed writer', async () => {
    const lock = nodePath.join(folder, `${REGISTRY_FILE}.lock`);
    await fsp.mkdir(lock);
    const old = new Date(Date.now() - 60_000);
    await fsp.utimes(lock, old, old);
    await new VaultRegistry(folder).register(entry('A'));
    expect((await new VaultRegistry(folder).list()).map((e) => e.name)).toEqual(['A']);
  });
});
