import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { requestUrl } from 'obsidian';
import { AI_PROVIDER_SETTINGS, AiError } from '../ai-error';
import { clusterPrefix } from '../../vault/content/text/graphemes';
import { classifyBaseUrl } from './classify';
import { providerLookup } from './loopback-lookup';

/** A provider's HTTP answer: status, lower-cased headers, raw body and the body parsed as JSON. */
export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when the body is empty or not JSON. */
  json: unknown;
}

/** How long a provider may take to answer one request, ms (local models on a CPU are slow). */
export const PROVIDER_TIMEOUT_MS = 120_000;

/**
 * Largest answer read from a provider on this computer, raw and after decoding, in bytes (64 MiB).
 * The biggest answer Vault MCP asks for is an embeddings batch: 32 inputs × 4096 dimensions as
 * JSON numbers is about 3 MiB, so 64 MiB is far above any real answer, yet it stops a runaway
 * server or a compression bomb (a small gzip that inflates to gigabytes) before it runs Obsidian
 * out of memory.
 */
export const PROVIDER_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  /** How long to wait for the whole answer, ms (default {@link PROVIDER_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * The path the caller appended to the base URL (e.g. `/embeddings`), so a redirect's
   * message can name the base URL that would reach the redirect's target directly.
   */
  endpoint?: string;
  /** Largest answer read from a local provider, raw and decoded, bytes (default {@link PROVIDER_MAX_BODY_BYTES}). */
  maxBodyBytes?: number;
}

const lookup = providerLookup();
/**
 * The provider requests' own connection pools (kept alive, as Node's global agent: idle sockets
 * close after 5 s and never hold the process open). Own pools, so a request never reuses a
 * socket another part of the app opened to the same host:port through another lookup.
 */
const agents = { http: new HttpAgent({ keepAlive: true, timeout: 5000 }), https: new HttpsAgent({ keepAlive: true, timeout: 5000 }) };
type Decoder = (buf: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;
const decoders: Record<string, Decoder> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
};
const inflateAny: Decoder = promisify(inflate);
const inflateRawAny: Decoder = promisify(inflateRaw);

/** A local provider's answer passed the size cap (raw or decoded); `postJson` words the message. */
class TooLarge extends Error {}

/**
 * Node's (OpenSSL's) certificate verification error codes, each with why the certificate was
 * refused: the certificate, not the network, is why the request failed.
 */
const CERTIFICATE_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_(UNTRUSTED|REJECTED|SIGNATURE_FAILURE|HAS_EXPIRED|NOT_YET_VALID|REVOKED)|INVALID_CA|UNABLE_TO_DECRYPT_CERT_SIGNATURE|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)$/;
const CERTIFICATE_REASONS: [RegExp, string][] = [
  [/SELF_SIGNED/, 'it is self-signed'],
  [/EXPIRED/, 'it has expired'],
  [/NOT_YET/, 'it is not valid yet'],
  [/REVOKED/, 'it was revoked'],
  [/SIGNATURE_FAILURE|DECRYPT/, 'its signature is invalid'],
  [/ALTNAME|HOSTNAME/, 'it is for another host name'],
];

