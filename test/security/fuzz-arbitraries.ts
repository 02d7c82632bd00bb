import fc from 'fast-check';
import { describeTool } from '../../src/server/session/tool-dispatch';
import { ALL_TOOLS } from '../../src/tools/registry';
import { HIDDEN_PAIRS, TRAVERSALS } from './attack-corpus';
import { VAULT_FILES } from './security-env';

/**
 * fast-check arbitraries for the fuzz suite: JSON-RPC messages of any shape, and tool
 * arguments built from each tool's input JSON Schema (what tools/list shows, from its zod
 * shape) with hostile strings mixed into every string field.
 */

/** Strings that have broken parsers, paths and YAML before. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '.',
  '..',
  '/',
  '\\',
  '%',
  '%%',
  '%zz',
  '%00',
  '%ff',
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e',
  '\ufeff',
  '\u0085',
  '\r',
  '\r\n',
  '[[',
  ']]',
  '[[a|b]]',
  '#',
  '#^',
  '^',
  '|',
  '*',
  '?',
  '"',
  "'",
  '`',
  '<<',
  '&a',
  '*a',
  '!!js/function x',
  '{{',
  '${x}',
  '---',
  '---\naccess: private\n---\n',
  '---\nAccess: read-write\n---\nx',
  'access: private',
  '\n---\n',
  '- a\n- b',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'CON',
  'aux.md',
  'nul.md',
  'a:b',
  'C:',
  'C:\\',
  '~',
  '~/x',
  'file:///etc/passwd',
  'http://x',
  '.md',
  '.MD',
  'x.md.md',
  'X.Md',
  '😀',
  'e\u0301',
  'é',
  'ǅ',
  'İ',
  'ß',
  'ﬀ',
  '\u3000',
  '１．ｍｄ',
  '(a+)+$',
  '(((',
  '[',
  '\\',
  '.*',
  '/(a+)+$/',
  'path:/x/',
  'tag:#',
  'file:x',
  '-x',
  '"unclosed',
  'OR',
  'AND',
  'NOT',
  'WHERE',
  'WHERE x =',
  'SORT',
  'LIMIT -1',
  'LIMIT 99999999999999999999',
  'a'.repeat(1025),
  'x/'.repeat(300),
];

/** Paths worth trying: the vault's own notes (hidden ones included), their missing twins and every traversal spelling. */
const KNOWN_PATHS = [
  ...Object.keys(VAULT_FILES),
  ...Object.keys(VAULT_FILES).map((p) => p.replace(/\.md$/, '')),
  ...HIDDEN_PAIRS.flatMap(([, hidden, missing]) => [hidden, missing]),
  ...TRAVERSALS.map(([, path]) => path).filter((p) => !p.includes('{')),
  'Secret',
  '_private',
  '.hidden',
  'LinkedDir',
  'Public',
  'Public/Deep',
  'Rooted',
  '.obsidian',
  '.trash',
  '',
];

/** Any string, biased to hostile ones. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...HOSTILE_STRINGS, 'a', 'b', 'Plain'), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('')),
  },
);

/** A path-like string: a known path, a traversal, or segments of hostile text joined by `/`. */
export const hostilePath: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KNOWN_PATHS) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(fc.constantFrom(...KNOWN_PATHS), hostileString), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('/')),
  },
  { weight: 1, arbitrary: hostileString },
);

/** Property names for frontmatter patches: protected ones in every case, prototype keys and random ones. */
const propertyName = fc.oneof(
  fc.constantFrom(
    'access',
    'Access',
    'ACCESS',
    ' access',
    'agent_overrides',
    'Agent_Overrides',
    '__proto__',
    'constructor',
    'prototype',
    '<<',
    'tags',
    'aliases',
    'id',
    'status',
    'title',
    '',
  ),
  hostileString,
);

/** A JSON value a little deeper than tools accept now and then. */
const jsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 60 }).map((depth) => Array.from({ length: depth }).reduce<unknown>((v) => ({ a: v }), 'x')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
);

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  additionalProperties?: unknown;
};

