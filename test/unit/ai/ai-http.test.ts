import * as os from 'node:os';
import * as http from 'node:http';
import type { LookupAddress } from 'node:dns';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { postJson } from '../../../src/ai/providers/http';
import { providerLookup, type ResolveAll } from '../../../src/ai/providers/loopback-lookup';
import { startRecordingServer, type RecordingServer } from '../../fakes/recording-server';
import { aiFailure } from '../../harness/ai-failure';
import { isTransientAiError } from '../../../src/search/semantic/semantic-index';

describe('postJson', () => {
  let server: http.Server;
  let url: string;
  const held: http.ServerResponse[] = [];

  beforeAll(async () => {
    // A provider that accepts the request and never answers; `/half` sends its headers and then stalls.
    server = http.createServer((req, res) => {
      if (req.url === '/half') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"choices": [');
      }
      held.push(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up on a provider that never answers, or stalls after its headers, with aiHttpError naming the wait', async () => {
    const err = await aiFailure(postJson(url, {}, { model: 'm' }, { timeoutMs: 200 }));
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(/no answer within 200 ms/);
    expect(held.length).toBe(1);
    const half = await aiFailure(postJson(url.replace(/\/v1\/chat\/completions$/, '/half'), {}, { model: 'm' }, { timeoutMs: 300 }));
    expect(half.message).toMatch(/no answer within 300 ms/);
  });
});

describe('postJson never follows a redirect', () => {
  // `target` is a second loopback server that would answer; whether it hears anything shows whether the redirect was followed.
  let target: RecordingServer;
  let redirector: RecordingServer;
  let answer: { status: number; location?: string };

  beforeEach(async () => {
    target = await startRecordingServer(() => ({ status: 200, body: { data: [{ index: 0, embedding: [1, 0] }] } }));
    answer = { status: 307 };
    redirector = await startRecordingServer((req) => ({
      status: answer.status,
      body: '',
      headers: answer.location === undefined ? undefined : { location: answer.location.replace('{path}', req.path) },
    }));
  });
  afterEach(async () => {
    await Promise.all([target.close(), redirector.close()]);
  });

  const post = () =>
    postJson(
      `${redirector.origin}/v1/embeddings`,
      { Authorization: 'Bearer sk-SECRET' },
      { model: 'm', input: ['note text'] },
      { endpoint: '/embeddings' },
    );

  test.each([301, 302, 303, 307, 308])('HTTP %i to another port: nothing reaches it, and the error says what to set', async (status) => {
    answer = { status, location: `${target.origin}{path}` };
    const err = await aiFailure(post());
    expect(redirector.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBe(status);
    expect(err.message).toBe(
      `The AI provider at ${redirector.origin}/v1/embeddings answered HTTP ${status}, a redirect to ${target.origin}/v1/embeddings; ` +
        "Vault MCP does not follow an AI provider's redirects, so your notes and API key go only to the base URL you set. " +
        `If that server is the one you mean, set the base URL to ${target.origin}/v1 in Settings → Vault MCP → AI provider.`,
    );
  });

  it('a redirect off this computer says the target also needs "Allow remote providers"', async () => {
    answer = { status: 307, location: 'http://192.0.2.2:27436{path}' };
    const err = await aiFailure(post());
    expect(err.status).toBe(307);
    expect(err.message).toContain('a redirect to http://192.0.2.2:27436/v1/embeddings;');
    expect(err.message).toContain(
      'set the base URL to http://192.0.2.2:27436/v1 in Settings → Vault MCP → AI provider; it is not on this computer, so it also needs "Allow remote providers" (your notes would be sent to it).',
    );
  });

  it('a relative Location is named as the full URL; one to another path names no base URL', async () => {
    answer = { status: 302, location: '/elsewhere' };
    const err = await aiFailure(post());
    expect(err.message).toContain(`a redirect to ${redirector.origin}/elsewhere;`);
    expect(err.message).toContain('If that server is the one you mean, set the base URL to that server in Settings');
    expect(redirector.requests).toHaveLength(1);
  });

  it('a redirect to the request URL itself says so, not "set the base URL" to the one already set', async () => {
    answer = { status: 308, location: `${redirector.origin}{path}#frag` };
    const err = await aiFailure(post());
    expect(err.status).toBe(308);
    expect(err.message).toBe(
      `The AI provider at ${redirector.origin}/v1/embeddings answered HTTP 308, a redirect to that same URL; Vault MCP does not follow an AI provider's redirects, ` +
        'and this one points back at the URL it came from, so setting the base URL to it again would not help: ' +
        "check the server's settings and logs (a proxy or login page in front of it can answer this way), or the base URL in Settings → Vault MCP → AI provider.",
    );
    expect(redirector.requests).toHaveLength(1);
  });

  it('a redirect to the request URL with user:password@ added is still "that same URL", credentials not quoted', async () => {
    answer = { status: 307, location: `${redirector.origin.replace('http://', 'http://user:pass@')}{path}` };
    const err = await aiFailure(post());
    expect(err.message).toContain('a redirect to that same URL;');
    expect(err.message).not.toMatch(/user:pass|set the base URL to/);
  });

  it('a Location Node cannot parse (control characters) is a lasting error saying the answer could not be read, not "unreachable"', async () => {
    // A raw server: node:http refuses to send such a header itself.
    const raw = net.createServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/\x1b[31mred\x07\r\nContent-Length: 0\r\n\r\n'),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', () => resolve()));
    try {
      const err = await aiFailure(postJson(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1/embeddings`, {}, {}));
      expect(err.code).toBe('aiHttpError');
      expect(err.message).toMatch(/answered with an HTTP response that could not be read \(.+\): no provider's API answers so/);
      expect(err.message).not.toMatch(/Could not reach/);
      expect(isTransientAiError(err)).toBe(false);
      expect(err.message).not.toContain('\x1b');
    } finally {
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
  });

  it('a Location with user:password@ is quoted without the credentials', async () => {
    answer = { status: 307, location: 'http://admin:hunter2@192.0.2.2:27436{path}' };
    const err = await aiFailure(post());
    expect(err.message).toContain('a redirect to http://192.0.2.2:27436/v1/embeddings;');
    expect(err.message).toContain('set the base URL to http://192.0.2.2:27436/v1 in Settings');
    expect(err.message).not.toMatch(/admin|hunter2/);
    answer = { status: 307, location: 'http://:pw-only@127.0.0.2:1/x' };
    expect((await aiFailure(post())).message).not.toContain('pw-only');
    expect(target.requests).toHaveLength(0);
  });

  it('an unparseable Location is quoted with its control characters escaped', async () => {
    // Latin-1 bytes 0x85 (NEL) and 0x9B (CSI) arrive as U+0085 and U+009B; a tab is legal inside a header value.
    answer = { status: 302, location: 'http://[bad\t\u0085\u009b[31mé' };
    const err = await aiFailure(post());
    expect(err.message).toContain('a redirect to http://[bad\\u0009\\u0085\\u009b[31mé; Vault MCP does not follow');
    // eslint-disable-next-line no-control-regex -- the message must hold no control character
    expect(err.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(err.message).toContain('Check the base URL in Settings → Vault MCP → AI provider.');
  });

  it('a 3xx without a Location is an error too, and is not retried', async () => {
    answer = { status: 300 };
    const err = await aiFailure(post());
    expect(err.status).toBe(300);
    expect(err.message).toMatch(
      /answered HTTP 300 \(a redirect without a Location\) instead of answering; Vault MCP does not follow redirects/,
    );
    expect(redirector.requests).toHaveLength(1);
  });
});

describe('postJson transport', () => {
  let server: RecordingServer;
  afterEach(() => server.close());

  it('decodes a gzip answer and sends JSON with its length', async () => {
    server = await startRecordingServer(() => ({ status: 200, body: '' }));
    // A raw server: the recording fake cannot send a binary body.
    const raw = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ ok: 'ünïcode' })));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', () => resolve()));
    try {
      const res = await postJson(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1/x`, {}, { a: 1 });
      expect(res.json).toEqual({ ok: 'ünïcode' });
    } finally {
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
    await postJson(`${server.origin}/v1/x`, { 'x-api-key': 'k' }, { é: 1 });
    expect(server.requests[0].headers).toMatchObject({ 'content-type': 'application/json', 'content-length': '8', 'x-api-key': 'k' });
    expect(server.requests[0].json).toEqual({ é: 1 });
  });

  it('a *.localhost name reaches this computer without asking DNS', async () => {
    server = await startRecordingServer(() => ({ status: 200, body: { ok: true } }));
    const port = new URL(server.origin).port;
    const res = await postJson(`http://ollama.localhost:${port}/v1/chat/completions`, {}, { model: 'm' });
    expect(res.json).toEqual({ ok: true });
    expect(server.requests[0].headers.host).toBe(`ollama.localhost:${port}`);
  });
});

describe('providerLookup', () => {
  /** A resolver that answers from `table` and records the names asked. */
  function resolver(table: Record<string, LookupAddress[]>): { resolve: ResolveAll; asked: string[] } {
    const asked: string[] = [];
    return {
      asked,
      resolve: (name, callback) => {
        asked.push(name);
        const found = table[name];
        if (found) callback(null, found);
        else callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' }), []);
      },
    };
  }
  function ask(lookup: ReturnType<typeof providerLookup>, name: string, all: boolean): Promise<{ err: Error | null; value: unknown }> {
    return new Promise((resolve) =>
      lookup(
        name,
        { all } as never,
        ((err: Error | null, address: unknown, family?: number) => resolve({ err, value: all ? address : { address, family } })) as never,
      ),
    );
  }

  it('resolves localhost and *.localhost as localhost, keeping loopback answers only', async () => {
    const r = resolver({
      localhost: [
        { address: '10.1.2.3', family: 4 },
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const lookup = providerLookup(r.resolve);
    expect(await ask(lookup, 'ollama.localhost', true)).toEqual({
      err: null,
      value: [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    expect(await ask(lookup, 'localhost', false)).toEqual({ err: null, value: { address: '::1', family: 6 } });
    expect(r.asked).toEqual(['localhost', 'localhost']);
  });

  it('refuses a localhost name that resolves only off this computer', async () => {
    const lookup = providerLookup(resolver({ localhost: [{ address: '192.0.2.7', family: 4 }] }).resolve);
    const { err } = await ask(lookup, 'localhost', true);
    expect(err?.message).toBe("localhost resolved to 192.0.2.7, not to this computer's loopback address");
  });

  it('passes other names (remote providers, allowed by the gate) to the resolver unchanged', async () => {
    const r = resolver({ 'api.example.com': [{ address: '192.0.2.9', family: 4 }] });
    expect(await ask(providerLookup(r.resolve), 'api.example.com', false)).toEqual({
      err: null,
      value: { address: '192.0.2.9', family: 4 },
    });
    expect((await ask(providerLookup(r.resolve), 'localhost.', true)).err?.message).toMatch(/ENOTFOUND localhost\./);
    expect(r.asked).toEqual(['api.example.com', 'localhost.']);
  });
});

/** This machine's first non-loopback IPv4 address, or null when it has none (then the remote transport's test skips). */
function lanAddress(): string | null {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return null;
}

describe('postJson to a remote provider (allowed by the gate) goes through Obsidian requestUrl', () => {
  const lan = lanAddress();
  const servers: http.Server[] = [];
  const listen = async (handle: http.RequestListener): Promise<string> => {
    const server = http.createServer(handle);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, lan!, () => resolve()));
    return `http://${lan}:${(server.address() as AddressInfo).port}`;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("follows the remote server's redirect as Obsidian does (system proxy and certificates apply there), unlike a local provider's", async () => {
    if (lan === null) {
      console.warn('skipped: this machine has no non-loopback IPv4 address to stand for a remote provider');
      return;
    }
    const heard: string[] = [];
    const target = await listen((req, res) => {
      heard.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }));
    });
    const redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${target}${req.url}` });
      res.end();
    });
    const res = await postJson(`${redirector}/v1/embeddings`, { Authorization: 'Bearer sk-REMOTE' }, { model: 'm', input: ['x'] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [{ index: 0, embedding: [1, 0] }] });
    expect(heard).toEqual(['POST /v1/embeddings Bearer sk-REMOTE']);
  });
});
