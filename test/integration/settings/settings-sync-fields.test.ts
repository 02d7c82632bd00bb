import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Notice, simulateExternalSettingsChange } from '../../host/index';
import { AiError } from '../../../src/ai/ai-error';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import VaultMcpPlugin from '../../../src/main';
import type { VaultMcpSettings } from '../../../src/settings/settings';
import { DEFAULT_PORT } from '../../../src/settings/settings';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { INITIALIZE, raw } from '../../harness/raw-http';
import { installDom, settingRow, settle, typeInto, type InstalledDom } from '../../harness/settings-dom-env';

/**
 * A synced data.json is merged field by field (docs/settings.md#synced-settings): a device that
 * changed one setting of a block cannot bring back another setting of that block it never touched,
 * whatever its clock (session 32 break-it B3, B2), and a stamp that is there but no time counts as
 * the oldest, not as a file of an old version (B5). This plugin is device A: the user's changes go
 * through the real settings tab; device B's data.json is this device's copy from before them, with
 * B's own later change stamped as B's settings tab stamps it; what agents get is read over HTTP.
 */

let dom: InstalledDom;
let vaultDir: string;
let booted: BootedPlugin<VaultMcpPlugin>;
const clients: Client[] = [];

/** This device's settings as a synced copy would hold them now (the port as bound, so no sync moves the server). */
function snapshot(): VaultMcpSettings {
  booted.plugin.settings.server.port = booted.port;
  return JSON.parse(JSON.stringify(booted.plugin.settings)) as VaultMcpSettings;
}

/** `file` as data.json, written by a sync while the plugin runs. */
async function syncIn(file: unknown): Promise<void> {
  await booted.plugin.saveData(file);
  await simulateExternalSettingsChange(booted.plugin);
  await settle();
}

/** Records in `record` (a block or key of device B's copy) that B's user changed `field` at `at`, as B's settings tab does. */
function changedOnB(record: { changed_at?: string; fieldTimes?: Record<string, string> }, field: string, at: string): void {
  record.fieldTimes = { ...record.fieldTimes, [field]: at };
  record.changed_at = at;
}

/** A stamp `ms` after `stamp` (ISO 8601). */
function after(stamp: string | undefined, ms: number): string {
  return new Date(Date.parse(stamp!) + ms).toISOString();
}

async function savedFile(): Promise<VaultMcpSettings> {
  return (await booted.plugin.loadData()) as VaultMcpSettings;
}

async function client(): Promise<Client> {
  const c = await connectClient(booted.url, booted.token);
  clients.push(c);
  return c;
}

async function toolNames(c: Client): Promise<string[]> {
  return (await c.listTools()).tools.map((t) => t.name);
}

/** What read_note gives `c` for `notePath`: the note's text, or 'refused'. */
async function readNote(c: Client, notePath: string): Promise<string> {
  const result = await c.callTool({ name: 'read_note', arguments: { path: notePath } });
  if (result.isError) return 'refused';
  return (result.content as Array<{ text: string }>).map((part) => part.text).join('\n');
}

function el(): HTMLElement {
  return booted.plugin.settingTab.containerEl;
}

function toggle(name: string): void {
  settingRow(el(), name).querySelector<HTMLElement>('.checkbox-container')!.click();
}

/** Clicks the toggle of tool `name` under "Tools". */
function toggleTool(name: string): void {
  const row = Array.from(el().querySelectorAll<HTMLElement>('.vault-mcp-tool')).find((r) => r.querySelector('code')?.textContent === name)!;
  row.querySelector<HTMLElement>('.checkbox-container')!.click();
}

/** What an AI chat call through the plugin gives now: the reply, or the refusal's code. */
async function chat(): Promise<string> {
  try {
    return (await booted.plugin.ai.chat([{ role: 'user', content: 'say OK' }])).text;
  } catch (error) {
    if (error instanceof AiError) return error.code;
    throw error;
  }
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeEach(async () => {
  dom = installDom();
  vaultDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-sync-fields-'));
  await fs.mkdir(path.join(vaultDir, 'Journal'), { recursive: true });
  await fs.writeFile(path.join(vaultDir, 'Journal/Today.md'), 'Dear diary\n');
  await fs.writeFile(path.join(vaultDir, 'Plan.md'), '# Plan\n');
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir, label: 'Claude Code', allowWrites: true });
  booted.plugin.settingTab.display();
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
  await booted.stop();
  await fs.rm(vaultDir, { recursive: true, force: true });
  dom.uninstall();
});

