import * as fs from 'node:fs/promises';
import * as nodePath from 'node:path';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { decodeSemanticIndex } from '../../../src/search/semantic/store-file';
import type { VaultMcpSettings } from '../../../src/settings/settings';
import { bootPlugin, connectClient, type BootedPlugin, type BootOptions } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { selfSignedCert } from '../../harness/server/self-signed-cert';

type Json = Record<string, any>;

let fake: FakeOpenAi;
/** The fake's embedding models (mutable: a test changes a model's dimension behind its name). */
let models: Record<string, { dimensions: number }>;
let vault: { dir: string; cleanup(): Promise<void> };
const running: Array<{ booted: BootedPlugin<VaultMcpPlugin>; client: Client }> = [];

beforeEach(async () => {
  models = { 'nomic-embed-text': { dimensions: 256 }, 'other-embed': { dimensions: 128 } };
  fake = await startFakeOpenAi({ models: {}, embeddingModels: models });
  vault = await copyToTemp(DEMO_VAULT);
});
afterEach(async () => {
  for (const { booted, client } of running.splice(0)) {
    await client.close().catch(() => undefined);
    await booted.stop();
  }
  await fake.close();
  await vault.cleanup();
});

/** Boots the plugin over the temp vault with AI on against the fake and semantic indexing on; waits for the first sync. */
async function boot(configure: (s: VaultMcpSettings) => void = () => undefined, roots?: string[], host: Partial<BootOptions> = {}) {
  const booted = await bootPlugin(VaultMcpPlugin, {
    ...host,
    vaultPath: vault.dir,
    roots,
    configure: (s) => {
      s.ai = { ...s.ai, enabled: true, baseUrl: fake.baseUrl, embeddingModel: 'nomic-embed-text', semanticIndex: true };
      configure(s);
    },
  });
  await booted.plugin.semantic.refresh();
  const client = await connectClient(booted.url, booted.token);
  running.push({ booted, client });
  return { booted, client, plugin: booted.plugin };
}

async function call(client: Client, name: string, args: Json): Promise<{ json: Json; isError: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0].text;
  return { json: result.structuredContent as Json, isError: result.isError === true, text };
}

/** Every text sent to the embeddings endpoint so far. */
function embeddedInputs(): string[] {
  return fake.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => r.json.input as string[]);
}

