// Issue 12, "Faults": what the plugin does when the world misbehaves around a tool call. Each
// test asserts on what ends up on disk and what the agent is told, never on time.
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import * as http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { applyExternalSettings } from '../../../src/ui/settings/external-change';
import { INDEX_FORMAT, partSum } from '../../../src/search/engine/index-file';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { PLUGIN_MANIFEST } from '../../fixtures/plugin-manifest';
import { createHostApp, loadPluginInHost, Notice, simulateExternalSettingsChange, unloadPluginInHost } from '../../host/index';

type Copy = Awaited<ReturnType<typeof copyToTemp>>;

/** Every file under `dir` whose name ends in `.tmp` (vault-relative). */
async function tmpFiles(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.tmp'))
    .map((e) => nodePath.relative(dir, nodePath.join(e.parentPath, e.name)));
}

/** The text of a tool result (its one content item). */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ text: string }>)[0].text;
}

/** True when 127.0.0.1:`port` can be bound again. */
function portIsFree(port: number): Promise<boolean> {
  const probe = http.createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** An fs error as Node raises it (`code`, `errno`-style message). */
function fsError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = { ENOSPC: 'no space left on device', EACCES: 'permission denied' };
  return Object.assign(new Error(`${code}: ${messages[code]}, ${syscall} '${path}'`), { code, syscall, path });
}

describe('writes the file system refuses', () => {
  let copy: Copy;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(copy.dir, p), 'utf8');

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await client?.close();
    await booted?.stop();
    await copy.cleanup();
  });

  /**
   * Makes every write in the vault fail with `code`: a plugin file's temp copy (PluginFile writes
   * `<name>.tmp` and renames it) after half its bytes, as a disk that fills up mid-write does; a
   * note, which the host writes in place as Obsidian does, before any byte (a disk already full
   * refusing the new note, or the first block of the new text). Append-mode writes (append_note)
   * fail before writing anything. A disk that fills up in the middle of a note written in place
   * leaves part of it, in Obsidian as in the host: not simulated here.
   */
  function failWrites(code: string): void {
    const writeFile = fsp.writeFile.bind(fsp);
    jest.spyOn(fsp, 'writeFile').mockImplementation(async (file, data, options) => {
      if (typeof file === 'string' && file.startsWith(copy.dir) && file.endsWith('.tmp')) {
        const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array);
        await writeFile(file, bytes.subarray(0, bytes.length >> 1));
        throw fsError(code, 'write', file);
      }
      if (typeof file === 'string' && file.startsWith(copy.dir)) throw fsError(code, 'write', file);
      return writeFile(file, data, options);
    });
    const appendFile = fsp.appendFile.bind(fsp);
    jest.spyOn(fsp, 'appendFile').mockImplementation(async (file, data, options) => {
      if (typeof file === 'string' && file.startsWith(copy.dir)) throw fsError(code, 'write', file);
      return appendFile(file, data, options);
    });
  }

  it.each(['force', 'propose'] as const)(
    'a full disk (ENOSPC) in %s mode: a tool error that says so, the note and the proposals unchanged, no .tmp left',
    async (mode) => {
      booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode, allowWrites: true });
      client = await connectClient(booted.url, booted.token);
      const before = await disk('Inbox.md');
      failWrites('ENOSPC');
      for (const [name, args] of [
        ['append_note', { path: 'Inbox', content: '- one more line' }],
        ['write_note', { path: 'Inbox', body: 'Replaced\n' }],
        ['create_note', { path: 'Brand new', content: '# New\n' }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/disk is full/);
        expect(textOf(result)).toMatch(/nothing was (written|staged)/);
      }
      jest.restoreAllMocks();
      expect(await disk('Inbox.md')).toBe(before);
      await expect(fsp.stat(nodePath.join(copy.dir, 'Brand new.md'))).rejects.toThrow();
      expect(booted.plugin.proposals.pending()).toEqual([]);
      expect(await tmpFiles(copy.dir)).toEqual([]);
    },
  );

  it('a read-only note (chmod 0444): a tool error naming the fix, the note unchanged, no .tmp left', async () => {
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode: 'force', allowWrites: true });
    client = await connectClient(booted.url, booted.token);
    const file = nodePath.join(copy.dir, 'Ideas.md');
    const before = await disk('Ideas.md');
    await fsp.chmod(file, 0o444);
    // Tests may run as root, whom the OS lets write anyway: the refusal a user's process gets is simulated.
    const writeFile = fsp.writeFile.bind(fsp);
    jest.spyOn(fsp, 'writeFile').mockImplementation(async (target, data, options) => {
      if (target === file) throw fsError('EACCES', 'open', file);
      return writeFile(target, data, options);
    });
    jest.spyOn(fsp, 'appendFile').mockImplementation(async (target) => {
      throw fsError('EACCES', 'open', String(target));
    });
    for (const [name, args] of [
      ['append_note', { path: 'Ideas', content: 'more' }],
      ['write_note', { path: 'Ideas', body: 'Replaced\n' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Ideas\.md.*read-only or not writable.*nothing was written.*file permissions/);
    }
    jest.restoreAllMocks();
    expect(await disk('Ideas.md')).toBe(before);
    expect(await tmpFiles(copy.dir)).toEqual([]);
    await fsp.chmod(file, 0o644);
  });
});