/** An arbitrary for one JSON Schema node; `name` is the property it fills (paths get path strings). */
function fromSchema(schema: Schema, name: string): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: hostileString });
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  const options = types.map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return /path|to|folder|id|paths/.test(name) ? hostilePath : hostileString;
      case 'integer':
        return fc.oneof(
          fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 10000, 10000) }),
          fc.constantFrom(-1, 0, 2 ** 31, Number.MAX_SAFE_INTEGER),
        );
      case 'number':
        return fc.oneof(fc.integer(), fc.double({ noNaN: true }));
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(fromSchema(schema.items ?? {}, name), { maxLength: 22 });
      default:
        if (schema.properties && Object.keys(schema.properties).length > 0) return objectFromSchema(schema);
        return fc.dictionary(propertyName, jsonValue, { maxKeys: 4 });
    }
  });
  return options.length === 1 ? options[0] : fc.oneof(...options);
}

/** An object with the schema's required properties (and any of the optional ones). */
function objectFromSchema(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(schema.properties ?? {})) model[key] = fromSchema(sub, key);
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) });
}

/**
 * Arguments for one tool from its input schema: mostly well-typed with hostile strings, now
 * and then a wrong type, an extra key or a missing required one.
 */
export function toolArguments(tool: string): fc.Arbitrary<unknown> {
  const definition = ALL_TOOLS.find((t) => t.name === tool);
  if (!definition) return fc.jsonValue({ maxDepth: 2 });
  const schema = describeTool(definition).inputSchema as Schema;
  const typed = objectFromSchema(schema);
  return fc.oneof(
    { weight: 8, arbitrary: typed },
    { weight: 1, arbitrary: fc.tuple(typed, propertyName, jsonValue).map(([args, key, value]) => ({ ...args, [key]: value })) },
    {
      weight: 1,
      arbitrary: fc.record(Object.fromEntries(Object.keys(schema.properties ?? {}).map((key) => [key, jsonValue])), { requiredKeys: [] }),
    },
    { weight: 1, arbitrary: jsonValue },
  );
}

/** A tool name: the real ones, mostly, or hostile text. */
export const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...ALL_TOOLS.map((t) => t.name)) },
  { weight: 1, arbitrary: hostileString },
);

/** A tools/call: a tool and schema-aware arguments for it. */
export const toolCall: fc.Arbitrary<{ name: string; arguments: unknown }> = toolName.chain((name) =>
  toolArguments(name).map((args) => ({ name, arguments: args })),
);

/** `encodeURIComponent`, or the text as is where it cannot be encoded (a lone surrogate). */
const encode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A note resource URI: a hostile path put into `vault-mcp://note/` raw, per segment encoded, wholly encoded, or another URI. */
const resourceUri: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostilePath.map((p) => `vault-mcp://note/${p}`) },
  { weight: 2, arbitrary: hostilePath.map((p) => `vault-mcp://note/${p.split('/').map(encode).join('/')}`) },
  { weight: 1, arbitrary: hostilePath.map((p) => `vault-mcp://note/${encode(p)}`) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      hostileString,
      fc.constantFrom(
        'vault-mcp://note/',
        'VAULT-MCP://NOTE/Plain.md',
        'vault-mcp://other/x',
        'file:///etc/passwd',
        'vault-mcp://note/%',
        'vault-mcp://note/%E0%A4%A',
      ),
    ),
  },
);

/** A resources/list cursor: absent, a well-formed one after any path, or junk. */
const cursor: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  hostilePath.map((after) => Buffer.from(JSON.stringify({ after }), 'utf8').toString('base64url')),
  jsonValue,
);

/** A prompt name: a skill of the vault (hidden ones included), or hostile text. */
const promptName = fc.oneof(fc.constantFrom('good', 'secret', 'capsec', 'brksec', '_private', 'linked', 'linkfile', 'GOOD'), hostileString);

