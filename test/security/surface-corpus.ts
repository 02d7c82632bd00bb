/**
 * The attack corpus of the MCP surfaces beside tools: note resources (list, templates, read,
 * subscribe), skills as prompts and the skill tools, completion, `agent_md`, client roots and
 * several vaults (the `vault` argument, forwarded `vmcpfwd.` assertions, registry entries that
 * point at something other than a Vault MCP server). Same rules as attack-corpus.ts: each case
 * has the answer it must get, and the runner also checks that no answer carries the secret mark
 * or names a hidden path ({@link HIDDEN_NAMES}), and that nothing protected changed.
 */
import { CONFINED, HIDDEN_PAIRS, TRAVERSALS, type KeyChoice, type ProbeCase, type ToolCase } from './attack-corpus';
import { PEER_HANDLES } from './peer-env';
import { HIDDEN_NAMES } from './security-env';

/**
 * - `refused`: a JSON-RPC client-mistake error (-32600/-32601/-32602/-32002) or an isError result;
 * - `answered`: any answer that is not an internal error;
 * - `empty`: an answer listing nothing (no completion values, no resources, no prompts).
 */
export type RpcExpect = 'refused' | 'answered' | 'empty';

/** One JSON-RPC request (not tools/call) in a session. */
export interface RpcCase {
  kind: 'rpc';
  family: string;
  id: string;
  method: string;
  params: unknown;
  key?: KeyChoice;
  expect: RpcExpect;
  /** Strings the answer must not contain (hidden paths); default {@link HIDDEN_NAMES}. */
  forbid?: readonly string[];
}

/** A hidden thing and a missing one through a JSON-RPC method: the answers must match once both are masked. */
export interface RpcProbeCase {
  kind: 'rpc-probe';
  family: string;
  id: string;
  method: string;
  hidden: string;
  missing: string;
  params: (name: string) => unknown;
  key?: KeyChoice;
}

/**
 * A client declaring MCP roots (`roots` is the roots/list answer's `roots`, `{VAULT}` and
 * `{OUTSIDE}` filled in): the session may then touch only `expect` folders (`key`: the key's own
 * folders apply; `blocked`: nothing, every call refused).
 */
export interface RootsCase {
  kind: 'roots';
  family: string;
  id: string;
  roots: unknown;
  key?: 'valid' | 'rooted';
  expect: { folders: string[] } | 'key' | 'blocked';
}

/** How a forwarded assertion is made (see forward-runner). */
export interface ForwardRecipe {
  /** Whose private key signs: the registered peer's or a stranger's. */
  signer: 'peer' | 'stranger';
  iss?: 'peer' | 'stranger' | 'self';
  aud?: 'self' | 'peer' | 'other';
  label?: string;
  roots?: unknown;
  /** Shifts the signing clock, ms (negative: an old token). */
  shiftMs?: number;
  /** Changes the token after signing. */
  tamper?: 'label' | 'signature' | 'extra-part' | 'not-json' | 'proto-keys' | 'huge';
}

/**
 * An HTTP request carrying a forwarded assertion instead of a key token. `replay` sends the same
 * token twice (the second is judged); `then` continues a session the assertion opened with a
 * further request (each with a fresh assertion of the same recipe) and judges that one.
 */
export interface ForwardCase {
  kind: 'forward';
  family: string;
  id: string;
  recipe: ForwardRecipe;
  replay?: boolean;
  then?: { tool: string; args: Record<string, unknown>; expect: 'refused' | 'answered' } | { sessionOfKey: 'valid' };
  expect: { status: number[] };
}

/**
 * A tool call forwarded (through the `vault` argument) to a registry entry that is not a Vault
 * MCP server: whatever it does, no key token of this vault and no tool arguments may reach it.
 */
export interface ForeignCase {
  kind: 'foreign';
  family: string;
  id: string;
  handle: string;
  tool: string;
  args: Record<string, unknown>;
}

export type SurfaceCase = RpcCase | RpcProbeCase | RootsCase | ForwardCase | ForeignCase;

