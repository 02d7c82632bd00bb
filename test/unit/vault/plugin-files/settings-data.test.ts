import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { FileSystemAdapter } from '../../../host/index';
import { PluginFile } from '../../../../src/vault/plugin-files/plugin-file';
import { readSettingsData, SETTINGS_TORN_READS } from '../../../../src/vault/plugin-files/settings-data';

const FOLDER = '.obsidian/plugins/vault-mcp';
const DATA = `${FOLDER}/data.json`;

/** Settings with many widget records, so a save of data.json takes long enough to be met half-written. */
function bigSettings(): Record<string, unknown> {
  const widgetTexts: Record<string, unknown> = {};
  for (let i = 0; i < 1000; i++)
    widgetTexts[`${i}`.padStart(64, 'a')] = { key_id: 'k', key_label: 'Claude', written_at: '2026-12-06T10:00:00.000Z' };
  return { keys: [{ id: 'k', label: 'Claude' }], access: { quarantine: ['Journal'] }, widgetTexts };
}

/** Obsidian's loadData as the test host has it: null without a file, JSON.parse (throws on a torn file) with one. */
const loadDataOf = (adapter: FileSystemAdapter) => async (): Promise<unknown> =>
  (await adapter.exists(DATA)) ? JSON.parse(await adapter.read(DATA)) : null;

const noWait = { sleep: async () => undefined };

describe('data.json read at load while another instance saves it in place (F6)', () => {
  let base: string;
  beforeEach(async () => {
    base = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-datajson-'));
    await fsp.mkdir(nodePath.join(base, FOLDER), { recursive: true });
  });
  afterEach(async () => fsp.rm(base, { recursive: true, force: true }));

  const asideFiles = async (): Promise<string[]> =>
    (await fsp.readdir(nodePath.join(base, FOLDER))).filter((n) => n.startsWith('data.json.corrupt-'));

  test('a second instance loading while the first saves in a loop always gets the whole settings; nothing is moved aside', async () => {
    const settings = bigSettings();
    const first = new FileSystemAdapter(base);
    await first.write(DATA, JSON.stringify(settings, null, 2));
    let stop = false;
    let saves = 0;
    const saver = (async () => {
      while (!stop) {
        await first.write(DATA, JSON.stringify(settings, null, 2));
        saves++;
      }
    })();
    const second = new FileSystemAdapter(base);
    const problems: string[] = [];
    try {
      for (let i = 0; i < 25; i++) {
        const r = await readSettingsData(loadDataOf(second), new PluginFile(second, FOLDER, 'data.json'));
        if (r.problem) problems.push(r.problem);
        else expect(r.data).toEqual(settings);
      }
    } finally {
      stop = true;
      await saver;
    }
    expect(saves).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    expect(await asideFiles()).toEqual([]);
    expect(JSON.parse(await fsp.readFile(nodePath.join(base, DATA), 'utf8'))).toEqual(settings);
  });

  test('a read met half-written is read again: the whole file is loaded, not moved aside', async () => {
    const adapter = new FileSystemAdapter(base);
    const whole = JSON.stringify({ keys: [{ id: 'k', label: 'Claude' }] }, null, 2);
    await adapter.write(DATA, whole.slice(0, 20));
    let loads = 0;
    const load = async (): Promise<unknown> => {
      loads++;
      try {
        return await loadDataOf(adapter)();
      } finally {
        // The other instance's save finishes right after the first (torn) read.
        if (loads === 1) await adapter.write(DATA, whole);
      }
    };
    const r = await readSettingsData(load, new PluginFile(adapter, FOLDER, 'data.json'));
    expect(r).toEqual({ data: { keys: [{ id: 'k', label: 'Claude' }] } });
    expect(loads).toBeGreaterThan(1);
    expect(await asideFiles()).toEqual([]);
  });

  test('a loadData that answers null for a file it could not parse does not start the defaults silently', async () => {
    // Obsidian's loadData is not documented to throw on bad JSON; one that swallows the error answers null.
    const adapter = new FileSystemAdapter(base);
    await adapter.write(DATA, '{"keys": [{"id": "k", "lab');
    let loads = 0;
    const swallowing = async (): Promise<unknown> => {
      loads++;
      return loadDataOf(adapter)().catch(() => null);
    };
    const r = await readSettingsData(swallowing, new PluginFile(adapter, FOLDER, 'data.json'), new Date(), noWait);
    expect(r.data).toBeNull();
    expect(r.problem).toMatch(/could not read its settings file data\.json .*kept as .*data\.json\.corrupt-/);
    expect(loads).toBe(SETTINGS_TORN_READS);
    const aside = await asideFiles();
    expect(aside).toHaveLength(1);
    expect(await fsp.readFile(nodePath.join(base, FOLDER, aside[0]), 'utf8')).toBe('{"keys": [{"id": "k", "lab');
  });

  test('a loadData answering null while the file is torn, then whole: the whole settings load', async () => {
    const adapter = new FileSystemAdapter(base);
    await adapter.write(DATA, '{"keys": [');
    let loads = 0;
    const swallowing = async (): Promise<unknown> => {
      if (++loads === 2) await adapter.write(DATA, '{"keys": []}');
      return loadDataOf(adapter)().catch(() => null);
    };
    const r = await readSettingsData(swallowing, new PluginFile(adapter, FOLDER, 'data.json'), new Date(), noWait);
    expect(r).toEqual({ data: { keys: [] } });
    expect(await asideFiles()).toEqual([]);
  });

  test('a file that stays damaged is moved aside after the re-reads, byte for byte; no file and a file of null are no settings', async () => {
    const adapter = new FileSystemAdapter(base);
    const file = new PluginFile(adapter, FOLDER, 'data.json');
    expect(await readSettingsData(loadDataOf(adapter), file, new Date(), noWait)).toEqual({ data: null });
    await adapter.write(DATA, 'null');
    expect(await readSettingsData(loadDataOf(adapter), file, new Date(), noWait)).toEqual({ data: null });
    await adapter.write(DATA, '[1, 2]');
    let loads = 0;
    const r = await readSettingsData(
      async () => {
        loads++;
        return loadDataOf(adapter)();
      },
      file,
      new Date(),
      noWait,
    );
    expect(r.problem).toMatch(/\(it holds a list, not settings\); it was kept as/);
    expect(loads).toBe(SETTINGS_TORN_READS);
    expect(await asideFiles()).toHaveLength(1);
    expect(await adapter.exists(DATA)).toBe(false);
  });
});
