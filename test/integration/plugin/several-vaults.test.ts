import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import VaultMcpPlugin from '../../../src/main';
import { ForwardIdentity } from '../../../src/server/vaults/forward-assertion';
import { REGISTRY_DIR_ENV, REGISTRY_FILE, vaultIdOf } from '../../../src/server/vaults/vault-registry';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from '../../harness/boot-plugin';
import { call, callError as errorOf, type Json } from '../../harness/edits/write-helpers';

/**
 * Several vaults through the SDK client over real HTTP: three plugin instances on three temp
 * vaults register in one registry folder (a temp folder through VAULT_MCP_REGISTRY_DIR); a
 * call with `vault` is forwarded to the other vault and runs there as that vault's key with the
 * caller's label, and is refused where no key has that label.
 */

interface VaultEnv {
  dir: string;
  booted: BootedPlugin<VaultMcpPlugin>;
}

const previousRegistry = process.env[REGISTRY_DIR_ENV];
let registryDir: string;
let work: VaultEnv;
let home: VaultEnv;
let stranger: VaultEnv;
const clients: Client[] = [];

async function vault(name: string, files: Record<string, string>, options: Partial<BootOptions>): Promise<VaultEnv> {
  const dir = nodePath.join(await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-multi-')), name);
  for (const [path, text] of Object.entries(files)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, path), text);
  }
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, ...options });
  return { dir, booted };
}

async function connect(env: VaultEnv): Promise<Client> {
  const client = await connectClient(env.booted.url, env.booted.token);
  clients.push(client);
  return client;
}

async function registryText(): Promise<string> {
  return fsp.readFile(nodePath.join(registryDir, REGISTRY_FILE), 'utf8');
}

beforeAll(async () => {
  registryDir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-registry-multi-'));
  process.env[REGISTRY_DIR_ENV] = registryDir;
  work = await vault(
    'Work',
    { 'Plans/Q1.md': '# Q1\nship the work plan\n', 'Private/Salary.md': '# Salary\nsecret\n' },
    { label: 'Agent', mode: 'force', allowWrites: true },
  );
  home = await vault(
    'Home',
    { 'Recipes/Soup.md': '# Soup\nleek and potato\n', 'Diary/Day.md': '# Day\nquiet\n' },
    { label: 'Agent', roots: ['Recipes'] },
  );
  stranger = await vault('Stranger', { 'Note.md': '# Note\nhello\n' }, { label: 'Someone else' });
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  for (const env of [work, home, stranger]) {
    await env?.booted.stop();
    if (env) await fsp.rm(nodePath.dirname(env.dir), { recursive: true, force: true });
  }
  await fsp.rm(registryDir, { recursive: true, force: true });
  if (previousRegistry === undefined) delete process.env[REGISTRY_DIR_ENV];
  else process.env[REGISTRY_DIR_ENV] = previousRegistry;
});

