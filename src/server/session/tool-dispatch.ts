import * as z from 'zod';
import { ProtocolErrorCode as ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/server';
import { inputExcerpt, listWithMore, ToolError } from '../../errors';
import type { ToolContext, ToolDefinition } from '../../tools/tool';
import { ALL_TOOLS } from '../../tools/registry';
import { loneSurrogateAt } from '../../vault/content/text/lone-surrogates';
import { internalError, isMissingValueIssue, JsonRpcError, toolErrorResult, typeWithArticle } from './rpc-errors';

export { JsonRpcError } from './rpc-errors';

/** The optional `vault` input every tool takes (shown in tools/list only when another vault is open). */
const VAULT_INPUT = { type: 'string', description: 'Run in another open vault (handle from vaults).' } as const;

/**
 * The `tools/list` entry of one tool (MCP spec 2025-11-25, "Tools" → Listing Tools):
 * name, title, description, JSON Schema of the input (from its zod shape, unknown
 * properties refused, see {@link compactInputSchema}), the `outputSchema` when the tool
 * declares one, and the annotations that say something (see {@link compactAnnotations}). The
 * title is sent once, at the top level (the spec's display-name precedence puts it before
 * `annotations.title`), since every agent pays for tools/list in every session.
 */
export function describeTool(tool: ToolDefinition): Tool {
  let description = descriptions.get(tool);
  if (!description) {
    const schema = compactInputSchema(z.toJSONSchema(argumentsSchemaOf(tool), { io: 'input' }));
    description = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: schema as Tool['inputSchema'],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      annotations: compactAnnotations(tool.annotations),
    };
    descriptions.set(tool, description);
  }
  return description;
}

/**
 * The annotations without `title` (sent at the top level) and without hints that only repeat
 * the spec's defaults or do not apply (MCP spec 2025-11-25, ToolAnnotations): `readOnlyHint:
 * false` and `idempotentHint: false` are the defaults, and `destructiveHint`/`idempotentHint`
 * are "meaningful only when readOnlyHint == false". `openWorldHint: false` is kept (its
 * default is true).
 */
export function compactAnnotations(annotations: ToolDefinition['annotations']): Record<string, boolean> {
  const { title: _title, ...hints } = annotations;
  const out: Record<string, boolean> = {};
  for (const [hint, value] of Object.entries(hints)) {
    if (value === undefined) continue;
    if (hint === 'readOnlyHint' && value === false) continue;
    if (hint === 'idempotentHint' && value === false) continue;
    if (annotations.readOnlyHint === true && (hint === 'destructiveHint' || hint === 'idempotentHint')) continue;
    out[hint] = value;
  }
  return out;
}

/**
 * An input schema as zod writes it, less what says nothing in JSON Schema 2020-12 (walked
 * recursively, returned as a new object): `$schema` (2020-12 is MCP's default dialect),
 * `properties: {}` of a tool without inputs (the spec's own no-parameter example), a record's
 * `propertyNames: {type: "string"}` (JSON keys are strings) and `additionalProperties: {}`
 * (the default), and an integer's ±2^53−1 bounds (`z.number().int()`'s safe range, which zod
 * still checks on every call).
 */
export function compactInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === '$schema') continue;
    if (keyword === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (keyword === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    if (keyword === 'propertyNames' && isStringTypeOnly(value)) continue;
    if ((keyword === 'additionalProperties' || keyword === 'properties') && isEmptyObject(value)) continue;
    if (keyword === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, compactInputSchema(sub as Record<string, unknown>)]),
      );
    } else if (
      (keyword === 'items' || keyword === 'additionalProperties') &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      out[keyword] = compactInputSchema(value as Record<string, unknown>);
    } else if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'allOf') && Array.isArray(value)) {
      out[keyword] = value.map((sub) => compactInputSchema(sub as Record<string, unknown>));
    } else {
      out[keyword] = value;
    }
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

