import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import {
  createTempVault,
  TempVault,
  Plugin,
  PluginSettingTab,
  Notice,
  MarkdownView,
  SecretStorage,
  TFile,
  Events,
  loadPluginInHost,
  unloadPluginInHost,
  simulateExternalSettingsChange,
  createHostApp,
  normalizePath,
  requestUrl,
  debounce,
  parseYaml,
  stringifyYaml,
  Platform,
  requireApiVersion,
} from '../../host/index';
import type * as O from 'obsidian';

const manifest: O.PluginManifest = {
  id: 'test-plugin',
  name: 'Test Plugin',
  author: 'me',
  version: '1.0.0',
  minAppVersion: '1.11.4',
  description: 'test',
};

/** A plugin that exercises the registration API and logs its lifecycle. */
class TestPlugin extends Plugin {
  log: string[] = [];
  override settings: { n: number } = { n: 0 };
  statusEl!: HTMLElement;
  override async onload(): Promise<void> {
    this.log.push('onload');
    this.settings = Object.assign({ n: 0 }, await this.loadData());
    this.registerEvent(this.app.vault.on('create', (f) => this.log.push(`create ${f.path}`)));
    this.registerInterval(setInterval(() => this.log.push('tick'), 1_000_000) as unknown as number);
    this.addCommand({ id: 'bump', name: 'Bump', callback: () => this.log.push('bump') });
    this.addCommand({
      id: 'needs-editor',
      name: 'Needs editor',
      editorCallback: (editor) => this.log.push(`sel ${editor.getSelection()}`),
    });
    this.addSettingTab(new TestTab(this.app, this));
    this.statusEl = this.addStatusBarItem();
    this.statusEl.setText('ready');
    this.register(() => this.log.push('cleanup'));
    this.app.workspace.onLayoutReady(() => this.log.push('layout-ready'));
  }
  override onunload(): void {
    this.log.push('onunload');
  }
  async onExternalSettingsChange(): Promise<void> {
    this.settings = Object.assign({ n: 0 }, await this.loadData());
    this.log.push(`external ${this.settings.n}`);
  }
}

class TestTab extends PluginSettingTab {
  override display(): void {
    this.containerEl.empty();
    this.containerEl.createEl('h2', { text: 'Test settings' });
  }
}

