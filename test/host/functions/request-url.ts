import type * as O from 'obsidian';
import * as http from 'node:http';
import * as https from 'node:https';
import { Buffer } from 'node:buffer';

const MAX_REDIRECTS = 5;

/** Error thrown by requestUrl for HTTP status >= 400 (unless `throw: false`), as Obsidian's. */
export interface RequestUrlError extends Error {
  status: number;
  headers: Record<string, string>;
  text: string;
}

function toBuffer(body: string | ArrayBuffer | undefined): Buffer | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(new Uint8Array(body));
}

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function send(param: O.RequestUrlParam, url: URL, redirects: number): Promise<O.RequestUrlResponse> {
  const body = toBuffer(param.body);
  const headers: Record<string, string> = { ...(param.headers ?? {}) };
  if (param.contentType && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = param.contentType;
  }
  if (body) headers['Content-Length'] = String(body.byteLength);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: (param.method ?? 'GET').toUpperCase(), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (status >= 300 && status < 400 && location && redirects < MAX_REDIRECTS) {
          const keepMethod = status === 307 || status === 308;
          const next: O.RequestUrlParam = keepMethod ? param : { ...param, method: 'GET', body: undefined };
          resolve(send(next, new URL(location, url), redirects + 1));
          return;
        }
        resolve(makeResponse(status, flatHeaders(res.headers), Buffer.concat(chunks)));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function makeResponse(status: number, headers: Record<string, string>, buf: Buffer): O.RequestUrlResponse {
  const arrayBuffer = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  const text = buf.toString('utf8');
  return {
    status,
    headers,
    arrayBuffer,
    text,
    get json(): any {
      return JSON.parse(text);
    },
  };
}

/**
 * Obsidian's `requestUrl` (obsidian.d.ts) over node:http/https: `{url, method='GET',
 * contentType, body (string | ArrayBuffer), headers, throw=true}` → `{status, headers
 * (lower-case names), arrayBuffer, text, json}` where `json` parses the body on access
 * (throws SyntaxError if it is not JSON). Follows up to 5 redirects. Rejects with a
 * RequestUrlError ("Request failed, status N") for status >= 400 unless `throw: false`,
 * and with the network error (ECONNREFUSED ...) when no response arrives.
 * The returned promise also has `.text`, `.json` and `.arrayBuffer` promise properties.
 */
export function requestUrl(request: O.RequestUrlParam | string): O.RequestUrlResponsePromise {
  const param: O.RequestUrlParam = typeof request === 'string' ? { url: request } : request;
  const promise = (async () => {
    const res = await send(param, new URL(param.url), 0);
    if (res.status >= 400 && param.throw !== false) {
      const err = new Error(`Request failed, status ${res.status}`) as RequestUrlError;
      err.status = res.status;
      err.headers = res.headers;
      err.text = res.text;
      throw err;
    }
    return res;
  })();
  const out = promise as O.RequestUrlResponsePromise;
  Object.defineProperties(out, {
    text: { get: () => promise.then((r) => r.text) },
    json: { get: () => promise.then((r) => r.json) },
    arrayBuffer: { get: () => promise.then((r) => r.arrayBuffer) },
  });
  return out;
}

/** Obsidian's `request`: like requestUrl but resolves to the body text. */
export async function request(req: O.RequestUrlParam | string): Promise<string> {
  return (await requestUrl(req)).text;
}
