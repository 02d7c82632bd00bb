import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT, HELP_EN_VAULT, HELP_INTL_VAULT } from '../../harness/temp-copy';

type Json = Record<string, any>;

/** Calls a tool and returns its structured result; fails the test on isError. */
async function call(client: Client, name: string, args: Json): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Json;
}

/** Calls a tool expecting isError; returns the message. */
async function callError(client: Client, name: string, args: Json): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as Array<{ text: string }>)[0].text;
}

async function withVault(
  source: string,
  label?: string,
): Promise<{ booted: BootedPlugin<VaultMcpPlugin>; client: Client; done(): Promise<void> }> {
  const copy = await copyToTemp(source);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, label });
  const client = await connectClient(booted.url, booted.token);
  return {
    booted,
    client,
    done: async () => {
      await client.close();
      await booted.stop();
      await copy.cleanup();
    },
  };
}

describe('read tools over MCP on the demo vault', () => {
  let env: Awaited<ReturnType<typeof withVault>>;
  beforeAll(async () => {
    env = await withVault(DEMO_VAULT);
  });
  afterAll(async () => env?.done());

  it('a pasted [[Note#Heading]] reads that section; [[Note#^block]] reads the whole note and says so', async () => {
    const linked = await call(env.client, 'read_note', { path: '[[Alpha overview#Links]]' });
    expect(linked.section).toMatchObject({ heading: 'Links' });
    expect(linked.body).toMatch(/^## Links\n/);
    expect(linked.body).not.toContain('## Goals');
    const nested = await call(env.client, 'read_note', { path: '[[Alpha overview#Project Alpha#Links|see links]]' });
    expect(nested.section).toMatchObject({ heading: 'Links' });
    expect(await callError(env.client, 'read_note', { path: '[[Alpha overview#Nope]]' })).toMatch(/Nope/);
    // An explicit section or the outline wins over the link's heading.
    expect((await call(env.client, 'read_note', { path: '[[Alpha overview#Links]]', section: 'Goals' })).section).toMatchObject({
      heading: 'Goals',
    });
    expect((await call(env.client, 'read_note', { path: '[[Alpha overview#Links]]', outline: true })).outline).toContain('Goals');
    const block = await call(env.client, 'read_note', { path: '[[Alpha overview#^abc123]]' });
    expect(block.body).toContain('## Goals');
    expect(block.note).toMatch(/^The link's block reference \^abc123 is not read on its own: this is the whole note/);
  });

  it('initializes with the server info and lists exactly the read tools', async () => {
    expect(env.client.getServerVersion()).toMatchObject({ name: 'vault-mcp' });
    expect(env.client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const { tools } = await env.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'active_note',
        'get_links',
        'list_folders',
        'list_notes',
        'list_tags',
        'proposal_status',
        'query_notes',
        'read_note',
        'read_notes',
        'search',
        'skill_read',
        'skills_list',
        'vaults',
        'widget_list',
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
    }
  });

  it('search finds a note with a section that read_note can follow', async () => {
    const found = await call(env.client, 'search', { query: 'starter' });
    expect(found.results.length).toBeGreaterThan(0);
    const hit = found.results.find((r: Json) => r.section) ?? found.results[0];
    expect(hit.snippet).toMatch(/\*\*/);
    if (hit.section) {
      const section = await call(env.client, 'read_note', { path: hit.path, section: hit.section });
      expect(section.body.toLowerCase()).toContain('starter');
    }
  });

  it('an integer argument out of range, huge, fractional or of another type gets one sentence naming its range', async () => {
    const cases: Array<[tool: string, args: Json, expected: string]> = [
      ['list_notes', { limit: 1e308 }, 'limit: expected an integer from 1 to 1000'],
      ['list_notes', { limit: -1e308 }, 'limit: expected an integer from 1 to 1000'],
      ['list_notes', { limit: 0 }, 'limit: expected an integer from 1 to 1000'],
      ['list_notes', { limit: 1.5 }, 'limit: expected an integer from 1 to 1000'],
      ['list_notes', { limit: 'ten' }, 'limit: expected an integer from 1 to 1000'],
      ['search', { query: 'alpha', limit: 1e308 }, 'limit: expected an integer from 1 to 100'],
      ['read_note', { path: 'Home', offset: 1e308 }, 'offset: expected an integer from 0 to 9007199254740991'],
      ['read_note', { path: 'Home', max_chars: -1e308 }, 'max_chars: expected an integer from 0 to 9007199254740991'],
      [
        'read_note',
        { path: 'Home', offset: 1e308, max_chars: 1e308 },
        'offset: expected an integer from 0 to 9007199254740991; max_chars: expected an integer from 0 to 9007199254740991',
      ],
    ];
    for (const [tool, args, expected] of cases) {
      expect(await callError(env.client, tool, args)).toBe(`Invalid arguments for ${tool}: ${expected}`);
    }
  });

  it('reads by path without .md, by id, by bare name; pages a long note', async () => {
    const home = await call(env.client, 'read_note', { path: 'Home' });
    expect(home.path).toBe('Home.md');
    expect(home.hash).toMatch(/^[0-9a-f]{64}$/);
    const byId = await call(env.client, 'read_note', { id: home.id });
    expect(byId.path).toBe('Home.md');
    expect(await callError(env.client, 'read_note', { path: 'Inbox', id: home.id })).toMatch(/either path or id, not both/);
    const long = await call(env.client, 'read_note', { path: 'Reference/Sourdough handbook.md' });
    expect(long.has_more).toBe(true);
    expect(long.body.length).toBeLessThanOrEqual(8000);
    const next = await call(env.client, 'read_note', { path: 'Reference/Sourdough handbook', offset: long.body.length + long.body_offset });
    expect(next.body_offset).toBe(long.body.length);
    const outline = await call(env.client, 'read_note', { path: 'Reference/Sourdough handbook', outline: true });
    expect(outline.outline.split('\n')[0]).toMatch(/^1\t\d+\t/);
  });

  it('an overlong path is refused without echoing it back', async () => {
    const message = await callError(env.client, 'read_note', { path: 'x'.repeat(60000) });
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/at most 1024 characters/);
  });

  it('an ambiguous bare name is an error listing the candidates', async () => {
    const message = await callError(env.client, 'read_note', { path: 'Meeting notes' });
    expect(message).toMatch(/Meeting notes\.md/);
  });

  it('quarantined and private notes never appear anywhere', async () => {
    const all = await call(env.client, 'list_notes', { limit: 1000 });
    const paths: string[] = all.notes.map((n: Json) => n.path);
    expect(paths.some((p) => p.startsWith('_private/') || p.startsWith('.'))).toBe(false);
    expect(paths).not.toContain('Personal/Therapy notes.md');
    expect(await callError(env.client, 'read_note', { path: 'Personal/Therapy notes' })).toMatch(/not found/);
    expect(await callError(env.client, 'read_note', { path: 'Therapy note' })).not.toMatch(/Therapy notes\.md/);
    expect(await callError(env.client, 'read_note', { path: 'Sourdough handbok' })).toMatch(
      /Did you mean 'Reference\/Sourdough handbook\.md'/,
    );
    expect(await callError(env.client, 'read_note', { path: '_private/Passwords hint' })).toMatch(/./);
    expect(await callError(env.client, 'read_note', { path: '../outside' })).toMatch(/./);
    const folders = await call(env.client, 'list_folders', {});
    expect(JSON.stringify(folders)).not.toMatch(/_private|\.obsidian/);
    const search = await call(env.client, 'search', { query: 'therapy OR password', limit: 100 });
    expect(search.results.map((r: Json) => r.path)).not.toEqual(expect.arrayContaining(['Personal/Therapy notes.md']));
  });

  it('query_notes answers rows over MCP, and a parse error as a result (not isError) with its position', async () => {
    const rows = await call(env.client, 'query_notes', { query: 'WHERE status exists SORT file.path COLUMNS status' });
    expect(rows.rows.map((r: unknown[]) => r[0])).toEqual([
      'Ideas.md',
      'Projects/Alpha/Alpha overview.md',
      'Projects/Beta/Beta overview.md',
    ]);
    const bad = await env.client.callTool({ name: 'query_notes', arguments: { query: 'status is' } });
    expect(bad.isError).toBeFalsy();
    expect(bad.structuredContent).toMatchObject({ position: 10, error: expect.stringMatching(/Expected a value/) });
  });

  it('a link to a private note is listed as unresolved, exactly like a link to a missing note', async () => {
    const links = await call(env.client, 'get_links', { path: 'Journal/2026/2026-01-05' });
    expect(links.unresolved).toEqual(expect.arrayContaining([{ link: 'Therapy notes', count: 1 }]));
    expect(JSON.stringify(links.outgoing)).not.toMatch(/Therapy/);
  });

  it('read_notes shares one budget and lists missing notes; list_tags, get_links, active_note answer', async () => {
    const many = await call(env.client, 'read_notes', { paths: ['Home', 'Reference/Sourdough handbook', 'Nope'] });
    expect(many.not_found).toEqual(['Nope']);
    // No note's name is about as short as 'Nope' and within an edit of it ('note' inside longer names is chance: session 43),
    // so no did-you-mean: the budget's remark alone.
    expect(many.note).toMatch(/^Bodies share a 8000-char budget/);
    // A misspelt name keeps read_note's "did you mean" in the note (session 42's newcomer: not_found alone said nothing).
    const typo = await call(env.client, 'read_notes', { paths: ['Alpha overveiw', 'Home'] });
    expect(typo.not_found).toEqual(['Alpha overveiw']);
    expect(typo.note).toBe(
      "Note 'Alpha overveiw' not found. Did you mean 'Projects/Alpha/Alpha overview.md'? Otherwise call search or list_notes to find its path.",
    );
    const total = many.notes.reduce((sum: number, n: Json) => sum + n.body.length, 0);
    expect(total).toBeLessThanOrEqual(8000);
    const tags = await call(env.client, 'list_tags', {});
    expect(tags.tags.length).toBeGreaterThan(3);
    const links = await call(env.client, 'get_links', { path: 'Home' });
    expect(links.outgoing.length).toBeGreaterThan(0);
    const active = await call(env.client, 'active_note', {});
    expect(active.active).toBeNull();
  });

  it('search follows the quarantine list: a folder added disappears, removed comes back', async () => {
    const plugin = env.booted.plugin;
    const sourdough = async (): Promise<string[]> =>
      (await call(env.client, 'search', { query: 'sourdough', limit: 100 })).results.map((r: Json) => r.path);
    expect(await sourdough()).toContain('Reference/Sourdough handbook.md');
    plugin.settings.access.quarantine = ['Reference'];
    await plugin.search.reindex();
    expect((await sourdough()).some((p) => p.startsWith('Reference/'))).toBe(false);
    plugin.settings.access.quarantine = [];
    await plugin.search.reindex();
    expect(await sourdough()).toContain('Reference/Sourdough handbook.md');
  });

  it('a change on disk by another program shows up in search', async () => {
    const file = `${env.booted.app.vault.adapter.getBasePath()}/Inbox-zebra.md`;
    fs.writeFileSync(file, '# Zebra\n\nA quagga-zebra crossing note.\n');
    let results: Json[] = [];
    for (let i = 0; i < 100 && results.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      results = (await call(env.client, 'search', { query: 'quagga' })).results;
    }
    expect(results.map((r) => r.path)).toContain('Inbox-zebra.md');
  });
});

const helpEn = fs.existsSync(HELP_EN_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_EN_VAULT)) console.log(`Skipping obsidian-help-en tests: ${HELP_EN_VAULT} is absent.`);
helpEn('read tools over MCP on obsidian-help-en', () => {
  let env: Awaited<ReturnType<typeof withVault>>;
  beforeAll(async () => {
    env = await withVault(HELP_EN_VAULT);
  });
  afterAll(async () => env?.done());

  it('search "canvas" finds Plugins/Canvas.md with a section read_note resolves', async () => {
    const found = await call(env.client, 'search', { query: 'canvas', limit: 10 });
    const hit = found.results.find((r: Json) => r.path === 'Plugins/Canvas.md');
    expect(hit).toBeDefined();
    const withSection = found.results.find((r: Json) => r.section);
    const section = await call(env.client, 'read_note', { path: withSection.path, section: withSection.section });
    expect(section.section.heading).toBe(withSection.section_heading);
  });

  it('duplicate basenames: a bare name is ambiguous, full paths resolve', async () => {
    expect(await callError(env.client, 'read_note', { path: 'Security and privacy' })).toMatch(/Obsidian Sync\/Security and privacy\.md/);
    const sync = await call(env.client, 'read_note', { path: 'Obsidian Sync/Security and privacy' });
    expect(sync.path).toBe('Obsidian Sync/Security and privacy.md');
    const links = await call(env.client, 'get_links', { path: 'Obsidian Sync/Security and privacy.md' });
    expect(links.backlinks.length).toBeGreaterThan(0);
  });

  it('lists all 173 notes and their folders', async () => {
    const all = await call(env.client, 'list_notes', { limit: 1000 });
    expect(all.notes).toHaveLength(173);
    const folders = await call(env.client, 'list_folders', {});
    expect(folders.folders.length).toBeGreaterThanOrEqual(17);
  });
});

const helpIntl = fs.existsSync(HELP_INTL_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_INTL_VAULT)) console.log(`Skipping obsidian-help-intl tests: ${HELP_INTL_VAULT} is absent.`);
helpIntl('read tools over MCP on obsidian-help-intl', () => {
  let env: Awaited<ReturnType<typeof withVault>>;
  beforeAll(async () => {
    env = await withVault(HELP_INTL_VAULT);
  }, 120000);
  afterAll(async () => env?.done());

  it('a Japanese query finds the Japanese note', async () => {
    const found = await call(env.client, 'search', { query: 'キャンバス', limit: 5 });
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results[0].path.startsWith('ja/')).toBe(true);
    const note = await call(env.client, 'read_note', { path: found.results[0].path, max_chars: 500 });
    expect(note.body).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });
});