describe('semantic index over the demo vault', () => {
  it('embeds readable notes by section, never private or quarantined ones', async () => {
    const { plugin } = await boot();
    expect(plugin.semantic.current).toMatchObject({ state: 'ready' });
    const inputs = embeddedInputs();
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.some((t) => t.startsWith('Sourdough handbook\nStarter > Feeding schedule\n\n### Feeding schedule'))).toBe(true);
    expect(inputs.join('\n')).not.toMatch(/restless|router admin|Deleted draft/);
    for (const r of fake.requests) expect(r.json.input.length).toBeLessThanOrEqual(32);
    expect(plugin.ai.getUsage().embeddingTokens).toBeGreaterThan(0);
  });

  it('semantic mode finds a note by meaning with a section read_note can follow', async () => {
    const { client } = await boot();
    const page = await call(client, 'search', { query: 'how often to feed the starter on a schedule', mode: 'semantic', limit: 5 });
    expect(page.isError).toBe(false);
    const top = page.json.results[0];
    expect(top).toMatchObject({ path: 'Reference/Sourdough handbook.md', source: 'semantic' });
    expect(top.section).toMatch(/^\d/);
    const part = await call(client, 'read_note', { path: top.path, section: top.section });
    expect(part.json.section).toMatchObject({ path: top.section, heading: top.section_heading });
    expect(page.json.note).toBeUndefined();
  });

  it('hybrid fuses both rankings and labels each hit; operators fall back to lexical with the reason', async () => {
    const { client } = await boot();
    const page = await call(client, 'search', { query: 'sourdough starter feeding', limit: 10 });
    const sources = new Set(page.json.results.map((h: Json) => h.source));
    expect(page.json.results[0]).toMatchObject({ path: 'Reference/Sourdough handbook.md', source: 'both' });
    expect([...sources].every((s) => ['lexical', 'semantic', 'both'].includes(s as string))).toBe(true);
    expect(page.json.note).toBeUndefined();
    const first = await call(client, 'search', { query: 'sourdough starter feeding', limit: 3 });
    const second = await call(client, 'search', { query: 'sourdough starter feeding', limit: 3, cursor: first.json.next_cursor });
    expect([...first.json.results, ...second.json.results].map((h: Json) => h.path)).toEqual(
      page.json.results.slice(0, 6).map((h: Json) => h.path),
    );
    // The same query typed with a trailing space takes the cursor: the fused page continues.
    const spaced = await call(client, 'search', { query: 'sourdough starter feeding ', limit: 3, cursor: first.json.next_cursor });
    expect(spaced.json.results.map((h: Json) => h.path)).toEqual(second.json.results.map((h: Json) => h.path));
    const filtered = await call(client, 'search', { query: 'starter tag:#baking' });
    expect(filtered.json.note).toMatch(/^Lexical results only: the query is a filter .*; hybrid fuses semantic ranking for plain words\.$/);
    expect(filtered.json.results[0].source).toBeUndefined();
  });

  it('hybrid answers every query the lexical engine reads as a filter lexically: the same notes, and the note says why', async () => {
    const { client } = await boot();
    const syntax =
      /^Lexical results only: the query is a filter \(quotes, parentheses, -, OR, an operator, a property filter or a regex\); hybrid fuses semantic ranking for plain words\.$/;
    const cjk =
      /^Lexical results only: the query has CJK-like words, matched as written like a phrase; hybrid fuses semantic ranking for plain words\.$/;
    const symbols =
      /^Lexical results only: the query has only symbols, matched as written; hybrid fuses semantic ranking for plain words\.$/;
    const cases: Array<[Json, RegExp]> = [
      [{ query: '"starter jar"' }, syntax],
      [{ query: '"zorblaxquar operation"' }, syntax],
      [{ query: '(starter jar)' }, syntax],
      [{ query: 'starter (jar)' }, syntax],
      [{ query: '(starter)' }, syntax],
      [{ query: 'sourdough "starter jar"' }, syntax],
      [{ query: 'starter -jar' }, syntax],
      [{ query: 'starter OR zorblaxquar' }, syntax],
      [{ query: 'tag:index' }, syntax],
      [{ query: '[status]' }, syntax],
      [{ query: '[status:active] alpha' }, syntax],
      [{ query: 'has:status' }, syntax],
      [{ query: 'path:Reference starter' }, syntax],
      [{ query: 'file:Home' }, syntax],
      [{ query: 'line:(starter jar)' }, syntax],
      [{ query: 'section:(starter feeding)' }, syntax],
      [{ query: 'match-case:Starter' }, syntax],
      [{ query: 'content:starter' }, syntax],
      [{ query: '/starter jar/' }, syntax],
      [{ query: 'starter jar', regex: true }, syntax],
      [{ query: '倉庫' }, cjk],
      [{ query: '倉庫 warehouse' }, cjk],
      [{ query: '&' }, symbols],
    ];
    const wrong: string[] = [];
    for (const [args, note] of cases) {
      const lexical = await call(client, 'search', { ...args, mode: 'lexical', limit: 100 });
      const hybrid = await call(client, 'search', { ...args, limit: 100 });
      if (lexical.isError) wrong.push(`${JSON.stringify(args)}: lexical refused it: ${lexical.text}`);
      const paths = (p: Json) => p.results.map((h: Json) => h.path).join('\n');
      const sources = hybrid.json.results.filter((h: Json) => h.source !== undefined).length;
      if (
        hybrid.json.total !== lexical.json.total ||
        paths(hybrid.json) !== paths(lexical.json) ||
        sources > 0 ||
        !note.test(hybrid.json.note ?? '')
      ) {
        wrong.push(
          `${JSON.stringify(args)}: lexical ${lexical.json.total}, hybrid ${hybrid.json.total} (${sources} with source), note ${hybrid.json.note}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    // The phrase that is in no note is found in none; the phrase that is finds the notes holding it only.
    expect((await call(client, 'search', { query: '"zorblaxquar operation"' })).json.total).toBe(0);
    expect((await call(client, 'search', { query: '"starter jar"' })).json.total).toBe(2);
    // Plain words are still fused.
    const plain = await call(client, 'search', { query: 'starter jar', limit: 100 });
    expect(plain.json.note).toBeUndefined();
    expect(plain.json.results.some((h: Json) => h.source === 'semantic')).toBe(true);
  });

  it('semantic mode refuses a filter query, as it refuses regex, and embeds any plain-language text', async () => {
    const { client } = await boot();
    fake.requests.length = 0;
    const filters = [
      'tag:index',
      '-starter',
      '"starter jar"',
      '(starter jar)',
      'starter OR jar',
      '[status:active]',
      '/starter/',
      'path:Reference',
    ];
    const refused =
      /^Semantic search reads plain language, not search syntax \(quotes, parentheses, -, OR, an operator, a property filter or a regex\); call search with mode "lexical" or "hybrid" to filter\.$/;
    for (const query of filters) {
      const out = await call(client, 'search', { query, mode: 'semantic' });
      expect({ query, isError: out.isError, refused: refused.test(out.text) }).toEqual({ query, isError: true, refused: true });
    }
    expect(embeddedInputs()).toEqual([]);
    const regex = await call(client, 'search', { query: 'starter', mode: 'semantic', regex: true });
    expect(regex.text).toMatch(/regex does not apply to semantic search/);
    // A CJK question, symbols, a question the syntax cannot parse (an open quote) and a 10:30 (no operator) are text to embed.
    for (const query of ['倉庫はどこ', '&', 'what did Anna call the "starter jar', 'meeting at 10:30 about the starter']) {
      const out = await call(client, 'search', { query, mode: 'semantic' });
      expect({ query, isError: out.isError, found: out.json?.total > 0, note: out.json?.note }).toEqual({
        query,
        isError: false,
        found: true,
        note: undefined,
      });
    }
    expect(embeddedInputs()).toHaveLength(4);
  });

  it("never returns notes outside the key's roots, nor a note made private after it was embedded", async () => {
    const { client, booted } = await boot(undefined, ['Projects']);
    const page = await call(client, 'search', { query: 'sourdough bread starter', mode: 'semantic', limit: 20 });
    expect(page.json.results.length).toBeGreaterThan(0);
    for (const hit of page.json.results) expect(hit.path.startsWith('Projects/')).toBe(true);
    // Made private: its vectors are dropped on the change event, and every hit is checked against the access policy again at query time.
    const file = 'Projects/Alpha/Budget.md';
    const before = await call(client, 'search', { query: 'budget costs money', mode: 'semantic', limit: 20 });
    expect(before.json.results.map((h: Json) => h.path)).toContain(file);
    const text = await fs.readFile(nodePath.join(vault.dir, file), 'utf8');
    const tfile = booted.app.vault.getFileByPath(file)!;
    await booted.app.vault.modify(
      tfile,
      text.startsWith('---\n') ? text.replace('---\n', '---\naccess: private\n') : `---\naccess: private\n---\n${text}`,
    );
    await new Promise((r) => setTimeout(r, 50));
    const after = await call(client, 'search', { query: 'budget costs money', mode: 'semantic', limit: 20 });
    expect(after.json.results.map((h: Json) => h.path)).not.toContain(file);
  });

  it("follows a note's access for the key's label both ways, and a quarantine the index has not heard of yet", async () => {
    const { client, booted } = await boot();
    const query = { query: 'budget costs money', mode: 'semantic', limit: 20 };
    const file = 'Projects/Alpha/Budget.md';
    const paths = async (): Promise<string[]> => (await call(client, 'search', query)).json.results.map((h: Json) => h.path);
    const text = await fs.readFile(nodePath.join(vault.dir, file), 'utf8');
    const modify = async (content: string): Promise<void> => {
      await booted.app.vault.modify(booted.app.vault.getFileByPath(file)!, content);
      await new Promise((r) => setTimeout(r, 50));
    };
    // Closed to this key's label only: still readable to others, so its vectors stay, and the rows this scope may see leave it out.
    const closed = 'agent_overrides:\n  Test client: no-access\n';
    await modify(text.startsWith('---\n') ? text.replace('---\n', `---\n${closed}`) : `---\n${closed}---\n${text}`);
    expect(await paths()).not.toContain(file);
    // Opened again: the rows kept for the scope are decided again.
    await modify(text);
    expect(await paths()).toContain(file);
    // Its folder quarantined in the settings without telling the index (no refresh): each note returned is asked again.
    booted.plugin.settings.access.quarantine = ['Projects/Alpha'];
    const found = await paths();
    expect(found.length).toBeGreaterThan(0);
    for (const path of found) expect(path.startsWith('Projects/Alpha/')).toBe(false);
  });

  it('a note another program makes private, or moves into a dot-folder, is no hit before the vault hears of it (semantic and hybrid)', async () => {
    const { client, booted } = await boot();
    const query = 'budget costs money';
    const file = 'Projects/Alpha/Budget.md';
    const paths = async (mode: string): Promise<string[]> =>
      (await call(client, 'search', { query, mode, limit: 20 })).json.results.map((h: Json) => h.path);
    expect(await paths('semantic')).toContain(file);
    expect(await paths('hybrid')).toContain(file);
    // No vault event from here on: the window between another program's write and the vault's event, held open.
    await booted.app.vault.stopWatching();
    const full = nodePath.join(vault.dir, file);
    const text = await fs.readFile(full, 'utf8');
    await fs.writeFile(
      full,
      text.startsWith('---\n') ? text.replace('---\n', '---\naccess: private\n') : `---\naccess: private\n---\n${text}`,
    );
    for (const mode of ['semantic', 'hybrid'])
      expect({ mode, paths: await paths(mode) }).toEqual({ mode, paths: expect.not.arrayContaining([file]) });
    // Another note moved on disk into a dot-folder (quarantined), before the vault hears of it.
    const other = (await paths('semantic')).find((path) => path !== file)!;
    await fs.mkdir(nodePath.join(vault.dir, '.hidden'), { recursive: true });
    await fs.rename(nodePath.join(vault.dir, other), nodePath.join(vault.dir, '.hidden', 'moved.md'));
    for (const mode of ['semantic', 'hybrid'])
      expect({ mode, paths: await paths(mode) }).toEqual({ mode, paths: expect.not.arrayContaining([other]) });
  });

  it('is saved and resumed: a restart embeds nothing again, an edit re-embeds only the changed section', async () => {
    const first = await boot();
    const chunks = (first.plugin.semantic.current as { chunks: number }).chunks;
    await first.client.close();
    await first.booted.stop();
    running.splice(0);
    expect(await fs.stat(nodePath.join(vault.dir, '.obsidian/plugins/vault-mcp/semantic-index.bin'))).toBeTruthy();
    fake.requests.length = 0;
    const second = await boot();
    expect(second.plugin.semantic.current).toMatchObject({ state: 'ready', chunks });
    expect(embeddedInputs()).toEqual([]);
    const file = second.booted.app.vault.getFileByPath('Areas/Home/Garden plan.md')!;
    const text = await second.booted.app.vault.read(file);
    const parsed = new Promise<void>((resolve) => {
      const ref = second.booted.app.metadataCache.on('changed', (changed) => {
        if (changed.path !== file.path) return;
        second.booted.app.metadataCache.offref(ref);
        resolve();
      });
    });
    await second.booted.app.vault.modify(file, text.replace('## Water', '## Water\n\nThe rain barrel holds two hundred litres.'));
    await parsed;
    await second.plugin.semantic.refresh();
    const inputs = embeddedInputs();
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatch(/^Garden plan\nWater\n\n## Water\n\nThe rain barrel/);
  });

  it('a note made private while Obsidian was closed is never embedded after the restart, and its vectors are dropped', async () => {
    const first = await boot();
    const file = 'Areas/Home/Garden plan.md';
    const savedMetadata = first.booted.app.metadataCache.savedForRestart();
    await first.client.close();
    await first.booted.stop();
    running.splice(0);
    // While Obsidian is closed, a sync makes the note private and adds a line; Obsidian's saved metadata still shows it as before.
    const text = await fs.readFile(nodePath.join(vault.dir, file), 'utf8');
    const changed = text.startsWith('---\n') ? text.replace('---\n', '---\naccess: private\n') : `---\naccess: private\n---\n${text}`;
    await fs.writeFile(nodePath.join(vault.dir, file), `${changed}\nThe awaybarrel holds rain.\n`);
    const later = new Date(Date.now() + 5_000);
    await fs.utimes(nodePath.join(vault.dir, file), later, later);
    fake.requests.length = 0;
    const second = await boot(undefined, undefined, { holdIndexing: true, savedMetadata });
    expect(second.plugin.semantic.current).toMatchObject({ state: 'ready' });
    expect(embeddedInputs().join('\n')).not.toMatch(/awaybarrel|Garden plan/);
    const page = await call(second.client, 'search', { query: 'garden plan water barrel', mode: 'semantic', limit: 20 });
    expect(page.json.results.map((h: Json) => h.path)).not.toContain(file);
    expect(second.plugin.semantic.current).toMatchObject({ state: 'ready' });
    await second.booted.app.metadataCache.releaseIndexing();
  });

  it('a damaged or old-format saved index is rebuilt and saved readable again', async () => {
    const file = nodePath.join(vault.dir, '.obsidian/plugins/vault-mcp/semantic-index.bin');
    const first = await boot();
    const chunks = (first.plugin.semantic.current as { chunks: number }).chunks;
    await first.client.close();
    await first.booted.stop();
    running.splice(0);
    const saved = await fs.readFile(file);
    const oldFormat = Buffer.from(saved);
    oldFormat.writeUInt32LE(1, 4);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const bytes of [saved.subarray(0, saved.length - 7), oldFormat]) {
      await fs.writeFile(file, bytes);
      fake.requests.length = 0;
      warn.mockClear();
      const again = await boot();
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/saved semantic index is damaged \(unreadable or of another version\); rebuilding it/),
      );
      expect(again.plugin.semantic.current).toMatchObject({ state: 'ready', chunks });
      expect(embeddedInputs()).toHaveLength(chunks);
      await again.client.close();
      await again.booted.stop();
      running.splice(0);
      const rebuilt = await fs.readFile(file);
      expect(await decodeSemanticIndex(rebuilt.buffer.slice(rebuilt.byteOffset, rebuilt.byteOffset + rebuilt.byteLength))).toMatchObject({
        store: { size: chunks },
      });
    }
    warn.mockRestore();
  });

  it('a model change embeds everything again with the new model', async () => {
    const { plugin } = await boot();
    const chunks = (plugin.semantic.current as { chunks: number }).chunks;
    fake.requests.length = 0;
    plugin.settings.ai.embeddingModel = 'other-embed';
    await plugin.semantic.refresh();
    expect(plugin.semantic.current).toMatchObject({ state: 'ready', chunks });
    expect(embeddedInputs()).toHaveLength(chunks);
    expect(fake.requests.every((r) => r.json.model === 'other-embed')).toBe(true);
  });

  it('vectors of another dimension under the same model name start the index over', async () => {
    const { plugin, booted } = await boot();
    const chunks = (plugin.semantic.current as { chunks: number }).chunks;
    models['nomic-embed-text'].dimensions = 64;
    fake.requests.length = 0;
    const file = booted.app.vault.getFileByPath('Ideas.md')!;
    await booted.app.vault.append(file, '\nOne more idea.\n');
    await plugin.semantic.refresh();
    expect(plugin.semantic.current).toMatchObject({ state: 'ready', chunks });
    expect(embeddedInputs().length).toBeGreaterThanOrEqual(chunks);
  });

  it('pauses when the provider is unreachable and hybrid says so; semantic mode is an error naming the reason', async () => {
    const { plugin, client } = await boot((s) => (s.ai.embeddingModel = 'nomic-embed-text'));
    await fake.close();
    plugin.settings.ai.embeddingModel = 'other-embed';
    await plugin.semantic.refresh();
    expect(plugin.semantic.current).toMatchObject({ state: 'paused' });
    const page = await call(client, 'search', { query: 'sourdough starter' });
    expect(page.json.note).toMatch(
      /Semantic ranking unavailable \(the embedding provider is unreachable or busy .*\); lexical results only\./,
    );
    expect(page.json.results.length).toBeGreaterThan(0);
    const semantic = await call(client, 'search', { query: 'sourdough starter', mode: 'semantic' });
    expect(semantic.isError).toBe(true);
    expect(semantic.text).toMatch(/Semantic search is unavailable: the embedding provider is unreachable/);
    fake = await startFakeOpenAi({ models: {}, embeddingModels: {} });
  });
});

describe('semantic index and a failure retrying cannot fix', () => {
  it('a local https provider with a self-signed certificate stops the index with that reason, not "busy, retrying in a minute"', async () => {
    const pair = selfSignedCert(2);
    if (pair === null) {
      console.warn('skipped: openssl is not available to make a self-signed certificate');
      return;
    }
    const tls = https.createServer(pair, (_req, res) => res.end('{}'));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { plugin } = await boot((s) => (s.ai.baseUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/v1`));
      expect(plugin.semantic.current).toMatchObject({ state: 'off' });
      const reason = (plugin.semantic.current as { reason: string }).reason;
      expect(reason).toMatch(/presented a TLS certificate that was refused: it is self-signed/);
      expect(reason).toMatch(/use http:\/\/ for a server on this computer/);
      expect(reason).not.toMatch(/busy|retrying/);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });
});

describe('semantic index gates', () => {
  it('with AI off nothing is sent, hybrid is lexical and says why, semantic names the setting', async () => {
    const { plugin, client } = await boot((s) => (s.ai.enabled = false));
    expect(fake.requests).toHaveLength(0);
    expect(plugin.semantic.current).toMatchObject({ state: 'off', reason: expect.stringMatching(/Enable AI/) });
    const page = await call(client, 'search', { query: 'sourdough' });
    expect(page.json.note).toMatch(/Semantic ranking unavailable \(AI is turned off.*\); lexical results only\./);
    expect(fake.requests).toHaveLength(0);
  });

  it('with the toggle off nothing is sent and semantic mode names "Index for semantic search"', async () => {
    const { client } = await boot((s) => (s.ai.semanticIndex = false));
    const semantic = await call(client, 'search', { query: 'sourdough', mode: 'semantic' });
    expect(semantic.isError).toBe(true);
    expect(semantic.text).toMatch(/turn on "Index for semantic search" in Settings → Vault MCP → AI provider/);
    expect(fake.requests).toHaveLength(0);
  });
});