describe('break-it B3: a later change of another field on device B does not bring back a field changed here', () => {
  it('"Allow writes" turned off here stays off when B, holding writes on, toggles one tool later; B\'s toggle arrives', async () => {
    const stale = snapshot();
    const agent = await client();
    expect(await toolNames(agent)).toEqual(expect.arrayContaining(['create_note', 'list_tags']));
    toggle('Allow writes');
    await settle();
    expect(await toolNames(agent)).not.toContain('create_note');

    const fromB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    fromB.tools.enabled.list_tags = false;
    changedOnB(fromB.tools, 'enabled.list_tags', after(booted.plugin.settings.tools.changed_at, 1000));
    await syncIn(fromB);
    expect(booted.plugin.settings.tools).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });
    const names = await toolNames(agent);
    expect(names).not.toContain('create_note');
    expect(names).not.toContain('list_tags');
    // Saved again with this device's field, so B learns it too.
    expect((await savedFile()).tools).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });

    // A device on the version before field stamps (its block carries only changed_at) still wins as a block, as before.
    const olderB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    delete olderB.tools.fieldTimes;
    olderB.tools.changed_at = after(booted.plugin.settings.tools.changed_at, 1000);
    await syncIn(olderB);
    expect(booted.plugin.settings.tools.allowWrites).toBe(true);
  });

  it("the server switched off here stays off (403) when B, holding it on, moves the port later; the server moves to B's port", async () => {
    const auth = { Authorization: `Bearer ${booted.token}` };
    const stale = snapshot();
    toggle('Enable server');
    await settle();
    expect((await raw(booted.port, { body: INITIALIZE, headers: auth })).status).toBe(403);

    const port = await freePort();
    const fromB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    fromB.server.port = port;
    changedOnB(fromB.server, 'port', after(booted.plugin.settings.server.changed_at, 1000));
    await syncIn(fromB);
    booted.port = port;
    expect(booted.plugin.settings.server).toMatchObject({ enabled: false, port });
    expect(booted.plugin.server.getStatus()).toMatchObject({ state: 'listening', port });
    expect((await raw(port, { body: INITIALIZE, headers: auth })).status).toBe(403);
    expect((await savedFile()).server.enabled).toBe(false);
  });

  it('"Allow remote providers" and "Enable AI" turned off here stay off when B changes the model or the embedding model later', async () => {
    Object.assign(booted.plugin.settings.ai, { enabled: true, allowRemote: true, baseUrl: 'https://llm.example.com/v1', model: 'tiny' });
    booted.app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, 'sk-test');
    await booted.plugin.saveSettings();
    booted.plugin.settingTab.display();
    expect(booted.plugin.ai.chatAvailability()).toMatchObject({ ready: true, classification: 'remote' });
    const stale = snapshot();
    toggle('Allow remote providers');
    await settle();
    expect(await chat()).toBe('aiRemoteNotAllowed');

    const fromB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    fromB.ai.model = 'bigger';
    changedOnB(fromB.ai, 'endpoint', after(booted.plugin.settings.ai.changed_at, 1000));
    await syncIn(fromB);
    expect(booted.plugin.settings.ai).toMatchObject({ enabled: true, allowRemote: false, model: 'bigger' });
    expect(await chat()).toBe('aiRemoteNotAllowed');
    expect((await savedFile()).ai.allowRemote).toBe(false);

    toggle('Enable AI');
    await settle();
    expect(await chat()).toBe('aiDisabled');
    const fromB2 = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    fromB2.ai.embeddingModel = 'embedder';
    changedOnB(fromB2.ai, 'embeddingModel', after(booted.plugin.settings.ai.changed_at, 1000));
    await syncIn(fromB2);
    expect(booted.plugin.settings.ai).toMatchObject({ enabled: false, allowRemote: false, embeddingModel: 'embedder', model: 'bigger' });
    expect(await chat()).toBe('aiDisabled');
  });

  it("a key's roots narrowed here stay narrow when B changes that key's mode and label later; B's mode and label arrive", async () => {
    const agent = await client();
    expect(await readNote(agent, 'Plan.md')).toContain('# Plan');
    const stale = snapshot();
    const row = el().querySelector<HTMLTableRowElement>('.vault-mcp-key-table tbody tr')!;
    typeInto(row.querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!, 'Journal', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0].roots).toEqual(['Journal']);
    expect(await readNote(agent, 'Plan.md')).toBe('refused');

    const fromB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    const at = after(booted.plugin.settings.keys[0].changed_at, 1000);
    Object.assign(fromB.keys[0], { mode: 'force', label: 'Claude Desktop' });
    changedOnB(fromB.keys[0], 'mode', at);
    changedOnB(fromB.keys[0], 'label', at);
    await syncIn(fromB);
    expect(booted.plugin.keyRing.list()[0]).toMatchObject({ roots: ['Journal'], mode: 'force', label: 'Claude Desktop' });
    expect(await readNote(await client(), 'Plan.md')).toBe('refused');
    expect(await readNote(await client(), 'Journal/Today.md')).toContain('Dear diary');
    expect((await savedFile()).keys[0].roots).toEqual(['Journal']);
  });
});