/**
 * Traversal spellings that name a place inside the vault, where the tool cases before may have
 * created a note (`pct-double` decoded once is the literal `%2e%2e/…` of `pct-dots`): these may
 * be answered; the secret-mark and sentinel checks still apply.
 */
const INSIDE = new Set([...CONFINED, 'pct-dots']);

const NOTE = 'vault-mcp://note/';
const TEMPLATE = `${NOTE}{+path}`;

/** Every way to put a path into a note URI: as is, each segment encoded, all of it encoded, doubly encoded. */
const URI_SPELLINGS: Array<[string, (path: string) => string]> = [
  ['raw', (p) => NOTE + p],
  ['segments', (p) => NOTE + p.split('/').map(encodeURIComponent).join('/')],
  ['whole', (p) => NOTE + encodeURIComponent(p)],
  ['double', (p) => NOTE + encodeURIComponent(encodeURIComponent(p))],
];

const uriTraversals: RpcCase[] = TRAVERSALS.flatMap(([name, path]) =>
  URI_SPELLINGS.flatMap(([spelling, uri]) =>
    ['resources/read', 'resources/subscribe'].map((method): RpcCase => ({
      // Spellings that name a place inside the vault (the tool cases before may have created a note there) may be answered.
      kind: 'rpc',
      family: 'traversal',
      id: `${name} (${spelling} URI) via ${method}`,
      method,
      params: { uri: uri(path) },
      expect: INSIDE.has(name) ? 'answered' : 'refused',
    })),
  ),
);

const completionTraversals: RpcCase[] = TRAVERSALS.flatMap(([name, path]) =>
  [
    ['template', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'path', value: path } }],
    ['prompt', { ref: { type: 'ref/prompt', name: 'good' }, argument: { name: 'note', value: path } }],
  ].map(([via, params]): RpcCase => ({
    kind: 'rpc',
    family: 'traversal',
    id: `${name} via completion (${via as string})`,
    method: 'completion/complete',
    params,
    expect: INSIDE.has(name) ? 'answered' : 'empty',
  })),
);

const promptNoteTraversals: RpcCase[] = TRAVERSALS.map(([name, path]): RpcCase => ({
  kind: 'rpc',
  family: 'traversal',
  id: `${name} via prompts/get note`,
  method: 'prompts/get',
  params: { name: 'good', arguments: { note: path } },
  expect: INSIDE.has(name) ? 'answered' : 'refused',
}));

/** Hidden notes against missing twins through resources/read, subscribe, prompts/get's note, and the same again for a rooted key. */
const resourceProbes: RpcProbeCase[] = [
  ...HIDDEN_PAIRS,
  ['skill-file-private', 'Skills/good/hidden-ref.md', 'Skills/good/hidden-ref2.md'],
  ['agents-md-private', 'Gov/AGENTS.md', 'Gov/AGENTZ.md'],
  ['agents-md-linked-out', 'Gov/Sub/AGENTS.md', 'Gov/Sub/AGENTZ.md'],
  ['skill-linked-out', 'Skills/linked/SKILL.md', 'Skills/linkes/SKILL.md'],
].flatMap(([name, hidden, missing]) =>
  (
    [
      ['resources/read', (p: string) => ({ uri: NOTE + p })],
      ['resources/read (encoded)', (p: string) => ({ uri: NOTE + p.split('/').map(encodeURIComponent).join('/') })],
      ['resources/subscribe', (p: string) => ({ uri: NOTE + p })],
      ['resources/unsubscribe', (p: string) => ({ uri: NOTE + p })],
      ['prompts/get note', (p: string) => ({ name: 'good', arguments: { note: p } })],
      ['prompts/get note (no .md)', (p: string) => ({ name: 'good', arguments: { note: p.replace(/\.md$/, '') } })],
    ] as const
  ).map(([route, params]): RpcProbeCase => ({
    kind: 'rpc-probe',
    family: 'hidden-probe',
    id: `${name} via ${route}`,
    method: route.split(' ')[0],
    hidden,
    missing,
    params,
  })),
);