/**
 * POSTs a JSON body to an AI provider. The privacy gate (gates.ts) judged the base URL the user
 * set; the transport keeps that judgement true:
 * - a provider on this computer ({@link classifyBaseUrl} `local`) is reached with Node's own
 *   `http` / `https` (the plugin is desktop-only; no CORS applies), and a redirect is never
 *   followed: Obsidian's `requestUrl` follows redirects with every header and does not say where
 *   it ended, so a loopback server answering 3xx would send the notes and the API key off the
 *   machine without "Allow remote". A 3xx is an error naming where the provider pointed and what
 *   to do. `localhost` / `*.localhost` names connect to loopback addresses only
 *   (loopback-lookup.ts). Gzip, deflate and Brotli bodies are decoded; the timeout aborts.
 * - a remote provider (only reached once "Allow remote" let it) goes through Obsidian's
 *   `requestUrl` (Obsidian API), so the system's proxy settings and the operating system's
 *   certificate store apply, as users behind a company proxy or TLS inspection need. Its
 *   redirects are followed as Obsidian follows them: the server the user allowed already receives
 *   the notes and the key. `requestUrl` cannot be cancelled, so a late answer is dropped.
 * @param url full endpoint URL (http or https)
 * @param headers extra request headers (auth, version); content type (and length) are set here
 * @param body JSON-serializable request body
 * @param options timeout and the endpoint path (for the redirect message)
 * @returns the response for any status a provider answers with (3xx only from a remote provider
 *   whose redirect `requestUrl` did not follow); never throws for an HTTP status otherwise
 * @throws AiError `aiHttpError` with the status for a local provider's 3xx (a redirect, not
 *   followed); `aiHttpError` without status when the server cannot be reached at all or does not
 *   answer within the timeout
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  options: PostJsonOptions = {},
): Promise<ProviderResponse> {
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const maxBytes = options.maxBodyBytes ?? PROVIDER_MAX_BODY_BYTES;
  const local = classifyBaseUrl(url) === 'local';
  let answer: { status: number; headers: Record<string, string>; text: string };
  try {
    answer = local
      ? await send(new URL(url), headers, Buffer.from(JSON.stringify(body), 'utf8'), timeoutMs, maxBytes)
      : await sendThroughObsidian(url, headers, JSON.stringify(body), timeoutMs);
  } catch (err) {
    const reason = messageOf(err);
    if (err instanceof TooLarge) {
      throw new AiError(
        'aiHttpError',
        `The AI provider at ${url} answered with more than ${mebibytes(maxBytes)} (${reason}), far more than any embeddings or chat answer, so Vault MCP stopped reading it; check that the base URL points at the provider's API and not at a file or another service, and the server's logs.`,
        undefined,
        true,
      );
    }
    const certificate = local ? certificateProblem(err) : null;
    if (certificate) {
      throw new AiError(
        'aiHttpError',
        `The AI provider at ${url} presented a TLS certificate that was refused: ${certificate} (${reason}). A provider on this computer is reached without the operating system's certificate store, so a self-signed or mkcert certificate is not trusted; use http:// for a server on this computer (the request never leaves the machine) in ${AI_PROVIDER_SETTINGS}.`,
        undefined,
        true,
      );
    }
    if (local && isMalformedAnswer(err)) {
      throw new AiError(
        'aiHttpError',
        `The AI provider at ${url} answered with an HTTP response that could not be read (${reason}): no provider's API answers so (a header such as a redirect's Location holding control characters, or no HTTP server at all); check the base URL in ${AI_PROVIDER_SETTINGS} and the server's logs.`,
        undefined,
        true,
      );
    }
    throw new AiError(
      'aiHttpError',
      `Could not reach the AI provider at ${url} (${reason}); check that the server is running and the base URL is right.`,
    );
  }
  if (local && answer.status >= 300 && answer.status < 400)
    throw redirectError(url, answer.status, answer.headers.location, options.endpoint);
  return { status: answer.status, headers: answer.headers, text: answer.text, json: parseJson(answer.text) };
}

/** `64 MiB` (bytes below a MiB as `N bytes`). */
function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${bytes} bytes`;
}

/** An error's message, read by shape (Node's own errors may come from another realm). */
function messageOf(err: unknown): string {
  const message = typeof err === 'object' && err !== null ? (err as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(err);
}

/** Why the TLS certificate was refused, when `err` (or its cause) is a certificate verification error; else null. */
function certificateProblem(err: unknown): string | null {
  // Read by shape: Node's own errors may come from another realm (not `instanceof Error` there).
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CERTIFICATE_CODES.test(code)) {
      return CERTIFICATE_REASONS.find(([pattern]) => pattern.test(code))?.[1] ?? 'its issuer is not trusted';
    }
  }
  return null;
}

/**
 * True when Node's HTTP parser refused the answer itself (its `HPE_*` codes, llhttp): the server
 * spoke, but not HTTP a provider sends, so waiting and retrying will not help. Read by shape, as
 * {@link certificateProblem} reads its codes.
 */
function isMalformedAnswer(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('HPE_');
}

/** A timeout's error message: `no answer within 120 s` (ms below a second). */
function lateMessage(timeoutMs: number): string {
  return `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
}