describe('several vaults', () => {
  it('each open vault is in the registry with its port and pid, and no token is written there', async () => {
    const { vaults } = JSON.parse(await registryText()) as { vaults: Json[] };
    expect(vaults.map((v) => v.name).sort()).toEqual(['Home', 'Stranger', 'Work']);
    for (const env of [work, home, stranger]) {
      expect(vaults.find((v) => v.path === env.dir)).toMatchObject({ port: env.booted.port, pid: process.pid, id: vaultIdOf(env.dir) });
    }
    const text = await registryText();
    for (const env of [work, home, stranger]) expect(text).not.toContain(env.booted.token);
    if (process.platform !== 'win32') expect((await fsp.stat(nodePath.join(registryDir, REGISTRY_FILE))).mode & 0o077).toBe(0);
  });

  it('vaults lists every open vault with a handle, the active one flagged, and the session roots', async () => {
    const client = await connect(work);
    const { vaults, roots } = await call(client, 'vaults');
    expect(vaults[0]).toEqual({ handle: 'Work', name: 'Work', path: work.dir, active: true });
    expect(vaults.slice(1)).toEqual([
      { handle: 'Home', name: 'Home', path: home.dir, active: false },
      { handle: 'Stranger', name: 'Stranger', path: stranger.dir, active: false },
    ]);
    expect(roots).toMatchObject({ source: 'key', effective: [] });
    const { tools } = await client.listTools();
    expect(tools.every((t) => (t.inputSchema.properties as Json).vault?.type === 'string')).toBe(true);
  });

  it('a call with vault runs in that vault as its own key with the same label: its roots, its mode', async () => {
    const client = await connect(work);
    const soup = await call(client, 'read_note', { path: 'Recipes/Soup.md', vault: 'Home' });
    expect(soup.body).toContain('leek and potato');
    expect(await errorOf(client, 'read_note', { path: 'Diary/Day.md', vault: 'home' })).toMatch(
      /outside the folders this key may use \(Recipes\)/,
    );
    const byPath = await call(client, 'list_notes', { vault: home.dir });
    expect((byPath.notes as Json[]).map((n) => n.path)).toEqual(['Recipes/Soup.md']);
    // Home's key has no write tools on and is a propose key: Work's force key does not carry over.
    expect(await errorOf(client, 'create_note', { path: 'Recipes/Stew.md', content: 'x', vault: 'Home' })).toMatch(
      /Unknown or disabled tool "create_note"/,
    );
    await expect(fsp.stat(nodePath.join(home.dir, 'Recipes/Stew.md'))).rejects.toThrow();
    // The vault's own handle, or no vault, runs here.
    expect((await call(client, 'read_note', { path: 'Plans/Q1.md', vault: 'Work' })).body).toContain('work plan');
  });

  it("a propose key's forwarded write waits for review in the other vault even where its key is a force key (newcomer finding)", async () => {
    // Home's 'Agent' key is a propose key; Work's 'Agent' key writes directly. The stricter of the two holds.
    const client = await connect(home);
    const staged = await call(client, 'append_note', { path: 'Plans/Q1.md', content: 'from home', vault: 'Work' });
    expect(staged).toMatchObject({ status: 'pending', proposal_id: expect.stringMatching(/^p_/) });
    expect(await fsp.readFile(nodePath.join(work.dir, 'Plans/Q1.md'), 'utf8')).toBe('# Q1\nship the work plan\n');
    // Work's own clients still write directly.
    const own = await connect(work);
    expect(await call(own, 'append_note', { path: 'Plans/Q1.md', content: 'from work' })).toMatchObject({ status: 'applied' });
    // A wrongly typed vault is a tool error the model sees, as other bad arguments are (SEP-1303).
    const typed = await client.callTool({ name: 'read_note', arguments: { path: 'Recipes/Soup.md', vault: 12 } });
    expect(typed).toMatchObject({
      isError: true,
      content: [{ text: 'Invalid arguments for read_note: vault: expected a string (a handle from vaults), got number.' }],
    });
  });

  it("a vault without a key of the caller's label refuses, saying so; an unknown vault is an error", async () => {
    const client = await connect(work);
    const refusal = await errorOf(client, 'list_notes', { vault: 'Stranger' });
    expect(refusal).toMatch(/Vault 'Stranger' refused the call: .*no key with that label; mint a local key labelled "Agent"/);
    expect(await errorOf(client, 'list_notes', { vault: 'Nowhere' })).toMatch(/No open vault 'Nowhere'; call vaults/);
    // A huge vault argument is quoted back cut to 80 chars.
    const huge = await errorOf(client, 'list_notes', { vault: 'x'.repeat(100_000) });
    expect(huge).toContain(`No open vault '${'x'.repeat(80)}…'`);
    expect(huge.length).toBeLessThan(300);
    expect(await client.callTool({ name: 'list_notes', arguments: { vault: 3 } })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Invalid arguments for list_notes: vault: expected a string/) }],
    });
  });

  it("the client's MCP roots travel with a forwarded call and narrow it there too", async () => {
    const client = new Client({ name: 'roots', version: '1.0.0' }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(nodePath.join(home.dir, 'Diary')).href }, { uri: pathToFileURL(nodePath.join(work.dir, 'Plans')).href }],
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(work.booted.url), {
        requestInit: { headers: { Authorization: `Bearer ${work.booted.token}` } },
      }),
    );
    clients.push(client);
    expect(((await call(client, 'list_notes')).notes as Json[]).map((n) => n.path)).toEqual(['Plans/Q1.md']);
    // In Home the client's Diary root and the key's Recipes root share nothing.
    expect(await errorOf(client, 'list_notes', { vault: 'Home' })).toMatch(/lie outside this key's folders \(Recipes\)/);
  });

  it('forged forwarding tokens are refused at the door', async () => {
    const post = (token: string): Promise<Response> =>
      fetch(home.booted.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      });
    const forger = new ForwardIdentity();
    const forged = forger.token({ iss: vaultIdOf(work.dir), aud: vaultIdOf(home.dir), label: 'Agent', mode: 'force', roots: null });
    const forgedAnswer = await post(forged);
    expect(forgedAnswer.status).toBe(401);
    expect(((await forgedAnswer.json()) as Json).error.message).toMatch(/not signed by the vault it names/);
    expect((await post('vmcpfwd.garbage')).status).toBe(401);
    const unknownIssuer = forger.token({ iss: '0123456789abcdef', aud: vaultIdOf(home.dir), label: 'Agent', mode: 'force', roots: null });
    expect(((await (await post(unknownIssuer)).json()) as Json).error.message).toMatch(/not open/);
  });

  it('a name shared by two open vaults is answered with both handles and paths', async () => {
    const twin = await vault('Stranger', { 'B.md': '# B\n' }, { label: 'Agent' });
    try {
      const client = await connect(work);
      const handles = ((await call(client, 'vaults')).vaults as Json[]).filter((v) => v.name === 'Stranger').map((v) => v.handle as string);
      expect(handles).toHaveLength(2);
      expect(handles.every((h) => /^Stranger~[0-9a-f]{6}$/.test(h))).toBe(true);
      const message = await errorOf(client, 'read_note', { path: 'B.md', vault: 'stranger' });
      expect(message).toMatch(/^'stranger' names 2 open vaults: .*; use one of these handles\.$/);
      for (const dir of [stranger.dir, twin.dir]) expect(message).toContain(`(${dir})`);
      for (const handle of handles) expect(message).toContain(handle);
      expect(
        (
          await call(client, 'read_note', {
            path: 'B.md',
            vault: handles.find((h) => h.startsWith(`Stranger~${vaultIdOf(twin.dir).slice(0, 6)}`)),
          })
        ).body,
      ).toBeDefined();
      // The handle's id part written longer, up to the whole registry id, names the same vault (newcomer finding).
      for (const id of [vaultIdOf(twin.dir), vaultIdOf(twin.dir).slice(0, 10)])
        expect((await call(client, 'read_note', { path: 'B.md', vault: `stranger~${id}` })).body).toBe('# B\n');
      // The calling vault's own long handle runs here.
      expect((await call(client, 'read_note', { path: 'Plans/Q1.md', vault: `Work~${vaultIdOf(work.dir)}` })).body).toContain('work plan');
    } finally {
      await twin.booted.stop();
      await fsp.rm(nodePath.dirname(twin.dir), { recursive: true, force: true });
    }
  });

  it('a vault that closes leaves the registry; entries of dead processes are pruned', async () => {
    const extra = await vault('Extra', { 'A.md': '# A\n' }, { label: 'Agent' });
    expect(await registryText()).toContain(extra.dir);
    await extra.booted.stop();
    expect(await registryText()).not.toContain(extra.dir);
    await fsp.rm(nodePath.dirname(extra.dir), { recursive: true, force: true });

    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const file = nodePath.join(registryDir, REGISTRY_FILE);
    const registry = JSON.parse(await registryText()) as { vaults: Json[] };
    const ghost = {
      ...registry.vaults[0],
      id: 'deadbeefdeadbeef',
      name: 'Ghost',
      path: nodePath.join(os.tmpdir(), 'ghost-vault'),
      pid: dead,
    };
    await fsp.writeFile(file, JSON.stringify({ vaults: [...registry.vaults, ghost, { junk: true }] }));
    const client = await connect(work);
    const { vaults } = await call(client, 'vaults');
    expect(vaults.map((v: Json) => v.name)).toEqual(['Work', 'Home', 'Stranger']);
    expect(await registryText()).not.toContain('Ghost');
  });
});