describe('a note renamed or deleted between read and write', () => {
  let copy: Copy;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const exists = (p: string): Promise<boolean> =>
    fsp.stat(nodePath.join(copy.dir, p)).then(
      () => true,
      () => false,
    );

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode: 'force', allowWrites: true });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client.close();
    await booted.stop();
    await copy.cleanup();
  });

  /** read_note's hash of `path`. */
  async function hashOf(path: string): Promise<string> {
    const read = await client.callTool({ name: 'read_note', arguments: { path } });
    return (read.structuredContent as { hash: string }).hash;
  }

  it('after the user renamed it: every write with expected_hash is refused as not found and nothing is recreated at the old path', async () => {
    const hash = await hashOf('Ideas');
    const renamed = await fsp.readFile(nodePath.join(copy.dir, 'Ideas.md'), 'utf8');
    await booted.app.fileManager.renameFile(booted.app.vault.getFileByPath('Ideas.md')!, 'Archive/Ideas moved.md');
    for (const [name, args] of [
      ['write_note', { path: 'Ideas', body: 'X\n', expected_hash: hash }],
      ['append_note', { path: 'Ideas', content: 'X', expected_hash: hash }],
      ['set_properties', { path: 'Ideas', properties: { status: 'x' }, expected_hash: hash }],
      ['delete_note', { path: 'Ideas', expected_hash: hash, confirm: true }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/not found/i);
    }
    expect(await exists('Ideas.md')).toBe(false);
    expect(await fsp.readFile(nodePath.join(copy.dir, 'Archive/Ideas moved.md'), 'utf8')).toBe(renamed);
  });

  it('deleted in the gap between the checks and the write: a clear not-found error, the note not recreated', async () => {
    const hash = await hashOf('Ideas');
    const vault = booted.app.vault;
    const process = vault.process.bind(vault);
    jest.spyOn(vault, 'process').mockImplementationOnce(async (file, fn, options) => {
      await fsp.rm(nodePath.join(copy.dir, 'Ideas.md'));
      return process(file, fn, options);
    });
    const result = await client.callTool({ name: 'append_note', arguments: { path: 'Ideas', content: 'X', expected_hash: hash } });
    jest.restoreAllMocks();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Ideas\.md.*was deleted or moved.*nothing was written/);
    expect(await exists('Ideas.md')).toBe(false);
  });

  it('renamed in the gap: the write with expected_hash lands on nothing at the old path', async () => {
    const hash = await hashOf('Ideas');
    const vault = booted.app.vault;
    const process = vault.process.bind(vault);
    jest.spyOn(vault, 'process').mockImplementationOnce(async (file, fn, options) => {
      await fsp.rename(nodePath.join(copy.dir, 'Ideas.md'), nodePath.join(copy.dir, 'Ideas 2.md'));
      return process(file, fn, options);
    });
    const result = await client.callTool({ name: 'append_note', arguments: { path: 'Ideas', content: 'X', expected_hash: hash } });
    jest.restoreAllMocks();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Ideas\.md.*was deleted or moved.*nothing was written/);
    expect(await exists('Ideas.md')).toBe(false);
    expect(await fsp.readFile(nodePath.join(copy.dir, 'Ideas 2.md'), 'utf8')).not.toMatch(/X$/);
  });
});