/** One request through Obsidian's `requestUrl` (`throw: false`, so every status comes back), raced against the timeout. */
async function sendThroughObsidian(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(lateMessage(timeoutMs))), timeoutMs);
  });
  try {
    const res = await Promise.race([
      requestUrl({ url, method: 'POST', contentType: 'application/json', headers, body, throw: false }),
      late,
    ]);
    const lowered: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers ?? {})) lowered[k.toLowerCase()] = v;
    return { status: res.status, headers: lowered, text: typeof res.text === 'string' ? res.text : '' };
  } finally {
    clearTimeout(timer);
  }
}

/** One request, no redirect followed; resolves with the decoded body, rejects on a network error or the timeout. */
function send(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const secure = url.protocol === 'https:';
  const request = secure ? httpsRequest : httpRequest;
  const sent: RequestOptions = {
    method: 'POST',
    lookup,
    agent: secure ? agents.https : agents.http,
    headers: {
      Accept: 'application/json',
      'Accept-Encoding': 'gzip, deflate, br',
      'User-Agent': 'Vault-MCP (Obsidian plugin)',
      ...headers,
      'Content-Type': 'application/json',
      'Content-Length': String(body.byteLength),
    },
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = new Promise<{ status: number; headers: Record<string, string>; raw: Buffer }>((resolve, reject) => {
    const req = request(url, sent, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const tooLarge = (what: string): void => {
        const err = new TooLarge(what);
        reject(err);
        req.destroy(err);
      };
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) return tooLarge(`it announced ${declared} bytes`);
      res.on('data', (c: Buffer) => {
        received += c.byteLength;
        if (received > maxBytes) return tooLarge(`more than ${maxBytes} bytes arrived`);
        chunks.push(c);
      });
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the connection closed before the whole answer arrived')));
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers: flat, raw: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    timer = setTimeout(() => {
      const late = new Error(lateMessage(timeoutMs));
      reject(late);
      req.destroy(late);
    }, timeoutMs);
    req.end(body);
  }).finally(() => clearTimeout(timer));
  return answer.then(async ({ status, headers: answered, raw }) => {
    try {
      return { status, headers: answered, text: (await decode(raw, answered['content-encoding'], maxBytes)).toString('utf8') };
    } catch (err) {
      if (isTooLargeOutput(err)) throw new TooLarge(`its ${answered['content-encoding']} answer decodes to more than ${maxBytes} bytes`);
      throw new Error(`its ${answered['content-encoding']} answer could not be decoded: ${messageOf(err)}`);
    }
  });
}

/** zlib refused to produce more than `maxOutputLength` bytes (`ERR_BUFFER_TOO_LARGE`). */
function isTooLargeOutput(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * The body with its `Content-Encoding` undone (gzip, deflate with or without zlib header, br),
 * never longer than `maxBytes`; other codings as sent.
 * @throws the zlib error (`ERR_BUFFER_TOO_LARGE` past `maxBytes`)
 */
async function decode(body: Buffer, encoding: string | undefined, maxBytes: number): Promise<Buffer> {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (body.byteLength === 0 || coding === '' || coding === 'identity') return body;
  const limit = { maxOutputLength: maxBytes };
  if (coding === 'deflate') {
    return inflateAny(body, limit).catch((err: unknown) => {
      if (isTooLargeOutput(err)) throw err;
      return inflateRawAny(body, limit);
    });
  }
  const decoder = decoders[coding];
  return decoder ? decoder(body, limit) : body;
}

/** Longest redirect target quoted in a message, in chars. */
const LOCATION_CHARS = 300;

/** C0 and C1 controls, DEL, and the bidi and line-separator marks that would hide or reorder a quoted target. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every {@link UNPRINTABLE} char written as a `\uXXXX` escape, so a message shows what the server sent. */
function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A redirect target as a message quotes it: without `user:password@` (never repeat credentials), at most {@link LOCATION_CHARS}, printable. */
function shownTarget(target: URL | null, location: string): string {
  let text = location;
  if (target) {
    const bare = new URL(target.href);
    bare.username = '';
    bare.password = '';
    text = bare.href;
  }
  return printable(text.slice(0, LOCATION_CHARS));
}

/** The URL without its fragment (never sent) and without `user:password@`, for comparing a redirect with its request. */
function withoutHash(u: URL): string {
  const bare = new URL(u.href);
  bare.username = '';
  bare.password = '';
  bare.hash = '';
  return bare.href;
}

/**
 * The error for a 3xx answer: where the provider pointed (its `Location`, resolved against the
 * request URL, shown without credentials or control chars), that it was not followed, and the
 * base URL that would reach it directly; a redirect to the request URL itself says so instead.
 */
function redirectError(url: string, status: number, location: string | undefined, endpoint: string | undefined): AiError {
  if (!location) {
    return new AiError(
      'aiHttpError',
      `The AI provider at ${url} answered HTTP ${status} (a redirect without a Location) instead of answering; Vault MCP does not follow redirects, so check the base URL in ${AI_PROVIDER_SETTINGS}.`,
      status,
    );
  }
  let target: URL | null = null;
  try {
    target = new URL(location, url);
  } catch {
    target = null;
  }
  if (target && withoutHash(target) === withoutHash(new URL(url))) {
    return new AiError(
      'aiHttpError',
      `The AI provider at ${url} answered HTTP ${status}, a redirect to that same URL; Vault MCP does not follow an AI provider's redirects, and this one points back at the URL it came from, so setting the base URL to it again would not help: check the server's settings and logs (a proxy or login page in front of it can answer this way), or the base URL in ${AI_PROVIDER_SETTINGS}.`,
      status,
    );
  }
  const shown = shownTarget(target, location);
  const lead = `The AI provider at ${url} answered HTTP ${status}, a redirect to ${shown}; Vault MCP does not follow an AI provider's redirects, so your notes and API key go only to the base URL you set.`;
  if (!target || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
    return new AiError('aiHttpError', `${lead} Check the base URL in ${AI_PROVIDER_SETTINGS}.`, status);
  }
  const path = target.pathname;
  const base =
    endpoint && path.toLowerCase().endsWith(endpoint.toLowerCase())
      ? `${target.protocol}//${target.host}${path.slice(0, path.length - endpoint.length)}${target.search}`
      : null;
  const use = base ? `set the base URL to ${base}` : `set the base URL to that server`;
  const remote =
    classifyBaseUrl(target.href) === 'remote'
      ? '; it is not on this computer, so it also needs "Allow remote providers" (your notes would be sent to it)'
      : '';
  return new AiError('aiHttpError', `${lead} If that server is the one you mean, ${use} in ${AI_PROVIDER_SETTINGS}${remote}.`, status);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's own explanation of an error, from its error body. */
export interface ProviderErrorDetail {
  /** Human-readable message (possibly a snippet of a non-JSON body); '' when none. */
  message: string;
  /** The offending request parameter when the provider names it (OpenAI `error.param`). */
  param?: string;
  /** Provider error code or type (OpenAI `error.code`, Anthropic `error.type`). */
  code?: string;
}

/** Longest snippet of a non-JSON error body quoted in a message, in chars. */
const SNIPPET_CHARS = 200;

/**
 * Extracts the provider's error explanation from a response body. Understands OpenAI
 * (`{error: {message, param, code, type}}`), Anthropic (`{type: 'error', error: {type, message}}`)
 * and Ollama / LM Studio (`{error: "text"}`); otherwise quotes the start of the body.
 * @param res a provider response
 */
export function providerErrorDetail(res: ProviderResponse): ProviderErrorDetail {
  const body = res.json;
  if (body && typeof body === 'object') {
    const error = (body as Record<string, unknown>).error;
    if (typeof error === 'string') return { message: error };
    if (error && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      return {
        message: typeof e.message === 'string' ? e.message : '',
        param: typeof e.param === 'string' ? e.param : undefined,
        code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined,
      };
    }
    const message = (body as Record<string, unknown>).message;
    if (typeof message === 'string') return { message };
  }
  const text = res.text.trim().replace(/\s+/g, ' ');
  return { message: text.length > SNIPPET_CHARS ? `${clusterPrefix(text, SNIPPET_CHARS)}…` : text };
}

/** What an HTTP error message needs to know about the call. */
export interface HttpErrorContext {
  /** Provider name for messages, e.g. "OpenAI-compatible server". */
  providerLabel: string;
  /** The endpoint that answered. */
  url: string;
  model: string;
  /** Extra advice for a 404 (e.g. "add /v1 to the base URL"), or '' for the default advice. */
  notFoundHint: string;
}

/**
 * Maps a non-2xx provider answer to an `aiHttpError` whose message names the likely fix:
 * 401/403 → API key, 404 → model name or base URL, 429 → rate limit / quota, 5xx → provider
 * server, other 4xx → the provider refused the request.
 * @param res the response (status ≥ 300)
 * @param ctx call context used in the message
 * @returns the error to throw (status set)
 */
export function httpError(res: ProviderResponse, ctx: HttpErrorContext): AiError {
  const { status } = res;
  const detail = providerErrorDetail(res).message;
  const said = detail ? `: ${detail}` : '';
  const where = `${ctx.providerLabel} (HTTP ${status}${said})`;
  let advice: string;
  if (status === 401 || status === 403) {
    advice = `The API key was rejected by the ${where}; check the API key in ${AI_PROVIDER_SETTINGS}.`;
  } else if (status === 404) {
    const hint = ctx.notFoundHint || `check the model name '${ctx.model}' and the base URL in ${AI_PROVIDER_SETTINGS}`;
    advice = `Not found at ${ctx.url} by the ${where}; ${hint}.`;
  } else if (status === 429) {
    const retry = res.headers['retry-after'];
    const wait = retry ? `wait ${retry} s` : 'wait a moment';
    advice = `Rate limit or quota reached at the ${where}; ${wait} and try again, or check your plan's limits.`;
  } else if (status >= 500) {
    advice = `The ${where} failed on its side; try again later or check the server's logs.`;
  } else {
    advice = `The ${where} refused the request; check the model '${ctx.model}' and the base URL in ${AI_PROVIDER_SETTINGS}.`;
  }
  return new AiError('aiHttpError', advice, status);
}

/**
 * Which parameter a 400 answer says the model does not accept, so the caller can retry
 * without it: `temperature` when the error names temperature; `max_tokens` when it names
 * `max_tokens` or says "unsupported parameter" (OpenAI reasoning models: "Unsupported parameter:
 * 'max_tokens' … Use 'max_completion_tokens' instead").
 * @param res the provider's answer
 * @param sent which of the two parameters the request carried
 * @returns the rejected parameter, or null when the answer is something else
 */
export function rejectedParameter(
  res: ProviderResponse,
  sent: { temperature: boolean; maxTokens: boolean },
): 'temperature' | 'max_tokens' | null {
  if (res.status !== 400) return null;
  const d = providerErrorDetail(res);
  const text = `${d.param ?? ''} ${d.code ?? ''} ${d.message}`.toLowerCase();
  if (sent.temperature && /\btemperature\b/.test(text)) return 'temperature';
  if (sent.maxTokens && (/\bmax_tokens\b/.test(text) || /unsupported[ _]parameter/.test(text))) return 'max_tokens';
  return null;
}
