import * as net from 'node:net';
import VaultMcpPlugin from '../../../src/main';
import { MAX_HEADER_BYTES } from '../../../src/server/http/mcp-http-server';
import { MODERN_PROTOCOL_VERSIONS } from '../../../src/server/http/door/request-checks';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { messagesOf, openRawSession, raw } from '../../harness/server/raw-http';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/**
 * Issue 18's small protocol faults, each with the input that found it: what the client is told.
 */
describe('protocol faults', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;
  let session: Record<string, string>;

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, token: 'faults-test-token-0123456789abcdef' });
    session = await openRawSession(booted.port, booted.token);
  });
  afterAll(async () => {
    await booted.stop();
    await copy.cleanup();
  });

  /** The one JSON-RPC answer of a session request. */
  async function answer(
    method: string,
    params: unknown,
    headers = session,
  ): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
    const response = await raw(booted.port, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return messagesOf(response)[0] as { result?: unknown; error?: { code: number; message: string } };
  }

  it('a request head over the limit gets 431 with a JSON body saying what to fix', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(booted.port, '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 10)}\r\n\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', (error) => (text ? resolve(text) : reject(error)));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(reply).toMatch(/Content-Type: application\/json/i);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { error: { message: string } };
    expect(body.error.message).toMatch(/headers are larger than 16384 bytes; send fewer or shorter headers/);
  });

  /** What the server answers to `head` (the request line and headers, `\r\n` each) sent as is, with an initialize body. */
  function sendRaw(
    head: string,
    body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    }),
  ): Promise<{ status: number; body: { error?: { message: string }; result?: unknown } }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(booted.port, '127.0.0.1', () => {
        socket.write(
          `${head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      // The answer may be chunked or a stream the server keeps open: its status line and first JSON object are enough.
      const done = (): void => {
        const json = /\{.*\}/s.exec(text.slice(text.indexOf('\r\n\r\n') + 4))?.[0];
        resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), body: json === undefined ? null : JSON.parse(json) });
      };
      // An answer that never closes is cut after 2 s; the timer goes with the socket, so none outlives the call.
      const cut = setTimeout(() => socket.destroy(), 2000);
      socket.on('close', () => (clearTimeout(cut), done()));
      socket.on('error', reject);
    });
  }

  it('two Authorization headers are refused (400), whichever comes first: Node would keep the first and pass over the other', async () => {
    const valid = `Authorization: Bearer ${booted.token}\r\n`;
    const wrong = 'Authorization: Bearer wrong-token-0123456789abcdef\r\n';
    for (const pair of [valid + wrong, wrong + valid, valid + valid]) {
      const reply = await sendRaw(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${pair}`);
      expect(reply).toEqual({
        status: 400,
        body: expect.objectContaining({
          error: expect.objectContaining({ message: expect.stringMatching(/at most one Authorization header/) }),
        }),
      });
    }
    expect((await sendRaw(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${valid}`)).status).toBe(200);
  });

  it('a repeated or comma-joined Mcp-Session-Id, MCP-Protocol-Version or Last-Event-ID is a clear 400, not "Session not found"', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${booted.token}\r\n`;
    const id = session['Mcp-Session-Id'];
    const list = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const version = 'MCP-Protocol-Version: 2025-06-18\r\n';
    const cases: Array<[headers: string, named: string]> = [
      [`Mcp-Session-Id: ${id}\r\nMcp-Session-Id: ${id}\r\n${version}`, 'Mcp-Session-Id'],
      [`Mcp-Session-Id: ${id}\r\nmcp-session-id: other\r\n${version}`, 'Mcp-Session-Id'],
      [`Mcp-Session-Id: ${id}, ${id}\r\n${version}`, 'Mcp-Session-Id'],
      [`Mcp-Session-Id: ${id}\r\n${version}${version}`, 'MCP-Protocol-Version'],
      [`Mcp-Session-Id: ${id}\r\nMCP-Protocol-Version: 2025-06-18, 2025-03-26\r\n`, 'MCP-Protocol-Version'],
      [`Mcp-Session-Id: ${id}\r\n${version}Last-Event-ID: 1\r\nLast-Event-ID: 2\r\n`, 'Last-Event-ID'],
      [`Mcp-Session-Id: ${id}\r\n${version}Mcp-Method: tools/list\r\nMcp-Method: tools/list\r\n`, 'Mcp-Method'],
      [`Mcp-Session-Id: ${id}\r\n${version}Mcp-Method: tools/list, tools/call\r\n`, 'Mcp-Method'],
      [`Mcp-Session-Id: ${id}\r\n${version}Mcp-Name: search\r\nMcp-Name: search\r\n`, 'Mcp-Name'],
    ];
    for (const [headers, named] of cases) {
      const reply = await sendRaw(head + headers, list);
      expect(reply.status).toBe(400);
      expect(reply.body.error?.message).toBe(
        `Bad request: send at most one ${named} header, with one value (this request repeats it or lists several, comma-joined); which was meant cannot be told.`,
      );
    }
    const once = await sendRaw(`${head}Mcp-Session-Id: ${id}\r\n${version}`, list);
    expect(once.status).toBe(200);
    expect(once.body.result).toHaveProperty('tools');
  });

  it('a "__proto__" argument (an own key, as JSON.parse makes it) is refused like any unknown key, for every tool and in both eras', async () => {
    const callText = (name: string, args: string): string =>
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;
    const textOf = (response: Awaited<ReturnType<typeof raw>>): { isError?: boolean; text: string } => {
      const result = (messagesOf(response)[0] as { result: { isError?: boolean; content: Array<{ text: string }> } }).result;
      return { isError: result.isError, text: result.content[0].text };
    };
    for (const [name, args] of [
      ['search', '{"query":"alpha","__proto__":{"limit":1}}'],
      ['list_notes', '{"__proto__":{"limit":1}}'],
      ['read_note', '{"path":"Home","__proto__":null}'],
    ]) {
      const legacy = await raw(booted.port, { headers: session, body: callText(name, args) });
      expect(legacy.status).toBe(200);
      expect(textOf(legacy)).toEqual({ isError: true, text: `Invalid arguments for ${name}: (arguments): Unrecognized key: "__proto__"` });
    }
    // The same words as for "constructor" or "bogus".
    const constructorKey = await raw(booted.port, { headers: session, body: callText('search', '{"query":"alpha","constructor":1}') });
    expect(textOf(constructorKey).text).toBe('Invalid arguments for search: (arguments): Unrecognized key: "constructor"');
    // Many unknown keys (up to the door's 1000 per object) are named ten at a time, the rest counted: the message had every one.
    const many = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`k${i}`, 1]));
    const wide = await raw(booted.port, { headers: session, body: callText('search', JSON.stringify({ query: 'alpha', ...many })) });
    expect(textOf(wide).text).toBe(
      `Invalid arguments for search: (arguments): Unrecognized keys: ${Array.from({ length: 10 }, (_, i) => `"k${i}"`).join(', ')}, … and 890 more`,
    );
    const manyProblems = await raw(booted.port, {
      headers: session,
      body: callText('read_notes', JSON.stringify({ paths: Array.from({ length: 15 }, () => 1) })),
    });
    expect(textOf(manyProblems).text).toMatch(/^Invalid arguments for read_notes: paths.0: .*; paths.9: [^;]*; … and 5 more problems$/);
    // A missing argument is said to be required, not "expected string, received undefined".
    const missing = await raw(booted.port, { headers: session, body: callText('search', '{}') });
    expect(textOf(missing)).toEqual({ isError: true, text: 'Invalid arguments for search: query: is required (a string)' });
    // The stateless 2026-07-28 era takes the same path.
    const meta =
      '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}';
    const modern = await raw(booted.port, {
      headers: {
        Authorization: `Bearer ${booted.token}`,
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'search',
      },
      body: `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search","arguments":{"query":"alpha","__proto__":{"limit":1}},"_meta":${meta}}}`,
    });
    expect(modern.status).toBe(200);
    expect(textOf(modern)).toEqual({ isError: true, text: 'Invalid arguments for search: (arguments): Unrecognized key: "__proto__"' });
  });

  it("a client's Connection: close is kept: the answer says close and the server closes the connection after it", async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      });
      const socket = net.connect(booted.port, '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${booted.token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      // Closed by the server once the answer is done; a kept-alive socket would idle here until the test's timeout.
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply).toMatch(/\r\nconnection: close\r\n/i);
    expect(reply).not.toMatch(/connection: keep-alive/i);
    expect(reply).toMatch(/"serverInfo"/);
  }, 10_000);

  it('a request without Host gets 400 with a JSON body saying to send one (Node answered 400 with an empty body)', async () => {
    const reply = await sendRaw(`POST /mcp HTTP/1.1\r\nAuthorization: Bearer ${booted.token}\r\n`);
    expect(reply.status).toBe(400);
    expect(reply.body.error?.message).toMatch(/send exactly one Host header/);
  });

  it('resources/templates/list refuses a cursor it never gave (-32602), as the other lists do', async () => {
    const reply = await answer('resources/templates/list', { cursor: 'bogus' });
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/single page/) });
    expect((await answer('resources/templates/list', {})).result).toMatchObject({ resourceTemplates: expect.any(Array) });
  });

  it.each(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'])(
    '%s refuses a cursor it never gave with -32602 (MCP pagination: an invalid cursor is Invalid params), in both eras',
    async (method) => {
      const reply = await answer(method, { cursor: 'bogus' });
      expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/cursor/) });
      expect((await answer(method, {})).result).toBeDefined();
      const meta =
        '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}';
      const modern = await raw(booted.port, {
        headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method },
        body: `{"jsonrpc":"2.0","id":7,"method":"${method}","params":{"cursor":"bogus","_meta":${meta}}}`,
      });
      expect((messagesOf(modern)[0] as { error?: unknown }).error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/cursor/),
      });
    },
  );

  it.each(['\uD800', 'a\uDFFFb', '\uDBFF\uDBFF', Buffer.from(JSON.stringify({ after: '\uD800' })).toString('base64url')])(
    'a resources/list cursor holding a lone surrogate (%j) is -32602, never -32603',
    async (cursor) => {
      expect((await answer('resources/list', { cursor })).error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Invalid cursor/),
      });
    },
  );

  it.each(['2024-11-05', 'garbage', 'v2', ''])(
    'a session that negotiated a revision refuses a later request naming another (%j) in MCP-Protocol-Version, naming the one to send',
    async (named) => {
      const wrong = await raw(booted.port, {
        headers: { ...session, 'Mcp-Protocol-Version': named },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      expect(wrong.status).toBe(400);
      expect(JSON.parse(wrong.body).error.message).toMatch(/negotiated protocol 2025-06-18.*MCP-Protocol-Version: 2025-06-18/);
      expect((await answer('ping', {})).result).toEqual({});
    },
  );

  it.each(['2099-01-01', 'garbage', '2025-01-01'])(
    'a request without a session naming a revision the server does not speak (%j) is told so and which it speaks, not that _meta is missing',
    async (named) => {
      const reply = await raw(booted.port, {
        headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': named },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32022,
          data: { supported: ['2026-07-28'], requested: named },
          message: expect.stringMatching(
            new RegExp(
              `^Unsupported protocol version: MCP-Protocol-Version names '${named}', a revision this server does not speak\\. It speaks 2026-07-28 .* and 2025-11-25, 2025-06-18`,
            ),
          ),
        },
      });
    },
  );

  it('an initialize naming a revision the server does not speak in MCP-Protocol-Version is told the same', async () => {
    const reply = await raw(booted.port, {
      headers: { Authorization: `Bearer ${booted.token}`, 'MCP-Protocol-Version': 'garbage' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
      }),
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: 'garbage' } });
  });

  it("the stateless revisions this server names are the SDK's own: its -32022 answer to a full envelope of another revision lists them", async () => {
    const meta = `{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}`;
    const reply = await raw(booted.port, {
      headers: { Authorization: `Bearer ${booted.token}`, 'Mcp-Method': 'tools/list' },
      body: `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":${meta}}}`,
    });
    expect(JSON.parse(reply.body).error).toMatchObject({ code: -32022, data: { supported: [...MODERN_PROTOCOL_VERSIONS] } });
  });

  it('an initialize without params, or with half of them, is told what initialize needs (-32602), not that a session is missing', async () => {
    const auth = { Authorization: `Bearer ${booted.token}` };
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'initialize' },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
    ]) {
      const reply = await raw(booted.port, { headers: auth, body: JSON.stringify(message) });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error).toEqual({
        code: -32602,
        message: expect.stringMatching(/initialize needs params \{protocolVersion, capabilities, clientInfo\}/),
      });
      // Its id is readable, so the error answers it (it said null).
      expect(JSON.parse(reply.body).id).toBe(1);
    }
    // Anything else without a session is still told to initialize first.
    const ping = await raw(booted.port, { headers: auth, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect(JSON.parse(ping.body).error.message).toMatch(/send initialize first/);
    // Unless its Content-Type is no JSON: that fault is the one to hear (it was hidden behind "initialize first").
    const plain = await raw(booted.port, {
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body).error.message).toMatch(/^Unsupported Media Type: Content-Type must be application\/json; send/);
    // On every route and whatever the body: one that is no JSON-RPC message (the stateless route read it first: 400), or
    // no JSON at all, or a request in no session at all with no Content-Type (newcomer finding, session 39).
    for (const [headers, body] of [
      [{ ...auth, 'Content-Type': 'text/plain' }, '{}'],
      [{ ...auth, 'Content-Type': 'text/plain' }, 'not json'],
      [{ ...auth, 'Content-Type': 'text/plain', 'MCP-Protocol-Version': '2026-07-28' }, '{}'],
      [{ ...auth, 'Content-Type': '' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })],
    ] as const) {
      const refused = await raw(booted.port, { headers, body });
      expect(refused.status).toBe(415);
      expect(JSON.parse(refused.body).error.message).toMatch(/^Unsupported Media Type/);
    }
  });

  it("resources/read with a vault argument says that resources are this vault's", async () => {
    const reply = await answer('resources/read', { uri: 'vault-mcp://note/Home.md', vault: 'Other' });
    expect(reply.error).toMatchObject({ code: -32602, message: expect.stringMatching(/resources\/read: it takes no vault argument/) });
  });

  it("after notifications/cancelled the cancelled request's stream is closed without an answer and its id is free again", async () => {
    // A session whose client declares roots but never answers roots/list: a tool call waits for the answer.
    const init = await raw(booted.port, {
      headers: { Authorization: `Bearer ${booted.token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: { roots: {} }, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    const headers = {
      Authorization: `Bearer ${booted.token}`,
      'Mcp-Session-Id': init.headers['mcp-session-id'] as string,
      'Mcp-Protocol-Version': '2025-06-18',
    };
    await raw(booted.port, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const pending = raw(booted.port, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'list_notes', arguments: {} } }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cancel = await raw(booted.port, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'test' } }),
    });
    expect(cancel.status).toBe(202);
    const cancelled = await pending;
    expect(messagesOf(cancelled).filter((m) => (m as { id?: unknown }).id === 'slow')).toEqual([]);
    const again = await raw(booted.port, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'slow', method: 'ping' }) });
    expect(messagesOf(again)[0]).toMatchObject({ id: 'slow', result: {} });
  });

  describe('progress', () => {
    const paths = ['Home.md', 'Inbox.md', 'Ideas.md'];
    /** The progress notifications and the result of one read_notes call with `meta` as its `_meta`. */
    async function readNotes(
      meta: Record<string, unknown> | undefined,
    ): Promise<{ progress: Array<{ progressToken: unknown; progress: number; total?: number }>; result: unknown }> {
      const params = { name: 'read_notes', arguments: { paths }, ...(meta ? { _meta: meta } : {}) };
      const messages = messagesOf(
        await raw(booted.port, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 'p1', method: 'tools/call', params }) }),
      ) as Array<{ method?: string; params?: unknown; id?: unknown; result?: unknown }>;
      return {
        progress: messages
          .filter((m) => m.method === 'notifications/progress')
          .map((m) => m.params as { progressToken: unknown; progress: number; total?: number }),
        result: messages.find((m) => m.id === 'p1')?.result,
      };
    }

    it.each([
      ['a string token', 'tok-α'],
      ['a number token', 7],
    ])("a call that waits reports progress with the client's own token (%s), growing to the total", async (_what, token) => {
      const { progress, result } = await readNotes({ progressToken: token });
      expect(result).toMatchObject({ structuredContent: { notes: expect.any(Array) } });
      expect(progress.length).toBe(paths.length);
      expect(progress.every((p) => p.progressToken === token && p.total === paths.length)).toBe(true);
      expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
    });

    it('no progress is sent without a token', async () => {
      const { progress, result } = await readNotes(undefined);
      expect(result).toBeDefined();
      expect(progress).toEqual([]);
    });
  });
});