const rootedResourceProbes: RpcProbeCase[] = (
  [
    ['resources/read', (p: string) => ({ uri: NOTE + p })],
    ['resources/subscribe', (p: string) => ({ uri: NOTE + p })],
    ['prompts/get note', (p: string) => ({ name: 'good', arguments: { note: p } })],
  ] as const
).map(([route, params]): RpcProbeCase => ({
  kind: 'rpc-probe',
  family: 'hidden-probe',
  id: `outside roots via ${route}`,
  method: route.split(' ')[0],
  hidden: 'Public/Open.md',
  missing: 'Public/Opem.md',
  params,
  key: 'rooted',
}));

/** A note below a link out of the vault against one in a missing folder: reads must not tell the link exists (for a rooted key too). */
const linkedFolderProbes: ProbeCase[] = (['valid', 'rooted'] as const).flatMap((key) =>
  (
    [
      ['read_note', (path: string) => ({ path })],
      ['read_note', (path: string) => ({ id: `path:${path}` })],
      ['read_notes', (path: string) => ({ paths: [path] })],
      ['get_links', (path: string) => ({ path })],
    ] as const
  ).flatMap(([tool, args], i) =>
    [
      ['LinkedDir/secret.md', 'LinkedDor/secret.md'],
      ['Public/Deep/note.md', 'Public/Daep/note.md'],
    ].map(([hidden, missing]): ProbeCase => ({
      kind: 'probe',
      family: 'hidden-probe',
      id: `below ${hidden.split('/').slice(0, -1).join('/')} vs a missing folder via ${tool} #${i} (${key})`,
      tool,
      hidden,
      missing,
      args,
      key,
    })),
  ),
);

/** Hidden skills against missing ones by id: prompts/get, completion of their argument, skill_read. */
const skillProbes: RpcProbeCase[] = [
  ['private', 'secret', 'secreu'],
  ['private-capital-key', 'capsec', 'capsed'],
  ['private-broken-yaml', 'brksec', 'brksed'],
  ['quarantined', '_private', '_privatf'],
  ['linked-out folder', 'linked', 'linkee'],
  ['linked-out SKILL.md', 'linkfile', 'linkfilf'],
].flatMap(([name, hidden, missing]) =>
  (
    [
      ['prompts/get', (id: string) => ({ name: id })],
      ['prompts/get', (id: string) => ({ name: id, arguments: { note: 'Plain.md' } })],
      ['completion/complete', (id: string) => ({ ref: { type: 'ref/prompt', name: id }, argument: { name: 'note', value: '' } })],
      ['tools/call', (id: string) => ({ name: 'skill_read', arguments: { id } })],
    ] as const
  ).map(([method, params], i): RpcProbeCase => ({
    kind: 'rpc-probe',
    family: 'hidden-probe',
    id: `skill ${name} via ${method} #${i}`,
    method,
    hidden,
    missing,
    params,
  })),
);

/**
 * A skill's files through `skill_read {id, file}` (the one route that reads a file that is no
 * note): a private note, a file behind a link out of the vault, one in a quarantined subfolder
 * of the skill, a link to a private note in the vault and a hard link of a quarantined note, by relative and by vault path, against a missing twin; and another skill's hidden
 * files reached with `..`. For the force and the propose key.
 */
const skillFileProbes: RpcProbeCase[] = (['valid', 'propose'] as const).flatMap((key) =>
  [
    ['private note', 'hidden-ref.md', 'hidden-ref2.md'],
    ['private note by vault path', 'Skills/good/hidden-ref.md', 'Skills/good/hidden-ref2.md'],
    ['private note ignoring case', 'HIDDEN-REF.md', 'HIDDEN-REF2.md'],
    ['linked out', 'linked.txt', 'linkee.txt'],
    ['linked out by vault path', 'Skills/good/linked.txt', 'Skills/good/linkee.txt'],
    ['quarantined subfolder', '_private/q.txt', '_private/r.txt'],
    ['link to a private note', 'private-link.txt', 'private-linj.txt'],
    ['link to a private note by vault path', 'Skills/good/private-link.txt', 'Skills/good/private-linj.txt'],
    ['hard link of a quarantined note', 'hard.txt', 'hare.txt'],
    ['hidden skill by ..', '../secret/SKILL.md', '../secreu/SKILL.md'],
    ['linked-out skill by ..', '../linked/SKILL.md', '../linkee/SKILL.md'],
  ].map(([name, hidden, missing]): RpcProbeCase => ({
    kind: 'rpc-probe',
    family: 'hidden-probe',
    id: `skill file ${name} via skill_read file (${key})`,
    method: 'tools/call',
    hidden,
    missing,
    params: (file: string) => ({ name: 'skill_read', arguments: { id: 'good', file } }),
    key,
  })),
);