function isStringTypeOnly(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length === 1 && (value as { type?: unknown }).type === 'string';
}

/**
 * A tools/list entry with the optional `vault` input added, listed when other vaults are open
 * (every tool accepts `vault` either way; a single vault does not pay for it in tools/list).
 */
export function withVaultInput(description: Tool): Tool {
  const properties = { ...(description.inputSchema.properties ?? {}), vault: VAULT_INPUT };
  return { ...description, inputSchema: { ...description.inputSchema, properties } };
}

/** tools/list entries, built once per tool (tool definitions never change at run time). */
const descriptions = new WeakMap<ToolDefinition, Tool>();

const argumentSchemas = new WeakMap<ToolDefinition, z.ZodObject>();

/**
 * The zod object validating a tool's arguments (its input shape, unknown properties refused),
 * built once per tool: tools/list and every tools/call use it.
 */
function argumentsSchemaOf(tool: ToolDefinition): z.ZodObject {
  let schema = argumentSchemas.get(tool);
  if (!schema) {
    schema = z.object(tool.inputSchema).strict();
    argumentSchemas.set(tool, schema);
  }
  return schema;
}

/**
 * The refusal of an enabled tool outside the calling key's tool set (docs/architecture.md#keys):
 * -32602, as for an unknown or disabled tool, with a message that says why.
 */
export function outsideToolSetError(name: string, keyLabel: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.InvalidParams,
    `Tool "${name}" is not in the tool set of key "${keyLabel}"; call tools/list for the tools this key may use, or ask the user to add it in Vault MCP settings → Keys.`,
  );
}

/**
 * The allowed range of an integer argument (`z.number().int()`, optional or not) as one phrase,
 * e.g. `an integer from 1 to 1000`; null for any other schema. Zod checks an integer against its
 * own bounds and against ±2^53−1 (its safe range) separately, so a huge value got two messages.
 */
function integerRangeOf(schema: unknown): string | null {
  const inner: unknown = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  if (!(inner instanceof z.ZodNumber) || inner.format !== 'safeint') return null;
  const min = inner.minValue ?? Number.MIN_SAFE_INTEGER;
  const max = inner.maxValue ?? Number.MAX_SAFE_INTEGER;
  return `an integer from ${min} to ${max}`;
}

/**
 * Formats zod issues as one line per problem: `path: message`, `; `-joined. Argument names the
 * caller chose (unknown keys, record keys in a path) are cut to their {@link inputExcerpt}. Every
 * issue with an integer argument (of `shape`, the tool's input shape) becomes one sentence naming
 * its range (`limit: expected an integer from 1 to 1000`), given once per argument.
 */
function describeIssues(error: z.ZodError, shape: Readonly<Record<string, unknown>>): string {
  const lines: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.length ? issue.path.map((part) => inputExcerpt(String(part))).join('.') : '(arguments)';
    const key = issue.path.length === 1 ? String(issue.path[0]) : undefined;
    const top = key !== undefined && Object.prototype.hasOwnProperty.call(shape, key) ? shape[key] : undefined;
    const range = issue.code === 'unrecognized_keys' ? null : integerRangeOf(top);
    const message = range
      ? `expected ${range}`
      : issue.code === 'invalid_type' && isMissingValueIssue(issue)
        ? `is required (${typeWithArticle(issue.expected)})`
        : issue.code === 'unrecognized_keys'
          ? `Unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${listWithMore(
              issue.keys.map((key) => `"${inputExcerpt(key)}"`),
              SHOWN_ITEMS,
            )}`
          : (sizeMessage(issue) ?? issue.message);
    const line = `${path}: ${message}`;
    if (!lines.includes(line)) lines.push(line);
  }
  return listWithMore(lines, SHOWN_ITEMS, '; ', 'problems');
}