describe('host plugin lifecycle', () => {
  let tv: TempVault;
  beforeEach(async () => {
    tv = await createTempVault({ 'Note.md': 'Some text here' }, { watchIntervalMs: false });
    Notice.clear();
  });
  afterEach(() => tv.cleanup());

  it('loads, registers, runs layout-ready after onload, and releases everything on unload', async () => {
    const plugin = await loadPluginInHost(tv.app, TestPlugin, manifest);
    expect(plugin.log).toEqual(['onload', 'layout-ready']);
    expect(tv.app.plugins.getPlugin('test-plugin')).toBe(plugin);
    expect(plugin.commands.map((c) => [c.id, c.name])).toEqual([
      ['test-plugin:bump', 'Test Plugin: Bump'],
      ['test-plugin:needs-editor', 'Test Plugin: Needs editor'],
    ]);
    expect(plugin.settingTabs[0]).toBeInstanceOf(TestTab);
    expect(plugin.statusEl.getText()).toBe('ready');

    expect(tv.app.commands.executeCommandById('test-plugin:bump')).toBe(true);
    expect(tv.app.commands.executeCommandById('test-plugin:needs-editor')).toBe(false);
    await tv.app.workspace.setActiveNote(tv.app.vault.getFileByPath('Note.md') as TFile, { anchor: 5, head: 9 });
    expect(tv.app.commands.executeCommandById('test-plugin:needs-editor')).toBe(true);
    await tv.app.vault.create('New.md', '');
    expect(plugin.log).toEqual(['onload', 'layout-ready', 'bump', 'sel text', 'create New.md']);

    const listeners = tv.app.vault.listenerCount('create');
    unloadPluginInHost(plugin);
    expect(plugin.log.slice(-2)).toEqual(['cleanup', 'onunload']);
    expect(tv.app.vault.listenerCount('create')).toBe(listeners - 1);
    expect(tv.app.plugins.getPlugin('test-plugin')).toBeNull();
    expect(tv.app.commands.commands).toEqual({});
    expect(() => tv.app.commands.executeCommandById('test-plugin:bump')).toThrow(/Unknown command/);
    await tv.app.vault.create('After.md', '');
    expect(plugin.log).not.toContain('create After.md');
  });

  it('persists data.json under the config dir and reloads it on an external change', async () => {
    const plugin = await loadPluginInHost(tv.app, TestPlugin, manifest);
    expect(await plugin.loadData()).toBeNull();
    await plugin.saveData({ n: 5 });
    const file = nodePath.join(tv.dir, '.obsidian/plugins/test-plugin/data.json');
    expect(JSON.parse(await fsp.readFile(file, 'utf8'))).toEqual({ n: 5 });
    expect(tv.app.vault.getAbstractFileByPath('.obsidian/plugins/test-plugin/data.json')).toBeNull();
    await fsp.writeFile(file, JSON.stringify({ n: 7 }));
    await simulateExternalSettingsChange(plugin);
    expect(plugin.settings.n).toBe(7);
    unloadPluginInHost(plugin);
    const again = await loadPluginInHost(tv.app, TestPlugin, manifest);
    expect(again.settings.n).toBe(7);
    await expect(loadPluginInHost(tv.app, TestPlugin, manifest)).rejects.toThrow(/already loaded/);
  });

  it('unloads a plugin whose onload fails and rethrows', async () => {
    class Broken extends Plugin {
      cleaned = false;
      override async onload(): Promise<void> {
        this.register(() => (this.cleaned = true));
        throw new Error('boom');
      }
    }
    let instance: Broken | null = null;
    class Spy extends Broken {
      constructor(app: O.App, m: O.PluginManifest) {
        super(app, m);
        // eslint-disable-next-line @typescript-eslint/no-this-alias -- the test keeps the half-loaded plugin to inspect it after the host drops it
        instance = this;
      }
    }
    await expect(loadPluginInHost(tv.app, Spy, manifest)).rejects.toThrow('boom');
    expect((instance as unknown as Broken).cleaned).toBe(true);
    expect(tv.app.plugins.getPlugin('test-plugin')).toBeNull();
  });

  it('opens a note in the host editor and fires workspace events', async () => {
    const file = tv.app.vault.getFileByPath('Note.md') as TFile;
    const seen: string[] = [];
    tv.app.workspace.on('file-open', (f: TFile | null) => seen.push(`open ${f?.path ?? null}`));
    tv.app.workspace.on('active-leaf-change', (leaf: unknown) => seen.push(`leaf ${leaf ? 'set' : 'null'}`));
    await tv.app.workspace.setActiveNote(file, { anchor: { line: 0, ch: 0 }, head: 4 });
    expect(tv.app.workspace.getActiveFile()).toBe(file);
    const view = tv.app.workspace.getActiveViewOfType(MarkdownView);
    expect(view?.editor.getSelection()).toBe('Some');
    expect(view?.editor.getCursor('to')).toEqual({ line: 0, ch: 4 });
    await tv.app.workspace.setActiveNote(null);
    expect(tv.app.workspace.activeEditor).toBeNull();
    expect(seen).toEqual(['open Note.md', 'leaf set', 'open null', 'leaf null']);
  });
});

