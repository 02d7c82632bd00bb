import {
  ProtocolErrorCode as ErrorCode,
  type CompleteResult,
  type ReadResourceResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { inputExcerpt } from '../../errors';
import type { ToolContext } from '../../tools/tool';
import type { NoteChange } from '../../vault/note-store';
import { skillsFolderOf, touchesSkills } from '../../vault/skills-folder';
import { NOTE_TEMPLATE, NOTE_URI_TEMPLATE, NoteResources, noteUri, pathOfNoteUri } from './note-resources';
import { NoteSubscriptions } from './note-subscriptions';
import type { SessionAddOn } from './session-add-on';
import { NOTE_ARGUMENT, PromptView, promptDigestOf, SkillPrompts } from './skill-prompts';
import { guarded, JsonRpcError } from '../session/rpc-errors';
import type { KeyToolSet } from '../../settings/key-record';
import { toolSetServes } from './tool-set-routes';

/** Variable of {@link NOTE_URI_TEMPLATE} that completion/complete fills in. */
const PATH_VARIABLE = 'path';

/** Wait before telling a session its prompts changed, ms: a burst of skill edits sends one notification. */
const PROMPTS_CHANGED_DELAY_MS = 50;

const EMPTY_COMPLETION: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/** What the SDK hands a request handler; a `roots/list` round is asked on the request's own stream. */
export type SessionRequestExtra = ServerContext;

/**
 * Where a session's resource, prompt and completion requests get their context: the key at that
 * moment, confined by the client's MCP roots like a tool call (see session-access.ts).
 */
export interface SessionContextSource {
  /**
   * The context of one request, after any open `roots/list` round is answered.
   * In the 2026-07-28 era these requests never ask the client for its roots (only tools/call does,
   * request-roots.ts): without them the key's own access applies.
   * @throws JsonRpcError (-32600) with the reason when the client's roots leave the session nothing.
   */
  forRequest(extra: SessionRequestExtra): Promise<ToolContext>;
  /** The context now without waiting (vault events); null when the session is left nothing. */
  now(): ToolContext | null;
  /** The vault's notes, followed for change events while the session is open. */
  notes: ToolContext['notes'];
  /** The session's key's tool set now (tool-set-routes.ts decides what it is served). */
  tools(): KeyToolSet | undefined;
}

/**
 * Registers resources, prompts and completion on one session's server (MCP spec 2025-06-18,
 * "Resources", "Prompts", "Completion"): notes as resources ({@link NoteResources}), skills as
 * prompts ({@link SkillPrompts}), then whatever `addOns` bring. Every request runs as the
 * session's key at that moment (its scope: quarantine, access rules, roots). Follows vault
 * changes while the session is open, telling the session only what its key may know (its tool set
 * included: tool-set-routes.ts):
 * `notifications/resources/updated` for a subscribed note it could read before or after the change
 * ({@link NoteSubscriptions}: a hidden note's edits, renames and deletion stay silent), and
 * `notifications/prompts/list_changed` when a change in the skills folder (a note, or another file
 * of a skill's folder) changed what this session sees of the prompts
 * ({@link SkillPrompts.digest}: the list and each prompt's content; a private skill or a skills
 * folder outside the key's roots changes nothing it sees).
 * @param server a server whose capabilities declare resources (subscribe), prompts (listChanged) and completions.
 * @returns `follow` (start following the vault: call once the client is initialized),
 *   `stop` (call when the session closes) and `recheck` (what the session may see changed).
 */
export function registerSessionContent(
  server: Server,
  context: SessionContextSource,
  addOns: readonly SessionAddOn[],
): SessionContentHandle {
  const resources = async (extra: SessionRequestExtra): Promise<NoteResources> => NoteResources.of(await context.forRequest(extra));
  const prompts = async (extra: SessionRequestExtra): Promise<SkillPrompts> => SkillPrompts.of(await context.forRequest(extra));
  const addOnResources = addOns.flatMap((a) => a.resources ?? []);
  const addOnTemplates = addOns.flatMap((a) => a.templates ?? []);
  const addOnPrompts = addOns.flatMap((a) => a.prompts ?? []);
  /** Subscribed URIs, each with whether the session could read that note when last judged (add-on URIs: true). */
  const subscriptions = new NoteSubscriptions();

  const readAddOn = (uri: string): ReadResourceResult | null => {
    const fixed = addOnResources.find((r) => r.definition.uri === uri);
    if (fixed) return fixed.read();
    for (const template of addOnTemplates) {
      const result = template.read(uri);
      if (result) return result;
    }
    return null;
  };
  const addOnSubscribable = (uri: string): boolean =>
    addOnResources.some((r) => r.definition.uri === uri) || addOns.some((a) => a.subscribable?.(uri) ?? false);

  server.setRequestHandler(
    'resources/list',
    guarded('resources/list', async (request, extra) => {
      const page = (await resources(extra)).list(request.params?.cursor);
      if (request.params?.cursor === undefined) page.resources.push(...addOnResources.map((r) => r.definition));
      return page;
    }),
  );
  server.setRequestHandler(
    'resources/templates/list',
    guarded('resources/templates/list', async (request) => {
      if (request.params?.cursor !== undefined) {
        throw new JsonRpcError(
          ErrorCode.InvalidParams,
          'resources/templates/list has a single page and gives no nextCursor; call it without cursor.',
        );
      }
      const own = toolSetServes(context.tools(), 'read') ? [NOTE_TEMPLATE] : [];
      return { resourceTemplates: [...own, ...addOnTemplates.map((t) => t.definition)] };
    }),
  );
  server.setRequestHandler(
    'resources/read',
    guarded('resources/read', async (request, extra) => {
      const { uri } = request.params;
      if (pathOfNoteUri(uri) === null) {
        const result = readAddOn(uri);
        if (result) return result;
      }
      return (await resources(extra)).read(uri);
    }),
  );
  server.setRequestHandler(
    'resources/subscribe',
    guarded('resources/subscribe', async (request, extra) => {
      const { uri } = request.params;
      if (pathOfNoteUri(uri) === null && addOnSubscribable(uri)) subscriptions.hold(uri, true);
      // Held as the client spelled it (`SUB1.md`, a raw space): its updates come under that URI, matched by the note's own.
      else subscriptions.hold(uri, true, noteUri((await resources(extra)).noteAt(uri).path));
      return {};
    }),
  );
  server.setRequestHandler(
    'resources/unsubscribe',
    guarded('resources/unsubscribe', async (request, extra) => {
      const { uri } = request.params;
      const path = pathOfNoteUri(uri);
      if (path === null && !addOnSubscribable(uri)) (await resources(extra)).noteAt(uri);
      subscriptions.release(uri, true);
      if (path !== null) subscriptions.release(noteUri(path), true);
      return {};
    }),
  );

  server.setRequestHandler(
    'prompts/list',
    guarded('prompts/list', async (request, extra) => {
      if (request.params?.cursor !== undefined) {
        throw new JsonRpcError(ErrorCode.InvalidParams, 'prompts/list has a single page and gives no nextCursor; call it without cursor.');
      }
      return { prompts: [...(await (await prompts(extra)).list()), ...addOnPrompts.map((p) => p.definition)] };
    }),
  );
  server.setRequestHandler(
    'prompts/get',
    guarded('prompts/get', async (request, extra) => {
      const { name, arguments: args } = request.params;
      const skills = await prompts(extra);
      const addOn = addOnPrompts.find((p) => p.definition.name === name);
      if (addOn && !(await skills.has(name))) return addOn.get(args ?? {}, extra);
      return skills.get(name, args);
    }),
  );

  server.setRequestHandler(
    'completion/complete',
    guarded('completion/complete', async (request, extra) => {
      const { ref, argument } = request.params;
      if (ref.type === 'ref/prompt') {
        const skills = await prompts(extra);
        if (await skills.has(ref.name)) {
          if (argument.name !== NOTE_ARGUMENT) {
            throw new JsonRpcError(
              ErrorCode.InvalidParams,
              `Prompt "${inputExcerpt(ref.name)}" has no argument "${inputExcerpt(argument.name)}"; its only argument is "${NOTE_ARGUMENT}".`,
            );
          }
          return { completion: (await resources(extra)).completePath(argument.value) };
        }
        const addOn = addOnPrompts.find((p) => p.definition.name === ref.name);
        const values = addOn?.complete?.(argument.name, argument.value) ?? [];
        // An unknown prompt completes to nothing: completion only helps a person type, and a skill may vanish while they do.
        return values.length
          ? { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } }
          : EMPTY_COMPLETION;
      }
      if (ref.uri === NOTE_URI_TEMPLATE) {
        if (argument.name !== PATH_VARIABLE) {
          throw new JsonRpcError(
            ErrorCode.InvalidParams,
            `Resource template ${NOTE_URI_TEMPLATE} has no variable "${inputExcerpt(argument.name)}"; its only variable is "${PATH_VARIABLE}".`,
          );
        }
        return { completion: (await resources(extra)).completePath(argument.value) };
      }
      if (addOnTemplates.some((t) => t.definition.uriTemplate === ref.uri)) return EMPTY_COMPLETION;
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Unknown resource template ${JSON.stringify(inputExcerpt(ref.uri))}; call resources/templates/list for the templates.`,
      );
    }),
  );

  /** What the session saw of the prompts when last told (made on `follow`). */
  let promptView: PromptView | null = null;
  const checkPrompts = async (): Promise<void> => {
    if (promptView && (await promptView.changed()) && unfollow) await server.sendPromptListChanged().catch(() => undefined);
  };
  let promptsTimer: ReturnType<typeof setTimeout> | null = null;
  const promptsChanged = (): void => {
    if (promptsTimer) return;
    promptsTimer = setTimeout(() => {
      promptsTimer = null;
      void checkPrompts();
    }, PROMPTS_CHANGED_DELAY_MS);
  };
  /** A change of the skills folder (a note, or another file: prompts/get lists a skill's files) is checked after the burst. */
  const onSkillsChange = (change: NoteChange): void => {
    const folder = skillsFolderOf(context.now()?.settings.skills?.folder);
    if ([change.path, change.oldPath].some((path) => path !== undefined && touchesSkills(path, folder))) promptsChanged();
  };
  const viewNow = (): NoteResources | null => {
    const ctx = context.now();
    return ctx && NoteResources.of(ctx);
  };
  const tell = (uris: string[]): void => {
    for (const uri of uris) server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  const onChange = (change: NoteChange): void => {
    onSkillsChange(change);
    if (!subscriptions.empty) tell(subscriptions.changed(change, viewNow()));
  };
  let unfollow: (() => void) | null = null;
  const handle: SessionContentHandle = {
    follow: () => {
      if (unfollow) return;
      const unfollowNotes = context.notes.onNoteChange(onChange);
      const unfollowFiles = context.notes.onOtherFileChange(onSkillsChange);
      unfollow = () => {
        unfollowNotes();
        unfollowFiles();
      };
      promptView = new PromptView(() => promptDigestOf(context.now()));
    },
    stop: () => {
      unfollow?.();
      unfollow = null;
      if (promptsTimer) clearTimeout(promptsTimer);
    },
    recheck: async (baseline = false) => {
      if (!unfollow) return;
      const moved = subscriptions.recheck(viewNow());
      if (baseline) promptView = new PromptView(() => promptDigestOf(context.now()));
      else {
        tell(moved);
        await checkPrompts();
      }
    },
  };
  handles.set(server, handle);
  return handle;
}

/** What {@link registerSessionContent} gives back for one session. */
export interface SessionContentHandle {
  /** Starts following the vault (call once the client is initialized); notes the session's prompt view. */
  follow(): void;
  /** Stops following (the session closed). */
  stop(): void;
  /**
   * Judges again what the session sees, after a change of its access rather than of the vault
   * (the key's label or roots, the client's roots, the access or skills settings): a subscribed
   * note that left or entered its view gets `notifications/resources/updated`, and
   * `notifications/prompts/list_changed` is sent if what it sees of the prompts changed since it
   * was last told. Nothing before `follow` or after `stop`.
   * @param baseline true for the access the session had from the start (the client's first
   *   roots answer, which its requests waited for): judged again and taken as what it was told, silently.
   * @returns when the check (and any notification) is done.
   */
  recheck(baseline?: boolean): Promise<void>;
}

const handles = new WeakMap<Server, SessionContentHandle>();

/**
 * Judges again what one session sees after its access changed ({@link SessionContentHandle.recheck};
 * for the settings broadcast in mcp-http-server.ts).
 * @param server a session's server made with {@link registerSessionContent} (another is left alone).
 * @returns when the check and any notification are done.
 */
export async function recheckSession(server: Server): Promise<void> {
  await handles.get(server)?.recheck();
}
