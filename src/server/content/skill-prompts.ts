import { ProtocolErrorCode as ErrorCode, type GetPromptResult, type Prompt, type PromptMessage } from '@modelcontextprotocol/server';
import type { TFile } from 'obsidian';
import { inputExcerpt, ToolError } from '../../errors';
import { hashText } from '../../vault/hash';
import type { AccessScope } from '../../vault/access/access';
import type { NoteStore } from '../../vault/note-store';
import type { ToolContext } from '../../tools/tool';
import { SkillCatalog } from '../../vault/skills';
import { skillsFolderOf } from '../../vault/skills-folder';
import { noteUri } from './note-resources';
import { JsonRpcError } from '../session/rpc-errors';
import type { KeyToolSet } from '../../settings/key-record';
import { outsideToolSetRoute, toolSetServes } from './tool-set-routes';

/** The one (optional) argument of every skill prompt: a note to apply the skill to. */
export const NOTE_ARGUMENT = 'note';

/**
 * The vault's skills as MCP prompts (MCP spec 2025-06-18, "Prompts"), for one key's scope:
 * each well-formed skill is a prompt named by its id, titled and described by its frontmatter,
 * taking an optional `note` argument. A skill with malformed frontmatter is no prompt (it stays
 * visible, with its error, in `skills_list`). Served as far as the key's tool set serves them
 * (tool-set-routes.ts: prompts/list needs skills_list and skill_read, prompts/get skill_read, its `note` read_note).
 */
export class SkillPrompts {
  private readonly catalog: SkillCatalog;

  /**
   * @param notes the note store. @param scope the caller's access scope. @param folder the skills folder.
   * @param tools the key's tool set (missing = all).
   */
  constructor(
    private readonly notes: NoteStore,
    private readonly scope: AccessScope,
    private readonly folder: string,
    private readonly tools?: KeyToolSet,
  ) {
    this.catalog = new SkillCatalog(notes);
  }

  /** The prompts of a context's key: its notes, scope, skills folder and tool set. */
  static of(ctx: ToolContext): SkillPrompts {
    return new SkillPrompts(ctx.notes, ctx.scope, skillsFolderOf(ctx.settings.skills?.folder), ctx.caller.tools);
  }

  /** prompts/list entries: one per well-formed skill the scope may read, by id; none when the tool set serves no prompt list. */
  async list(): Promise<Prompt[]> {
    if (!toolSetServes(this.tools, 'prompts')) return [];
    const skills = await this.catalog.list(this.folder, this.scope);
    return skills
      .filter((skill) => skill.error === null)
      .map((skill) => ({
        name: skill.id,
        title: skill.name ?? skill.id,
        description: skill.description ?? '',
        arguments: [
          {
            name: NOTE_ARGUMENT,
            description: 'Optional: path of a note to apply the skill to; it is attached to the prompt.',
            required: false,
          },
        ],
      }));
  }

  /**
   * What this scope sees of the skill prompts, as one digest: the prompts/list entries and, for
   * each, what prompts/get gives without a `note` (its messages, or the refusal's sentence). Two
   * moments give the same digest exactly when a client of this scope could tell no difference, so
   * `notifications/prompts/list_changed` is sent only when it changes (docs/resources-and-prompts.md):
   * a hidden skill (private, quarantined, outside the roots) never moves it. Reads the skills
   * folder's SKILL.md files the scope may read, nothing else of the vault.
   * @returns 64 lowercase hex characters (SHA-256, {@link hashText}).
   */
  async digest(): Promise<string> {
    const prompts = await this.list();
    const contents = await Promise.all(
      prompts.map((prompt) =>
        this.get(prompt.name, undefined).then(
          (result) => result,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        ),
      ),
    );
    return hashText(JSON.stringify({ prompts, contents }));
  }

  /** True when `name` is a well-formed skill the scope may read. */
  async has(name: string): Promise<boolean> {
    return (await this.list()).some((prompt) => prompt.name === name);
  }