describe('host secret storage, notices and helpers', () => {
  it('validates secret ids and keeps secrets across apps sharing a store', async () => {
    const store = new Map<string, string>();
    const s = new SecretStorage(store);
    s.setSecret('vault-mcp-key-1', 'tok');
    expect(() => s.setSecret('Bad_ID', 'x')).toThrow(/lowercase letters, digits and dashes/);
    expect(() => s.setSecret('-lead', 'x')).toThrow();
    expect(s.getSecret('missing')).toBeNull();
    const tv = await createTempVault({}, { secrets: store, watchIntervalMs: false });
    try {
      expect(tv.app.secretStorage.getSecret('vault-mcp-key-1')).toBe('tok');
      expect(tv.app.secretStorage.listSecrets()).toEqual(['vault-mcp-key-1']);
    } finally {
      await tv.cleanup();
    }
  });

  it('records notices', () => {
    Notice.clear();
    const n = new Notice('Saved', 2000);
    n.setMessage('Saved again');
    expect(Notice.shown).toEqual([{ message: 'Saved again', duration: 2000 }]);
  });

  it('normalizes paths like Obsidian', () => {
    expect(normalizePath('\\a//b\\c/')).toBe('a/b/c');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('///')).toBe('/');
    expect(normalizePath('a\u00A0b')).toBe('a b');
    expect(normalizePath('Cafe\u0301.md')).toBe('Café.md');
  });

  it('debounces with cancel and run (fake timers)', () => {
    jest.useFakeTimers();
    try {
      const calls: number[] = [];
      const f = debounce((n: number) => calls.push(n), 100);
      f(1);
      f(2);
      jest.advanceTimersByTime(100);
      f(3);
      f.cancel();
      jest.advanceTimersByTime(100);
      f(4);
      f.run();
      expect(calls).toEqual([2, 4]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('round-trips YAML, reports a desktop platform and API version checks', () => {
    expect(parseYaml(stringifyYaml({ a: [1, 'two'], b: { c: true } }))).toEqual({ a: [1, 'two'], b: { c: true } });
    expect(() => parseYaml('a: [')).toThrow();
    expect([Platform.isDesktop, Platform.isMobile]).toEqual([true, false]);
    expect(requireApiVersion('1.11.4')).toBe(true);
    expect(requireApiVersion('9.0.0')).toBe(false);
  });

  it('isolates a throwing event handler', () => {
    const e = new Events();
    const seen: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    e.on('x', () => {
      throw new Error('bad handler');
    });
    e.on('x', (v: unknown) => seen.push(String(v)));
    e.trigger('x', 1);
    spy.mockRestore();
    expect(seen).toEqual(['1']);
  });

  it('closes the app idempotently and unloads its plugins', async () => {
    const tv = await createTempVault({});
    const plugin = await loadPluginInHost(tv.app, TestPlugin, manifest);
    await tv.app.close();
    expect(plugin.log.slice(-1)).toEqual(['onunload']);
    await tv.cleanup();
    await expect(createHostApp({ vaultPath: tv.dir })).rejects.toThrow(/does not exist/);
  });
});

describe('host requestUrl', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/json') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'X-Test': 'yes' });
          res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], body }));
        } else if (req.url === '/moved') {
          res.writeHead(302, { Location: '/json' });
          res.end();
        } else {
          res.writeHead(404);
          res.end('not here');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends method, body and content type and parses JSON', async () => {
    const res = await requestUrl({ url: `${base}/json`, method: 'POST', body: '{"a":1}', contentType: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers['x-test']).toBe('yes');
    expect(res.json).toEqual({ method: 'POST', type: 'application/json', body: '{"a":1}' });
    expect(await requestUrl(`${base}/moved`).json).toMatchObject({ method: 'GET' });
  });

  it('throws on status >= 400 unless throw is false', async () => {
    await expect(requestUrl(`${base}/missing`)).rejects.toMatchObject({ status: 404, message: 'Request failed, status 404' });
    const res = await requestUrl({ url: `${base}/missing`, throw: false });
    expect([res.status, res.text]).toEqual([404, 'not here']);
    await expect(requestUrl('http://127.0.0.1:1/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