/** Traversal spellings as a skill file: none names a file of the skill, so every one is refused. */
const skillFileTraversals: RpcCase[] = TRAVERSALS.map(([name, path]): RpcCase => ({
  kind: 'rpc',
  family: 'traversal',
  id: `${name} via skill_read file`,
  method: 'tools/call',
  params: { name: 'skill_read', arguments: { id: 'good', file: path } },
  expect: 'refused',
}));

const COMPLETION_PREFIXES = [
  '',
  'S',
  'Secret/',
  'Secret/K',
  'Cap',
  'Brk',
  'Dup',
  'Ovr',
  '_',
  '_private/',
  '.',
  '.hidden/',
  'L',
  'LinkedDir/',
  'p',
  'passwd',
  'Public/',
  'Public/D',
  'Skills/',
  'Skills/s',
  'Skills/l',
  'Gov/',
  'Gov/A',
  'Gov/Sub/',
  'gov/agents',
  'SECRET/KX',
];

/** Listings of the new surfaces: nothing hidden may be named (default forbid list), no secret text. */
const surfaceListings: RpcCase[] = [
  ...(['valid', 'rooted', 'propose'] as const).flatMap((key): RpcCase[] => [
    { kind: 'rpc', family: 'hidden-listing', id: `resources/list (${key})`, method: 'resources/list', params: {}, key, expect: 'answered' },
    { kind: 'rpc', family: 'hidden-listing', id: `prompts/list (${key})`, method: 'prompts/list', params: {}, key, expect: 'answered' },
    {
      kind: 'rpc',
      family: 'hidden-listing',
      id: `skills_list (${key})`,
      method: 'tools/call',
      params: { name: 'skills_list', arguments: {} },
      key,
      expect: 'answered',
    },
    {
      kind: 'rpc',
      family: 'hidden-listing',
      id: `skill_read good (${key})`,
      method: 'tools/call',
      params: { name: 'skill_read', arguments: { id: 'good' } },
      key,
      expect: 'answered',
    },
    {
      kind: 'rpc',
      family: 'hidden-listing',
      id: `prompts/get good (${key})`,
      method: 'prompts/get',
      params: { name: 'good' },
      key,
      expect: 'answered',
    },
  ]),
  {
    kind: 'rpc',
    family: 'hidden-listing',
    id: 'resources/templates/list',
    method: 'resources/templates/list',
    params: {},
    expect: 'answered',
  },
  ...COMPLETION_PREFIXES.flatMap((value): RpcCase[] => [
    {
      kind: 'rpc',
      family: 'hidden-listing',
      id: `completion template ${JSON.stringify(value)}`,
      method: 'completion/complete',
      params: { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'path', value } },
      expect: 'answered',
    },
    {
      kind: 'rpc',
      family: 'hidden-listing',
      id: `completion prompt ${JSON.stringify(value)}`,
      method: 'completion/complete',
      params: { ref: { type: 'ref/prompt', name: 'good' }, argument: { name: 'note', value } },
      expect: 'answered',
    },
  ]),
  ...['', 'R', 'P', 'Public/', 'Secret/'].map((value): RpcCase => ({
    kind: 'rpc',
    family: 'hidden-listing',
    id: `completion template ${JSON.stringify(value)} (rooted)`,
    method: 'completion/complete',
    key: 'rooted',
    params: { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'path', value } },
    expect: value.startsWith('R') || value === '' ? 'answered' : 'empty',
    forbid: [...HIDDEN_NAMES, 'Public/', 'Plain.md', 'Secret/Open.md'],
  })),
  {
    kind: 'rpc',
    family: 'hidden-listing',
    id: 'resources/list (rooted) shows only its roots',
    method: 'resources/list',
    params: {},
    key: 'rooted',
    expect: 'answered',
    forbid: [...HIDDEN_NAMES, 'Public/', 'Plain.md'],
  },
  ...[
    Buffer.from(JSON.stringify({ after: 'Secret/Kx0' })).toString('base64url'),
    Buffer.from(JSON.stringify({ after: '' })).toString('base64url'),
    Buffer.from(JSON.stringify({ after: '_private/' })).toString('base64url'),
  ].map((cursor, i): RpcCase => ({
    kind: 'rpc',
    family: 'hidden-listing',
    id: `resources/list forged cursor #${i}`,
    method: 'resources/list',
    params: { cursor },
    expect: 'answered',
  })),
  ...['Public/Open.md', 'Gov/Note.md', 'Gov/Brk/Note.md', 'Gov/Sub/Note.md', 'Skills/good/SKILL.md'].map((path): RpcCase => ({
    kind: 'rpc',
    family: 'agent-md',
    id: `read_note ${path}`,
    method: 'tools/call',
    params: { name: 'read_note', arguments: { path } },
    expect: 'answered',
  })),
  {
    kind: 'rpc',
    family: 'agent-md',
    id: 'read_notes under hidden AGENTS.md files',
    method: 'tools/call',
    params: { name: 'read_notes', arguments: { paths: ['Gov/Note.md', 'Gov/Brk/Note.md', 'Gov/Sub/Note.md'] } },
    expect: 'answered',
  },
  {
    kind: 'rpc',
    family: 'agent-md',
    id: 'resources/read under a hidden AGENTS.md',
    method: 'resources/read',
    params: { uri: `${NOTE}Gov/Note.md` },
    expect: 'answered',
  },
];