  /**
   * prompts/get: the skill's instructions as a user message, then, when `note` is given, that
   * note as an embedded resource.
   * @throws JsonRpcError(-32602) for an unknown prompt, a skill with malformed frontmatter, an
   *   argument other than `note`, or a `note` the scope cannot read (the message says which); for
   *   any prompt when the key's tool set lacks skill_read, and for a `note` when it lacks read_note.
   */
  async get(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
    if (!toolSetServes(this.tools, 'prompt')) throw outsideToolSetRoute('prompt', this.scope.label);
    const extra = Object.keys(args ?? {}).filter((key) => key !== NOTE_ARGUMENT);
    if (extra.length > 0) {
      throw new JsonRpcError(
        ErrorCode.InvalidParams,
        `Prompt "${inputExcerpt(name)}" takes only the optional argument "${NOTE_ARGUMENT}", not ${extra.map((k) => `"${inputExcerpt(k)}"`).join(', ')}.`,
      );
    }
    const skill = await this.catalog.read(this.folder, name, this.scope).catch((error: unknown) => {
      if (error instanceof ToolError)
        throw new JsonRpcError(
          ErrorCode.InvalidParams,
          `Unknown prompt "${inputExcerpt(name)}"; call prompts/list for the prompts (skills) this key may use.`,
        );
      throw error;
    });
    if (skill.error !== null) throw new JsonRpcError(ErrorCode.InvalidParams, `Prompt "${inputExcerpt(name)}" is unusable: ${skill.error}`);
    const files = skill.files.length
      ? `\n\nFiles of this skill (read one when needed with skill_read {"id": ${JSON.stringify(skill.id)}, "file": "<path>"}): ${skill.files.join(', ')}`
      : '';
    const messages: PromptMessage[] = [
      { role: 'user', content: { type: 'text', text: `Use the skill "${skill.name}" (${skill.path}):\n\n${skill.body.trim()}${files}` } },
    ];
    const notePath = args?.[NOTE_ARGUMENT];
    if (notePath !== undefined && notePath.trim() !== '') {
      const { file, text } = await this.resolveNote(name, notePath);
      messages.push({
        role: 'user',
        content: { type: 'resource', resource: { uri: noteUri(file.path), mimeType: 'text/markdown', text } },
      });
    }
    return { description: skill.description ?? undefined, messages };
  }

  /**
   * The note a prompt's `note` argument names, and its text (NoteStore.resolveAndRead: a text the
   * key may not read answers as a missing note). @throws JsonRpcError(-32602) with the lookup's reason.
   */
  private async resolveNote(prompt: string, notePath: string): Promise<{ file: TFile; text: string }> {
    try {
      if (!toolSetServes(this.tools, 'read')) throw outsideToolSetRoute('read', this.scope.label);
      return await this.notes.resolveAndRead({ path: notePath }, this.scope);
    } catch (error) {
      if (error instanceof ToolError || error instanceof JsonRpcError) {
        const message = error instanceof ToolError ? error.messageFor(this.scope.sight) : error.message;
        throw new JsonRpcError(ErrorCode.InvalidParams, `Argument "${NOTE_ARGUMENT}" of prompt "${prompt}": ${message}`);
      }
      throw error;
    }
  }
}

/**
 * What a context sees of the skill prompts ({@link SkillPrompts.digest}, in its settings' skills folder).
 * @param ctx a session's or key's context now, or null when it is left nothing.
 * @returns the digest, or null for a null context.
 */
export async function promptDigestOf(ctx: ToolContext | null): Promise<string | null> {
  return ctx ? SkillPrompts.of(ctx).digest() : null;
}

/**
 * One viewer's last seen prompt digest, compared one check at a time: where
 * `notifications/prompts/list_changed` is decided for a session (session-content.ts) and for a
 * key's 2026-07-28 listeners (modern-endpoint.ts), so that a viewer hears of a change only when
 * what it sees changed (docs/resources-and-prompts.md).
 */
export class PromptView {
  private seen: Promise<string | null>;
  private queue: Promise<boolean> = Promise.resolve(false);

  /** @param current the viewer's digest now ({@link promptDigestOf}); read at once as the baseline. */
  constructor(private readonly current: () => Promise<string | null>) {
    this.seen = current().catch(() => null);
  }

  /** @returns true when the digest now differs from the last one seen, which it then becomes (a failed read changes nothing). */
  changed(): Promise<boolean> {
    this.queue = this.queue.then(async () => {
      const before = await this.seen;
      const after = await this.current().catch(() => before);
      this.seen = Promise.resolve(after);
      return after !== before;
    });
    return this.queue;
  }
}