describe('the plugin disabled while a call runs', () => {
  let copy: Copy;
  afterEach(async () => {
    jest.restoreAllMocks();
    await copy.cleanup();
  });

  it.each(['write_note', 'search'] as const)(
    '%s in flight: the call completes or ends with a clear error, nothing is half-written, the port is free at once',
    async (tool) => {
      copy = await copyToTemp(DEMO_VAULT);
      const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode: 'force', allowWrites: true });
      const client = await connectClient(booted.url, booted.token);
      const before = await fsp.readFile(nodePath.join(copy.dir, 'Inbox.md'), 'utf8');
      // Hold the call inside the plugin until the plugin has been disabled.
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const vault = booted.app.vault;
      const held = tool === 'write_note' ? 'process' : 'cachedRead';
      const original = (vault[held] as (...args: unknown[]) => Promise<unknown>).bind(vault);
      jest.spyOn(vault, held).mockImplementation((async (...args: unknown[]) => {
        entered();
        await gate;
        return original(...args);
      }) as never);
      const args = tool === 'write_note' ? { path: 'Inbox', body: 'All new text\n' } : { query: 'budget' };
      const outcome = client.callTool({ name: tool, arguments: args }).then(
        (result) => ({ result, error: null }),
        (error: Error) => ({ result: null, error }),
      );
      await inside;
      unloadPluginInHost(booted.plugin);
      expect(await portIsFree(booted.port)).toBe(true);
      release();
      const { result, error } = await outcome;
      if (error) expect(error.message).toMatch(/Vault MCP (is stopping|stopped)/);
      else expect(result?.isError).toBeFalsy();
      const after = await fsp.readFile(nodePath.join(copy.dir, 'Inbox.md'), 'utf8');
      expect([before, `${before.slice(0, before.indexOf('---\n', 4) + 4)}All new text\n`]).toContain(after);
      if (tool === 'write_note' && result) expect(after).toMatch(/All new text\n$/);
      expect(await tmpFiles(copy.dir)).toEqual([]);
      await client.close().catch(() => undefined);
      await booted.plugin.server.stop();
      await booted.app.close();
    },
  );
});

