import { mkdir, writeFile } from 'node:fs/promises';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/**
 * Both protocol eras on the one endpoint, against the same running server: the SDK's v2 client
 * asked to negotiate (`versionNegotiation: { mode: 'auto' }`) lands on 2026-07-28 (stateless
 * requests after `server/discover`), the previous line's client (1.x) on a 2025-11-25 session.
 * Each runs search → read → propose → proposal_status.
 */
describe('protocol eras on one endpoint', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    await mkdir(`${copy.dir}/Skills/summarize`, { recursive: true });
    await writeFile(
      `${copy.dir}/Skills/summarize/SKILL.md`,
      '---\nname: Summarize\ndescription: Summarize a note in three lines.\n---\nRead the note, then write three lines.\n',
    );
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'propose',
      allowWrites: true,
      label: 'Agent',
      token: 'eras-test-token-0123456789abcdef',
    });
  });
  afterAll(async () => {
    await booted.stop();
    await copy.cleanup();
  });

  /** A v2 client that negotiates the era, with the run's bearer token. */
  async function modernClient(capabilities: Record<string, unknown> = {}): Promise<ModernClient> {
    const client = new ModernClient({ name: 'eras-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, capabilities });
    await client.connect(
      new ModernTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    return client;
  }

  /** The structured result of one tool call (a failed call fails the test with its text). */
  async function structured(
    client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> },
    name: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const result = (await client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
      content?: Array<{ text?: string }>;
    };
    if (result.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text}`);
    return result.structuredContent ?? {};
  }

  /** search → read_note → edit_note (staged: a propose key) → proposal_status. */
  async function workflow(client: Parameters<typeof structured>[0], marker: string): Promise<void> {
    const hits = (await structured(client, 'search', { query: 'library card', mode: 'lexical' })).results as Array<{ path: string }>;
    expect(hits.map((h) => h.path)).toContain('Inbox.md');
    const note = await structured(client, 'read_note', { path: 'Inbox.md' });
    expect(note.body).toContain('Renew the library card');
    const staged = await structured(client, 'append_note', { path: 'Inbox.md', content: `- ${marker}`, expected_hash: note.hash });
    expect(staged).toMatchObject({ status: 'pending', path: 'Inbox.md' });
    const status = await structured(client, 'proposal_status', { id: staged.proposal_id });
    expect(status.proposal).toMatchObject({ id: staged.proposal_id, status: 'pending' });
  }

  it('the v2 client negotiates 2026-07-28 and runs the workflow without a session', async () => {
    const client = await modernClient();
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('vault-mcp');
    await workflow(client, 'from the 2026-07-28 client');
    expect(booted.plugin.server.sessionCount).toBe(0);
    await client.close();
  });

  it('the 1.x client opens a 2025-11-25 session and runs the same workflow on the same server', async () => {
    const client = await connectClient(booted.url, booted.token);
    expect(booted.plugin.server.sessionCount).toBe(1);
    await workflow(client, 'from the 2025-11-25 client');
    await client.close();
  });

  it('both clients see the same tools and each one answers them alike (every tool, propose key: writes stage)', async () => {
    const modern = await modernClient();
    const legacy = await connectClient(booted.url, booted.token);
    const names = (await modern.listTools()).tools.map((t) => t.name).sort();
    expect((await legacy.listTools()).tools.map((t) => t.name).sort()).toEqual(names);
    const calls: Record<string, Record<string, unknown>> = {
      active_note: {},
      get_links: { path: 'Home.md' },
      list_folders: {},
      list_notes: { limit: 5 },
      list_tags: {},
      proposal_status: {},
      query_notes: { query: 'LIMIT 3' },
      read_note: { path: 'Home.md', outline: true },
      read_notes: { paths: ['Home.md', 'Inbox.md'] },
      search: { query: 'sourdough', mode: 'lexical' },
      skills_list: {},
      vaults: {},
      widget_list: {},
      create_note: { path: 'Eras/New.md', content: 'new' },
      create_folder: { path: 'Eras/Folder' },
      write_note: { path: 'Ideas.md', body: 'rewritten' },
      append_note: { path: 'Ideas.md', content: 'more' },
      edit_note: { path: 'Inbox.md', anchor: 'Renew the library card', op: 'replace', content: 'Renew the card' },
      set_properties: { path: 'Ideas.md', properties: { status: 'draft' } },
      move_note: { path: 'Ideas.md', to: 'Eras/Ideas.md' },
      delete_note: { path: 'Ideas.md', confirm: true },
      widget_write: {
        id: 'eras',
        html: '<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">{"name":"Eras","description":"Eras board","query":"LIMIT 1"}</script></head><body></body></html>',
      },
    };
    const skills = (await structured(modern, 'skills_list', {})).skills as Array<{ id: string }>;
    calls.skill_read = { id: skills[0].id };
    for (const name of names) {
      if (!calls[name]) throw new Error(`no call of ${name} in this test: add one`);
      const [a, b] = [await modern.callTool({ name, arguments: calls[name] }), await legacy.callTool({ name, arguments: calls[name] })];
      expect({ name, isError: a.isError ?? false }).toEqual({ name, isError: false });
      expect({ name, isError: b.isError ?? false }).toEqual({ name, isError: false });
      // Everything but the proposal ids and clocks is the same whichever era asked.
      const shape = (r: unknown): string =>
        JSON.stringify((r as { structuredContent?: unknown }).structuredContent, (k, v: unknown) =>
          /(^|_)(id|at|mtime|ctime|hash)$/.test(k) ? '' : v,
        );
      if (
        ![
          'write_note',
          'append_note',
          'edit_note',
          'set_properties',
          'move_note',
          'delete_note',
          'create_note',
          'create_folder',
          'widget_write',
          'proposal_status',
        ].includes(name)
      )
        expect(shape(a)).toBe(shape(b));
    }
    await modern.close();
    await legacy.close();
  });

  it('a modern client that declares roots is asked for them with an input-required result, and they narrow the call', async () => {
    const client = await modernClient({ roots: {} });
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: `file://${copy.dir}/Projects`, name: 'Projects' }] }));
    const listed = (await structured(client, 'list_notes', {})).notes as Array<{ path: string }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((n) => n.path.startsWith('Projects/'))).toBe(true);
    await client.close();
  });

  /** A raw stateless 2026-07-28 tools/call with the given envelope capabilities and extra params. */
  function modernCall(
    tool: string,
    args: Record<string, unknown>,
    extra: Record<string, unknown> = {},
    capabilities: Record<string, unknown> = {},
  ): string {
    return JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
        ...extra,
      },
    });
  }
  const modernHeaders = (tool: string): Record<string, string> => ({
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': tool,
  });

  it('the door checks stateless requests as it checks sessions: no key 401, a foreign Host 403, the master switch 403', async () => {
    const body = modernCall('list_notes', {});
    const noKey = await raw(booted.port, { headers: modernHeaders('list_notes'), body });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatch(/Authorization: Bearer/);
    const foreignHost = await raw(booted.port, {
      headers: { ...modernHeaders('list_notes'), Authorization: `Bearer ${booted.token}`, Host: 'evil.example:80' },
      body,
    });
    expect(foreignHost.status).toBe(403);
    booted.plugin.settings.server.enabled = false;
    try {
      const off = await raw(booted.port, { headers: { ...modernHeaders('list_notes'), Authorization: `Bearer ${booted.token}` }, body });
      expect(off.status).toBe(403);
      expect(off.body).toMatch(/switched off/);
    } finally {
      booted.plugin.settings.server.enabled = true;
    }
  });

  it('forged roots in inputResponses only narrow: roots outside the vault are ignored (the key applies), never more than the key', async () => {
    const headers = { ...modernHeaders('list_notes'), Authorization: `Bearer ${booted.token}` };
    type Answer = {
      result?: {
        resultType?: string;
        inputRequests?: Record<string, { method: string }>;
        structuredContent?: { notes: Array<{ path: string }> };
      };
    };
    const call = async (extra: Record<string, unknown>, capabilities: Record<string, unknown>): Promise<Answer> =>
      messagesOf(await raw(booted.port, { headers, body: modernCall('list_notes', { limit: 1000 }, extra, capabilities) }))[0] as Answer;
    const asked = await call({}, { roots: {} });
    expect(asked.result).toMatchObject({ resultType: 'input_required', inputRequests: { roots: { method: 'roots/list' } } });
    const keyView = (await call({}, {})).result?.structuredContent?.notes.map((n) => n.path) ?? [];
    expect(keyView.length).toBeGreaterThan(0);
    const outside = await call(
      { inputResponses: { roots: { roots: [{ uri: 'file:///etc' }, { uri: 'https://example.com/' }] } } },
      { roots: {} },
    );
    expect(outside.result?.structuredContent?.notes.map((n) => n.path)).toEqual(keyView);
    const inside = await call({ inputResponses: { roots: { roots: [{ uri: `file://${copy.dir}/Projects` }] } } }, { roots: {} });
    const narrowed = inside.result?.structuredContent?.notes.map((n) => n.path) ?? [];
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.every((p) => p.startsWith('Projects/') && keyView.includes(p))).toBe(true);
  });
  it('a hidden or missing note resource is the same -32602 "Resource not found" in both eras (SEP-2164, MCP 2026-07-28), revealing nothing', async () => {
    const modern = await modernClient();
    const legacy = await connectClient(booted.url, booted.token);
    /** The JSON-RPC error of reading `uri` through `client`, message with the URI taken out. */
    const notFound = async (
      client: { readResource(params: { uri: string }): Promise<unknown> },
      uri: string,
    ): Promise<{ code?: number; message: string }> => {
      const error = (await client.readResource({ uri }).then(
        () => ({ message: 'resolved' }),
        (e: unknown) => e,
      )) as { code?: number; message: string };
      // The 1.x client prefixes "MCP error <code>: " to the server's message.
      return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '').replace(uri, '<uri>') };
    };
    const uris = ['Personal/Therapy notes.md', '_private/Passwords hint.md', 'No such note.md'].map(
      (p) => `vault-mcp://note/${p.split('/').map(encodeURIComponent).join('/')}`,
    );
    const answers = [];
    for (const uri of uris) answers.push(await notFound(modern, uri), await notFound(legacy, uri));
    expect(answers[0]).toEqual({ code: -32602, message: expect.stringMatching(/Resource not found: no note this key may read is at/) });
    // private (access: private), quarantined (_private/) and missing: one answer, whichever era asks.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await modern.close();
    await legacy.close();
  });
});