/**
 * The same forwarding for a 2026-07-28 client: the v2 client negotiates the modern era
 * (stateless requests, no session), and a call with `vault` runs in the other vault as that
 * vault's key; the client's roots, asked with an input-required result, travel with it.
 */
describe('several vaults, 2026-07-28 client', () => {
  const modernClients: ModernClient[] = [];
  afterAll(async () => {
    for (const client of modernClients) await client.close().catch(() => undefined);
  });

  async function modern(env: VaultEnv, capabilities: Record<string, unknown> = {}): Promise<ModernClient> {
    const client = new ModernClient({ name: 'multi-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities });
    await client.connect(
      new ModernTransport(new URL(env.booted.url), { requestInit: { headers: { Authorization: `Bearer ${env.booted.token}` } } }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    modernClients.push(client);
    return client;
  }

  /** The structured result of a successful call, or the text of an isError result. */
  async function outcome(client: ModernClient, name: string, args: Record<string, unknown>): Promise<{ ok: Json } | { error: string }> {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: Json;
      content?: Array<{ text?: string }>;
    };
    return result.isError ? { error: result.content?.[0]?.text ?? '' } : { ok: result.structuredContent ?? {} };
  }

  it('a forwarded call runs in the other vault as its key: its roots and mode, no session opened here', async () => {
    const sessionsBefore = work.booted.plugin.server.sessionCount;
    const client = await modern(work);
    const soup = await outcome(client, 'read_note', { path: 'Recipes/Soup.md', vault: 'Home' });
    expect(soup).toMatchObject({ ok: { path: 'Recipes/Soup.md', body: expect.stringContaining('leek and potato') } });
    expect(await outcome(client, 'read_note', { path: 'Diary/Day.md', vault: 'Home' })).toEqual({
      error: expect.stringMatching(/outside the folders this key may use \(Recipes\)/),
    });
    expect(await outcome(client, 'list_notes', { vault: 'Stranger' })).toEqual({
      error: expect.stringMatching(/Vault 'Stranger' refused the call: .*no key with that label/),
    });
    // Home's key has no write tools on and is a propose key: Work's force key does not carry over.
    expect(await outcome(client, 'create_note', { path: 'Recipes/Stew.md', content: 'x', vault: 'Home' })).toEqual({
      error: expect.stringMatching(/Vault 'Home' refused the call: Unknown or disabled tool "create_note"/),
    });
    await expect(fsp.stat(nodePath.join(home.dir, 'Recipes/Stew.md'))).rejects.toThrow();
    expect(work.booted.plugin.server.sessionCount).toBe(sessionsBefore);
  });

  it('the roots the client gives in an input-required round trip narrow the forwarded call too', async () => {
    const client = await modern(work, { roots: {} });
    client.setRequestHandler('roots/list', async () => ({
      roots: [{ uri: pathToFileURL(nodePath.join(home.dir, 'Diary')).href }, { uri: pathToFileURL(nodePath.join(work.dir, 'Plans')).href }],
    }));
    const here = await outcome(client, 'list_notes', {});
    expect(here).toEqual({ ok: expect.objectContaining({ notes: [expect.objectContaining({ path: 'Plans/Q1.md' })] }) });
    expect(await outcome(client, 'list_notes', { vault: 'Home' })).toEqual({
      error: expect.stringMatching(/lie outside this key's folders \(Recipes\)/),
    });
  });

  it('a stateless request with a forged forwarding token is refused at the door (401)', async () => {
    const forged = new ForwardIdentity().token({
      iss: vaultIdOf(work.dir),
      aud: vaultIdOf(home.dir),
      label: 'Agent',
      mode: 'force',
      roots: null,
    });
    const answer = await fetch(home.booted.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${forged}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'list_notes',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'list_notes',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
          },
        },
      }),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as Json).error.message).toMatch(/not signed by the vault it names/);
  });
});
