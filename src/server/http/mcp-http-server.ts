import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { isInitializeRequest, isLegacyRequest, WebStandardStreamableHTTPServerTransport, type ProtocolEra, type RequestId } from '@modelcontextprotocol/server';
import type { KeyRing } from '../../keys/key-ring';
import type { KeyRecord } from '../../settings/key-record';
import type { VaultMcpSettings } from '../../settings/settings';
import { VaultCallerVerifier, type Caller, type CallerVerifier } from './caller-auth';
import { checkHostAndOrigin } from './door';
import { MCP_PATH } from './endpoint';
import { cancelledIdsOf, checkFraming, INVALID_REQUEST, InFlightIds, requestIdsOf } from './json-rpc-framing';
import { BodyTooLargeError, declaredBodyTooLarge, readBody } from './request-body';
import { paramsRefusal } from './request-params';
import { ModernEndpoint } from './modern-endpoint';
import { SessionTable } from './session-table';
import { sendWebResponse, webRequestOf } from './web-exchange';
import { createSessionServer, type SessionServices } from '../session/mcp-session';
import type { SessionAddOn } from '../content/session-add-on';

export { MAX_SESSIONS, SESSION_IDLE_MS } from './session-table';

/**
 * How long stop() lets calls already running finish and answer (ms) before it cuts their
 * connections: long enough for a write under way, short enough that disabling the plugin
 * never hangs. The port is free at once either way.
 */
export const STOP_GRACE_MS = 3000;
/**
 * How long a client may take to send a request's headers, ms: a loopback client sends them at
 * once, so a connection still sending headers after this is a slow-headers attack (slowloris)
 * and is closed with 408 (Node's `headersTimeout`).
 */
export const HEADERS_TIMEOUT_MS = 5000;
/** How long a client may take to send a whole request, body included, ms (Node's `requestTimeout`; 4 MiB on loopback takes milliseconds). */
export const REQUEST_TIMEOUT_MS = 30000;
/** Largest request head accepted, bytes (Node's `maxHeaderSize`); more gets 431. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** At most one `last_used_at` save per key per this many ms. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/** Server state shown in the settings tab: listening, stopped, or the start error. */
export type ServerStatus =
  | { state: 'stopped' }
  | { state: 'listening'; port: number; url: string }
  | { state: 'error'; message: string };

