/**
 * A provider on this computer is reached with Node's own http/https (http.ts): its answer is
 * capped raw and decoded (a runaway server or a compression bomb cannot run Obsidian out of
 * memory), and a TLS certificate Node refuses is named as such, not as "unreachable or busy".
 * Real loopback servers; the cap is lowered through postJson's `maxBodyBytes` option.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { PROVIDER_MAX_BODY_BYTES, postJson } from '../../../src/ai/providers/http';
import { isTransientAiError } from '../../../src/search/semantic/semantic-index';
import { aiFailure } from '../../harness/ai-failure';
import { selfSignedCert } from '../../harness/server/self-signed-cert';

const MIB = 1024 * 1024;
const servers: (http.Server | https.Server)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

async function listen(server: http.Server | https.Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

describe('the answer of a provider on this computer is capped', () => {
  it('the cap is named and far above an embeddings batch (32 × 4096 dims)', () => {
    const batch = JSON.stringify({
      data: Array.from({ length: 32 }, (_, i) => ({ index: i, embedding: new Array(4096).fill(-0.012345678) })),
    });
    expect(PROVIDER_MAX_BODY_BYTES).toBe(64 * MIB);
    expect(Buffer.byteLength(batch)).toBeLessThan(PROVIDER_MAX_BODY_BYTES / 8);
  });

  it('a body streamed past the cap (no length announced) is cut off: the request is destroyed, not read to the end', async () => {
    let sent = 0;
    let closedEarly = false;
    const port = await listen(
      http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        res.on('close', () => (closedEarly = sent < 64 * MIB));
        const pump = (): void => {
          while (sent < 64 * MIB) {
            sent += chunk.byteLength;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.write('{"data": "');
        pump();
      }),
    );
    const err = await aiFailure(postJson(`http://127.0.0.1:${port}/v1/embeddings`, {}, { input: ['x'] }, { maxBodyBytes: MIB }));
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBeUndefined();
    expect(err.message).toBe(
      `The AI provider at http://127.0.0.1:${port}/v1/embeddings answered with more than 1 MiB (more than ${MIB} bytes arrived), far more than any embeddings or chat answer, so Vault MCP stopped reading it; check that the base URL points at the provider's API and not at a file or another service, and the server's logs.`,
    );
    expect(isTransientAiError(err)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closedEarly).toBe(true);
  });

  it('an announced Content-Length past the cap is refused before the body is read', async () => {
    const port = await listen(
      http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * MIB) });
        res.write('{');
      }),
    );
    const err = await aiFailure(postJson(`http://127.0.0.1:${port}/v1/x`, {}, {}, { maxBodyBytes: MIB, timeoutMs: 5000 }));
    expect(err.message).toContain(`answered with more than 1 MiB (it announced ${2 * MIB} bytes)`);
  });

  test.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
  ] as const)('a small %s answer that inflates past the cap is stopped while decoding', async (coding, compress) => {
    const bomb = compress(Buffer.alloc(4 * MIB, 0x20));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    const port = await listen(
      http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
        res.end(bomb);
      }),
    );
    const err = await aiFailure(postJson(`http://127.0.0.1:${port}/v1/x`, {}, {}, { maxBodyBytes: MIB }));
    expect(err.code).toBe('aiHttpError');
    expect(err.message).toContain(`answered with more than 1 MiB (its ${coding} answer decodes to more than ${MIB} bytes)`);
    expect(isTransientAiError(err)).toBe(false);
  });

  it('an answer within the cap, compressed or not, still arrives whole', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(MIB - 100) });
    const port = await listen(
      http.createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': req.url === '/gz' ? 'gzip' : 'identity' });
        res.end(req.url === '/gz' ? gzipSync(body) : body);
      }),
    );
    for (const path of ['/gz', '/plain']) {
      const res = await postJson(`http://127.0.0.1:${port}${path}`, {}, {}, { maxBodyBytes: MIB });
      expect(res.text).toBe(body);
    }
  });
});

describe('a local https provider whose certificate Node refuses', () => {
  const pair = selfSignedCert(2);

  it('fails with a lasting error that names the certificate and says to use http:// on this computer', async () => {
    if (pair === null) {
      console.warn('skipped: openssl is not available to make a self-signed certificate');
      return;
    }
    let heard = 0;
    const port = await listen(
      https.createServer(pair, (req, res) => {
        heard++;
        req.resume();
        res.end('{}');
      }),
    );
    const url = `https://127.0.0.1:${port}/v1/embeddings`;
    const err = await aiFailure(postJson(url, { Authorization: 'Bearer sk-SECRET' }, { input: ['note'] }));
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(
      new RegExp(
        `^The AI provider at ${url.replace(/\./g, '\\.')} presented a TLS certificate that was refused: it is self-signed \\(self[- ]signed certificate\\)\\. ` +
          "A provider on this computer is reached without the operating system's certificate store, so a self-signed or mkcert certificate is not trusted; " +
          'use http:// for a server on this computer \\(the request never leaves the machine\\) in Settings → Vault MCP → AI provider\\.$',
      ),
    );
    expect(err.message).not.toMatch(/unreachable|busy|check that the server is running/);
    expect(isTransientAiError(err)).toBe(false);
    expect(heard).toBe(0);
  });

  it('reached by the name localhost (the loopback lookup), the same certificate is named the same way', async () => {
    if (pair === null) {
      console.warn('skipped: openssl is not available to make a self-signed certificate');
      return;
    }
    const port = await listen(https.createServer(pair, (_req, res) => res.end('{}')));
    const err = await aiFailure(postJson(`https://localhost:${port}/v1/x`, {}, {}));
    expect(err.message).toContain(
      `The AI provider at https://localhost:${port}/v1/x presented a TLS certificate that was refused: it is self-signed`,
    );
    expect(isTransientAiError(err)).toBe(false);
  });
});

describe('isTransientAiError', () => {
  it('still retries an unreachable provider (connection refused)', async () => {
    const port = await listen(http.createServer());
    const s = servers.pop()!;
    await new Promise<void>((resolve) => s.close(() => resolve()));
    const err = await aiFailure(postJson(`http://127.0.0.1:${port}/v1/x`, {}, {}));
    expect(err.message).toMatch(/^Could not reach the AI provider/);
    expect(isTransientAiError(err)).toBe(true);
  });
});
