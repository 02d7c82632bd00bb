import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Notice, simulateExternalSettingsChange } from '../../host';
import VaultMcpPlugin from '../../../src/main';
import { VaultMcpSettingTab } from '../../../src/ui/settings/settings-tab';
import { secretIdForKey } from '../../../src/settings/key-record';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { startFakeOpenAi } from '../../fakes/fake-openai';
import { startRecordingServer } from '../../fakes/recording-server';
import { choose, installDom, settingRow, settle, typeInto, until, type InstalledDom } from '../../harness/env/settings-dom-env';
import { freePort } from '../../harness/server/raw-http';

let dom: InstalledDom;
let vaultDir: string;
let booted: BootedPlugin<VaultMcpPlugin>;
let tab: VaultMcpSettingTab;
const clients: Client[] = [];

function el(): HTMLElement {
  return tab.containerEl;
}

function button(root: HTMLElement, text: string): HTMLButtonElement {
  const found = Array.from(root.querySelectorAll('button')).find((b) => b.textContent === text);
  if (!found)
    throw new Error(
      `No button "${text}" in: ${Array.from(root.querySelectorAll('button'))
        .map((b) => b.textContent)
        .join(' | ')}`,
    );
  return found;
}

function keyRow(label: string): HTMLTableRowElement {
  const rows = Array.from(el().querySelectorAll<HTMLTableRowElement>('.vault-mcp-key-table tbody tr'));
  const row = rows.find((r) => r.querySelector('.vault-mcp-key-label')?.textContent === label);
  if (!row) throw new Error(`No key row "${label}"`);
  return row;
}

async function mint(label: string, mode: 'propose' | 'force' = 'propose'): Promise<void> {
  const row = settingRow(el(), 'Mint a key');
  typeInto(row.querySelector('input')!, label);
  choose(row.querySelector('select')!, mode);
  button(settingRow(el(), 'Mint a key'), 'Mint').click();
  if (mode === 'force') button(settingRow(el(), 'Mint a key'), 'Confirm force key').click();
  await settle();
}

beforeEach(async () => {
  dom = installDom();
  vaultDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-settings-'));
  await fs.mkdir(path.join(vaultDir, 'Projects/Alpha'), { recursive: true });
  await fs.mkdir(path.join(vaultDir, 'Journal'), { recursive: true });
  await fs.writeFile(path.join(vaultDir, 'Projects/Alpha/Plan.md'), '# Plan\n');
  await fs.writeFile(path.join(vaultDir, 'Journal/Today.md'), 'today\n');
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir, label: 'Claude Code' });
  tab = booted.plugin.settingTab;
  tab.display();
  Notice.clear();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await booted.stop();
  await fs.rm(vaultDir, { recursive: true, force: true });
  dom.uninstall();
});