/** A completion reference: the note template, a prompt, or something else. */
const completionRef: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ type: 'ref/resource', uri: 'vault-mcp://note/{+path}' }),
  promptName.map((name) => ({ type: 'ref/prompt', name })),
  fc.record(
    { type: fc.oneof(fc.constantFrom('ref/resource', 'ref/prompt', 'ref/other'), hostileString), uri: hostileString, name: hostileString },
    { requiredKeys: [] },
  ),
  jsonValue,
);

/**
 * A request of the surfaces beside tools, method and params: resources (list with cursors,
 * templates, read, subscribe, unsubscribe), prompts (list, get with a `note` argument) and
 * completion of note paths; now and then with params of the wrong shape.
 */
export const contentRequest: fc.Arbitrary<{ method: string; params: unknown }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('resources/read', 'resources/subscribe', 'resources/unsubscribe'), resourceUri)
      .map(([method, uri]) => ({ method, params: { uri } })),
  },
  { weight: 1, arbitrary: cursor.map((c) => ({ method: 'resources/list', params: c === undefined ? {} : { cursor: c } })) },
  { weight: 1, arbitrary: fc.constantFrom('resources/templates/list', 'prompts/list').map((method) => ({ method, params: {} })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        promptName,
        fc.option(fc.dictionary(fc.oneof(fc.constant('note'), propertyName), fc.oneof(hostilePath, jsonValue), { maxKeys: 2 }), {
          nil: undefined,
        }),
      )
      .map(([name, args]) => ({ method: 'prompts/get', params: args === undefined ? { name } : { name, arguments: args } })),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(completionRef, fc.constantFrom('path', 'note', 'x'), fc.oneof(hostilePath, jsonValue))
      .map(([ref, name, value]) => ({ method: 'completion/complete', params: { ref, argument: { name, value } } })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('resources/read', 'prompts/get', 'completion/complete', 'resources/subscribe'), jsonValue)
      .map(([method, params]) => ({ method, params })),
  },
);

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'logging/setLevel',
  'completion/complete',
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/message',
];

/** A JSON-RPC message of any shape: right and wrong versions, ids, methods and params, results and errors. */
export const rpcMessage: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', '2', 2, null, '') }),
        id: fc.oneof(
          { weight: 4, arbitrary: fc.integer() },
          { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
          { weight: 1, arbitrary: fc.constantFrom(null, 1.5, true, -0) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
        ),
        method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: hostileString }),
        params: fc.oneof(
          toolCall,
          fc.jsonValue({ maxDepth: 3 }),
          fc.record({ cursor: jsonValue, level: jsonValue, protocolVersion: jsonValue, _meta: jsonValue }, { requiredKeys: [] }),
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: fc.jsonValue({ maxDepth: 2 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.integer(),
      error: fc.record({ code: fc.integer(), message: fc.string() }, { requiredKeys: [] }),
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A POST body: one message, a batch, or text that may not be JSON at all. */
export const rpcBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: rpcMessage.map((m) => JSON.stringify(m) ?? 'null') },
  { weight: 2, arbitrary: fc.array(rpcMessage, { maxLength: 6 }).map((batch) => JSON.stringify(batch)) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('', '[', '{"jsonrpc":"2.0"', 'null', '1', '""', '[[]]', '[{}]', '{"__proto__":{"method":"tools/call"}}'),
    ),
  },
);

/** The `_meta` envelope keys of protocol 2026-07-28 (SEP-2575). */
const ENVELOPE = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/** A root a forged `inputResponses` may claim: the vault's parent, other machines' paths, hostile text. */
const forgedRoot: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom('file:///', 'file:///etc', 'file://../', 'file:///tmp/../../', 'https://example.com/', 'file:///C:/Windows'),
  hostilePath.map((p) => `file:///${p}`),
  jsonValue,
);

