import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import type { VaultMcpSettingTab } from '../../../src/ui/settings/settings-tab';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { choose, installDom, settingRow, settle, typeInto, until, type InstalledDom } from '../../harness/env/settings-dom-env';

let dom: InstalledDom;
let vaultDir: string;
let booted: BootedPlugin<VaultMcpPlugin>;
let tab: VaultMcpSettingTab;
let fake: FakeOpenAi;

beforeEach(async () => {
  dom = installDom();
  fake = await startFakeOpenAi({ models: {}, embeddingModels: { 'nomic-embed-text': { dimensions: 32 } } });
  vaultDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vault-mcp-semantic-tab-'));
  await fs.writeFile(path.join(vaultDir, 'Garden.md'), '# Garden\n\n## Tomatoes\n\nWater them every evening in July.\n');
  await fs.writeFile(path.join(vaultDir, 'Bread.md'), '# Bread\n\nFeed the starter twice a day.\n');
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vaultDir });
  tab = booted.plugin.settingTab;
  tab.display();
});

afterEach(async () => {
  await booted.stop();
  await fake.close();
  await fs.rm(vaultDir, { recursive: true, force: true });
  dom.uninstall();
});

const el = (): HTMLElement => tab.containerEl;
const toggle = (name: string): HTMLElement => settingRow(el(), name).querySelector<HTMLElement>('.checkbox-container')!;
const rebuildButton = (): HTMLButtonElement => settingRow(el(), 'Rebuild semantic index').querySelector('button')!;
const status = (): string => settingRow(el(), 'Rebuild semantic index').querySelector('.setting-item-description')!.textContent ?? '';

describe('semantic search settings', () => {
  it('is off by default; filling the embedding model and turning the index on builds it; Rebuild embeds again', async () => {
    const model = settingRow(el(), 'Embedding model').querySelector('input')!;
    expect(model.placeholder).toBe('e.g. nomic-embed-text');
    expect(toggle('Index for semantic search').classList.contains('is-enabled')).toBe(false);
    expect(rebuildButton().disabled).toBe(true);
    expect(status()).toMatch(/^Off: semantic search is off; turn on "Index for semantic search"/);

    toggle('Enable AI').click();
    await settle();
    typeInto(settingRow(el(), 'Base URL').querySelector('input')!, fake.baseUrl);
    typeInto(settingRow(el(), 'Embedding model').querySelector('input')!, 'nomic-embed-text');
    await settle();
    expect(booted.plugin.settings.ai).toMatchObject({ baseUrl: fake.baseUrl, embeddingModel: 'nomic-embed-text', semanticIndex: false });
    expect(fake.requests).toHaveLength(0);

    toggle('Index for semantic search').click();
    await until(() => booted.plugin.semantic.current.state === 'ready', 'the index did not build');
    expect(booted.plugin.settings.ai.semanticIndex).toBe(true);
    const sent = fake.requests.length;
    expect(sent).toBeGreaterThan(0);
    tab.display();
    expect(status()).toMatch(/^Ready: 3 sections of 2 notes embedded\.$/);
    expect(settingRow(el(), 'Usage').querySelector('.setting-item-description')!.textContent).toMatch(/[1-9]\d* embedding tokens/);

    expect(rebuildButton().disabled).toBe(false);
    rebuildButton().click();
    await until(() => fake.requests.length > sent && booted.plugin.semantic.current.state === 'ready', 'Rebuild did not embed again');
  });

  it('says when the provider has no embeddings endpoint and disables the controls', async () => {
    choose(settingRow(el(), 'Provider type').querySelector('select')!, 'anthropic');
    await settle();
    const row = settingRow(el(), 'Embedding model');
    expect(row.querySelector('.setting-item-description')!.textContent).toMatch(
      /^Anthropic has no embeddings endpoint: semantic search is unavailable and hybrid search is lexical only\./,
    );
    expect(row.querySelector('input')!.disabled).toBe(true);
    expect(rebuildButton().disabled).toBe(true);
  });
});
