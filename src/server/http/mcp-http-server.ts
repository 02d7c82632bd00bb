import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  isInitializeRequest,
  isLegacyRequest,
  preloadSchemas,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import type { KeyRing } from '../../keys/key-ring';
import type { KeyRecord } from '../../settings/key-record';
import type { VaultMcpSettings } from '../../settings/settings';
import { VaultCallerVerifier, type Caller, type CallerVerifier } from './door/caller-auth';
import { MCP_PATH } from './endpoint';
import { cancelledIdsOf, INVALID_REQUEST, InFlightIds, readableId, requestIdsOf } from './door/json-rpc-framing';
import { LoopbackListener } from './listener';
import { ModernEndpoint } from './modern-endpoint';
import { refuse, type Refusal } from './door/refusal';
import { checkBeforeAuth, checkSessionRequest, negotiatedVersionOf, readJsonRpcBody, unknownRevisionRefusal } from './door/request-checks';
import { discardRestOfBody } from './door/request-body';
import { paramsRefusal, protoArgumentRefusal } from './request-params';
import { MAX_SESSIONS, SESSION_IDLE_MS, SessionTable, type Session, type SessionCloseReason } from './session-table';
import { sendWebResponse, webRequestOf } from './web-exchange';
import { recheckSession } from '../content/session-content';
import { createSessionServer, type SessionServices } from '../session/mcp-session';
import { describeTool } from '../session/tool-dispatch';
import type { AddOnHost, SessionAddOn } from '../content/session-add-on';

export { MAX_SESSIONS, SESSION_IDLE_MS } from './session-table';
export { MAX_LISTEN_STREAMS } from './modern-endpoint';
export { HEADERS_TIMEOUT_MS, MAX_HEADER_BYTES, REQUEST_TIMEOUT_MS } from './listener';

/**
 * How long stop() lets calls already running finish and answer (ms) before it cuts their
 * connections: long enough for a write under way, short enough that disabling the plugin
 * never hangs. The port is free at once either way.
 */
export const STOP_GRACE_MS = 3000;
/** At most one `last_used_at` save per key per this many ms. */
const TOUCH_INTERVAL_MS = 60 * 1000;

/**
 * The rest of a too-large body from a caller with a valid key is discarded up to this many bytes, so
 * its client has sent it all and reads the 413 (discardRestOfBody); past it, the answer closes the connection.
 */
const REFUSED_BODY_DISCARD_BYTES = 64 * 1024 * 1024;
/** …and for at most this long (ms), for a client that sends slowly or stops sending. */
const REFUSED_BODY_DISCARD_MS = 2000;

/** Server state shown in the settings tab: listening, stopped, or the start error. */
export type ServerStatus = { state: 'stopped' } | { state: 'listening'; port: number; url: string } | { state: 'error'; message: string };

/**
 * The loopback MCP endpoint: Streamable HTTP on 127.0.0.1 ({@link LoopbackListener}) serving
 * both protocol eras through the official SDK: a 2026-07-28 request (it carries the per-request
 * `_meta` envelope) statelessly ({@link ModernEndpoint}), anything else in a session of the
 * session era, one SDK `Server` per session ({@link SessionTable}). The door checks Host, Origin,
 * the declared body size (request-checks.ts), the bearer key ({@link CallerVerifier}) and the
 * master switch, in that order (docs/architecture.md#request-path), all from the headers; only
 * then is the body read (up to the size limit), then the JSON-RPC framing and params and, within
 * a session, its key, its protocol revision and that no request reuses an id still in flight.
 */
export class McpHttpServer {
  private readonly listener = new LoopbackListener((req, res) => this.handle(req, res));
  private readonly sessions = new SessionTable();
  private readonly verifier: CallerVerifier;
  private readonly modern: ModernEndpoint;
  private unfollow: (() => void) | null = null;
  /** What every key may see depends on, as last checked ({@link accessOf}); see {@link accessChanged}. */
  private access = '';
  private sweepTimer: ReturnType<typeof setInterval> | null = null;
  private status: ServerStatus = { state: 'stopped' };
  /** Tools, prompts and resources served next to the vault's in sessions opened from now on (see {@link SessionAddOn}); the plugin adds none. */
  readonly addOns: SessionAddOn[] = [];
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