/**
 * A sentence for zod's own message of a text or list over or under its size ("Too big: expected
 * string to have <=2000 characters", which read as a parser's, not an answer: session 43's
 * newcomer), saying what to do; null for other issues and for a schema's own message.
 */
function sizeMessage(issue: z.core.$ZodIssue): string | null {
  if (issue.code === 'too_big' && /^Too big:/.test(issue.message)) {
    if (issue.origin === 'string') return `is too long: at most ${String(issue.maximum)} characters are taken; shorten it.`;
    if (issue.origin === 'array') return `has too many items: at most ${String(issue.maximum)}; split them over several calls.`;
  }
  if (issue.code === 'too_small' && /^Too small:/.test(issue.message)) {
    const least = Number(issue.minimum);
    if (issue.origin === 'string')
      return least === 1 ? 'is empty; give a value.' : `is too short: at least ${least} characters are needed.`;
    if (issue.origin === 'array')
      return least === 1 ? 'is empty; give at least one item.' : `has too few items: at least ${least} are needed.`;
  }
  return null;
}

/** Most items of a list a refusal names (unknown keys, problems): the rest are counted, so a wide input gets a short message. */
const SHOWN_ITEMS = 10;

/**
 * Deepest nesting of objects and arrays accepted in tool arguments. Tools take flat arguments
 * and frontmatter values; far deeper values only overflow the stack of recursive libraries
 * (YAML, JSON.stringify), which must not turn a client's mistake into an internal error.
 */
export const MAX_ARGUMENT_DEPTH = 32;

/**
 * True when `value` nests objects/arrays more than `limit` levels deep (the top-level
 * arguments object is level 1). Walks iteratively, so any depth is measured without recursion.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * The first lone UTF-16 surrogate in a tool's arguments: in a string value or an object key,
 * at any depth (walked iteratively, in argument order).
 * @returns where it is, as the start of a sentence (`Argument content`, `Argument
 *   frontmatter_patch.tags.2`, `A key name in properties`; names cut to their
 *   {@link inputExcerpt}), and its char offset in that string; null when every string is
 *   well-formed.
 */