describe('settings tab over the running plugin', () => {
  it('is registered by the plugin and draws every section as Obsidian setting headings', () => {
    expect((booted.plugin as unknown as { settingTabs: unknown[] }).settingTabs).toEqual([tab]);
    expect(tab).toBeInstanceOf(VaultMcpSettingTab);
    const headings = Array.from(el().querySelectorAll('.setting-item-heading .setting-item-name')).map((h) => h.textContent);
    expect(headings).toEqual(['Server', 'Keys', 'Connect a client', 'Tools', 'Review', 'Agent activity', 'Access', 'AI provider']);
    expect(settingRow(el(), 'Status').textContent).toContain(`Listening on ${booted.url}`);
    expect(keyRow('Claude Code').querySelector('.vault-mcp-badge')!.textContent).toBe('propose');
  });

  it('mints a propose key by default, refuses an empty or duplicate label, and asks before a force key', async () => {
    button(settingRow(el(), 'Mint a key'), 'Mint').click();
    await settle();
    expect(settingRow(el(), 'Mint a key').querySelector('.setting-item-error')!.textContent).toMatch(/needs a label/);

    await mint('Claude Code');
    expect(settingRow(el(), 'Mint a key').querySelector('.setting-item-error')!.textContent).toMatch(/already exists/);

    await mint('Cursor');
    const cursor = booted.plugin.keyRing.list().find((k) => k.label === 'Cursor')!;
    expect(cursor.mode).toBe('propose');
    expect(booted.app.secretStorage.getSecret(secretIdForKey(cursor.id))).toMatch(/^vmcp_/);
    expect(keyRow('Cursor').querySelector('.vault-mcp-badge')!.textContent).toBe('propose');

    const row = settingRow(el(), 'Mint a key');
    typeInto(row.querySelector('input')!, 'Codex');
    choose(row.querySelector('select')!, 'force');
    button(settingRow(el(), 'Mint a key'), 'Mint').click();
    await settle();
    expect(booted.plugin.keyRing.list().some((k) => k.label === 'Codex')).toBe(false);
    button(settingRow(el(), 'Mint a key'), 'Confirm force key').click();
    await settle();
    expect(booted.plugin.keyRing.list().find((k) => k.label === 'Codex')!.mode).toBe('force');
  });

  it('switches a key to force only after confirmation, and back to propose in one click', async () => {
    const id = booted.key.id;
    button(keyRow('Claude Code'), 'Use force').click();
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.mode).toBe('propose');
    button(keyRow('Claude Code'), 'Confirm: no review').click();
    await settle();
    expect(booted.plugin.keyRing.list().find((k) => k.id === id)!.mode).toBe('force');
    expect(keyRow('Claude Code').querySelector('.vault-mcp-badge')!.textContent).toBe('force');
    button(keyRow('Claude Code'), 'Use propose').click();
    await settle();
    expect(booted.plugin.keyRing.list().find((k) => k.id === id)!.mode).toBe('propose');
  });

  it('refuses to revoke or cloud-scope the last local key and says why; revokes once another exists', async () => {
    button(keyRow('Claude Code'), 'Revoke').click();
    button(keyRow('Claude Code'), 'Confirm').click();
    await settle();
    expect(el().querySelector('.vault-mcp-keys-message')!.textContent).toMatch(/last key local clients can use/);
    expect(Notice.messages().some((m) => m.includes('last key local clients can use'))).toBe(true);
    expect(booted.plugin.keyRing.list()).toHaveLength(1);

    const scope = keyRow('Claude Code').querySelector('select')!;
    choose(scope, 'cloud');
    await settle();
    expect(el().querySelector('.vault-mcp-keys-message')!.textContent).toMatch(/no usable key left/);
    expect(booted.plugin.keyRing.list()[0]!.scope).toBe('local');
    expect(scope.value).toBe('local');

    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    await mint('Backup');
    button(keyRow('Claude Code'), 'Revoke').click();
    button(keyRow('Claude Code'), 'Confirm').click();
    await settle();
    expect(booted.plugin.keyRing.list().map((k) => k.label)).toEqual(['Backup']);
    expect(booted.app.secretStorage.getSecret(secretIdForKey(booted.key.id))).toBe('');
    await expect(client.listTools()).rejects.toThrow();
  });

  it("edits a key's roots with vault folder suggestions", async () => {
    const input = keyRow('Claude Code').querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!;
    const options = Array.from(el().querySelectorAll(`datalist#${input.getAttribute('list')} option`)).map((o) => o.getAttribute('value'));
    expect(options).toEqual(expect.arrayContaining(['Journal', 'Projects', 'Projects/Alpha']));
    typeInto(input, ' Projects/Alpha/ , Journal', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Projects/Alpha', 'Journal']);
  });

  it('saves a root typed in another case as the folder it names, as client roots are placed; one naming nothing stays as typed', async () => {
    const input = (): HTMLInputElement => keyRow('Claude Code').querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!;
    // Saved as typed, `projects/alpha` matched no note on a case-sensitive disk (roots compare exactly).
    typeInto(input(), `projects/ALPHA, ${vaultDir}/journal, Not yet`, true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Projects/Alpha', 'Journal', 'Not yet']);
  });

  it('reads a typed root with outer spaces as the folder of that exact name when the trimmed name names none, and refuses it when both exist', async () => {
    const input = (): HTMLInputElement => keyRow('Claude Code').querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!;
    await booted.app.vault.createFolder(' Sp ');
    await booted.app.vault.create(' Sp /In spaced.md', 'spaced\n');
    // Only ` Sp ` is there: it used to be saved as `Sp`, a folder the vault does not have.
    typeInto(input(), 'Journal, Sp ', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal', ' Sp ']);
    // The field spells it so that saving it unchanged keeps it.
    expect(input().value).toBe('Journal, ./ Sp /');
    typeInto(input(), input().value, true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal', ' Sp ']);
    // The comma list still trims for convenience.
    typeInto(input(), ' Projects/Alpha , Journal ', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Projects/Alpha', 'Journal']);
    // With both `Sp` and ` Sp ` there, ` Sp ` names no one folder: refused, the key's roots kept.
    await booted.app.vault.createFolder('Sp');
    Notice.clear();
    typeInto(input(), 'Journal, Sp ', true);
    await settle();
    const refusal =
      'The root " Sp " names two folders, "Sp" with its outer spaces trimmed and " Sp " as typed; write "Sp" with no space before or after it ' +
      'for the first, or "./ Sp /" for the second ("./" before it and "/" after it keep its spaces).';
    expect(el().querySelector('.vault-mcp-keys-message')!.textContent).toBe(refusal);
    expect(Notice.messages()).toContain(`Vault MCP: ${refusal}`);
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Projects/Alpha', 'Journal']);
    // Each, typed as the refusal says.
    typeInto(input(), 'Journal,Sp', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal', 'Sp']);
    typeInto(input(), 'Journal, ./ Sp /', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal', ' Sp ']);
  });

  it("refuses a typed root that would be the whole vault or leaves it, keeping the key's roots (never widened)", async () => {
    const input = (): HTMLInputElement => keyRow('Claude Code').querySelector<HTMLInputElement>('.vault-mcp-key-roots input')!;
    typeInto(input(), 'Journal', true);
    await settle();
    for (const [typed, reason] of [
      ['Projects, .', /The root "\." names the vault itself, which would be the whole vault/],
      [`Projects, ${vaultDir}`, /names the vault itself/],
      ['../etc', /leaves the vault/],
    ] as const) {
      Notice.clear();
      typeInto(input(), typed, true);
      await settle();
      expect(el().querySelector('.vault-mcp-keys-message')!.textContent).toMatch(reason);
      expect(Notice.messages().some((m) => reason.test(m))).toBe(true);
      expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal']);
    }
  });

  it('a data.json synced in with a key root of "" gets a Notice, and that key is refused at the door until it is fixed', async () => {
    booted.plugin.settings.server.port = booted.port;
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings));
    synced.keys[0].roots = [''];
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['']);
    expect(Notice.messages()).toContainEqual(
      expect.stringMatching(/^Vault MCP: Key "Claude Code" may touch no note: its root "" is empty/),
    );
    await expect(client.listTools()).rejects.toThrow(/may touch no note/);
    // The key's own row says so too: its roots field shows nothing, which would read as the whole vault.
    const rootsCell = (): HTMLElement => keyRow('Claude Code').querySelector<HTMLElement>('.vault-mcp-key-roots')!;
    expect(rootsCell().querySelector('[role="alert"]')?.textContent).toMatch(/^Refused, may touch no note: the root "" is empty/);
    expect(rootsCell().querySelector('input')!.getAttribute('aria-invalid')).toBe('true');
    // Typed over in the row, the fixed roots are saved and the row's warning goes.
    typeInto(rootsCell().querySelector('input')!, 'Journal', true);
    await settle();
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Journal']);
    expect(rootsCell().querySelector('[role="alert"]')).toBeNull();
    // The data.json edited again elsewhere after that fix (a copy of it: not older than the fix, which it would lose to).
    synced.keys[0] = { ...booted.plugin.settings.keys[0], roots: [''] };
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    expect(rootsCell().querySelector('[role="alert"]')).not.toBeNull();
    synced.keys[0].roots = ['Projects/'];
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.keyRing.list()[0]!.roots).toEqual(['Projects']);
    expect(rootsCell().querySelector('[role="alert"]')).toBeNull();
    expect(rootsCell().querySelector('input')!.getAttribute('aria-invalid')).toBeNull();
    const again = await connectClient(booted.url, booted.token);
    clients.push(again);
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("a key's tool set: read tools only, then chosen tools, changes that key's tools/list (announced) and the Connect line", async () => {
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });
    expect(await client.listTools()).toBeDefined();
    booted.plugin.settings.tools.enabled.create_note = true;
    settingRow(el(), 'Allow writes').querySelector<HTMLElement>('.checkbox-container')!.click();
    await until(() => notified > 0, 'no notification after Allow writes');
    const cell = (): HTMLElement => keyRow('Claude Code').querySelector<HTMLElement>('.vault-mcp-key-tools')!;
    expect(cell().querySelector('select')!.value).toBe('all');
    expect(el().querySelector('.vault-mcp-connect-tools')!.textContent).toMatch(
      /^A client using "Claude Code" sees \d+ tools \(all enabled tools; change under Keys → Tools\): search, /,
    );

    choose(cell().querySelector('select')!, 'read');
    await until(() => notified > 1, 'no tools/list_changed after choosing read tools');
    expect(booted.plugin.keyRing.list()[0]!.tools).toBe('read');
    const readOnly = (await client.listTools()).tools.map((t) => t.name);
    expect(readOnly).toContain('read_note');
    expect(readOnly).not.toContain('create_note');
    expect(el().querySelector('.vault-mcp-connect-tools')!.textContent).toContain('(read tools only;');

    choose(cell().querySelector('select')!, 'list');
    await until(() => notified > 2, 'no tools/list_changed after choosing a list');
    expect(booted.plugin.keyRing.list()[0]!.tools).toEqual(readOnly);
    const boxes = (): HTMLInputElement[] =>
      Array.from(cell().querySelectorAll<HTMLInputElement>('.vault-mcp-key-tools-list input[type=checkbox]'));
    expect(
      boxes()
        .filter((b) => b.checked)
        .map((b) => b.dataset.tool),
    ).toEqual(readOnly);
    const search = boxes().find((b) => b.dataset.tool === 'search')!;
    search.checked = false;
    search.dispatchEvent(new Event('change'));
    await until(() => notified > 3, 'no tools/list_changed after unticking search');
    const create = boxes().find((b) => b.dataset.tool === 'create_note')!;
    create.checked = true;
    create.dispatchEvent(new Event('change'));
    await until(() => notified > 4, 'no tools/list_changed after ticking create_note');
    const chosen = (await client.listTools()).tools.map((t) => t.name);
    expect(chosen).not.toContain('search');
    expect(chosen).toContain('create_note');
    expect(chosen).toHaveLength(readOnly.length);
    expect(cell().querySelector('.vault-mcp-key-tools-count')!.textContent).toBe(`${readOnly.length} tools in tools/list`);
  });

  it('a tool toggle changes tools/list for a connected SDK client, announced by list_changed', async () => {
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_tags');

    const row = Array.from(el().querySelectorAll<HTMLElement>('.vault-mcp-tool')).find(
      (r) => r.querySelector('code')?.textContent === 'list_tags',
    )!;
    expect(row.querySelector('.checkbox-container')!.classList.contains('is-enabled')).toBe(true);
    row.querySelector<HTMLElement>('.checkbox-container')!.click();
    await until(() => notified > 0, 'no tools/list_changed notification arrived');
    expect(booted.plugin.settings.tools.enabled.list_tags).toBe(false);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('list_tags');

    settingRow(el(), 'Allow writes').querySelector<HTMLElement>('.checkbox-container')!.click();
    await until(() => notified > 1, 'no notification after Allow writes');
    expect(booted.plugin.settings.tools.allowWrites).toBe(true);
  });

  it('the Skills folder setting moves where skills come from, announced by prompts/list_changed', async () => {
    await booted.app.vault.createFolder('Playbooks/triage');
    await booted.app.vault.create('Playbooks/triage/SKILL.md', '---\nname: Triage\ndescription: Sort the inbox.\n---\nSort it.\n');
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    let notified = 0;
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
      notified++;
    });
    expect((await client.listPrompts()).prompts).toEqual([]);
    const input = settingRow(el(), 'Skills folder').querySelector<HTMLInputElement>('input')!;
    expect(input.placeholder).toBe('Skills');
    typeInto(input, ' /Playbooks/ ', true);
    await until(() => notified > 0, 'no prompts/list_changed notification arrived');
    expect(booted.plugin.settings.skills.folder).toBe('Playbooks');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['triage']);
  });

  it('moves the server when the port changes, and reports a taken port in the tab and a Notice', async () => {
    const portInput = settingRow(el(), 'Port').querySelector('input')!;
    typeInto(portInput, '80');
    expect(settingRow(el(), 'Port').querySelector('.setting-item-error')!.textContent).toMatch(/out of range/);
    typeInto(portInput, 'abc', true);
    await settle();
    expect(booted.plugin.server.getStatus()).toMatchObject({ state: 'listening', port: booted.port });

    const port = await freePort();
    typeInto(settingRow(el(), 'Port').querySelector('input')!, String(port), true);
    await until(
      () => booted.plugin.server.getStatus().state === 'listening' && el().textContent!.includes(`:${port}/mcp`),
      'server did not move',
    );
    expect(booted.plugin.settings.server.port).toBe(port);
    const client = await connectClient(`http://127.0.0.1:${port}/mcp`, booted.token);
    clients.push(client);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      typeInto(settingRow(el(), 'Port').querySelector('input')!, String(taken), true);
      await until(() => booted.plugin.server.getStatus().state === 'error', 'taken port not reported');
      await settle();
      expect(settingRow(el(), 'Status').textContent).toContain(`Port ${taken} is already in use`);
      expect(Notice.messages().some((m) => m.includes(`Port ${taken} is already in use`))).toBe(true);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('copies the server URL and each client setup with the real token, showing the token shortened', async () => {
    settingRow(el(), 'Status').querySelector<HTMLElement>('.clickable-icon')!.click();
    await settle();
    expect(dom.clipboard.at(-1)).toBe(booted.url);
    const blocks = Array.from(el().querySelectorAll<HTMLElement>('.vault-mcp-snippet'));
    expect(blocks.map((b) => b.dataset.client)).toEqual(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex']);
    for (const block of blocks) {
      expect(block.querySelector('pre')!.textContent).not.toContain(booted.token);
      block.querySelector<HTMLElement>('.clickable-icon')!.click();
      await settle();
      expect(dom.clipboard.at(-1)).toContain(booted.token);
      expect(dom.clipboard.at(-1)).toContain(booted.url);
    }
  });

  it('quarantines and releases folders; built-ins are shown and fixed', async () => {
    const chips = Array.from(el().querySelectorAll('.vault-mcp-chip')).map((c) => c.textContent);
    expect(chips).toEqual(['.obsidian/', '.*/', '_private/']);
    const add = settingRow(el(), 'Quarantine a folder');
    typeInto(add.querySelector('input')!, '/Journal/');
    button(add, 'Add').click();
    await settle();
    expect(booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    const addAgain = settingRow(el(), 'Quarantine a folder');
    typeInto(addAgain.querySelector('input')!, 'Journal');
    button(addAgain, 'Add').click();
    await settle();
    expect(addAgain.querySelector('.setting-item-error')!.textContent).toMatch(/already quarantined/);
    settingRow(el(), 'Journal/').querySelector<HTMLElement>('.clickable-icon')!.click();
    await settle();
    expect(booted.plugin.settings.access.quarantine).toEqual([]);
  });

  it('reads a typed quarantine entry as the plugin applies it, refuses one naming no folder, and shows a synced one that quarantines nothing', async () => {
    const add = () => settingRow(el(), 'Quarantine a folder');
    const error = () => add().querySelector('.setting-item-error')?.textContent;
    for (const [typed, reason] of [
      ['/', 'names the vault itself, not a folder in it'],
      ['..', 'climbs out of the vault with ".."'],
      ['Jour*', 'holds a wildcard (* or ?), but entries are folder paths, not patterns'],
      [path.join(path.dirname(vaultDir), 'Elsewhere'), 'is an absolute path or URL outside the vault'],
    ]) {
      typeInto(add().querySelector('input')!, typed);
      button(add(), 'Add').click();
      await settle();
      expect(error()).toBe(`"${typed}" ${reason}; give a folder of the vault, relative to it, such as "Journal" or "Work/HR".`);
    }
    expect(booted.plugin.settings.access.quarantine).toEqual([]);
    // The absolute path of a vault folder, typed in another case, is that folder (it used to be saved as typed and quarantine nothing).
    typeInto(add().querySelector('input')!, path.join(vaultDir, 'journal'));
    button(add(), 'Add').click();
    await settle();
    expect(booted.plugin.settings.access.quarantine).toEqual(['Journal']);
    // A folder about to be created is accepted, and its row says it is not there yet.
    typeInto(add().querySelector('input')!, 'Later');
    button(add(), 'Add').click();
    await settle();
    expect(booted.plugin.settings.access.quarantine).toEqual(['Journal', 'Later']);
    expect(settingRow(el(), 'Later/').querySelector('.setting-item-description')!.textContent).toBe(
      'No such folder yet: quarantined once it exists.',
    );
    expect(settingRow(el(), 'Journal/').querySelector('.setting-item-description')?.textContent ?? '').toBe('');
    // A synced data.json with an entry naming no folder: kept as written, told in a Notice and on its row.
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings));
    synced.access.quarantine = ['Journal', '/'];
    // Later was removed on that device (its tombstone, later than the add here): entries merge one by one (docs/settings.md#synced-settings).
    synced.access.entryTimes.quarantine.Later.removed = new Date(Date.now() + 1000).toISOString();
    await booted.plugin.saveData(synced);
    Notice.clear();
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.settings.access.quarantine).toEqual(['Journal', '/']);
    expect(Notice.messages()).toContainEqual(
      expect.stringMatching(
        /^Vault MCP: The quarantine entry "\/" names the vault itself, not a folder in it, so it quarantines nothing\./,
      ),
    );
    tab.display();
    expect(settingRow(el(), '//').querySelector('.setting-item-description')!.textContent).toBe(
      'Quarantines nothing: it names the vault itself, not a folder in it.',
    );
  });

  it('refuses a typed quarantine entry naming a note (quarantine takes folders); a synced one keeps hiding the note and is told', async () => {
    const add = () => settingRow(el(), 'Quarantine a folder');
    const error = () => add().querySelector('.setting-item-error')?.textContent;
    await booted.app.vault.create('Home.md', 'home\n');
    for (const [typed, refusal] of [
      [
        'home.md',
        '"home.md" names the note "Home.md", not a folder; quarantine takes folders: move the note into a quarantined folder, ' +
          'or add "access: private" to the note\'s frontmatter to hide that note alone.',
      ],
      [
        path.join(vaultDir, 'Projects/Alpha/Plan.md'),
        `"${path.join(vaultDir, 'Projects/Alpha/Plan.md')}" names the note "Projects/Alpha/Plan.md", not a folder; quarantine takes folders: ` +
          'give its folder "Projects/Alpha" (which closes everything in it), or add "access: private" to the note\'s frontmatter to hide that note alone.',
      ],
    ]) {
      typeInto(add().querySelector('input')!, typed);
      button(add(), 'Add').click();
      await settle();
      // It used to be saved and shown as the quarantined folder "Home.md/".
      expect(error()).toBe(refusal);
      expect(booted.plugin.settings.access.quarantine).toEqual([]);
    }
    // A synced data.json naming a note: kept, and the note stays hidden (never opened up), told in a Notice and on its row.
    booted.plugin.settings.server.port = booted.port;
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings));
    synced.access.quarantine = ['Journal', 'Home.md'];
    await booted.plugin.saveData(synced);
    Notice.clear();
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.settings.access.quarantine).toEqual(['Journal', 'Home.md']);
    const read = (await client.callTool({ name: 'read_note', arguments: { path: 'Home.md' } })) as { isError?: boolean };
    expect(read.isError).toBe(true);
    expect(Notice.messages()).toContainEqual(
      'Vault MCP: The quarantine entry "Home.md" hides only that note: it names the note "Home.md", not a folder; quarantine takes folders: ' +
        'move the note into a quarantined folder, or add "access: private" to the note\'s frontmatter to hide that note alone. ' +
        'Fix it in Vault MCP settings → Access (give a folder of the vault, relative to it, such as "Journal" or "Work/HR").',
    );
    tab.display();
    expect(settingRow(el(), 'Home.md').querySelector('.setting-item-description')!.textContent).toMatch(
      /^Hides only this note: it names the note "Home\.md", not a folder; quarantine takes folders: /,
    );
    expect(el().textContent).not.toContain('Home.md/');
  });

  it('tells at load, once the vault is read, of a saved quarantine entry naming a note or no folder; the note stays hidden', async () => {
    const other = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-settings-'));
    await fs.mkdir(path.join(other, 'Work'));
    await fs.writeFile(path.join(other, 'Work/Pay.md'), 'pay\n');
    await fs.writeFile(path.join(other, 'Work/Plan.md'), 'plan\n');
    Notice.clear();
    const second = await bootPlugin(VaultMcpPlugin, {
      vaultPath: other,
      configure: (settings) => void (settings.access.quarantine = ['work/pay.md', '/', 'Work/Later']),
    });
    try {
      expect(Notice.messages()).toContainEqual(
        'Vault MCP: The quarantine entry "work/pay.md" hides only that note: it names the note "Work/Pay.md", not a folder; quarantine takes folders: ' +
          'give its folder "Work" (which closes everything in it), or add "access: private" to the note\'s frontmatter to hide that note alone. ' +
          'The quarantine entry "/" names the vault itself, not a folder in it, so it quarantines nothing. ' +
          'Fix it in Vault MCP settings → Access (give a folder of the vault, relative to it, such as "Journal" or "Work/HR").',
      );
      const client = await connectClient(second.url, second.token);
      clients.push(client);
      const listed = (await client.callTool({ name: 'list_notes', arguments: {} })) as { content: Array<{ text: string }> };
      expect(listed.content[0]!.text).toContain('Work/Plan.md');
      expect(listed.content[0]!.text).not.toContain('Pay.md');
    } finally {
      for (const client of clients.splice(0)) await client.close().catch(() => undefined);
      await second.stop();
      await fs.rm(other, { recursive: true, force: true });
    }
  });

  it('trusts and distrusts symbolic links, refusing empty, ".." and duplicate paths', async () => {
    const add = () => settingRow(el(), 'Trust a symbolic link');
    typeInto(add().querySelector('input')!, '../Outside');
    button(add(), 'Trust').click();
    await settle();
    expect(add().querySelector('.setting-item-error')!.textContent).toMatch(/Type the vault path of the link/);
    typeInto(add().querySelector('input')!, '/Shared/');
    button(add(), 'Trust').click();
    await settle();
    expect(booted.plugin.settings.access.trustedSymlinks).toEqual(['Shared']);
    typeInto(add().querySelector('input')!, 'Shared');
    button(add(), 'Trust').click();
    await settle();
    expect(add().querySelector('.setting-item-error')!.textContent).toMatch(/already trusted/);
    settingRow(el(), 'Shared').querySelector<HTMLElement>('.clickable-icon')!.click();
    await settle();
    expect(booted.plugin.settings.access.trustedSymlinks).toEqual([]);
  });

  describe('a trusted link typed with outer spaces (Obsidian trims nothing: " Shared" and "Shared" are two links)', () => {
    let outside: string;
    /** Makes the vault link `name` to a new folder outside the vault holding `note`, and waits until the vault lists it. */
    const linkOut = async (name: string, note: string): Promise<void> => {
      const target = path.join(outside, note);
      await fs.mkdir(target);
      await fs.writeFile(path.join(target, `${note}.md`), `${note}\n`);
      await fs.symlink(target, path.join(vaultDir, name), 'dir');
      await until(() => booted.app.vault.getAbstractFileByPath(`${name}/${note}.md`), `the vault did not list ${name}/${note}.md`);
    };
    /** The notes below the two links that an agent lists. */
    const listedBelowLinks = async (): Promise<string[]> => {
      const client = await connectClient(booted.url, booted.token);
      clients.push(client);
      const listed = await client.callTool({ name: 'list_notes', arguments: { limit: 1000 } });
      const notes = (listed.structuredContent as { notes: Array<{ path: string }> }).notes.map((n) => n.path);
      return notes.filter((n) => /^ ?Shared\//.test(n)).sort();
    };
    const add = () => settingRow(el(), 'Trust a symbolic link');
    const trust = async (typed: string): Promise<void> => {
      typeInto(add().querySelector('input')!, typed);
      button(add(), 'Trust').click();
      await settle();
    };
    beforeEach(async () => {
      outside = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-outside-'));
    });
    afterEach(() => fs.rm(outside, { recursive: true, force: true }));

    it('trusts the link " Shared" when no "Shared" is there: it used to save and trust "Shared", leaving " Shared" closed', async () => {
      await linkOut(' Shared', 'spaced');
      expect(await listedBelowLinks()).toEqual([]);
      await trust(' Shared');
      expect(add().querySelector('.setting-item-error')).toBeNull();
      expect(booted.plugin.settings.access.trustedSymlinks).toEqual([' Shared']);
      // Its row shows the spaces, spelt as the field takes it back.
      expect(settingRow(el(), './ Shared/').classList.contains('vault-mcp-trusted-link-row')).toBe(true);
      expect(await listedBelowLinks()).toEqual([' Shared/spaced.md']);
    });

    it('refuses " Shared" when both links exist, saving nothing; "Shared" and "./ Shared/" each trust their own link', async () => {
      await linkOut(' Shared', 'spaced');
      await linkOut('Shared', 'plain');
      await trust(' Shared');
      expect(add().querySelector('.setting-item-error')!.textContent).toBe(
        'The link " Shared" names two entries of the vault, "Shared" with its outer spaces trimmed and " Shared" as typed; ' +
          'write "Shared" with no space before or after it for the first, or "./ Shared/" for the second ("./" before it and "/" after it keep its spaces).',
      );
      expect(booted.plugin.settings.access.trustedSymlinks).toEqual([]);
      expect(await listedBelowLinks()).toEqual([]);

      await trust('Shared');
      expect(booted.plugin.settings.access.trustedSymlinks).toEqual(['Shared']);
      expect(await listedBelowLinks()).toEqual(['Shared/plain.md']);
      await trust('./ Shared/');
      expect(booted.plugin.settings.access.trustedSymlinks).toEqual(['Shared', ' Shared']);
      expect(await listedBelowLinks()).toEqual([' Shared/spaced.md', 'Shared/plain.md']);
    });
  });

  it('the Skills folder typed with outer spaces names the folder of that name when no trimmed twin exists, and is refused when both exist', async () => {
    await booted.app.vault.createFolder(' Playbooks');
    const skills = () => settingRow(el(), 'Skills folder');
    typeInto(skills().querySelector('input')!, ' Playbooks');
    await settle();
    expect(booted.plugin.settings.skills.folder).toBe(' Playbooks');
    await booted.app.vault.createFolder('Playbooks');
    typeInto(skills().querySelector('input')!, ' Playbooks');
    await settle();
    expect(skills().querySelector('.setting-item-error')!.textContent).toMatch(
      /^The skills folder " Playbooks" names two folders, "Playbooks" with its outer spaces trimmed and " Playbooks" as typed; /,
    );
    expect(booted.plugin.settings.skills.folder).toBe(' Playbooks');
    typeInto(skills().querySelector('input')!, 'Playbooks ');
    await settle();
    expect(skills().querySelector('.setting-item-error')).toBeNull();
    expect(booted.plugin.settings.skills.folder).toBe('Playbooks');
    // A saved folder with outer spaces shows as the field reads it back.
    typeInto(skills().querySelector('input')!, './ Playbooks/');
    await settle();
    expect(booted.plugin.settings.skills.folder).toBe(' Playbooks');
    tab.display();
    expect(skills().querySelector('input')!.value).toBe('./ Playbooks/');
  });

  it('the Widgets folder typed with outer spaces names the folder of that name when no trimmed twin exists, and is refused when both exist', async () => {
    const widgets = () => settingRow(el(), 'Widgets folder');
    await booted.app.vault.createFolder(' Boards');
    typeInto(widgets().querySelector('input')!, ' Boards');
    await settle();
    expect(booted.plugin.settings.widgets.folder).toBe(' Boards');
    await booted.app.vault.createFolder('Boards');
    typeInto(widgets().querySelector('input')!, ' Boards');
    await settle();
    expect(widgets().querySelector('.setting-item-error')!.textContent).toMatch(/^The widgets folder " Boards" names two folders, /);
    expect(booted.plugin.settings.widgets.folder).toBe(' Boards');
  });

  it('Test saves the form as typed, then shows the reply or the full error inline', async () => {
    const fake = await startFakeOpenAi({ models: { 'tiny-model': { reply: () => 'OK' } }, apiKey: 'sk-test-123' });
    try {
      settingRow(el(), 'Test').querySelector('button')!.click();
      await until(() => el().querySelector('.vault-mcp-test-result.mod-error'), 'no error shown');
      expect(el().querySelector('.vault-mcp-test-result')!.textContent).toMatch(/^aiDisabled: /);

      settingRow(el(), 'Enable AI').querySelector<HTMLElement>('.checkbox-container')!.click();
      await settle();
      // Typed but not committed: Test must use these values.
      const base = settingRow(el(), 'Base URL').querySelector('input')!;
      base.value = fake.baseUrl;
      settingRow(el(), 'Model').querySelector('input')!.value = 'tiny-model';
      const key = settingRow(el(), 'API key').querySelector('input')!;
      expect(key.type).toBe('password');
      key.value = 'sk-test-123';
      settingRow(el(), 'Test').querySelector('button')!.click();
      await until(() => el().querySelector('.vault-mcp-test-result.mod-success'), 'no reply shown');
      expect(el().querySelector('.vault-mcp-test-result')!.textContent).toBe('Reply: OK');
      expect(booted.plugin.settings.ai).toMatchObject({ baseUrl: fake.baseUrl, model: 'tiny-model' });
      expect(booted.app.secretStorage.getSecret(AI_API_KEY_SECRET_ID)).toBe('sk-test-123');
      expect(JSON.stringify(booted.plugin.settings)).not.toContain('sk-test-123');
    } finally {
      await fake.close();
    }
  });

  it('Test refuses localhost. as not on this computer, and shows where a redirecting provider pointed without going there', async () => {
    const fake = await startFakeOpenAi({ models: { 'tiny-model': { reply: () => 'OK' } } });
    const redirector = await startRecordingServer((req) => ({ status: 307, body: '', headers: { location: `${fake.origin}${req.path}` } }));
    const port = new URL(fake.origin).port;
    const test = async (baseUrl: string): Promise<string> => {
      settingRow(el(), 'Base URL').querySelector('input')!.value = baseUrl;
      settingRow(el(), 'Model').querySelector('input')!.value = 'tiny-model';
      settingRow(el(), 'Test').querySelector('button')!.click();
      await until(() => el().querySelector('.vault-mcp-test-result.mod-error'), 'no error shown');
      return el().querySelector('.vault-mcp-test-result')!.textContent!;
    };
    try {
      settingRow(el(), 'Enable AI').querySelector<HTMLElement>('.checkbox-container')!.click();
      await settle();
      const refusal = `The AI provider (the server at localhost.:${port}) is not on this computer and remote providers are not allowed; turn on "Allow remote providers" in Settings → Vault MCP → AI provider`;
      expect(await test(`http://localhost.:${port}/v1`)).toMatch(new RegExp(`^aiRemoteNotAllowed: ${refusal.replace(/[.()]/g, '\\$&')}`));
      tab.display();
      expect(settingRow(el(), 'Test').querySelector('.setting-item-description')!.textContent).toContain(refusal);

      expect(await test(`${redirector.origin}/v1`)).toBe(
        `aiHttpError: The AI provider at ${redirector.origin}/v1/chat/completions answered HTTP 307, a redirect to ${fake.origin}/v1/chat/completions; ` +
          "Vault MCP does not follow an AI provider's redirects, so your notes and API key go only to the base URL you set. " +
          `If that server is the one you mean, set the base URL to ${fake.baseUrl} in Settings → Vault MCP → AI provider.`,
      );
      expect(redirector.requests).toHaveLength(1);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await Promise.all([fake.close(), redirector.close()]);
    }
  });

  it('picks up settings changed on another device without a restart', async () => {
    // The harness boots on port 0 (any free port), which data.json cannot hold; pin the real one.
    booted.plugin.settings.server.port = booted.port;
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    let notified = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified++;
    });
    // A round trip first: the SDK client opens its notification stream (GET /mcp) after connect.
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('search');
    const synced = JSON.parse(JSON.stringify(booted.plugin.settings));
    synced.tools.enabled.search = false;
    await booted.plugin.saveData(synced);
    await simulateExternalSettingsChange(booted.plugin);
    await until(() => notified > 0, 'no tools/list_changed after an external change');
    expect(booted.plugin.server.getStatus()).toMatchObject({ state: 'listening', port: booted.port });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('search');
    const searchRow = Array.from(el().querySelectorAll<HTMLElement>('.vault-mcp-tool')).find(
      (r) => r.querySelector('code')?.textContent === 'search',
    )!;
    expect(searchRow.querySelector('.checkbox-container')!.classList.contains('is-enabled')).toBe(false);

    const port = await freePort();
    const moved = JSON.parse(JSON.stringify(booted.plugin.settings));
    moved.server.port = port;
    await booted.plugin.saveData(moved);
    await simulateExternalSettingsChange(booted.plugin);
    expect(booted.plugin.server.getStatus()).toMatchObject({ state: 'listening', port });
    expect(el().textContent).toContain(`127.0.0.1:${port}/mcp`);
    const reconnected = await connectClient(`http://127.0.0.1:${port}/mcp`, booted.token);
    clients.push(reconnected);
    expect((await reconnected.listTools()).tools.map((t) => t.name)).not.toContain('search');
  });

  it('answers the vault-mcp:status and vault-mcp:url CLI commands', async () => {
    const status = booted.app.cliHandlers.get('vault-mcp:status')!;
    const url = booted.app.cliHandlers.get('vault-mcp:url')!;
    expect(await status.handler({})).toBe(`Listening on ${booted.url} (1 key)`);
    expect(await url.handler({})).toBe(booted.url);
  });

  it('the Review section mutes and unmutes the notice for new proposals', async () => {
    const row = settingRow(el(), 'Notify on new proposals');
    expect(row.querySelector('.checkbox-container')!.classList.contains('is-enabled')).toBe(true);
    row.querySelector<HTMLElement>('.checkbox-container')!.click();
    await settle();
    expect(booted.plugin.settings.proposals.notifyOnNew).toBe(false);
    expect((await booted.plugin.loadData()).proposals.notifyOnNew).toBe(false);
    const muted = (await booted.plugin.loadData()).proposals.fieldTimes.notifyOnNew as string;
    row.querySelector<HTMLElement>('.checkbox-container')!.click();
    await settle();
    expect(booted.plugin.settings.proposals.notifyOnNew).toBe(true);
    // Each change is stamped, so a synced data.json merges it field by field: turned back on here, it beats the mute.
    const saved = (await booted.plugin.loadData()).proposals;
    expect(saved.notifyOnNew).toBe(true);
    expect(Date.parse(saved.fieldTimes.notifyOnNew)).toBeGreaterThan(Date.parse(muted));
  });

  it('the Agent activity section says what the log holds and saves its limits, refusing what is not a whole number in range', async () => {
    const heading = Array.from(el().querySelectorAll('.setting-item-heading')).find(
      (h) => h.querySelector('.setting-item-name')?.textContent === 'Agent activity',
    )!;
    expect(heading.querySelector('.setting-item-description')!.textContent).toMatch(/It holds 0 changes now \(0\.0 MB of 20 MB\)\.$/);
    const size = settingRow(el(), 'Activity log size');
    expect(size.querySelector('input')!.value).toBe('20');
    typeInto(size.querySelector('input')!, '5');
    await settle();
    expect(booted.plugin.settings.activity.maxMegabytes).toBe(5);
    // Saved with the field's stamp (a synced data.json merges the limits field by field).
    expect((await booted.plugin.loadData()).activity).toEqual({
      maxMegabytes: 5,
      maxDays: 30,
      changed_at: expect.any(String),
      fieldTimes: { maxMegabytes: booted.plugin.settings.activity.changed_at },
    });
    const days = settingRow(el(), 'Keep activity for');
    for (const bad of ['0', '3651', '2.5', 'ten', '']) {
      typeInto(days.querySelector('input')!, bad);
      await settle();
      expect(days.querySelector('.setting-item-error')!.textContent).toBe('Type a whole number from 1 to 3650.');
    }
    expect(booted.plugin.settings.activity.maxDays).toBe(30);
    typeInto(days.querySelector('input')!, ' 7 ');
    await settle();
    expect(booted.plugin.settings.activity.maxDays).toBe(7);
    expect(days.querySelector('.setting-item-error')).toBeNull();
  });
});