  /**
   * The add-ons, each told which server serves it (see {@link SessionAddOn.attach}). An add-on's
   * prompts are the same for every key, so its notice that they changed goes to every session and
   * listener ({@link AddOnHost}), unlike the skills, which each key hears of only when what it sees
   * of them changed ({@link notifyPromptListChanged}).
   */
  private attachedAddOns(): readonly SessionAddOn[] {
    const host: AddOnHost = {
      notifyToolListChanged: () => this.notifyToolListChanged(),
      notifyPromptListChanged: async () => {
        this.modern.promptsChangedForEveryKey();
        await this.sessions.broadcast((server) => server.sendPromptListChanged());
      },
    };
    for (const addOn of this.addOns) addOn.attach?.(host);
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

  /** Number of open 2026-07-28 `subscriptions/listen` streams, all keys together (at most `MAX_LISTEN_STREAMS`). */
  get listenStreamCount(): number {
    return this.modern.listenStreamCount;
  }

  /**
   * Starts listening on 127.0.0.1 at the configured port (0 = any free port), with the
   * slow-client and header-size limits above. What the first client would otherwise wait for is
   * built first, once per process: the SDK's wire schemas (its `preloadSchemas`; 25-30 ms of CPU
   * inside the first `initialize` otherwise) and the enabled tools' tools/list entries
   * (`describeTool`, a JSON Schema per tool: 9-38 ms for 23 tools inside the first tools/list).
   * @returns the bound port.
   * @throws Error naming the port when it is taken (EADDRINUSE) or cannot be bound.
   */
  async start(): Promise<number> {
    if (this.listener.listening || this.stopped) await this.stop();
    this.stopping = false;
    preloadSchemas();
    for (const tool of this.services.enabledTools()) describeTool(tool);
    let bound: number;
    try {
      bound = await this.listener.listen(this.getSettings().server.port);
    } catch (error) {
      this.status = { state: 'error', message: (error as Error).message };
      throw error;
    }
    this.sweepTimer = setInterval(() => this.sessions.closeIdle(Date.now()), 60 * 1000);
    this.sweepTimer.unref?.();
    const unfollowNotes = this.services.notes.onNoteChange((change) => this.modern.noteChanged(change));
    const unfollowFiles = this.services.notes.onOtherFileChange((change) => this.modern.fileChanged(change));
    this.unfollow = () => {
      unfollowNotes();
      unfollowFiles();
    };
    this.access = this.accessOf();
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
    this.stopping = this.listener.listening;
    const { drained, closed } = this.listener.close(STOP_GRACE_MS);
    // The port is free from here on; leave the registry and let running calls answer meanwhile.
    await Promise.all([this.services.peers.withdraw(), drained]);
    await this.sessions.closeAll();
    await this.modern.close();
    await closed();
    this.status = { state: 'stopped' };
  }

  /** Sends `notifications/tools/list_changed` to every open session (tool toggles changed). */
  async notifyToolListChanged(): Promise<void> {
    this.modern.toolsChanged();
    await this.sessions.broadcast((server) => server.sendToolListChanged());
  }

  /**
   * Judges again what every open session and listener was told: `notifications/prompts/list_changed`
   * to those whose key now sees other prompts than it was last told of (the skills folder setting
   * changed), the others hearing nothing, as for a skill edit (docs/resources-and-prompts.md); and
   * `notifications/resources/updated` for a subscribed note that left or entered a key's view.
   * @returns when every session and key is checked.
   */
  async notifyPromptListChanged(): Promise<void> {
    this.access = this.accessOf();
    await Promise.all([this.modern.recheck(), this.sessions.broadcast(recheckSession)]);
  }

  /**
   * Call after the settings were saved or reloaded: when what a key may see can have changed
   * without a note changing (a key's label, which `agent_overrides` name, roots or tool set; the quarantine,
   * trusted-link, skills or widgets folder settings), every session and 2026-07-28 listener is
   * judged again as {@link notifyPromptListChanged} does: a subscribed note that left or entered a
   * key's view gets `notifications/resources/updated`, and `notifications/prompts/list_changed` goes
   * where what a key sees of the prompts changed. Other saves (a key's last use) change nothing.
   * @returns when every session and key is checked.
   */
  async accessChanged(): Promise<void> {
    if (this.accessOf() !== this.access) await this.notifyPromptListChanged();
  }

  /**
   * What the keys' access depends on in the settings, as one text: each key's id, label, roots and
   * tool set (which serves notes and prompts, tool-set-routes.ts), and the access, skills and widgets settings.
   */
  private accessOf(): string {
    const { access, skills, widgets } = this.getSettings();
    const keys = this.keys.list().map((k) => [k.id, k.label, k.roots, k.tools]);
    return JSON.stringify([keys, access, skills?.folder, widgets?.folder]);
  }

  /** Closes the sessions and 2026-07-28 listen streams of keys that no longer exist (after a revoke). */
  async closeSessionsOfRevokedKeys(): Promise<void> {
    const live = new Set(this.keys.list().map((k) => k.id));
    await Promise.all([this.sessions.closeUnlessKey(live), this.modern.closeUnlessKey(live)]);
  }

  /**
   * Serves one HTTP request: the door ({@link admit}), then where {@link route} sends it — the
   * 2026-07-28 endpoint, an open session, a new session — or the refusal it names.
   */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const admitted = await this.admit(req, url);
    if (!admitted.ok) {
      if (admitted.discardBody) await discardRestOfBody(req, REFUSED_BODY_DISCARD_BYTES, REFUSED_BODY_DISCARD_MS);
      return refuse(res, admitted.refusal);
    }
    for (const [name, value] of Object.entries(admitted.headers)) res.setHeader(name, value);
    const { caller, body } = admitted;
    this.touch(caller.key);
    // One web-standard Request per HTTP request: routing looks at its headers, and the SDK entry that serves it takes the same one.
    let request: Request | undefined;
    const web = (): Request => (request ??= webRequestOf(req, res, url));
    const route = await this.route(req, web, caller, body);
    switch (route.to) {
      case 'refused':
        return refuse(res, route.refusal);
      case 'modern':
        return this.serveModern(caller, res, web, body);
      case 'session':
        return this.serveInSession(route.session, res, web, body);
      case 'open':
        return this.openSession(caller, res, web, body);
    }
  }