/** Client mistakes in the new methods: refused with -32602 (or -32002), never an internal error. */
const surfaceMistakes: RpcCase[] = [
  ['resources/read', {}],
  ['resources/read', { uri: 5 }],
  ['resources/read', { uri: '' }],
  ['resources/read', { uri: NOTE }],
  ['resources/read', { uri: `${NOTE}%` }],
  ['resources/read', { uri: `${NOTE}%E0%A4%A` }],
  ['resources/read', { uri: `${NOTE}%ud800` }],
  ['resources/read', { uri: 'file:///etc/passwd' }],
  ['resources/read', { uri: `VAULT-MCP://NOTE/Plain.md/../../Secret/Kx1.md` }],
  ['resources/read', { uri: `${NOTE}${'a/'.repeat(5000)}x.md` }],
  ['resources/read', { uri: `${NOTE}Plain.md?x=1` }],
  ['resources/read', { uri: `${NOTE}Plain.md#frag` }],
  ['resources/read', { uri: `${NOTE}Plain.md\u0000` }],
  // A lone surrogate once made unsubscribe re-encode the path and fail with -32603 (found by the fuzz).
  ...['resources/read', 'resources/subscribe', 'resources/unsubscribe'].map((method) => [method, { uri: `${NOTE}a\udfff/../Plain.md` }]),
  ['resources/unsubscribe', { uri: `${NOTE}\ud800` }],
  ['resources/subscribe', { uri: 'vault-mcp://other/x' }],
  ['resources/unsubscribe', { uri: 'vault-mcp://other/x' }],
  ['resources/list', { cursor: 'not-a-cursor' }],
  ['resources/list', { cursor: 5 }],
  ['resources/list', { cursor: Buffer.from('{"after":{"__proto__":{"x":1}}}').toString('base64url') }],
  ['resources/list', { cursor: 'x'.repeat(100000) }],
  ['prompts/get', {}],
  ['prompts/get', { name: '__proto__' }],
  ['prompts/get', { name: 'constructor' }],
  ['prompts/get', { name: '../Secret' }],
  ['prompts/get', { name: 'good', arguments: { note: 5 } }],
  ['prompts/get', { name: 'good', arguments: { other: 'x' } }],
  ['prompts/get', { name: 'good', arguments: { constructor: 'x' } }],
  ['completion/complete', {}],
  ['completion/complete', { ref: { type: 'ref/resource', uri: 'vault-mcp://other/{x}' }, argument: { name: 'x', value: '' } }],
  ['completion/complete', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'nope', value: '' } }],
  ['completion/complete', { ref: { type: 'ref/prompt', name: 'good' }, argument: { name: 'nope', value: '' } }],
  ['completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'path', value: '' } }],
].map(([method, params], i): RpcCase => ({
  kind: 'rpc',
  family: 'framing',
  id: `${method as string} mistake #${i}`,
  method: method as string,
  params,
  expect: 'refused',
}));
// Asking for prompts of an unknown name completes to nothing (completion only helps typing).
surfaceMistakes.push({
  kind: 'rpc',
  family: 'framing',
  id: 'completion of an unknown prompt',
  method: 'completion/complete',
  params: { ref: { type: 'ref/prompt', name: '../Secret' }, argument: { name: 'note', value: '' } },
  expect: 'empty',
});

