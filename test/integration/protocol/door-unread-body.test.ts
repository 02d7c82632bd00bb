import { execFile } from 'node:child_process';
import * as http from 'node:http';
import type { Server as HttpServer, Socket } from 'node:net';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

const MIB = 1024 * 1024;

/**
 * Sends the headers and the first `sentBytes` of a body declared `declaredBytes` long, then
 * waits without sending more. Resolves with the answer, which can only come if the server
 * refused from the headers (it never gets the rest of the body).
 */
function sendPartial(
  port: number,
  headers: Record<string, string>,
  declaredBytes: number,
  sentBytes: number,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(declaredBytes), ...headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    req.write(Buffer.alloc(sentBytes, 0x20));
  });
}

/**
 * Streams a whole `bytes`-long body (in 64 KiB writes, as fast as the socket takes them).
 * @returns the status when the server answered, or the socket error when it closed first.
 */
function sendWhole(port: number, headers: Record<string, string>, bytes: number): Promise<{ status?: number; error?: string }> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: { status?: number; error?: string }): void => {
      if (!settled) resolve(value);
      settled = true;
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(bytes), ...headers },
      },
      (res) => {
        res.resume();
        settle({ status: res.statusCode });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => settle({ error: error.code ?? error.message }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * Runs 8 tool calls of bodies 0.5–3.5 MiB over `limit` from the official SDK client in a Node process of its own.
 * @returns per call '413' when the client got the server's refusal (its message), else the client's error.
 */
function oversizedCallsFromAnotherProcess(url: string, token: string, limit: number): Promise<string[]> {
  const script = `
    import { Client } from '@modelcontextprotocol/sdk/client/index.js';
    import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
    const [url, token, limit] = process.argv.slice(1);
    const client = new Client({ name: 'oversized', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: 'Bearer ' + token } } }));
    const out = [];
    for (let k = 0; k < 8; k++) {
      try {
        await client.callTool({ name: 'read_note', arguments: { path: 'x'.repeat(Number(limit) + (k % 4) * ${MIB} + ${MIB / 2}) } });
        out.push('answered');
      } catch (error) {
        out.push(/larger than \\d+ bytes; send smaller requests/.test(error.message) ? '413' : error.message + ' ' + (error.cause?.code ?? ''));
      }
    }
    console.log(JSON.stringify(out));
    await client.close();`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script, url, token, String(limit)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as string[]),
    );
  });
}

// Issue 12, item 10: Host, Origin and the bearer key are judged from the headers; an
// unauthenticated body is never read in full.
describe('the door refuses from the headers, before reading a body', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanup = copy.cleanup;
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
  });
  afterAll(async () => {
    await booted?.stop();
    await cleanup?.();
  });

  it.each([
    ['no key', {}, 401, /Authorization: Bearer/],
    ['a wrong key', { Authorization: 'Bearer nope-nope-nope-nope' }, 401, /Authorization: Bearer/],
    ['a foreign Host', { Host: 'evil.example' }, 403, /Host/],
    ['a foreign Origin', { Origin: 'https://evil.example' }, 403, /web pages/],
  ])('%s is answered while the client is still sending a 4 MiB body', async (_name, headers, status, message) => {
    const reply = await sendPartial(booted.port, headers as Record<string, string>, 4 * MIB, 64 * 1024);
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(message) }, id: null });
    expect(reply.headers.connection).toBe('close');
  });

  it('an oversized declared body is 413 from its Content-Length, with a key or without', async () => {
    const limit = booted.plugin.settings.server.maxBodyBytes;
    for (const headers of [{ Authorization: `Bearer ${booted.token}` }, {}] as Record<string, string>[]) {
      const reply = await sendPartial(booted.port, headers, limit + 1, 1024);
      expect(reply.status).toBe(413);
      expect(JSON.parse(reply.body).error.message).toMatch(/larger than/);
    }
  });

  // Session 43's newcomer: the SDK client's create_note of 4.5 MB got "fetch failed" (EPIPE) in half the tries, not the 413's
  // advice: the answer closed the connection while the client was still sending. Seen only with clients in processes of their
  // own (three at once: 25 of 45 calls failed before); in this process the client's writes and the answer never overlap so.
  it("a too-large body from a caller with a valid key is read to its end, so the SDK client reads the 413's advice every time", async () => {
    const limit = booted.plugin.settings.server.maxBodyBytes;
    expect(await sendWhole(booted.port, { Authorization: `Bearer ${booted.token}` }, limit + MIB / 2)).toEqual({ status: 413 });
    const outcomes = await Promise.all([0, 1, 2].map(() => oversizedCallsFromAnotherProcess(booted.url, booted.token, limit)));
    expect(outcomes.flat()).toEqual(Array(3 * 8).fill('413'));
  });

  it('a chunked body growing past the limit is 413 once the limit is passed, the rest unread', async () => {
    const limit = booted.plugin.settings.server.maxBodyBytes;
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: booted.port,
          path: '/mcp',
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${booted.token}` },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (body += c));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      // No Content-Length: chunked. Send a little more than the limit and never end the body.
      req.write(Buffer.alloc(limit + 64 * 1024, 0x20));
    });
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body).error.message).toMatch(/larger than/);
  });

  it('the master switch is judged from the headers too', async () => {
    booted.plugin.settings.server.enabled = false;
    try {
      const reply = await sendPartial(booted.port, { Authorization: `Bearer ${booted.token}` }, 2 * MIB, 1024);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body).error.message).toMatch(/Enable server/);
    } finally {
      booted.plugin.settings.server.enabled = true;
    }
  });

  it('40 concurrent unauthenticated 4 MiB bodies are not read in full', async () => {
    const http = (booted.plugin.server as unknown as { listener: { http: HttpServer } }).listener.http;
    const sockets: Socket[] = [];
    const track = (socket: Socket): void => void sockets.push(socket);
    http.on('connection', track);
    try {
      const outcomes = await Promise.all(Array.from({ length: 40 }, () => sendWhole(booted.port, {}, 4 * MIB)));
      const bytesRead = sockets.reduce((sum, socket) => sum + socket.bytesRead, 0);
      const answered = outcomes.filter((o) => o.status === 401).length;
      console.log(
        `40 unauthenticated 4 MiB bodies: server read ${(bytesRead / MIB).toFixed(2)} MiB of 160 MiB; ${answered} clients read the 401, the others saw the connection close while sending`,
      );
      expect(sockets).toHaveLength(40);
      // Each connection reads at most what arrived before its 401 was sent; far below the bodies.
      expect(bytesRead).toBeLessThan(40 * MIB);
      for (const outcome of outcomes) expect(outcome.status === 401 || outcome.error !== undefined).toBe(true);
      expect(outcomes.filter((o) => o.status === 401).length).toBeGreaterThan(0);
    } finally {
      http.off('connection', track);
    }
  });

  it('an authenticated request still sends its body and is served', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const reply = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: booted.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            Authorization: `Bearer ${booted.token}`,
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(reply).toBe(200);
  });
});