  /**
   * The door, in docs/architecture.md#request-path's order: path, stopping, Host, Origin and declared size
   * (request-checks.ts), the bearer credentials ({@link CallerVerifier}), the master switch, then
   * the body read within its size limit. A refusal after authentication keeps the verifier's
   * headers (a forwarded call's receipt).
   * @returns the caller, the headers its answer carries and the parsed body (undefined for GET
   *   and DELETE), or the refusal to send.
   */
  private async admit(req: IncomingMessage, url: URL): Promise<Admission> {
    const settings = this.getSettings();
    const early = checkBeforeAuth(req, url, this.stopping, settings.server.maxBodyBytes);
    // A body too large: read to its end (bounded) only for a caller with a valid key, so that its client reads the 413's
    // advice; anyone else's is never read (an unauthenticated body is cut off: docs/security.md).
    if (early)
      return early.status === 413 && (await this.verifier.verify(req)).ok
        ? { ok: false, refusal: early, discardBody: true }
        : { ok: false, refusal: early };
    const verdict = await this.verifier.verify(req);
    if (!verdict.ok) return { ok: false, refusal: verdict };
    if (!settings.server.enabled) return { ok: false, refusal: { ...SWITCHED_OFF, headers: verdict.headers } };
    const read = await readJsonRpcBody(req, settings.server.maxBodyBytes);
    if ('refusal' in read) {
      const refusal = { ...read.refusal, headers: { ...verdict.headers, ...read.refusal.headers } };
      return refusal.status === 413 ? { ok: false, refusal, discardBody: true } : { ok: false, refusal };
    }
    return { ok: true, caller: verdict.caller, headers: verdict.headers, body: read.body };
  }