/** Hostile and narrowing client roots; `{VAULT}`/`{OUTSIDE}` are absolute folders. */
const rootsCases: RootsCase[] = (
  [
    ['outside the vault', [{ uri: 'file://{OUTSIDE}' }], 'key'],
    ['dot-dot out', [{ uri: 'file://{VAULT}/../outside' }], 'key'],
    ['encoded dot-dot', [{ uri: 'file://{VAULT}/%2e%2e/outside' }], 'key'],
    ['encoded slashes', [{ uri: 'file://{VAULT}/Public%2f..%2f..%2foutside' }], 'key'],
    ['backslashes', [{ uri: 'file://{VAULT}\\..\\outside' }], 'key'],
    ['dot-dot back in', [{ uri: 'file://{VAULT}/Public/../Secret' }], 'key'],
    ['other host', [{ uri: 'file://evil.com{VAULT}/Public' }], 'key'],
    ['query', [{ uri: 'file://{VAULT}/Public?x=1' }], 'key'],
    ['fragment', [{ uri: 'file://{VAULT}/Public#x' }], 'key'],
    ['NUL', [{ uri: 'file://{VAULT}/Public%00' }], 'key'],
    ['raw NUL', [{ uri: 'file://{VAULT}/Public\u0000/x' }], 'key'],
    ['http scheme', [{ uri: 'http://127.0.0.1{VAULT}/Public' }], 'key'],
    ['relative', [{ uri: 'file:Public' }], 'key'],
    ['not a string', [{ uri: 5 }, { uri: null }, {}, 'file:///'], 'key'],
    ['not a list', 'file:///', 'key'],
    ['over-long', [{ uri: `file://{VAULT}/${'a'.repeat(5000)}` }], 'key'],
    ['1000 roots', Array.from({ length: 1000 }, (_, i) => ({ uri: `file:///nowhere/${i}` })), 'key'],
    ['prototype keys', [{ uri: 'file://{VAULT}/Public', __proto__: { uri: 'file:///' } }], { folders: ['Public'] }],
    ['file system root', [{ uri: 'file:///' }], 'key'],
    ['the vault', [{ uri: 'file://{VAULT}' }], 'key'],
    ['a folder', [{ uri: 'file://{VAULT}/Public' }], { folders: ['Public'] }],
    ['a folder, trailing dots', [{ uri: 'file://{VAULT}/./Public/.' }], { folders: ['Public'] }],
    ['a folder holding private notes', [{ uri: 'file://{VAULT}/Secret' }], { folders: ['Secret'] }],
    ['a link out of the vault', [{ uri: 'file://{VAULT}/LinkedDir' }], { folders: ['LinkedDir'] }],
    ['a quarantined folder', [{ uri: 'file://{VAULT}/_private' }], { folders: ['_private'] }],
    // Folded to the vault's own spelling: still a narrowing, never more than the key allows.
    ['wrong case', [{ uri: 'file://{VAULT}/public' }], { folders: ['Public'] }],
    ['one good, one hostile', [{ uri: 'file://{VAULT}/Public' }, { uri: 'file://{VAULT}/../outside' }], { folders: ['Public'] }],
  ] as Array<[string, unknown, RootsCase['expect']]>
).map(([id, roots, expect]): RootsCase => ({ kind: 'roots', family: 'client-roots', id, roots, expect }));
rootsCases.push(
  {
    kind: 'roots',
    family: 'client-roots',
    id: 'rooted key, root is the vault',
    roots: [{ uri: 'file://{VAULT}' }],
    key: 'rooted',
    expect: 'key',
  },
  { kind: 'roots', family: 'client-roots', id: 'rooted key, root is /', roots: [{ uri: 'file:///' }], key: 'rooted', expect: 'key' },
  {
    kind: 'roots',
    family: 'client-roots',
    id: 'rooted key, root elsewhere in the vault',
    roots: [{ uri: 'file://{VAULT}/Public' }],
    key: 'rooted',
    expect: 'blocked',
  },
  {
    kind: 'roots',
    family: 'client-roots',
    id: 'rooted key, root outside',
    roots: [{ uri: 'file://{OUTSIDE}' }],
    key: 'rooted',
    expect: 'key',
  },
);

