import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { call, callError as errorOf, type Json } from '../../harness/edits/write-helpers';

/**
 * MCP roots (spec 2025-06-18, "Roots") through the SDK client over real HTTP: a client that
 * declares `roots` narrows what its session may touch to its roots inside the vault, changes
 * them mid-session with notifications/roots/list_changed, and hostile root URIs are ignored.
 */

const FILES: Record<string, string> = {
  'Projects/Alpha.md': '# Alpha\nproject alpha\n',
  'Projects/Beta.md': '# Beta\nproject beta\n',
  'Journal/2026-01-01.md': '# New year\njournal entry\n',
  'Archive/Old.md': '# Old\narchived\n',
};

let dir: string;
let booted: BootedPlugin<VaultMcpPlugin>;
const clients: Client[] = [];

/** A client that declares roots and answers roots/list from `roots()` (a function, so a test can change them). */
async function rootsClient(
  roots: () => Promise<Array<{ uri: string; name?: string }>>,
  token = booted.token,
  url = booted.url,
): Promise<Client> {
  const client = new Client({ name: 'roots-client', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: await roots() }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

async function notePaths(client: Client): Promise<string[]> {
  return ((await call(client, 'list_notes')).notes as Json[]).map((n) => n.path).sort();
}

const uri = (path: string): string => pathToFileURL(nodePath.join(dir, path)).href;

beforeAll(async () => {
  dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-roots-'));
  for (const [path, text] of Object.entries(FILES)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, path), text);
  }
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, label: 'Roots agent' });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await booted?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('MCP roots', () => {
  it("a client without the roots capability keeps the key's access, and vaults says so", async () => {
    const client = await connectClient(booted.url, booted.token);
    clients.push(client);
    expect(await notePaths(client)).toEqual(Object.keys(FILES).sort());
    const { roots } = await call(client, 'vaults');
    expect(roots).toMatchObject({ source: 'key', effective: [], client_roots: [] });
    expect(roots.note).toMatch(/shares no MCP roots/);
  });

  it('roots inside the vault narrow every tool to those folders', async () => {
    const client = await rootsClient(async () => [{ uri: uri('Projects'), name: 'Projects' }]);
    expect(await notePaths(client)).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    expect(await errorOf(client, 'read_note', { path: 'Journal/2026-01-01.md' })).toMatch(/outside the folders/);
    expect(await errorOf(client, 'skills_list')).toBe(
      "The skills folder 'Skills' is outside the folders this key may use (Projects); skills need a key whose roots include it.",
    );
    expect(await errorOf(client, 'widget_list')).toBe(
      "The widgets folder 'Widgets' is outside the folders this key may use (Projects); widgets need a key whose roots include it.",
    );
    const found = (await call(client, 'search', { query: 'archived OR journal OR project' })).results as Json[];
    expect(found.every((r) => r.path.startsWith('Projects/'))).toBe(true);
    const { roots } = await call(client, 'vaults');
    expect(roots).toMatchObject({ source: 'client', effective: ['Projects'] });
    expect(roots.client_roots).toEqual([nodePath.join(dir, 'Projects')]);
  });

  it('resources and completion follow the same client roots as tool calls', async () => {
    const client = await rootsClient(async () => [{ uri: uri('Projects'), name: 'Projects' }]);
    const listed = (await client.listResources()).resources.map((r) => r.uri).sort();
    expect(listed).toEqual(['vault-mcp://note/Projects/Alpha.md', 'vault-mcp://note/Projects/Beta.md']);
    await expect(client.readResource({ uri: 'vault-mcp://note/Journal/2026-01-01.md' })).rejects.toThrow(/not found/i);
    const alpha = await client.readResource({ uri: 'vault-mcp://note/Projects/Alpha.md' });
    expect(JSON.stringify(alpha.contents)).toContain('project alpha');
    const completed = await client.complete({
      ref: { type: 'ref/resource', uri: 'vault-mcp://note/{+path}' },
      argument: { name: 'path', value: '' },
    });
    expect(completed.completion.values.every((v) => v.startsWith('Projects/'))).toBe(true);
    expect(completed.completion.values.length).toBeGreaterThan(0);
  });

  it("a call made before a slow roots/list answer arrives waits for it instead of running with the key's access", async () => {
    let answered = false;
    const client = await rootsClient(async () => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      answered = true;
      return [{ uri: uri('Archive') }];
    });
    expect(await notePaths(client)).toEqual(['Archive/Old.md']);
    expect(answered).toBe(true);
  });

  it('changed roots apply to the next call after notifications/roots/list_changed', async () => {
    let current = [{ uri: uri('Projects') }];
    const client = await rootsClient(async () => current);
    expect(await notePaths(client)).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    current = [{ uri: uri('Journal') }, { uri: uri('Archive/') }];
    await client.sendRootsListChanged();
    expect(await notePaths(client)).toEqual(['Archive/Old.md', 'Journal/2026-01-01.md']);
    expect((await call(client, 'vaults')).roots.effective.sort()).toEqual(['Archive', 'Journal']);
  });

  it('hostile root URIs are ignored one by one; the valid root still applies', async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({ uri: `file:///nowhere/${i}` }));
    const hostile = [
      { uri: 'https://example.com/Projects' },
      { uri: `file://evil.example${nodePath.join(dir, 'Projects')}` },
      { uri: `${uri('Journal')}/%2e%2e/Archive` },
      { uri: `${uri('Journal')}/../..` },
      { uri: `${uri('Jour')}%00nal` },
      { uri: `${uri('Journal')}%2F..%2FArchive` },
      { uri: 42 as unknown as string },
      { uri: `file:///${'a'.repeat(5000)}` },
      { uri: uri('Journal') },
      ...many,
    ];
    const client = await rootsClient(async () => hostile);
    expect(await notePaths(client)).toEqual(['Journal/2026-01-01.md']);
    const { roots } = await call(client, 'vaults');
    const reasons = (roots.ignored as Json[]).map((i) => i.reason).join(' | ');
    for (const why of ['only file://', 'another host', '".."', 'control characters', 'not a string', 'longer than', 'were not read']) {
      expect(reasons).toContain(why);
    }
    expect(roots.effective).toEqual(['Journal']);
  });

  it('roots elsewhere are ignored (key access); a root containing the vault means the whole vault', async () => {
    const elsewhere = await rootsClient(async () => [{ uri: pathToFileURL(os.tmpdir()).href + '/not-this-vault' }]);
    expect(await notePaths(elsewhere)).toEqual(Object.keys(FILES).sort());
    expect((await call(elsewhere, 'vaults')).roots.note).toMatch(/None of the client's MCP roots lie in this vault/);
    const above = await rootsClient(async () => [{ uri: pathToFileURL(nodePath.dirname(dir)).href }]);
    expect(await notePaths(above)).toEqual(Object.keys(FILES).sort());
    expect((await call(above, 'vaults')).roots.note).toMatch(/contains this vault/);
  });

  it("a client that declares roots but answers -32601 keeps the key's access", async () => {
    const client = new Client({ name: 'no-handler', version: '1.0.0' }, { capabilities: { roots: {} } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    clients.push(client);
    expect(await notePaths(client)).toEqual(Object.keys(FILES).sort());
    expect((await call(client, 'vaults')).roots.note).toMatch(/-32601/);
  });

  it("a client that never answers roots/list gets the key's access once the wait ends", async () => {
    const client = await rootsClient(() => new Promise(() => undefined));
    expect(await notePaths(client)).toEqual(Object.keys(FILES).sort());
    expect((await call(client, 'vaults')).roots).toMatchObject({ source: 'key' });
  });
});

describe('MCP roots: late answers and odd answers', () => {
  it('after list_changed a slow answer keeps the previous roots for the call, is not cancelled, and applies from the next call', async () => {
    let current = [{ uri: uri('Projects') }];
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    const aborted: boolean[] = [];
    const client = new Client({ name: 'late-roots', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => {
      await gate;
      aborted.push(extra.signal.aborted);
      return { roots: current };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    clients.push(client);
    expect(await notePaths(client)).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    gate = new Promise((resolve) => (release = resolve));
    current = [{ uri: uri('Journal') }];
    await client.sendRootsListChanged();
    // The wait runs out: the call keeps the previous client roots, never the key's whole vault.
    expect(await notePaths(client)).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    expect((await call(client, 'vaults')).roots.note).toMatch(/previous MCP roots/);
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(aborted.length).toBeGreaterThan(0);
    expect(aborted.every((a) => !a)).toBe(true);
    expect(await notePaths(client)).toEqual(['Journal/2026-01-01.md']);
    expect((await call(client, 'vaults')).roots).toMatchObject({
      source: 'client',
      effective: ['Journal'],
      note: "Narrowed to the client's MCP roots in this vault.",
    });
  });

  it('an answer without a roots array is one sentence in vaults (key access)', async () => {
    const client = new Client({ name: 'empty-answer', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({}) as { roots: [] });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    clients.push(client);
    expect(await notePaths(client)).toEqual(Object.keys(FILES).sort());
    expect((await call(client, 'vaults')).roots.note).toBe(
      "The client declared MCP roots but the client answered roots/list without a roots array; this key's folders apply.",
    );
  });

  it('a root naming no folder is named in the vaults note; an encoded backslash root is ignored', async () => {
    // `archive` names the folder `Archive`: the part inside the vault is matched ignoring case, as note paths are.
    const client = await rootsClient(async () => [
      { uri: uri('Projects') },
      { uri: uri('archive') },
      { uri: uri('Nowhere') },
      { uri: `${uri('Projects')}%5CAlpha` },
      { uri: `${uri('Projects')}/%` },
    ]);
    expect(await notePaths(client)).toEqual(['Archive/Old.md', 'Projects/Alpha.md', 'Projects/Beta.md']);
    const { roots } = await call(client, 'vaults');
    expect(roots.effective).toEqual(['Projects', 'Archive', 'Nowhere']);
    expect(roots.note).toMatch(/match nothing: Nowhere\.$/);
    expect((roots.ignored as Json[]).map((i) => i.reason)).toEqual([
      expect.stringMatching(/encoded separator/),
      expect.stringMatching(/broken percent-escape/),
    ]);
  });

  it('a root naming a note in another case names that note, as a folder root in another case names the folder', async () => {
    const client = await rootsClient(async () => [{ uri: uri('projects/alpha.MD') }, { uri: uri('ARCHIVE/old.md') }]);
    expect(await notePaths(client)).toEqual(['Archive/Old.md', 'Projects/Alpha.md']);
    const { roots } = await call(client, 'vaults');
    expect(roots).toMatchObject({ source: 'client', effective: ['Projects/Alpha.md', 'Archive/Old.md'] });
    expect(roots.note).not.toMatch(/match nothing/);
  });
});

describe('MCP roots with a key confined to folders', () => {
  let confined: BootedPlugin<VaultMcpPlugin>;
  let confinedDir: string;
  beforeAll(async () => {
    confinedDir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-roots-key-'));
    await fsp.cp(dir, confinedDir, { recursive: true });
    confined = await bootPlugin(VaultMcpPlugin, { vaultPath: confinedDir, label: 'Confined', roots: ['Projects'] });
  });
  afterAll(async () => {
    await confined?.stop();
    await fsp.rm(confinedDir, { recursive: true, force: true });
  });
  const confinedUri = (path: string): string => pathToFileURL(nodePath.join(confinedDir, path)).href;

  it("client roots are intersected with the key's roots; they never widen them", async () => {
    const wide = await rootsClient(async () => [{ uri: pathToFileURL(confinedDir).href }], confined.token, confined.url);
    expect(await notePaths(wide)).toEqual(['Projects/Alpha.md', 'Projects/Beta.md']);
    const both = await rootsClient(
      async () => [{ uri: confinedUri('Projects/Alpha.md') }, { uri: confinedUri('Journal') }],
      confined.token,
      confined.url,
    );
    expect(await notePaths(both)).toEqual(['Projects/Alpha.md']);
  });

  it("client roots disjoint from the key's roots leave nothing, and every note tool says why", async () => {
    const client = await rootsClient(async () => [{ uri: confinedUri('Journal') }], confined.token, confined.url);
    expect(await errorOf(client, 'list_notes')).toMatch(/lie outside this key's folders \(Projects\)/);
    expect(await errorOf(client, 'skills_list')).toMatch(/lie outside this key's folders \(Projects\)/);
    const { roots } = await call(client, 'vaults');
    expect(roots).toMatchObject({ source: 'client', effective: [], key_roots: ['Projects'] });
    // A well-formed request the session's access refuses: -32602 (Invalid params), never -32600 (malformed message).
    for (const request of [
      () => client.listResources(),
      () => client.listPrompts(),
      () => client.complete({ ref: { type: 'ref/resource', uri: 'vault-mcp://note/{+path}' }, argument: { name: 'path', value: 'P' } }),
    ]) {
      await expect(request()).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/lie outside this key's folders/) });
    }
  });
});
