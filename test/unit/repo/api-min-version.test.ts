/**
 * The whole plugin on the oldest Obsidian it claims to support (manifest.json minAppVersion):
 * with the host reporting that API version (so every requireApiVersion feature check takes its
 * fallback), it loads, its server listens and its settings tab draws.
 */
import { setHostApiVersion } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import manifest from '../../../manifest.json';

afterEach(() => setHostApiVersion());

it(`loads, listens and draws its settings on Obsidian ${manifest.minAppVersion}`, async () => {
  setHostApiVersion(manifest.minAppVersion);
  const vault = await copyToTemp(DEMO_VAULT);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault.dir });
  try {
    expect(booted.plugin.server.getStatus().state).toBe('listening');
    const plugin = booted.plugin as unknown as VaultMcpPlugin;
    expect(() => plugin.settingTab.display()).not.toThrow();
  } finally {
    await booted.stop();
    await vault.cleanup();
  }
});