/**
 * A forged `_meta` envelope: right and wrong protocol versions, capabilities that claim roots,
 * sampling or elicitation (or are not objects), client info of any shape, log levels of any value.
 */
const forgedEnvelope: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      [ENVELOPE.protocolVersion]: fc.oneof(
        { weight: 6, arbitrary: fc.constant('2026-07-28') },
        { weight: 1, arbitrary: fc.constantFrom('2025-11-25', '2099-01-01', '', 'x') },
        { weight: 1, arbitrary: jsonValue },
      ),
      [ENVELOPE.clientCapabilities]: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.record({ roots: fc.constant({}), sampling: fc.constant({}), elicitation: fc.constant({}) }, { requiredKeys: [] }),
        },
        { weight: 1, arbitrary: jsonValue },
      ),
      [ENVELOPE.clientInfo]: fc.oneof(
        { weight: 6, arbitrary: fc.constant({ name: 'fuzz', version: '1' }) },
        { weight: 1, arbitrary: jsonValue },
      ),
      [ENVELOPE.logLevel]: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('debug', 'info', 'emergency') },
        { weight: 1, arbitrary: jsonValue },
      ),
    },
    // Mostly a complete envelope, so that most requests get past the SDK's envelope checks.
    { requiredKeys: [ENVELOPE.protocolVersion, ENVELOPE.clientCapabilities] },
  )
  .chain((envelope) =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant(envelope) },
      { weight: 1, arbitrary: fc.constant({ [ENVELOPE.clientInfo]: envelope[ENVELOPE.clientInfo] }) },
    ),
  );

/**
 * A stateless 2026-07-28 request: a tool call or a content request whose params carry a forged
 * envelope, now and then forged `inputResponses` (roots answers naming paths outside the vault,
 * answers of any shape) and a forged `requestState`; `subscriptions/listen` and
 * `server/discover` among them. Headers say the same as the body or contradict it.
 */
export const modernRequest: fc.Arbitrary<{ method: string; params: Record<string, unknown>; headerVersion: string | null }> = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: toolCall.map((p) => ({ method: 'tools/call', params: p as Record<string, unknown> })) },
      {
        weight: 3,
        arbitrary: contentRequest.map((r) => ({
          method: r.method,
          params: (r.params && typeof r.params === 'object' && !Array.isArray(r.params) ? r.params : {}) as Record<string, unknown>,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('server/discover', 'tools/list', 'resources/list', 'prompts/list')
          .map((method) => ({ method, params: {} })),
      },
      {
        weight: 1,
        arbitrary: fc
          .record({ toolsListChanged: fc.boolean(), resourceSubscriptions: fc.array(resourceUri, { maxLength: 3 }) }, { requiredKeys: [] })
          .map((notifications) => ({ method: 'subscriptions/listen', params: { notifications } as Record<string, unknown> })),
      },
    ),
    forgedEnvelope,
    fc.option(
      fc.dictionary(
        fc.constantFrom('roots', 'roots_request', 'x', '__proto__'),
        fc.oneof(
          fc.record({
            roots: fc.array(fc.record({ uri: forgedRoot, name: fc.option(hostileString) }, { requiredKeys: ['uri'] }), { maxLength: 3 }),
          }),
          jsonValue,
        ),
        { maxKeys: 2 },
      ),
      { nil: undefined },
    ),
    fc.option(fc.oneof(hostileString, fc.constant('{"kind":"tamper-test"}')), { nil: undefined }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant('2026-07-28') },
      { weight: 1, arbitrary: fc.constantFrom('2025-11-25', 'garbage') },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
  )
  .map(([request, envelope, inputResponses, requestState, headerVersion]) => ({
    method: request.method,
    params: {
      ...request.params,
      _meta: { ...(((request.params as Record<string, unknown>)._meta as Record<string, unknown> | undefined) ?? {}), ...envelope },
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(requestState === undefined ? {} : { requestState }),
    },
    headerVersion,
  }));