const fwd = (id: string, recipe: ForwardRecipe, status: number[], extra: Partial<ForwardCase> = {}): ForwardCase => ({
  kind: 'forward',
  family: 'forward-token',
  id,
  recipe,
  expect: { status },
  ...extra,
});
const forwardCases: ForwardCase[] = [
  fwd('signed by the registered peer (control)', { signer: 'peer' }, [200]),
  fwd('replayed', { signer: 'peer' }, [401], { replay: true }),
  fwd('expired', { signer: 'peer', shiftMs: -31_000 }, [401]),
  fwd('expiry far ahead', { signer: 'peer', shiftMs: 10 * 60_000 }, [401]),
  fwd('wrong audience (the peer)', { signer: 'peer', aud: 'peer' }, [401]),
  fwd('wrong audience (another vault)', { signer: 'peer', aud: 'other' }, [401]),
  fwd('forged: a stranger signs as the peer', { signer: 'stranger', iss: 'peer' }, [401]),
  fwd('unregistered issuer', { signer: 'stranger', iss: 'stranger' }, [401]),
  fwd('issuer is this vault', { signer: 'stranger', iss: 'self' }, [401]),
  fwd('label changed after signing', { signer: 'peer', tamper: 'label' }, [401]),
  fwd('signature changed', { signer: 'peer', tamper: 'signature' }, [401]),
  fwd('extra part', { signer: 'peer', tamper: 'extra-part' }, [401]),
  fwd('payload not JSON', { signer: 'peer', tamper: 'not-json' }, [401]),
  fwd('prototype keys in the claims', { signer: 'peer', tamper: 'proto-keys' }, [401]),
  fwd('64 KiB token', { signer: 'peer', tamper: 'huge' }, [401, 431]),
  fwd('roots not a list', { signer: 'peer', roots: 'file:///' }, [401]),
  fwd('label of a revoked key', { signer: 'peer', label: 'Revoked client' }, [403]),
  fwd('label of a cloud-only key', { signer: 'peer', label: 'Cloud client' }, [403]),
  fwd('label of no key', { signer: 'peer', label: 'Nobody' }, [403]),
  fwd('label 201 chars', { signer: 'peer', label: 'x'.repeat(201) }, [401]),
  fwd('rooted label with roots "/" stays in its roots', { signer: 'peer', label: 'Rooted client', roots: ['/'] }, [200], {
    then: { tool: 'read_note', args: { path: 'Public/Open.md' }, expect: 'refused' },
  }),
  fwd('roots outside the vault do not widen a rooted key', { signer: 'peer', label: 'Rooted client', roots: ['/tmp', '/'] }, [200], {
    then: { tool: 'list_notes', args: { folder: 'Public' }, expect: 'refused' },
  }),
  fwd('forwarded call reads a private note', { signer: 'peer' }, [200], {
    then: { tool: 'read_note', args: { path: 'Secret/Kx1.md' }, expect: 'refused' },
  }),
  fwd('forwarded call forwards again', { signer: 'peer' }, [200], {
    then: { tool: 'read_note', args: { path: 'Plain.md', vault: PEER_HANDLES.peer }, expect: 'refused' },
  }),
  fwd("forwarded assertion on the run key's session", { signer: 'peer', label: 'Rooted client' }, [403], {
    then: { sessionOfKey: 'valid' },
  }),
];