describe('break-it B2: a device whose clock runs a day ahead', () => {
  it('wins only the field it changed; a change made here afterwards beats its stamp', async () => {
    const stale = snapshot();
    const agent = await client();
    toggle('Allow writes');
    await settle();
    const dayAhead = after(new Date().toISOString(), 86_400_000);
    const fromB = JSON.parse(JSON.stringify(stale)) as VaultMcpSettings;
    fromB.tools.enabled.list_tags = false;
    changedOnB(fromB.tools, 'enabled.list_tags', dayAhead);
    await syncIn(fromB);
    expect(booted.plugin.settings.tools).toMatchObject({ allowWrites: false, enabled: { list_tags: false } });
    expect(await toolNames(agent)).not.toContain('create_note');

    // The user turns list_tags back on here: stamped past B's stamp, so B's file synced in again does not undo it.
    booted.plugin.settingTab.display();
    toggleTool('list_tags');
    await settle();
    expect(Date.parse(booted.plugin.settings.tools.fieldTimes!['enabled.list_tags'])).toBeGreaterThan(Date.parse(dayAhead));
    await syncIn(fromB);
    expect(booted.plugin.settings.tools.enabled.list_tags).toBe(true);
    expect(await toolNames(agent)).toContain('list_tags');
  });
});

describe('break-it B5: stamps that are there but no time, and a data.json of {}', () => {
  it("a block or key stamped 0, {}, null, a list or true counts as changed at the epoch: this device's later change stays", async () => {
    const auth = { Authorization: `Bearer ${booted.token}` };
    toggle('Enable server');
    await settle();
    const row = el().querySelector<HTMLTableRowElement>('.vault-mcp-key-table tbody tr')!;
    typeInto(row.querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!, 'Journal', true);
    await settle();
    for (const stamp of [0, {}, null, ['2030-01-01'], true]) {
      const file = snapshot() as unknown as { server: Record<string, unknown>; keys: Array<Record<string, unknown>> };
      Object.assign(file.server, { enabled: true, changed_at: stamp });
      delete file.server.fieldTimes;
      Object.assign(file.keys[0], { roots: [], changed_at: stamp });
      delete file.keys[0].fieldTimes;
      await expect(syncIn(file)).resolves.toBeUndefined();
      expect(booted.plugin.settings.server.enabled).toBe(false);
      expect((await raw(booted.port, { body: INITIALIZE, headers: auth })).status).toBe(403);
      expect(booted.plugin.keyRing.list()[0].roots).toEqual(['Journal']);
    }
  });

  it('a data.json of {} changes nothing: keys (one minted here since) and settings are kept, with a Notice', async () => {
    const minted = await booted.plugin.keyRing.mint({ label: 'Phone' });
    toggle('Allow writes');
    await settle();
    const before = JSON.stringify(booted.plugin.settings);
    Notice.clear();
    await syncIn({});
    expect(JSON.stringify(booted.plugin.settings)).toBe(before);
    expect(booted.plugin.keyRing.list().map((k) => k.label)).toEqual(['Claude Code', 'Phone']);
    expect(booted.plugin.keyRing.authenticate(minted.token)?.id).toBe(minted.record.id);
    expect(await readNote(await client(), 'Plan.md')).toContain('# Plan');
    expect(Notice.messages()).toContain(
      'Vault MCP: data.json changed outside Obsidian but holds no settings; the current settings are kept.',
    );
  });
});