export function loneSurrogateIn(args: unknown): { where: string; at: number } | null {
  const pending: Array<[unknown, string]> = [[args, '']];
  for (let next = 0; next < pending.length; next++) {
    const [item, where] = pending[next];
    if (typeof item === 'string') {
      const at = loneSurrogateAt(item);
      if (at >= 0) return { where: `Argument ${where}`, at };
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    for (const [key, child] of Object.entries(item)) {
      const at = loneSurrogateAt(key);
      if (at >= 0) return { where: where ? `A key name in ${where}` : 'An argument name', at };
      pending.push([child, where ? `${where}.${inputExcerpt(key)}` : inputExcerpt(key)]);
    }
  }
  return null;
}

/**
 * Where a tool's arguments hold an own property named `__proto__` (JSON.parse makes one from
 * `{"__proto__": …}`): zod's strict objects report it as an unknown key, but zod's records and the
 * SDK's `arguments` record drop it unsaid, so a call would go on without it. Walked iteratively,
 * at any depth, in argument order.
 * @returns the argument path holding it (`''` for a top-level argument, `properties` for a key
 *   of `properties`, names cut to their {@link inputExcerpt}), or null when there is none.
 */
export function protoKeyIn(args: unknown): string | null {
  const pending: Array<[unknown, string]> = [[args, '']];
  for (let next = 0; next < pending.length; next++) {
    const [item, where] = pending[next];
    if (item === null || typeof item !== 'object') continue;
    if (Object.prototype.hasOwnProperty.call(item, '__proto__')) return where;
    for (const [key, child] of Object.entries(item)) pending.push([child, where ? `${where}.${inputExcerpt(key)}` : inputExcerpt(key)]);
  }
  return null;
}

/**
 * The refusal of a call whose arguments hold a `__proto__` key at `where` (from {@link protoKeyIn}):
 * at the top level in the words of any other unknown argument, deeper as a key name no value may
 * use (a frontmatter property cannot be told from JavaScript's prototype link).
 * @param name the tool called (cut to its {@link inputExcerpt}).
 */
export function protoKeyMessage(name: string, where: string): string {
  const tool = inputExcerpt(name);
  return where === ''
    ? `Invalid arguments for ${tool}: (arguments): Unrecognized key: "__proto__"`
    : `Invalid arguments for ${tool}: ${where}: a key named "__proto__" is refused (it cannot be told from JavaScript's prototype link); rename it.`;
}

/**
 * Runs `tools/call` for an enabled tool list (MCP spec 2025-06-18, "Tools" → Calling Tools
 * and Error Handling).
 * @returns the tool result: compact JSON text content (one line: the agent pays for every
 *   char) plus `structuredContent`, or `isError: true`
 *   with one sentence when the handler threw a {@link ToolError} (its ToolError.messageFor the key's
 *   AccessScope.sight: no note names or text its tool set does not show), the arguments do not match
 *   the input schema (SEP-1303: input validation errors are tool execution errors), nest
 *   deeper than {@link MAX_ARGUMENT_DEPTH}, hold a `__proto__` key ({@link protoKeyIn}), or (for a write tool) hold a lone UTF-16
 *   surrogate ({@link loneSurrogateIn}).
 * @throws JsonRpcError(-32602) for an unknown or disabled tool (for a write tool of
 *   ALL_TOOLS, the message says how the user turns it on); JsonRpcError(-32603) for any other exception (a bug), after logging its
 *   stack to the console (the stack never goes into the reply).
 */
export async function callTool(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    // A write tool that exists is off by the user's settings: say which, so the agent can ask for it.
    const off = ALL_TOOLS.some((t) => t.name === name && t.kind === 'write')
      ? ` ${name} is a write tool, off until the user turns on "Allow writes" and its toggle in Vault MCP settings → Tools (npm start: --allow-writes).`
      : '';
    throw new JsonRpcError(
      ErrorCode.InvalidParams,
      `Unknown or disabled tool "${inputExcerpt(name)}"; call tools/list for the tools this key may use.${off}`,
    );
  }
  if (nestsDeeperThan(rawArgs, MAX_ARGUMENT_DEPTH)) {
    return toolErrorResult(`Arguments of ${name} are nested too deeply; nest values at most ${MAX_ARGUMENT_DEPTH} levels.`);
  }
  // Checked before zod, whose records drop such a key unsaid.
  const proto = protoKeyIn(rawArgs);
  if (proto !== null) return toolErrorResult(protoKeyMessage(name, proto));
  const parsed = argumentsSchemaOf(tool).safeParse(rawArgs ?? {});
  // Input validation errors are tool execution errors (SEP-1303, MCP 2025-11-25 "Tools" → Error Handling): the model sees them and can correct its call.
  if (!parsed.success) return toolErrorResult(`Invalid arguments for ${name}: ${describeIssues(parsed.error, tool.inputSchema)}`);
  // A note is UTF-8 on disk: a lone surrogate would be written as U+FFFD, not as what was sent.
  const lone = tool.kind === 'write' ? loneSurrogateIn(parsed.data) : null;
  if (lone) {
    return toolErrorResult(
      `${lone.where} of ${name} has a lone UTF-16 surrogate at char ${lone.at} (half of a character such as an emoji), which a note or file name cannot hold (it would become U+FFFD); send whole characters (well-formed Unicode). Nothing was written.`,
    );
  }
  try {
    const result = await tool.handler(parsed.data, ctx);
    return {
      content: [{ type: 'text', text: JSON.stringify(result) }],
      structuredContent: result,
    };
  } catch (error) {
    if (error instanceof ToolError) return toolErrorResult(error.messageFor(ctx.scope.sight));
    throw internalError(`tool ${name}`, error);
  }
}
