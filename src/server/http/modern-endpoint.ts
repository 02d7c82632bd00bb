import { createMcpHandler, type AuthInfo, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { McpSessionServer } from '../session/mcp-session';
import type { ToolContext } from '../../tools/tool';
import type { NoteChange } from '../../vault/note-store';
import { skillsFolderOf, touchesSkills } from '../../vault/skills';
import { NoteResources, noteUri } from '../content/note-resources';
import { PromptView, promptDigestOf } from '../content/skill-prompts';
import type { Caller } from './door/caller-auth';

/** Wait before telling listeners the prompts changed, ms: a burst of skill edits sends one notification. */
const PROMPTS_CHANGED_DELAY_MS = 50;

/** True when the note now at `path` is no `access: private` (or no-access override) for the key: its frontmatter alone. */
function ownRulesAdmit(ctx: ToolContext, path: string): boolean {
  const file = ctx.notes.fileByPath(path);
  return file !== null && ctx.notes.policy.accessOf(file, ctx.scope) !== 'private';
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
 * may read the note, judged by the key's own access (a listen stream carries no client roots), and
 * `notifications/prompts/list_changed` goes to the listeners of a key only when what that key sees
 * of the prompts changed (SkillPrompts.digest, {@link PromptView}).
 */
export class ModernEndpoint {
  private readonly handlers = new Map<string, McpHttpHandler>();
  private promptsTimer: ReturnType<typeof setTimeout> | null = null;
  /** Per key id: what the key saw of the prompts when its listeners were last told (or its handler was made). */
  private readonly promptViews = new Map<string, PromptView>();

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
   * Answers one 2026-07-28 request of `caller`.
   * @param request the web request (headers matter: MCP-Protocol-Version, Mcp-Method, Mcp-Name).
   * @param body its parsed JSON body.
   */
  serve(caller: Caller, request: Request, body: unknown): Promise<Response> {
    return this.handlerOf(caller.key.id).fetch(request, { parsedBody: body, authInfo: authInfoOf(caller) });
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
   * URI (and its old one after a rename) to the keys that may read it, and a prompts change when
   * it touches the skills folder. The old path of a rename is judged by the note's own
   * frontmatter (it moved unchanged) and the old path's quarantine and roots, so a hidden note's
   * rename stays silent. A deleted note can no longer be judged by its frontmatter; it is reported
   * to the keys whose quarantine and roots admit its path, so that its subscribers learn it is gone.
   */
  noteChanged(change: NoteChange): void {
    const paths = change.oldPath === undefined ? [change.path] : [change.path, change.oldPath];
    for (const [keyId, handler] of this.handlers) {
      const ctx = this.contextOf(keyId);
      if (!ctx) continue;
      if (paths.some((path) => touchesSkills(path, skillsFolderOf(ctx.settings.skills?.folder)))) this.promptsChanged();
      const visible = new NoteResources(ctx.notes, ctx.scope);
      for (const path of paths) {
        const renamedAway = path === change.oldPath;
        const seen =
          change.type === 'delete'
            ? visible.admitsPath(path)
            : renamedAway
              ? visible.admitsPath(path) && ownRulesAdmit(ctx, change.path)
              : visible.canReadPath(path);
        if (seen) handler.notify.resourceUpdated(noteUri(path));
      }
    }
  }

  /** Closes every listen stream and request in flight. */
  async close(): Promise<void> {
    if (this.promptsTimer) clearTimeout(this.promptsTimer);
    this.promptsTimer = null;
    const handlers = [...this.handlers.values()];
    this.handlers.clear();
    this.promptViews.clear();
    await Promise.all(handlers.map((handler) => handler.close().catch(() => undefined)));
  }
}