describe('a data.json holding no settings met at load, not at a sync', () => {
  it('starts from the defaults with a Notice; the data.json written from them replaces nothing another device chose, and that device brings the settings back', async () => {
    // Device B (this plugin): "Notify on new proposals" off and 90 days of activity chosen in the tab; "Allow writes"
    // and its port held with no stamp (as an older version or a hand edit leaves them: the boot seeds them so).
    snapshot();
    toggle('Notify on new proposals');
    typeInto(settingRow(el(), 'Keep activity for').querySelector('input')!, '90');
    await settle();
    const agent = await client();
    expect(await toolNames(agent)).toContain('create_note');

    // Device A meets a data.json of {} at load (a sync or a tool emptied it).
    const dirA = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-sync-empty-'));
    Notice.clear();
    const a = await bootPlugin(VaultMcpPlugin, {
      vaultPath: dirA,
      configure: (settings) => {
        for (const key of Object.keys(settings)) delete (settings as unknown as Record<string, unknown>)[key];
      },
    });
    try {
      expect(Notice.messages()).toContain(
        'Vault MCP: data.json holds no settings (it is {} or holds only unknown keys: a sync or another tool emptied it), so settings start from their defaults: no keys, no folders of yours quarantined, writes off. If another device has your settings, its data.json brings them back at the next sync (these defaults replace nothing there); else set them again in Vault MCP settings.',
      );
      expect(a.plugin.keyRing.list()).toEqual([]);
      expect(a.plugin.settings.tools.allowWrites).toBe(false);
      // Whatever A saves next (any change there) carries the defaults; the file holds the default port, as A's would.
      await a.plugin.saveSettings();
      const fromA = (await a.plugin.loadData()) as VaultMcpSettings;
      fromA.server.port = DEFAULT_PORT;

      await syncIn(fromA);
      expect(booted.plugin.settings.proposals.notifyOnNew).toBe(false);
      expect(booted.plugin.settings.activity.maxDays).toBe(90);
      expect(booted.plugin.settings.tools.allowWrites).toBe(true);
      expect(booted.plugin.settings.server.port).toBe(booted.port);
      expect(booted.plugin.keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
      expect(await toolNames(agent)).toContain('create_note');
      // Saved again with what B kept, so A gets it back.
      const fromB = await savedFile();
      expect(fromB).toMatchObject({ proposals: { notifyOnNew: false }, activity: { maxDays: 90 }, tools: { allowWrites: true } });

      // B's data.json synced into A: everything A holds is a default nobody chose, so B's settings arrive whole.
      // (The port A listens on, so A does not move onto B's port: both run on this one machine.)
      await a.plugin.saveData({ ...fromB, server: { ...fromB.server, port: a.port } });
      await simulateExternalSettingsChange(a.plugin);
      await settle();
      expect(a.plugin.keyRing.list().map((k) => k.label)).toEqual(['Claude Code']);
      expect(a.plugin.settings).toMatchObject({
        proposals: { notifyOnNew: false },
        activity: { maxDays: 90 },
        tools: { allowWrites: true },
      });
    } finally {
      await a.stop();
      await fs.rm(dirA, { recursive: true, force: true });
    }
  });
});