  /**
   * Where an admitted request goes (MCP 2026-07-28 "Transports": the era is decided per request):
   * a POST without the legacy markers to the stateless endpoint; one naming a session to that
   * session, when it exists (else 404, so the client initializes again) and this key and revision
   * may use it; an `initialize` to a new session; anything else is refused.
   */
  private async route(req: IncomingMessage, web: () => Request, caller: Caller, body: unknown): Promise<Route> {
    const sessionId = req.headers['mcp-session-id'];
    const named = req.headers['mcp-protocol-version'];
    // A revision this server does not speak, named without a session: said so, not that a `_meta` envelope is missing (nor, for
    // an initialize, that a "modern" header came with a legacy handshake).
    const unknown =
      req.method === 'POST' && typeof sessionId !== 'string' && typeof named === 'string'
        ? unknownRevisionRefusal(named, readableId(body))
        : null;
    if (unknown) return { to: 'refused', refusal: unknown };
    if (req.method === 'POST' && !namesUnknownRevisionInSession(req) && !(await isLegacyRequest(web(), body))) return { to: 'modern' };
    if (typeof sessionId === 'string') {
      const session = this.sessions.use(sessionId, Date.now());
      if (!session) return { to: 'refused', refusal: sessionGone(this.sessions.closedReason(sessionId, caller.key.id)) };
      const refusal = checkSessionRequest(session, caller.key.id, req);
      return refusal ? { to: 'refused', refusal } : { to: 'session', session };
    }
    if (req.method === 'POST' && namesInitialize(body) && !containsInitialize(body))
      return { to: 'refused', refusal: { ...MALFORMED_INITIALIZE, id: readableId(body) } };
    // A batch naming a revision without batches (2026-07-28 needs no session either): told of the batch, not of a session.
    if (req.method === 'POST' && Array.isArray(body) && typeof named === 'string' && REVISION.test(named) && !allowsBatches(named))
      return { to: 'refused', refusal: batchRefusal(`MCP-Protocol-Version names MCP ${named}`) };
    if (req.method !== 'POST' || !containsInitialize(body)) return { to: 'refused', refusal: NO_SESSION };
    return { to: 'open' };
  }

  /** Serves a 2026-07-28 request statelessly (it carries the per-request _meta envelope), after its params check. */
  private async serveModern(caller: Caller, res: ServerResponse, web: () => Request, body: unknown): Promise<void> {
    if (this.refuseParams(res, body, 'modern')) return;
    this.listener.track(res);
    await this.modern.serve(caller, web(), body, (response) => sendWebResponse(response, res));
  }

  /**
   * Passes a request to its session's SDK transport, after claiming its ids (a request reusing an
   * id still in flight is refused) and closing the streams of requests it cancels. A batch is
   * refused (400, -32600) in a session whose revision has none ({@link allowsBatches}).
   */
  private async serveInSession(session: Session, res: ServerResponse, web: () => Request, body: unknown): Promise<void> {
    if (Array.isArray(body) && !allowsBatches(session.protocolVersion))
      return refuseBatch(res, `this session negotiated MCP ${session.protocolVersion}`);
    const ids = requestIdsOf(body);
    const stop = new AbortController();
    const taken = session.inFlight.claim(ids, () => stop.abort());
    if (taken !== undefined) {
      const message = `Invalid Request: request id ${JSON.stringify(taken)} is still in flight in this session; give each request its own id.`;
      return refuse(res, { status: 400, code: INVALID_REQUEST, message, id: Array.isArray(body) ? null : taken });
    }
    res.once('close', () => session.inFlight.release(ids));
    for (const id of cancelledIdsOf(body)) session.inFlight.cancel(id);
    this.listener.track(res);
    if (this.refuseParams(res, body)) return;
    await sendWebResponse(await session.transport.handleRequest(web(), { parsedBody: body }), res, stop.signal);
  }