describe('damaged plugin files are kept aside with a Notice, and the plugin loads (twice)', () => {
  const PLUGIN_DIR = '.obsidian/plugins/vault-mcp';
  let copy: Copy;
  const pluginDir = (): string => nodePath.join(copy.dir, PLUGIN_DIR);
  const kept = async (name: string): Promise<string[]> => (await fsp.readdir(pluginDir())).filter((n) => n.startsWith(`${name}.corrupt-`));

  beforeEach(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    await fsp.mkdir(pluginDir(), { recursive: true });
    Notice.clear();
  });
  afterEach(async () => {
    await copy.cleanup();
  });

  /** The real plugin (data.json read from disk by Plugin.loadData), on any free port. */
  class OnFreePort extends VaultMcpPlugin {
    override async onload(): Promise<void> {
      await super.onload();
      this.settings.server.port = 0;
    }
  }

  /** Enables the plugin on the copy, waits until its server runs, returns it with the notices it showed, then disables it. */
  async function loadOnce(): Promise<{ notices: string[]; state: string; keys: number }> {
    Notice.clear();
    const app = await createHostApp({ vaultPath: copy.dir });
    const plugin = await loadPluginInHost(app, OnFreePort, PLUGIN_MANIFEST);
    for (let i = 0; i < 200 && plugin.server.getStatus().state === 'stopped'; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const state = plugin.server.getStatus().state;
    const keys = plugin.settings.keys.length;
    unloadPluginInHost(plugin);
    await plugin.server.stop();
    await app.close();
    return { notices: Notice.messages(), state, keys };
  }

  it.each([
    ['not JSON', '{"server": {"port": 27'],
    ['a list', '[1, 2]'],
  ])(
    'data.json that is %s: kept aside byte for byte, defaults used, a Notice saying where; the next load is clean',
    async (_what, text) => {
      await fsp.writeFile(nodePath.join(pluginDir(), 'data.json'), text);
      const first = await loadOnce();
      expect(first.state).toBe('listening');
      expect(first.notices.filter((m) => /could not read its settings file data\.json/.test(m))).toHaveLength(1);
      expect(first.notices.join('\n')).toMatch(
        /kept as \.obsidian\/plugins\/vault-mcp\/data\.json\.corrupt-[^ ]+, and settings start from their defaults/,
      );
      const aside = await kept('data.json');
      expect(aside).toHaveLength(1);
      expect(await fsp.readFile(nodePath.join(pluginDir(), aside[0]), 'utf8')).toBe(text);
      const second = await loadOnce();
      expect(second.state).toBe('listening');
      expect(second.notices.filter((m) => /settings file/.test(m))).toEqual([]);
      expect(await kept('data.json')).toEqual(aside);
    },
  );

  it('data.json met half-written when its change arrives (another instance saving it in place): read again, the change is taken in (F6, s30)', async () => {
    const dataJson = nodePath.join(pluginDir(), 'data.json');
    await fsp.writeFile(dataJson, JSON.stringify({ server: { port: 28111 }, access: { quarantine: ['Secret'] } }));
    const app = await createHostApp({ vaultPath: copy.dir });
    const plugin = await loadPluginInHost(app, OnFreePort, PLUGIN_MANIFEST);
    const whole = JSON.stringify({ server: { port: 28111 }, access: { quarantine: ['Secret', 'Other'] } }, null, 2);
    await fsp.writeFile(dataJson, whole.slice(0, 30));
    const load = plugin.loadData.bind(plugin);
    let loads = 0;
    jest.spyOn(plugin, 'loadData').mockImplementation(async () => {
      try {
        return await load();
      } finally {
        // The other instance's save ends right after the first read.
        if (++loads === 1) await fsp.writeFile(dataJson, whole);
      }
    });
    await simulateExternalSettingsChange(plugin);
    expect(loads).toBeGreaterThan(1);
    expect(plugin.settings.access.quarantine).toEqual(['Secret', 'Other']);
    expect(Notice.messages().join('\n')).not.toMatch(/could not be read/);
    // data.json removed (a sync replacing it by delete and create): the settings stay, never the defaults.
    await fsp.rm(dataJson);
    await simulateExternalSettingsChange(plugin);
    expect(plugin.settings.access.quarantine).toEqual(['Secret', 'Other']);
    expect(Notice.messages().join('\n')).toMatch(/data\.json was removed outside Obsidian; the current settings are kept/);
    unloadPluginInHost(plugin);
    await plugin.server.stop();
    await app.close();
  });

  it('data.json left removed, unreadable or empty by a change is saved back from the current settings after the wait, unless settings arrive first', async () => {
    const dataJson = nodePath.join(pluginDir(), 'data.json');
    await fsp.writeFile(dataJson, JSON.stringify({ server: { port: 28111 }, access: { quarantine: ['Secret'] } }));
    const app = await createHostApp({ vaultPath: copy.dir });
    const plugin = await loadPluginInHost(app, OnFreePort, PLUGIN_MANIFEST);
    const savedBack = async (): Promise<unknown> => {
      for (let i = 0; i < 300 && !Notice.messages().some((m) => /saved to it again\.$/.test(m)); i++)
        await new Promise((r) => setTimeout(r, 10));
      return JSON.parse(await fsp.readFile(dataJson, 'utf8'));
    };
    try {
      // Removed, unreadable, {}: each is replaced by the current settings, quarantine and all, so the next start does not begin from the defaults.
      for (const damage of [
        () => fsp.rm(dataJson),
        () => fsp.writeFile(dataJson, '{"server": {"po'),
        () => fsp.writeFile(dataJson, '{}'),
      ]) {
        Notice.clear();
        await damage();
        await applyExternalSettings(plugin, plugin.pluginFile('data.json'), 100);
        expect(Notice.messages().join('\n')).toMatch(
          /the current settings are kept and saved to it again in 0\.1 s unless settings arrive meanwhile/,
        );
        expect(await savedBack()).toMatchObject({ access: { quarantine: ['Secret'] } });
        expect(Notice.messages()).toContain('Vault MCP: data.json still held no settings, so the current settings were saved to it again.');
      }
      // Settings that arrive within the wait (the sync's create after its delete) are what stays: nothing is saved over them.
      Notice.clear();
      await fsp.rm(dataJson);
      await applyExternalSettings(plugin, plugin.pluginFile('data.json'), 200);
      const arrived = JSON.stringify({ server: { port: 28111 }, access: { quarantine: ['Secret', 'Later'] } });
      await fsp.writeFile(dataJson, arrived);
      await new Promise((r) => setTimeout(r, 600));
      expect(await fsp.readFile(dataJson, 'utf8')).toBe(arrived);
      expect(Notice.messages().join('\n')).not.toMatch(/saved to it again\.$/m);
      // A save-back still waiting when the plugin unloads is dropped: nothing writes after the unload.
      await fsp.rm(dataJson);
      await applyExternalSettings(plugin, plugin.pluginFile('data.json'), 200);
    } finally {
      unloadPluginInHost(plugin);
      await plugin.server.stop();
      await app.close();
    }
    await new Promise((r) => setTimeout(r, 400));
    expect(await fsp.stat(dataJson).catch(() => null)).toBeNull();
  });

  it('data.json damaged by a sync while the plugin runs: the current settings stay, with a Notice', async () => {
    await fsp.writeFile(
      nodePath.join(pluginDir(), 'data.json'),
      JSON.stringify({ server: { port: 28111 }, access: { quarantine: ['Secret'] } }),
    );
    const app = await createHostApp({ vaultPath: copy.dir });
    const plugin = await loadPluginInHost(app, OnFreePort, PLUGIN_MANIFEST);
    await fsp.writeFile(nodePath.join(pluginDir(), 'data.json'), '{"server": {"po');
    await simulateExternalSettingsChange(plugin);
    expect(plugin.settings.access.quarantine).toEqual(['Secret']);
    expect(Notice.messages().join('\n')).toMatch(
      /data\.json changed outside Obsidian but could not be read .*the current settings are kept/,
    );
    unloadPluginInHost(plugin);
    await plugin.server.stop();
    await app.close();
  });

  it('a damaged search index file: kept aside, a Notice, the index rebuilt (search answers); the next load is clean and warm', async () => {
    // Damage in a file of the current format (another format's file is rebuilt silently).
    const damaged = '["R",[{"nope":true}]]';
    const head = JSON.stringify({
      format: INDEX_FORMAT,
      generation: '000000001-x',
      parts: [damaged.length],
      bytes: [0],
      sums: [partSum(damaged, new Uint8Array(0))],
    });
    await fsp.mkdir(nodePath.join(pluginDir(), 'search-index.parts'));
    await fsp.writeFile(nodePath.join(pluginDir(), 'search-index.parts', '000000001-x.0.part'), damaged);
    await fsp.writeFile(nodePath.join(pluginDir(), 'search-index.json'), head);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    Notice.clear();
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, persistIndex: true });
    const client = await connectClient(booted.url, booted.token);
    const hits = await client.callTool({ name: 'search', arguments: { query: 'budget' } });
    expect((hits.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    expect(Notice.messages().filter((m) => /search index file was damaged/.test(m))).toHaveLength(1);
    // The head and its parts, kept aside with one tag, named in the Notice.
    const aside = await kept('search-index.json');
    expect(aside).toHaveLength(1);
    expect(await fsp.readFile(nodePath.join(pluginDir(), aside[0]), 'utf8')).toBe(head);
    const tag = aside[0].slice('search-index.json.'.length);
    expect(await fsp.readFile(nodePath.join(pluginDir(), `search-index.parts.${tag}`, '000000001-x.0.part'), 'utf8')).toBe(damaged);
    expect(Notice.messages().join('\n')).toContain(`search-index.parts.${tag}`);
    await client.close();
    await booted.stop();
    Notice.clear();
    const again = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, persistIndex: true });
    expect((again.plugin.search as unknown as { stats: { warm: boolean } }).stats.warm).toBe(true);
    expect(Notice.messages()).toEqual([]);
    await again.stop();
    warn.mockRestore();
  });

  it('a damaged proposals file: kept aside, a Notice; the next load is clean', async () => {
    await fsp.writeFile(nodePath.join(pluginDir(), 'proposals.json'), '{"version": 1, "proposals": [');
    const first = await loadOnce();
    expect(first.state).toBe('listening');
    expect(first.notices.filter((m) => /could not read its proposals file/.test(m))).toHaveLength(1);
    expect(await kept('proposals.json')).toHaveLength(1);
    const second = await loadOnce();
    expect(second.notices.filter((m) => /proposals file/.test(m))).toEqual([]);
  });
});