/** Tool calls whose `vault` argument is hostile: unknown handles and paths are refused; this vault's own folder runs here. */
const vaultArgCases: ToolCase[] = [
  ['..', 'refused'],
  ['../vault', 'refused'],
  ['{VAULT}/..', 'refused'],
  ['{OUTSIDE}', 'refused'],
  ['{VAULT}/../outside', 'refused'],
  ['/', 'refused'],
  ['/etc/passwd', 'refused'],
  ['file://{VAULT}', 'refused'],
  ['%2e%2e', 'refused'],
  ['', 'refused'],
  [' ', 'refused'],
  ['\u0000', 'refused'],
  ['a'.repeat(5000), 'refused'],
  ['__proto__', 'refused'],
  ['constructor', 'refused'],
  ['Nowhere', 'refused'],
  ['a1a1a1', 'refused'],
  ['{VAULT}', 'answered'],
  ['{VAULT}/', 'answered'],
  ['{VAULT}/./', 'answered'],
  ['vault', 'answered'],
  ['VAULT', 'answered'],
].map(([vault, expect]): ToolCase => ({
  kind: 'tool',
  family: 'vault-arg',
  id: `vault ${JSON.stringify(vault.slice(0, 40))}`,
  tool: 'read_note',
  args: { path: 'Plain.md', vault },
  expect: expect as 'refused' | 'answered',
}));
vaultArgCases.push(
  { kind: 'tool', family: 'vault-arg', id: 'vault a number', tool: 'read_note', args: { path: 'Plain.md', vault: 3 }, expect: 'refused' },
  { kind: 'tool', family: 'vault-arg', id: 'vault null', tool: 'read_note', args: { path: 'Plain.md', vault: null }, expect: 'refused' },
  {
    kind: 'tool',
    family: 'vault-arg',
    id: 'vault an object',
    tool: 'read_note',
    args: { json: '{"path":"Plain.md","vault":{"__proto__":"x"}}' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'vault-arg',
    id: "private note through this vault's own path",
    tool: 'read_note',
    args: { path: 'Secret/Kx1.md', vault: '{VAULT}' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'vault-arg',
    id: "traversal through this vault's own path",
    tool: 'read_note',
    args: { path: '../outside/secret.md', vault: '{VAULT}' },
    expect: 'refused',
  },
);

const foreignCases: ForeignCase[] = [
  PEER_HANDLES.notFound,
  PEER_HANDLES.impostor,
  PEER_HANDLES.selfPort,
  PEER_HANDLES.closed,
  PEER_HANDLES.peer,
].flatMap((handle) =>
  (
    [
      ['read_note', { path: 'Plain.md' }],
      ['write_note', { path: 'Plain.md', body: 'pwned\n' }],
    ] as const
  ).map(([tool, args]): ForeignCase => ({
    kind: 'foreign',
    family: 'forward-foreign',
    id: `${tool} to ${handle}`,
    handle,
    tool,
    args: { ...args, vault: handle },
  })),
);

/** The whole surface corpus, in the order the runner tries it. */
export const SURFACE_CORPUS: ReadonlyArray<SurfaceCase | ToolCase | ProbeCase> = [
  ...linkedFolderProbes,
  ...surfaceListings,
  ...resourceProbes,
  ...rootedResourceProbes,
  ...skillProbes,
  ...skillFileProbes,
  ...uriTraversals,
  ...skillFileTraversals,
  ...completionTraversals,
  ...promptNoteTraversals,
  ...surfaceMistakes,
  ...rootsCases,
  ...forwardCases,
  ...vaultArgCases,
  ...foreignCases,
];