  /**
   * Answers a POST whose request has params its method's schema refuses (-32602 in a JSON-RPC
   * error response, HTTP 200 as for any answer; a batch holding one is refused whole, HTTP 400),
   * or a tools/call whose arguments hold a top-level `__proto__` key, which the SDK would drop
   * unsaid (the tool error result of an unknown argument, HTTP 200; in a batch, 400).
   * @returns true when the request was answered here.
   */
  private refuseParams(res: ServerResponse, body: unknown, era: ProtocolEra = 'legacy'): boolean {
    const messages = Array.isArray(body) ? body : [body];
    for (const message of messages) {
      const refusal = paramsRefusal(message, era);
      const proto = refusal ? null : protoArgumentRefusal(message);
      if (!refusal && !proto) continue;
      if (Array.isArray(body)) {
        if (refusal) refuse(res, { status: 400, code: refusal.error.code, message: refusal.error.message, id: refusal.id });
        else if (proto) refuse(res, { status: 400, code: ProtocolErrorCode.InvalidParams, message: proto.message, id: proto.id });
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(refusal ?? { jsonrpc: '2.0', id: proto?.id, result: proto?.result }));
      }
      return true;
    }
    return false;
  }

  /** Records the key's use, at most once per TOUCH_INTERVAL_MS (judged by its saved `last_used_at`). */
  private touch(key: KeyRecord): void {
    const last = key.last_used_at === null ? 0 : Date.parse(key.last_used_at);
    if (Date.now() - last < TOUCH_INTERVAL_MS) return;
    this.keys.touch(key.id).catch((error) => console.error('[vault-mcp] could not save key use', error));
  }

  /**
   * Opens a session for an `initialize` (after its params check) and answers it through the
   * session's SDK transport; an `initialize` in a batch is refused when the revision it opens
   * has no batches ({@link allowsBatches}).
   */
  private async openSession({ key, origin }: Caller, res: ServerResponse, web: () => Request, body: unknown): Promise<void> {
    const version = negotiatedVersionOf(body);
    if (Array.isArray(body) && !allowsBatches(version)) return refuseBatch(res, `this initialize opens a session at MCP ${version}`);
    if (this.refuseParams(res, body)) return;
    const keyId = key.id;
    const server = createSessionServer(
      this.services,
      () => this.keys.list().find((k) => k.id === keyId) ?? key,
      origin,
      this.attachedAddOns(),
    );
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) =>
        this.sessions.add(id, {
          transport,
          server,
          keyId,
          protocolVersion: version,
          lastSeen: Date.now(),
          inFlight: new InFlightIds(),
        }),
      onsessionclosed: (id) => this.sessions.forget(id),
    });
    await server.connect(transport);
    this.listener.track(res);
    await sendWebResponse(await transport.handleRequest(web(), { parsedBody: body }), res);
  }
}

/** The door's verdict on a request (see McpHttpServer.admit). */
/**
 * What the door decided: the caller and its request, or the refusal, with `discardBody` when the
 * refused request's body is to be read to its end first (too large, from a caller with a valid key).
 */
type Admission =
  { ok: true; caller: Caller; headers: Record<string, string>; body: unknown } | { ok: false; refusal: Refusal; discardBody?: true };

/** Where an admitted request is served (see McpHttpServer.route). */
type Route = { to: 'modern' } | { to: 'session'; session: Session } | { to: 'open' } | { to: 'refused'; refusal: Refusal };

/** The master switch is off (docs/architecture.md#error-model: 403). */
const SWITCHED_OFF: Refusal = {
  status: 403,
  code: -32000,
  message: 'Vault MCP is switched off in Obsidian; turn on "Enable server" in its settings.',
};