/**
 * Sends a JSON body with a JSON-RPC style error (id null unless given), as the SDK transport
 * does. When the request's body was not read to its end, the answer closes the connection
 * (`Connection: close`), so the rest of the body is never read (a keep-alive answer would
 * make Node drain it all).
 */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: RequestId | null = null,
): void {
  if (res.headersSent) return;
  const close: Record<string, string> = res.req.complete ? {} : { Connection: 'close' };
  res.writeHead(status, { 'Content-Type': 'application/json', ...close, ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

/**
 * Answers a request Node's parser refused before any handler ran (its `clientError` event),
 * with a JSON body that says what to fix like every other refusal: 431 for a head over
 * {@link MAX_HEADER_BYTES}, 408 for one that came too slowly, 400 for anything else; then closes
 * the connection. A socket already written to, or gone, is only destroyed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', `Request headers are larger than ${MAX_HEADER_BYTES} bytes; send fewer or shorter headers.`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive; send it again at once.']
        : [400, 'Bad Request', 'Bad request: this is not a well-formed HTTP/1.1 request.'];
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * The loopback MCP endpoint: a `node:http` server on 127.0.0.1 speaking Streamable HTTP
 * (MCP spec 2025-06-18, "Transports") through the official SDK transport, one SDK
 * `Server` per session. The door checks Host, Origin, the declared body size, bearer key and
 * the master switch, in that order (DESIGN.md "Transport and protocol"), all from the
 * headers; only then is the body read (up to the size limit), then the JSON-RPC
 * framing and, within a session, that no request reuses an id still in flight.
 */
export class McpHttpServer {
  private http: HttpServer | null = null;
  private readonly sessions = new SessionTable();
  private readonly verifier: CallerVerifier;
  private readonly modern: ModernEndpoint;
  private unfollow: (() => void) | null = null;
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private status: ServerStatus = { state: 'stopped' };
  /** Tools, prompts and resources served next to the vault's in sessions opened from now on (see {@link SessionAddOn}); the plugin adds none. */
  readonly addOns: SessionAddOn[] = [];
  /** POSTs of sessions whose answer is not finished yet; stop() waits for them (up to STOP_GRACE_MS). */
  private readonly answering = new Set<ServerResponse>();
  /** Set while stop() drains: new requests are refused with 503. */
  private stopping = false;
  /** The stop under way, if any (see {@link stop}). */
  private stopped: Promise<void> | null = null;

  /**
   * @param keys the key ring used to authenticate bearer tokens.
   * @param getSettings returns current settings (port, master switch, body limit).
   * @param services tools and per-call context for sessions.
   */
  constructor(
    private readonly keys: KeyRing,
    private readonly getSettings: () => VaultMcpSettings,
    private readonly services: SessionServices,
  ) {
    this.verifier = new VaultCallerVerifier(keys, services.peers);
    this.modern = new ModernEndpoint(
      ({ key, origin }) => createSessionServer(services, () => this.keyById(key.id) ?? key, origin, this.attachedAddOns(), 'modern'),
      (keyId) => {
        const key = this.keyById(keyId);
        if (!key) return null;
        const access = services.accessFor(key, { status: 'unsupported' });
        return access.blocked ? null : services.contextFor(key, access, { list: () => services.peers.list(), roots: access.report });
      },
    );
  }

  /** The add-ons, each told which server serves it (see {@link SessionAddOn.attach}). */
  private attachedAddOns(): readonly SessionAddOn[] {
    for (const addOn of this.addOns) addOn.attach?.(this);
    return this.addOns;
  }

  /** The key with this id now, or undefined once it is revoked. */
  private keyById(id: string): KeyRecord | undefined {
    return this.keys.list().find((k) => k.id === id);
  }

  /** Current status, for the settings tab and the CLI handlers. */
  getStatus(): ServerStatus {
    return this.status;
  }

  /** Number of open MCP sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Starts listening on 127.0.0.1 at the configured port (0 = any free port), with the
   * slow-client and header-size limits above.
   * @returns the bound port.
   * @throws Error naming the port when it is taken (EADDRINUSE) or cannot be bound.
   */
  async start(): Promise<number> {
    if (this.http || this.stopped) await this.stop();
    this.stopping = false;
    const port = this.getSettings().server.port;
    const limits = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, maxHeaderSize: MAX_HEADER_BYTES, connectionsCheckingInterval: 1000 };
    const http = createServer(limits, (req, res) => {
      this.handle(req, res).catch((error) => {
        console.error('[vault-mcp] request failed', error);
        refuse(res, 500, -32603, 'Internal server error; the details are in the Obsidian developer console.');
      });
    });
    http.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
    try {
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, '127.0.0.1', () => {
          http.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const message =
        code === 'EADDRINUSE'
          ? `Port ${port} is already in use; pick another port in Vault MCP settings.`
          : `Could not listen on 127.0.0.1:${port}: ${(error as Error).message}`;
      this.status = { state: 'error', message };
      throw new Error(message);
    }
    this.http = http;
    const bound = (http.address() as { port: number }).port;
    this.sweepTimer = setInterval(() => this.sessions.closeIdle(Date.now()), 60 * 1000);
    this.sweepTimer.unref?.();
    this.unfollow = this.services.notes.onNoteChange((change) => this.modern.noteChanged(change));
    await this.services.peers.announce(bound);
    this.status = { state: 'listening', port: bound, url: `http://127.0.0.1:${bound}${MCP_PATH}` };
    return bound;
  }

  /**
   * Stops listening at once (the port is free as soon as this is called, before the promise
   * resolves), refuses new requests with 503, lets calls already running answer for up to
   * {@link STOP_GRACE_MS}, then closes every session and connection.
   * A second call while a stop runs returns that same stop, so every caller waits for it.
   * @returns resolves when everything is closed.
   */
  stop(): Promise<void> {
    this.stopped ??= this.stopNow().finally(() => {
      this.stopped = null;
    });
    return this.stopped;
  }

  /** The work of {@link stop}. */
  private async stopNow(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.unfollow?.();
    this.unfollow = null;
    const http = this.http;
    this.http = null;
    let closed: Promise<void> = Promise.resolve();
    if (http) {
      this.stopping = true;
      closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
    }
    // The port is free from here on; leave the registry and let running calls answer meanwhile.
    await Promise.all([this.services.peers.withdraw(), http ? this.answered(STOP_GRACE_MS) : undefined]);
    await this.sessions.closeAll();
    await this.modern.close();
    http?.closeAllConnections();
    await closed;
    this.status = { state: 'stopped' };
  }

  /** Resolves when no POST is being answered, or after `limitMs`. */
  private async answered(limitMs: number): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (this.answering.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** Counts `res` among the answers stop() waits for, until it is finished or its connection closes. */
  private track(res: ServerResponse): void {
    this.answering.add(res);
    res.once('close', () => this.answering.delete(res));
  }

  /** Sends `notifications/tools/list_changed` to every open session (tool toggles changed). */
  async notifyToolListChanged(): Promise<void> {
    this.modern.toolsChanged();
    await this.sessions.broadcast((server) => server.sendToolListChanged());
  }

  /** Sends `notifications/prompts/list_changed` to every open session (the skills folder setting changed). */
  async notifyPromptListChanged(): Promise<void> {
    this.modern.promptsChanged();
    await this.sessions.broadcast((server) => server.sendPromptListChanged());
  }

  /** Closes the sessions of keys that no longer exist (after a revoke). */
  async closeSessionsOfRevokedKeys(): Promise<void> {
    await this.sessions.closeUnlessKey(new Set(this.keys.list().map((k) => k.id)));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== MCP_PATH) {
      return refuse(res, 404, -32000, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    }
    if (this.stopping) {
      return refuse(res, 503, -32000, 'Vault MCP is stopping (the plugin was disabled or its port changed); reconnect once it is enabled again.', { Connection: 'close' });
    }
    const doorRefusal = checkHostAndOrigin(req);
    if (doorRefusal) return refuse(res, doorRefusal.status, doorRefusal.code, doorRefusal.message);
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
      return refuse(res, 405, -32000, 'Method not allowed: use POST, GET or DELETE on /mcp.', { Allow: 'GET, POST, DELETE' });
    }
    const settings = this.getSettings();
    if (req.method === 'POST') {
      const declaredTooLarge = declaredBodyTooLarge(req, settings.server.maxBodyBytes);
      if (declaredTooLarge) return refuse(res, 413, -32000, declaredTooLarge.message);
    }
    const authenticated = await this.authenticate(req, res);
    if (!authenticated) return;
    const { key } = authenticated;
    if (!settings.server.enabled) {
      return refuse(res, 403, -32000, 'Vault MCP is switched off in Obsidian; turn on "Enable server" in its settings.');
    }
    let rawBody = '';
    if (req.method === 'POST') {
      try {
        rawBody = await readBody(req, settings.server.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return refuse(res, 413, -32000, error.message);
        throw error;
      }
    }
    let body: unknown = undefined;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        return refuse(res, 400, -32700, 'Parse error: the request body is not valid JSON.');
      }
      const framing = checkFraming(body);
      if (framing) return refuse(res, 400, INVALID_REQUEST, framing.message, {}, framing.id);
    }
    this.touch(key);
    if (req.method === 'POST' && !(await isLegacyRequest(webRequestOf(req, res, url), body))) {
      // A 2026-07-28 request (it carries the per-request _meta envelope): no session.
      if (this.refuseParams(res, body, 'modern')) return;
      this.track(res);
      await sendWebResponse(await this.modern.serve(authenticated, webRequestOf(req, res, url), body), res);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.use(sessionId, Date.now());
      if (!session) {
        return refuse(res, 404, -32001, 'Session not found: it expired or the plugin restarted; send initialize again.');
      }
      if (session.keyId !== key.id) {
        return refuse(res, 403, -32000, 'This session was opened with another key; initialize a new session.');
      }
      const negotiated = session.server.getNegotiatedProtocolVersion();
      const named = req.headers['mcp-protocol-version'];
      if (negotiated !== undefined && typeof named === 'string' && named !== negotiated) {
        return refuse(res, 400, -32000, `Bad request: this session negotiated protocol ${negotiated}; send MCP-Protocol-Version: ${negotiated} (or initialize a new session for another revision).`);
      }
      const ids = requestIdsOf(body);
      const stop = new AbortController();
      const taken = session.inFlight.claim(ids, () => stop.abort());
      if (taken !== undefined) {
        const message = `Invalid Request: request id ${JSON.stringify(taken)} is still in flight in this session; give each request its own id.`;
        return refuse(res, 400, INVALID_REQUEST, message, {}, Array.isArray(body) ? null : taken);
      }
      res.once('close', () => session.inFlight.release(ids));
      for (const id of cancelledIdsOf(body)) session.inFlight.cancel(id);
      this.track(res);
      if (this.refuseParams(res, body)) return;
      await sendWebResponse(await session.transport.handleRequest(webRequestOf(req, res, url), { parsedBody: body }), res, stop.signal);
      return;
    }
    if (req.method !== 'POST' || !containsInitialize(body)) {
      return refuse(res, 400, -32000, 'Bad request: no Mcp-Session-Id header; send initialize first to open a session.');
    }
    if (this.refuseParams(res, body)) return;
    await this.openSession(authenticated, req, res, url, body);
  }

  /**
   * Answers a POST whose request has params its method's schema refuses (-32602 in a JSON-RPC
   * error response, HTTP 200 as for any answer; a batch holding one is refused whole, HTTP 400).
   * @returns true when the request was answered here.
   */
  private refuseParams(res: ServerResponse, body: unknown, era: ProtocolEra = 'legacy'): boolean {
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      const refusal = paramsRefusal(message, era);
      if (!refusal) continue;
      if (Array.isArray(body)) refuse(res, 400, refusal.error.code, refusal.error.message, {}, refusal.id);
      else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(refusal));
      }
      return true;
    }
    return false;
  }

  /** Runs the verifier; answers its refusal and returns null, or sets its headers and returns the caller. */
  private async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Caller | null> {
    const verdict = await this.verifier.verify(req);
    if (!verdict.ok) {
      refuse(res, verdict.status, verdict.code, verdict.message, verdict.headers);
      return null;
    }
    for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
    return verdict.caller;
  }

  /** Records the key's use, at most once per TOUCH_INTERVAL_MS (judged by its saved `last_used_at`). */
  private touch(key: KeyRecord): void {
    const last = key.last_used_at === null ? 0 : Date.parse(key.last_used_at);
    if (Date.now() - last < TOUCH_INTERVAL_MS) return;
    this.keys.touch(key.id).catch((error) => console.error('[vault-mcp] could not save key use', error));
  }

  private async openSession({ key, origin }: Caller, req: IncomingMessage, res: ServerResponse, url: URL, body: unknown): Promise<void> {
    const keyId = key.id;
    const server = createSessionServer(this.services, () => this.keys.list().find((k) => k.id === keyId) ?? key, origin, this.attachedAddOns());
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => this.sessions.add(id, { transport, server, keyId, lastSeen: Date.now(), inFlight: new InFlightIds() }),
      onsessionclosed: (id) => this.sessions.forget(id),
    });
    await server.connect(transport);
    this.track(res);
    await sendWebResponse(await transport.handleRequest(webRequestOf(req, res, url), { parsedBody: body }), res);
  }
}

/** True when a JSON-RPC message or batch contains an `initialize` request. */
function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}
