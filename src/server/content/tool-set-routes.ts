import { ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/server';
import type { KeyToolSet } from '../../settings/key-record';
import type { VaultSight } from '../../errors';
import { JsonRpcError } from '../session/rpc-errors';

/**
 * The one rule by which a key's tool set reaches the vault's content beyond tools/call
 * (docs/resources-and-prompts.md#tool-sets): each resource, prompt and completion route stands
 * in for the tools listed here, and a key is served it only when its tool set holds every one
 * of them. `all` and `read` hold them all (each is a read tool); a chosen list holds the names it
 * lists. The tool toggles under Tools play no part: they never closed these routes.
 * - `read`: a note's whole text — resources/read, resources/subscribe and its updates, the note
 *   template of resources/templates/list, a prompt's `note` argument (read_note).
 * - `list`: the vault's notes — resources/list and completion of note paths: each note's path,
 *   title and mtime (list_notes), listed to be read (read_note).
 * - `prompt`: a skill's instructions and files — prompts/get (skill_read).
 * - `prompts`: the skills — prompts/list: each skill's id, name and description (skills_list),
 *   listed to be got (skill_read).
 */
export const ROUTE_TOOLS = {
  read: ['read_note'],
  list: ['list_notes', 'read_note'],
  prompt: ['skill_read'],
  prompts: ['skills_list', 'skill_read'],
} as const;

/** A kind of content route ({@link ROUTE_TOOLS}). */
export type ContentRoute = keyof typeof ROUTE_TOOLS;

/** True when a key with tool set `set` (missing = all) is served `route` ({@link ROUTE_TOOLS}). */
export function toolSetServes(set: KeyToolSet | undefined, route: ContentRoute): boolean {
  return !Array.isArray(set) || ROUTE_TOOLS[route].every((tool) => set.includes(tool));
}

/**
 * The tools whose answers already show the vault's note paths (`names`: list_notes and query_notes list
 * them, search finds them by name with `file:`) or a note's own text (`text`: read_note and read_notes
 * serve it), by which a key's tool set decides what its error messages may show beyond what it sent
 * ({@link toolSetSight}): one of them is enough, since each shows that much on its own.
 */
export const SIGHT_TOOLS: { readonly [K in keyof VaultSight]: readonly string[] } = {
  names: ['list_notes', 'search', 'query_notes'],
  text: ['read_note', 'read_notes'],
};

/**
 * What a key with tool set `set` (missing = all) may be shown of the vault in messages beyond what
 * it sent (docs/security.md#keys): note names ("did you mean", the notes sharing a name or an id)
 * only when the set holds a tool of {@link SIGHT_TOOLS}`.names`; note text (a note's headings, its
 * frontmatter lines and YAML errors) only when it holds one of `.text`. `all` and `read` see both.
 * The tool toggles under Tools play no part, as for {@link toolSetServes}.
 * @returns the AccessScope.sight of the key's calls (ToolError.messageFor).
 */
export function toolSetSight(set: KeyToolSet | undefined): VaultSight {
  const holds = (tools: readonly string[]): boolean => !Array.isArray(set) || tools.some((tool) => set.includes(tool));
  return { names: holds(SIGHT_TOOLS.names), text: holds(SIGHT_TOOLS.text) };
}

/**
 * The refusal of a route a key's tool set does not serve ({@link toolSetServes}): -32602, as a
 * tool outside the set is refused, naming the tools it needs and what the user does.
 * @param route `read` (resources/read, resources/subscribe, a prompt's `note`) or `prompt` (prompts/get).
 * @param label the key's label.
 */
export function outsideToolSetRoute(route: 'read' | 'prompt', label: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `${route === 'read' ? 'Notes are resources' : 'Skills are prompts'} only for a key whose tool set includes ${ROUTE_TOOLS[route][0]}, and key "${label}"'s does not; ask the user to add it in Vault MCP settings → Keys.`,
  );
}