/** A session id the table does not hold: 404, so the client initializes again (MCP spec "Session Management"). */
const SESSION_NOT_FOUND: Refusal = {
  status: 404,
  code: -32001,
  message: 'Session not found: it expired or the plugin restarted; send initialize again.',
};

/**
 * The 404 for a session id the table does not hold, saying why when the table closed it itself
 * ({@link SessionTable.closedReason}): a client whose session was closed to make room learns that
 * its key holds too many, not that the plugin restarted.
 */
function sessionGone(reason: SessionCloseReason | undefined): Refusal {
  if (reason === 'room') {
    return {
      ...SESSION_NOT_FOUND,
      message: `Session closed: this key held more than ${MAX_SESSIONS} open sessions, and its least recently used one (this) made room for a newer one; send initialize again, and close sessions you are done with (HTTP DELETE).`,
    };
  }
  if (reason === 'idle') {
    return { ...SESSION_NOT_FOUND, message: `Session closed after ${SESSION_IDLE_MS / 60_000} minutes unused; send initialize again.` };
  }
  return SESSION_NOT_FOUND;
}

/**
 * True when a request naming a session (`Mcp-Session-Id`) names in `MCP-Protocol-Version` a
 * revision the SDK does not know (`garbage`, `v2`): it goes to its session, whose check names the
 * revision to send (checkSessionRequest), where the stateless path answered that a `_meta`
 * envelope was missing.
 */
function namesUnknownRevisionInSession(req: IncomingMessage): boolean {
  const named = req.headers['mcp-protocol-version'];
  return typeof req.headers['mcp-session-id'] === 'string' && typeof named === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(named);
}

/** A session-era request without a session that is no initialize. */
const NO_SESSION: Refusal = {
  status: 400,
  code: -32000,
  message: 'Bad request: no Mcp-Session-Id header; send initialize first to open a session.',
};

/**
 * An `initialize` without a session that is no valid initialize request: no params, or params
 * missing `protocolVersion`, `capabilities` or `clientInfo`.
 * Told so (-32602, MCP lifecycle "Initialization"), rather than that a session is missing.
 */
const MALFORMED_INITIALIZE: Refusal = {
  status: 400,
  code: -32602,
  message: 'Invalid params: initialize needs params {protocolVersion, capabilities, clientInfo}.',
};

/**
 * True when protocol revision `version` lets a client send JSON-RPC batches: 2025-03-26 and
 * before. MCP 2025-06-18 removed batching ("Remove support for JSON-RPC batching", its
 * changelog; Streamable HTTP: a POST body is a single message), and later revisions keep it out.
 * Revisions are dates, so they compare as text.
 */
export function allowsBatches(version: string): boolean {
  return version < FIRST_REVISION_WITHOUT_BATCHES;
}

/**
 * The refusal of a JSON-RPC batch sent where the protocol revision has none (400, -32600, id null).
 * @param where what fixed the revision, e.g. "this session negotiated MCP 2025-06-18".
 */
function batchRefusal(where: string): Refusal {
  const message = `Invalid Request: ${where}, and JSON-RPC batches were removed in 2025-06-18; send one JSON-RPC message per request (POST each message on its own).`;
  return { status: 400, code: INVALID_REQUEST, message, id: null };
}

/** Answers {@link batchRefusal}. */
function refuseBatch(res: ServerResponse, where: string): void {
  refuse(res, batchRefusal(where));
}

/** How an MCP revision is spelt: its date (MCP "Versioning"). */
const REVISION = /^\d{4}-\d{2}-\d{2}$/;

/** The MCP revision that removed JSON-RPC batching. */
const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';

/** True when a JSON-RPC message or batch contains an `initialize` request. */
function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** True when a JSON-RPC message or batch has a message whose method is `initialize`, well-formed or not. */
function namesInitialize(body: unknown): boolean {
  const named = (m: unknown): boolean => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';
  return Array.isArray(body) ? body.some(named) : named(body);
}
