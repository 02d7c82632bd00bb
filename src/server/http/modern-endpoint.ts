import { createMcpHandler, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { McpSessionServer } from '../session/mcp-session';
import type { ToolContext } from '../../tools/tool';
import type { NoteChange } from '../../vault/note-store';
import { skillsFolderOf, touchesSkills } from '../../vault/skills-folder';
import { NoteResources, noteUri, pathOfNoteUri } from '../content/note-resources';
import { NoteSubscriptions } from '../content/note-subscriptions';
import { PromptView, promptDigestOf } from '../content/skill-prompts';
import type { Caller } from './door/caller-auth';

/** Wait before telling listeners the prompts changed, ms: a burst of skill edits sends one notification. */
const PROMPTS_CHANGED_DELAY_MS = 50;

/**
 * Most open `subscriptions/listen` streams, all keys together (the same bound as the session
 * era's sessions, session-table.ts `MAX_SESSIONS`); opening one more ends the oldest stream of the
 * key that holds the most ({@link ModernEndpoint.serve}).
 */
export const MAX_LISTEN_STREAMS = 64;

/** The `_meta` key naming the subscription (the listen request's id) on a listen stream's messages (MCP 2026-07-28). */
const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** One open `subscriptions/listen` stream: the key that opened it, and how to end it gracefully. */
interface ListenStream {
  keyId: string;
  end(): void;
}

/**
 * The id of a `subscriptions/listen` request (string or integer, as JSON-RPC allows), or
 * undefined for any other message.
 */
function listenIdOf(body: unknown): string | number | undefined {
  const message = body as { method?: unknown; id?: unknown } | null;
  if (message?.method !== 'subscriptions/listen') return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

/**
 * The SSE event that ends a listen stream gracefully: the listen request's result, empty but for
 * `_meta` naming the subscription (MCP 2026-07-28 `SubscriptionsListenResult`: "sent only when the
 * server tears the subscription down"; the SDK sends the same at shutdown). A client told so
 * may listen again; an abrupt close carries no result.
 */
function gracefulEndOf(id: string | number): Uint8Array {
  const result = { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id } };
  return new TextEncoder().encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
}

/**
 * The note URIs a `subscriptions/listen` request names in `params.notifications.resourceSubscriptions`,
 * as the client spelled them (`vault-mcp://note/SUB1.md` too: its updates come under that spelling,
 * which is the one the stream hears), each once; [] for any other message.
 */
function listenedNoteUris(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  const uris = message?.method === 'subscriptions/listen' ? message.params?.notifications?.resourceSubscriptions : undefined;
  if (!Array.isArray(uris)) return [];
  const noteUris = uris.filter((uri): uri is string => {
    try {
      return typeof uri === 'string' && pathOfNoteUri(uri) !== null;
    } catch {
      // A broken note URI (a bad percent-escape, no path) names no note to listen to.
      return false;
    }
  });
  return [...new Set(noteUris)];
}

/**
 * The note's own URI for a listened-to URI spelled otherwise (case, `%20` for a space), as
 * resources/read resolves it for `view`; a URI naming no note the key may read keeps its path as
 * spelled (it is told nothing until a readable note is there).
 */
function canonicalNoteUri(uri: string, view: NoteResources | null): string {
  try {
    if (view !== null) return noteUri(view.noteAt(uri).path);
  } catch {
    // Not a note the key may read: matched by its own spelling.
  }
  return noteUri(pathOfNoteUri(uri) ?? '');
}

/** The caller a request runs as, carried to the server factory in the SDK's pass-through `authInfo`. */
function authInfoOf(caller: Caller): AuthInfo {
  return { token: '', clientId: caller.key.id, scopes: [], extra: { caller } };
}

/**
 * Serves protocol revision 2026-07-28 (stateless requests: `server/discover`, the per-request
 * `_meta` envelope, `subscriptions/listen`, input-required results) with the SDK's
 * `createMcpHandler`, which builds one server per request with `build`. Session-era requests
 * never come here (mcp-http-server.ts routes them to sessions with the SDK's `isLegacyRequest`),
 * so the handlers refuse legacy traffic (`legacy: 'reject'`).
 *
 * There is one handler per key, so that its `subscriptions/listen` streams hear only what that
 * key may know: a note's `notifications/resources/updated` goes to the listeners of the keys that
 * could read the note before or may read it after the change, judged by the key's own access (a
 * listen stream carries no client roots) and remembered per key for the URIs its streams name, and
 * `notifications/prompts/list_changed` goes to the listeners of a key only when what that key sees
 * of the prompts changed (SkillPrompts.digest, {@link PromptView}). At most
 * {@link MAX_LISTEN_STREAMS} listen streams are open, all keys together ({@link serve}).
 */
export class ModernEndpoint {
  private readonly handlers = new Map<string, McpHttpHandler>();
  private promptsTimer: ReturnType<typeof setTimeout> | null = null;
  /** Per key id: what the key saw of the prompts when its listeners were last told (or its handler was made). */
  private readonly promptViews = new Map<string, PromptView>();
  /** Per key id: the note URIs its open listen streams name, each judged as the key could read it when last judged. */
  private readonly subscriptions = new Map<string, NoteSubscriptions>();
  /** The open listen streams, oldest first (at most {@link MAX_LISTEN_STREAMS}). */
  private readonly listening = new Set<ListenStream>();

  /**
   * @param build the server that answers one request of `caller`.
   * @param contextOf the context of a key by id (its access without client roots), or null when
   *   the key is gone or left nothing; used to judge which notes its listeners may hear of.
   */
  constructor(
    private readonly build: (caller: Caller) => McpSessionServer,
    private readonly contextOf: (keyId: string) => ToolContext | null,
  ) {}

  /**
   * Answers one 2026-07-28 request of `caller`. The note URIs a `subscriptions/listen` names are
   * held for the key, judged as it may read them now, until its answer (the listen stream) ends.
   * A listen stream past {@link MAX_LISTEN_STREAMS} open ends the oldest stream of the key holding
   * the most (of several such keys, the oldest stream among theirs), with the listen result that
   * ends a stream gracefully: any valid key could otherwise hold a connection and its timers per
   * stream without bound, and closing the oldest of all would let one key end every other client's
   * stream.
   * @param request the web request (headers matter: MCP-Protocol-Version, Mcp-Method, Mcp-Name).
   * @param body its parsed JSON body.
   * @param send writes the answer out; resolves when it is written or the connection closed.
   */
  async serve(caller: Caller, request: Request, body: unknown, send: (response: Response) => Promise<void>): Promise<void> {
    const keyId = caller.key.id;
    const handler = this.handlerOf(keyId);
    const uris = listenedNoteUris(body);
    let held = this.subscriptions.get(keyId);
    if (uris.length) {
      if (!held) this.subscriptions.set(keyId, (held = new NoteSubscriptions()));
      const view = this.viewOf(keyId);
      for (const uri of uris) {
        const canonical = canonicalNoteUri(uri, view);
        held.hold(uri, view !== null && view.canReadPath(pathOfNoteUri(canonical) ?? ''), canonical);
      }
    }
    try {
      const response = await handler.fetch(request, { parsedBody: body, authInfo: authInfoOf(caller) });
      const listenId = listenIdOf(body);
      await send(listenId === undefined ? response : this.counted(keyId, listenId, response));
    } finally {
      for (const uri of uris) held?.release(uri);
      if (held?.empty && this.subscriptions.get(keyId) === held) this.subscriptions.delete(keyId);
    }
  }

  /**
   * The listen stream `response` (an SSE answer; a refusal passes as it is), counted among the
   * open streams until it ends, and ended gracefully ({@link gracefulEndOf}) when it is the one
   * closed past {@link MAX_LISTEN_STREAMS}. The SDK writes each SSE event as one chunk, so the
   * ending event never splits another.
   * @param keyId the key that opened it.
   * @param listenId the listen request's id, which names the subscription.
   * @returns the answer to send: the same status and headers, its body relayed chunk by chunk.
   */
  private counted(keyId: string, listenId: string | number, response: Response): Response {
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
    const upstream = response.body.getReader();
    let out: ReadableStreamDefaultController<Uint8Array> | undefined;
    let ended = false;
    const stream: ListenStream = { keyId, end: () => undefined };
    const finish = (): boolean => {
      if (ended) return false;
      ended = true;
      this.listening.delete(stream);
      return true;
    };
    stream.end = () => {
      if (!finish()) return;
      try {
        out?.enqueue(gracefulEndOf(listenId));
        out?.close();
      } catch {
        // The client is gone already: nothing to tell it.
      }
      // Cancelling the SDK's stream tears its subscription down (listener, keep-alive timer).
      void upstream.cancel().catch(() => undefined);
    };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        out = controller;
      },
      pull: async (controller) => {
        try {
          const { done, value } = await upstream.read();
          if (ended) return;
          if (!done) return controller.enqueue(value);
          finish();
          controller.close();
        } catch (error) {
          if (finish()) controller.error(error);
        }
      },
      cancel: async () => {
        finish();
        await upstream.cancel().catch(() => undefined);
      },
    });
    this.listening.add(stream);
    if (this.listening.size > MAX_LISTEN_STREAMS) this.oldestOfBusiestKey()?.end();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** The oldest open listen stream of the key holding the most (of several such keys, the oldest among theirs). */
  private oldestOfBusiestKey(): ListenStream | undefined {
    const counts = new Map<string, number>();
    for (const { keyId } of this.listening) counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
    const most = Math.max(...counts.values());
    for (const stream of this.listening) if (counts.get(stream.keyId) === most) return stream;
    return undefined;
  }

  /** Number of open `subscriptions/listen` streams, all keys together. */
  get listenStreamCount(): number {
    return this.listening.size;
  }

  /** What the key may read now (its own access and tool set: a listen stream carries no client roots), or null when nothing. */
  private viewOf(keyId: string): NoteResources | null {
    const ctx = this.contextOf(keyId);
    return ctx && NoteResources.of(ctx);
  }

  private handlerOf(keyId: string): McpHttpHandler {
    let handler = this.handlers.get(keyId);
    if (!handler) {
      handler = createMcpHandler(({ authInfo }) => this.build((authInfo?.extra as { caller: Caller }).caller), {
        legacy: 'reject',
        onerror: (error) => console.debug('[vault-mcp] 2026-07-28 request refused or failed', error.message),
      });
      this.handlers.set(keyId, handler);
      this.promptViews.set(keyId, new PromptView(() => promptDigestOf(this.contextOf(keyId))));
    }
    return handler;
  }

  /** Tells every listener that the tool list changed (a tool toggle or the write gate). */
  toolsChanged(): void {
    for (const handler of this.handlers.values()) handler.notify.toolsChanged();
  }

  /** Tells every key's listeners that the prompt list changed (an add-on's prompts, the same for every key). */
  promptsChangedForEveryKey(): void {
    for (const handler of this.handlers.values()) handler.notify.promptsChanged();
  }

  /** Checks, once per burst of skill changes, which keys' prompts changed ({@link checkPrompts}). */
  promptsChanged(): void {
    if (this.promptsTimer) return;
    this.promptsTimer = setTimeout(() => {
      this.promptsTimer = null;
      void this.checkPrompts();
    }, PROMPTS_CHANGED_DELAY_MS);
  }

  /**
   * Tells the listeners of each key whose view of the prompts changed since they were last told
   * (a skill edit, or a setting such as the skills folder); keys that see no difference hear nothing.
   * @returns when every key is checked.
   */
  async checkPrompts(): Promise<void> {
    await Promise.all(
      [...this.handlers].map(async ([keyId, handler]) => {
        if (await this.promptViews.get(keyId)?.changed()) handler.notify.promptsChanged();
      }),
    );
  }

  /**
   * Passes a vault change on to the listeners: `notifications/resources/updated` for the note's
   * URI (and its old one after a rename) to the keys whose listeners name it and that could read
   * the note before or may read it after the change ({@link NoteSubscriptions}: a deleted note, or
   * a renamed one's old path, is judged by what the key could read when it last judged it, so a
   * hidden note's edits, rename and deletion stay silent), and a prompts check when it touches the
   * skills folder.
   */
  noteChanged(change: NoteChange): void {
    this.fileChanged(change);
    for (const [keyId, held] of this.subscriptions) {
      const handler = this.handlers.get(keyId);
      for (const uri of held.changed(change, this.viewOf(keyId))) handler?.notify.resourceUpdated(uri);
    }
  }

  /**
   * A prompts check, once per burst, when a change (of a note, or of another file: prompts/get
   * lists a skill's files) touches some key's skills folder.
   */
  fileChanged(change: NoteChange): void {
    for (const keyId of this.handlers.keys()) {
      const folder = skillsFolderOf(this.contextOf(keyId)?.settings.skills?.folder);
      if ([change.path, change.oldPath].some((path) => path !== undefined && touchesSkills(path, folder))) return this.promptsChanged();
    }
  }

  /**
   * Judges again what each key's listeners were told, after a change of the keys' access rather
   * than of the vault (a label, which agent_overrides name; roots; the access or skills settings):
   * `notifications/resources/updated` for a listened-to note that left or entered the key's view,
   * and the prompts check ({@link checkPrompts}).
   * @returns when every key is checked.
   */
  async recheck(): Promise<void> {
    for (const [keyId, held] of this.subscriptions) {
      const handler = this.handlers.get(keyId);
      for (const uri of held.recheck(this.viewOf(keyId))) handler?.notify.resourceUpdated(uri);
    }
    await this.checkPrompts();
  }

  /**
   * Closes the listen streams and requests in flight of the keys not in `liveKeyIds` (revoked), so
   * that a revoked key hears nothing more; its next request is refused at the door.
   * @returns when their handlers are closed.
   */
  async closeUnlessKey(liveKeyIds: ReadonlySet<string>): Promise<void> {
    const gone = [...this.handlers].filter(([keyId]) => !liveKeyIds.has(keyId));
    for (const [keyId] of gone) {
      this.handlers.delete(keyId);
      this.promptViews.delete(keyId);
      this.subscriptions.delete(keyId);
    }
    await Promise.all(gone.map(([, handler]) => handler.close().catch(() => undefined)));
  }

  /** Closes every listen stream and request in flight. */
  async close(): Promise<void> {
    if (this.promptsTimer) clearTimeout(this.promptsTimer);
    this.promptsTimer = null;
    const handlers = [...this.handlers.values()];
    this.handlers.clear();
    this.promptViews.clear();
    this.subscriptions.clear();
    await Promise.all(handlers.map((handler) => handler.close().catch(() => undefined)));
  }
}
