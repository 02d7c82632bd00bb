import * as http from 'node:http';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { unloadPluginInHost } from '../../host/index';
import { MAX_SESSIONS } from '../../../src/server/http/mcp-http-server';
import { INITIALIZE as INIT, raw } from '../../harness/server/raw-http';

describe('the door of the MCP server', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let cleanup: () => Promise<void>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    auth = { Authorization: `Bearer ${booted.token}` };
  });
  afterAll(async () => {
    await booted?.stop();
    await cleanup?.();
  });

  it('answers 401 without a key and with a wrong key, naming the header to send', async () => {
    const none = await raw(booted.port, { body: INIT });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(none.body).error.message).toMatch(/Authorization: Bearer/);
    const wrong = await raw(booted.port, { body: INIT, headers: { Authorization: 'Bearer nope-nope-nope-nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toBe(none.body);
  });

  it('answers 403 for a non-loopback Host (DNS rebinding) and a foreign Origin', async () => {
    const host = await raw(booted.port, { body: INIT, headers: { ...auth, Host: 'evil.example:80' } });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body).error.message).toMatch(/Host/);
    const origin = await raw(booted.port, { body: INIT, headers: { ...auth, Origin: 'https://evil.example' } });
    expect(origin.status).toBe(403);
    const obsidian = await raw(booted.port, { body: INIT, headers: { ...auth, Origin: 'app://obsidian.md' } });
    expect(obsidian.status).toBe(200);
  });

  it('answers 413 for an oversized body and a JSON-RPC parse error for malformed JSON', async () => {
    const big = 'x'.repeat(booted.plugin.settings.server.maxBodyBytes + 10);
    const tooLarge = await raw(booted.port, { body: big, headers: auth });
    expect(tooLarge.status).toBe(413);
    const malformed = await raw(booted.port, { body: '{"jsonrpc":', headers: auth });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body).error.code).toBe(-32700);
    // A byte order mark before the JSON (RFC 8259 §8.1: a sender must not add one) is named, not left as "not valid JSON" alone.
    const marked = await raw(booted.port, { body: `\uFEFF${INIT}`, headers: auth });
    expect(marked.status).toBe(400);
    expect(JSON.parse(marked.body).error).toMatchObject({ code: -32700, message: expect.stringMatching(/byte order mark \(U\+FEFF\)/) });
  });

  it('refuses a body that is not UTF-8 (a Latin-1 é) with a parse error, creating nothing: decoded anyway, it became U+FFFD in a note name and its text', async () => {
    const session = await raw(booted.port, { body: INIT, headers: auth });
    const sessionId = session.headers['mcp-session-id'] as string;
    const headers = { ...auth, 'Mcp-Session-Id': sessionId };
    await raw(booted.port, { body: '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers });
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'create_note', arguments: { path: 'café', content: 'naïve' } },
    };
    const latin1 = Buffer.from(JSON.stringify(call), 'latin1');
    for (const contentType of ['application/json; charset=iso-8859-1', 'application/json']) {
      const refused = await raw(booted.port, { body: latin1, headers: { ...headers, 'Content-Type': contentType } });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error).toMatchObject({ code: -32700, message: expect.stringMatching(/not UTF-8/) });
    }
    const files = booted.app.vault.getFiles().map((f) => f.path);
    expect(files.filter((p) => p.startsWith('caf'))).toEqual([]);
  });

  it('answers 404 for a stale session id so clients re-initialize, 400 without one', async () => {
    const stale = await raw(booted.port, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      headers: { ...auth, 'Mcp-Session-Id': '00000000-0000-0000-0000-000000000000' },
    });
    expect(stale.status).toBe(404);
    const missing = await raw(booted.port, { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), headers: auth });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body).error.message).toMatch(/initialize/);
  });

  it("a GET stream's status and headers arrive before any event, so a client waiting for them does not time out (newcomer finding)", async () => {
    const opened = await raw(booted.port, { body: INIT, headers: auth });
    const session = { ...auth, 'Mcp-Session-Id': opened.headers['mcp-session-id'] as string, 'Mcp-Protocol-Version': '2025-06-18' };
    await raw(booted.port, { body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers: session });
    const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: booted.port, path: '/mcp', method: 'GET', headers: { ...session, Accept: 'text/event-stream' } },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
    // No event is due on this stream: before, nothing at all arrived until one was.
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/event-stream/);
    head.destroy();
    // Before, the headers came with the SDK's first keep-alive, 15 s later: a liveness bound, not a measure of speed.
  }, 10_000);

  it('refuses other paths and methods with a message', async () => {
    expect((await raw(booted.port, { path: '/', method: 'GET' })).status).toBe(404);
    expect((await raw(booted.port, { method: 'PUT', headers: auth, body: '{}' })).status).toBe(405);
  });

  it('unknown tool is JSON-RPC -32602, arguments its schema refuses a tool error (SEP-1303); unknown method is -32601', async () => {
    const client = await connectClient(booted.url, booted.token);
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // Input validation errors are tool execution errors (MCP 2025-11-25, "Tools" → Error Handling): the model sees them.
    expect(await client.callTool({ name: 'read_note', arguments: { path: 42 } })).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for read_note: path: .*string/) }],
      isError: true,
    });
    expect(await client.callTool({ name: 'search', arguments: { query: 'x', limit: 0 } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^Invalid arguments for search: limit: /) }],
      isError: true,
    });
    expect(await client.callTool({ name: 'read_note', arguments: { path: 'Home', bogus: 1 } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/Invalid arguments for read_note: .*bogus/) }],
      isError: true,
    });
    await expect(client.request({ method: 'vault/unknown' } as never, {} as never)).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });

  it('malformed tools/call params are -32602 and messages carry one "MCP error" prefix', async () => {
    const client = await connectClient(booted.url, booted.token);
    const transport = (client as unknown as { transport: { sessionId?: string } }).transport;
    const headers = { ...auth, 'Mcp-Session-Id': transport.sessionId as string, 'Mcp-Protocol-Version': '2025-11-25' };
    for (const params of [{}, { name: 'search', arguments: 'x' }]) {
      const reply = await raw(booted.port, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params }) });
      const message = JSON.parse(reply.body.replace(/^event: message\ndata: /, ''));
      expect(message.error.code).toBe(-32602);
    }
    const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((e: Error) => e);
    expect((unknown as Error).message.match(/MCP error/g)).toHaveLength(1);
    await client.close();
  });

  it('keeps at most MAX_SESSIONS sessions, closing the least recently used', async () => {
    const first = await raw(booted.port, { body: INIT, headers: auth });
    const firstId = first.headers['mcp-session-id'] as string;
    for (let i = 0; i < MAX_SESSIONS; i++) await raw(booted.port, { body: INIT, headers: auth });
    expect(booted.plugin.server.sessionCount).toBeLessThanOrEqual(MAX_SESSIONS);
    const stale = await raw(booted.port, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      headers: { ...auth, 'Mcp-Session-Id': firstId, 'Mcp-Protocol-Version': '2025-06-18' },
    });
    expect(stale.status).toBe(404);
    // Told why (newcomer finding: it said the session expired or the plugin restarted).
    expect(JSON.parse(stale.body).error.message).toMatch(
      /^Session closed: this key held more than 64 open sessions, and its least recently used one \(this\) made room/,
    );
    const unknown = await raw(booted.port, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      headers: { ...auth, 'Mcp-Session-Id': 'never-opened', 'Mcp-Protocol-Version': '2025-06-18' },
    });
    expect(JSON.parse(unknown.body).error.message).toMatch(/^Session not found: it expired or the plugin restarted/);
  });

  it("past MAX_SESSIONS closes a session of the key holding the most: a key opening many closes its own, never another client's", async () => {
    const { token } = await booted.plugin.keyRing.mint({ label: 'Many sessions', mode: 'propose' });
    const other = await raw(booted.port, { body: INIT, headers: auth });
    const otherId = other.headers['mcp-session-id'] as string;
    const ping = (sessionId: string, bearer: string) =>
      raw(booted.port, {
        body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
        headers: { Authorization: `Bearer ${bearer}`, 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18' },
      });
    const flooding: string[] = [];
    for (let i = 0; i < MAX_SESSIONS + 8; i++)
      flooding.push(
        (await raw(booted.port, { body: INIT, headers: { Authorization: `Bearer ${token}` } })).headers['mcp-session-id'] as string,
      );
    expect(booted.plugin.server.sessionCount).toBeLessThanOrEqual(MAX_SESSIONS);
    // The other key's client keeps its session; the flooding key's own oldest ones were closed.
    expect((await ping(otherId, booted.token)).status).toBe(200);
    const closed = await ping(flooding[0], token);
    expect(closed.status).toBe(404);
    expect(JSON.parse(closed.body).error.message).toMatch(/^Session closed: this key held more than/);
    // The reason is told only with the key that opened the session.
    expect(JSON.parse((await ping(flooding[1], booted.token)).body).error.message).toMatch(/^Session not found/);
    expect((await ping(flooding[flooding.length - 1], token)).status).toBe(200);
  });

  it('answers 403 when the master switch is off, and serves again when it is on', async () => {
    booted.plugin.settings.server.enabled = false;
    const off = await raw(booted.port, { body: INIT, headers: auth });
    expect(off.status).toBe(403);
    expect(JSON.parse(off.body).error.message).toMatch(/Enable server/);
    booted.plugin.settings.server.enabled = true;
    expect((await raw(booted.port, { body: INIT, headers: auth })).status).toBe(200);
  });

  it('frees the port at once when the plugin is disabled', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    const second = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    const port = second.port;
    unloadPluginInHost(second.plugin);
    await second.plugin.server.stop();
    const probe = http.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await second.app.close();
    await copy.cleanup();
  });
});
