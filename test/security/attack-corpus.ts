/**
 * The attack corpus: every case an attacker or a careless client would try, each with the
 * answer it must get. `corpus-runner.ts` runs them against the real plugin over HTTP; after
 * every case it also checks that nothing outside the vault and no protected note changed, no
 * answer carries the secret mark, and Object.prototype is clean (those are leaks whatever the
 * case expects). Placeholders in strings: `{OUTSIDE}` (absolute sentinel folder), `{VAULT}`.
 */

/** Tool arguments as JSON text (so `__proto__` stays an own key) or a plain object. */
export type CaseArgs = Record<string, unknown> | { json: string };

/** Which key a case authenticates with (see security-env tokens): the force run key, the rooted one or a propose key. */
export type KeyChoice = 'valid' | 'rooted' | 'propose';

/**
 * - `refused`: isError, or a JSON-RPC error (-32600/-32602), never a success;
 * - `answered`: any well-formed answer (a success or a refusal) that is not an internal error.
 */
export type ToolExpect = 'refused' | 'answered';

export interface ToolCase {
  kind: 'tool';
  family: string;
  id: string;
  tool: string;
  args: CaseArgs;
  key?: KeyChoice;
  expect: ToolExpect;
  /** Extra check after the call: a leak description, or null. */
  after?: 'proto-readable';
}

/** A hidden entry and a missing one at the same place: every tool must answer both alike once the path is masked. */
export interface ProbeCase {
  kind: 'probe';
  family: string;
  id: string;
  tool: string;
  hidden: string;
  missing: string;
  /** Arguments naming `path`. */
  args: (path: string) => Record<string, unknown>;
  key?: KeyChoice;
}

/** A raw HTTP request and the status (and JSON-RPC code) it must get. */
export interface HttpCase {
  kind: 'http';
  family: string;
  id: string;
  method?: string;
  /** Credentials: a token kind, `none`, a wrong token, or a near miss of the valid one. */
  auth: 'valid' | 'none' | 'wrong' | 'revoked' | 'cloud' | 'rooted' | 'prefix' | 'suffix' | 'basic' | 'empty';
  /**
   * Send the run key's session id (a session opened with the valid key at 2025-06-18);
   * `batching`: its 2025-03-26 session, the last revision that allows JSON-RPC batches.
   */
  session?: boolean | 'batching';
  headers?: Record<string, string>;
  body?: string | (() => string);
  expect: { status: number[]; code?: number };
}

/** Bytes written straight to a socket (what no HTTP client would send). */
export interface SocketCase {
  kind: 'socket';
  family: string;
  id: string;
  /** Request head and body, `{PORT}` replaced. */
  data: string;
  /** Keep the socket open and dribble one more header line every second (slowloris). */
  dribble?: boolean;
  /** `status` of the answer, or `closed` when the server must hang up without one. */
  expect: { status: number[] } | 'closed';
}

/** A property of the key comparison judged from the code path taken, never from a clock. */
export interface TimingCase {
  kind: 'timing';
  family: string;
  id: string;
  presented: string;
}

export type AttackCase = ToolCase | ProbeCase | HttpCase | SocketCase | TimingCase;

const JSONRPC = (method: string, params: unknown, id: number | string = 7): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });
const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** Paths that try to leave the vault, in every spelling: the agent must never reach `{OUTSIDE}`. */
export const TRAVERSALS: Array<[string, string]> = [
  ['dotdot', '../outside/secret.md'],
  ['dotdot-deep', 'Public/../../outside/secret.md'],
  ['dotdot-many', '../../../../../../etc/passwd'],
  ['pct-dots', '%2e%2e/outside/secret.md'],
  ['pct-slash', '..%2foutside%2fsecret.md'],
  ['pct-upper', '%2E%2E%2Foutside%2Fsecret.md'],
  ['pct-double', '%252e%252e/outside/secret.md'],
  ['backslash', '..\\outside\\secret.md'],
  ['pct-backslash', '..%5coutside%5csecret.md'],
  ['absolute', '{OUTSIDE}/secret.md'],
  ['absolute-dotdot', '{VAULT}/../outside/secret.md'],
  ['file-url', 'file://{OUTSIDE}/secret.md'],
  ['windows-drive', 'C:\\Windows\\win.ini'],
  ['windows-drive-fwd', 'C:/Windows/win.ini'],
  ['unc', '\\\\server\\share\\secret.md'],
  ['nul', 'Plain.md\u0000../../outside/secret.md'],
  ['pct-nul', 'Plain.md%00.txt'],
  ['fullwidth-dots', '\uff0e\uff0e/outside/secret.md'],
  ['onedot-leader', '\u2024\u2024/outside/secret.md'],
  ['dots-slashes', '....//outside/secret.md'],
  ['symlink-dir', 'LinkedDir/secret.md'],
  ['symlink-dir-deeper', 'LinkedDir/deeper/note.md'],
  ['symlink-file', 'passwd.md'],
  ['symlink-nested', 'Public/Deep/note.md'],
  ['quarantine-config', '.obsidian/app.json'],
];

/** Traversal spellings that name a path inside the vault (see docs/security.md#paths). */
export const CONFINED = new Set(['pct-double', 'fullwidth-dots', 'onedot-leader']);

/** One tool call per write/read route that takes a path, for traversal and probes. */
const PATH_ROUTES: Array<[string, (path: string) => Record<string, unknown>]> = [
  ['read_note', (path) => ({ path })],
  ['read_note#id', (path) => ({ id: `path:${path}` })],
  ['read_notes', (path) => ({ paths: [path] })],
  ['get_links', (path) => ({ path })],
  ['write_note', (path) => ({ path, body: 'pwned\n' })],
  ['append_note', (path) => ({ path, content: 'pwned' })],
  ['edit_note', (path) => ({ path, anchor: 'plan', op: 'replace', content: 'pwned' })],
  ['set_properties', (path) => ({ path, properties: { status: 'pwned' } })],
  ['delete_note', (path) => ({ path, confirm: true })],
  ['move_note', (path) => ({ path, to: 'Moved/pwned.md' })],
];

/** Routes that create something at a path (the path is the target, not a note to find). */
const CREATE_ROUTES: Array<[string, (path: string) => Record<string, unknown>]> = [
  ['create_note', (path) => ({ path, content: 'pwned\n' })],
  ['create_folder', (path) => ({ path: path.replace(/\.md$/, '') })],
  ['move_note#to', (path) => ({ path: 'Proto.md', to: path })],
  ['list_notes', (path) => ({ folder: path.replace(/\/[^/]*$/, '') })],
  ['list_folders', (path) => ({ folder: path.replace(/\/[^/]*$/, '') })],
];

const toolName = (route: string): string => route.split('#')[0];

const traversalCases: ToolCase[] = TRAVERSALS.flatMap(([name, path]) =>
  [...PATH_ROUTES, ...CREATE_ROUTES].map(([route, args]): ToolCase => ({
    kind: 'tool',
    family: 'traversal',
    id: `${name} via ${route}`,
    tool: toolName(route),
    args: args(path),
    // A spelling that stays inside the vault (a leading `/` is the vault root; `%252e`, `．．`
    // and `․․` are literal names) may be used; every other one is refused. Either way the
    // sentinel check proves nothing outside changed.
    expect: CONFINED.has(name) || (name === 'symlink-file' && route === 'create_folder') ? 'answered' : 'refused',
  })),
);

/** Hidden notes (private in every spelling, quarantined, behind a link out) and a missing twin at the same place. */
export const HIDDEN_PAIRS: Array<[string, string, string]> = [
  ['private', 'Secret/Kx1.md', 'Secret/Kx2.md'],
  ['private-capital-key', 'Cap1.md', 'Cap2.md'],
  ['private-broken-yaml', 'Brk1.md', 'Brk2.md'],
  ['private-duplicate-key', 'Dup1.md', 'Dup2.md'],
  ['private-indented-broken-yaml', 'Yzw1.md', 'Yzw2.md'],
  ['agent-override', 'Ovr1.md', 'Ovr2.md'],
  ['quarantine-underscore', '_private/Q1.md', '_private/Q2.md'],
  ['quarantine-dot', '.hidden/Q1.md', '.hidden/Q2.md'],
  ['symlink-dir', 'LinkedDir/secret.md', 'LinkedDir/secreu.md'],
  ['symlink-file', 'passwd.md', 'passwe.md'],
];

const probeCases: ProbeCase[] = HIDDEN_PAIRS.flatMap(([name, hidden, missing]) =>
  PATH_ROUTES.flatMap(([route, args]) =>
    [hidden, hidden.replace(/\.md$/, '')].map((spelled, i): ProbeCase => ({
      kind: 'probe',
      family: 'hidden-probe',
      id: `${name} via ${route}${i ? ' (no .md)' : ''}`,
      tool: toolName(route),
      hidden: spelled,
      missing: i ? missing.replace(/\.md$/, '') : missing,
      args,
    })),
  ),
);

/** The same probes with a propose key: staging must answer a hidden note as it answers a missing one. */
const proposeProbes: ProbeCase[] = HIDDEN_PAIRS.flatMap(([name, hidden, missing]) =>
  PATH_ROUTES.filter(([route]) => !route.startsWith('read') && route !== 'get_links').map(([route, args]): ProbeCase => ({
    kind: 'probe',
    family: 'hidden-probe',
    id: `${name} via ${route} (propose key)`,
    tool: toolName(route),
    hidden,
    missing,
    args,
    key: 'propose',
  })),
);

/** Folders that are links out of the vault against missing folders: listing or moving one must not tell them apart. */
const folderProbes: ProbeCase[] = [
  // Twins differ in an inner letter, so "did you mean" suggestions (readable notes only) rank them alike.
  ['symlink-folder', 'LinkedDir', 'LinkedDor'],
  ['symlink-folder-nested', 'Public/Deep', 'Public/Daep'],
].flatMap(([name, hidden, missing]) =>
  (
    [
      ['list_notes', (folder: string) => ({ folder })],
      ['list_folders', (folder: string) => ({ folder })],
      ['move_note', (path: string) => ({ path, to: 'Moved/Folder' })],
      ['read_note', (path: string) => ({ path })],
      ['get_links', (path: string) => ({ path })],
    ] as const
  ).map(([tool, args]): ProbeCase => ({ kind: 'probe', family: 'hidden-probe', id: `${name} via ${tool}`, tool, hidden, missing, args })),
);

const rootedProbes: ProbeCase[] = PATH_ROUTES.map(([route, args]): ProbeCase => ({
  kind: 'probe',
  family: 'hidden-probe',
  id: `outside roots via ${route}`,
  tool: toolName(route),
  hidden: 'Public/Open.md',
  missing: 'Public/Opem.md',
  args,
  key: 'rooted',
}));

const hiddenSearchCases: ToolCase[] = [
  ['search', { query: 'zqxsecretmark' }],
  ['search', { query: 'zqxsecretmark', mode: 'lexical' }],
  ['search', { query: 'zqxsecret.*', regex: true }],
  ['search', { query: 'plan' }],
  ['search', { query: 'path:Secret' }],
  ['search', { query: 'tag:zqxsecretmarktag' }],
  ['query_notes', { query: 'WHERE tags contains "zqxsecretmarktag"' }],
  ['query_notes', { query: '' }],
  ['list_notes', {}],
  ['list_notes', { folder: 'Secret' }],
  ['list_folders', {}],
  ['list_tags', {}],
  ['get_links', { path: 'Public/Open' }],
  ['read_notes', { paths: ['Secret/Kx1', 'Cap1', 'Brk1', 'passwd', 'LinkedDir/secret', '_private/Q1'] }],
  ['active_note', {}],
  ['proposal_status', {}],
].map(([tool, args], i): ToolCase => ({
  kind: 'tool',
  family: 'hidden-listing',
  id: `${tool as string} #${i}`,
  tool: tool as string,
  args: args as Record<string, unknown>,
  expect: 'answered',
}));

/** Every write route that could add, change or drop `access` / `agent_overrides`. */
const accessEditCases: ToolCase[] = [
  ...[
    { access: 'private' },
    { Access: 'read-write' },
    { ACCESS: null },
    { ' access ': 'x' },
    { agent_overrides: { 'Test client': 'no-access' } },
    { Agent_Overrides: {} },
    { '<<': { access: 'private' } },
  ].flatMap((patch, i): ToolCase[] => [
    {
      kind: 'tool',
      family: 'access-edit',
      id: `set_properties patch #${i}`,
      tool: 'set_properties',
      args: { path: 'Plain.md', properties: patch },
      expect: 'refused',
    },
    {
      kind: 'tool',
      family: 'access-edit',
      id: `write_note frontmatter_patch #${i}`,
      tool: 'write_note',
      args: { path: 'Plain.md', frontmatter_patch: patch },
      expect: 'refused',
    },
    {
      kind: 'tool',
      family: 'access-edit',
      id: `write_note body+patch #${i}`,
      tool: 'write_note',
      args: { path: 'Plain.md', body: 'x\n', frontmatter_patch: patch },
      expect: 'refused',
    },
  ]),
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'edit_note anchor in frontmatter',
    tool: 'edit_note',
    args: { path: 'Plain.md', anchor: 'status: draft', op: 'replace', content: 'access: private' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'edit_note insert_after in frontmatter',
    tool: 'edit_note',
    args: { path: 'Plain.md', anchor: 'status: draft', op: 'insert_after', content: '\nagent_overrides: {Test client: no-access}' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'edit_note breaks frontmatter',
    tool: 'edit_note',
    args: { path: 'Plain.md', anchor: 'status: draft', op: 'replace', content: 'status: "unclosed' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'edit_note heading inserts frontmatter above the first line',
    tool: 'edit_note',
    args: { path: 'Proto.md', heading: 'Proto', op: 'insert_before', content: '---\naccess: private\n---\n' },
    expect: 'refused',
    after: 'proto-readable',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'edit_note anchor inserts frontmatter above the first line',
    tool: 'edit_note',
    args: { path: 'Proto.md', anchor: '# Proto', op: 'insert_before', content: '---\nagent_overrides: {Test client: no-access}\n---\n' },
    expect: 'refused',
    after: 'proto-readable',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'append_note makes frontmatter in empty note',
    tool: 'append_note',
    args: { path: 'Empty.md', content: '---\naccess: private\n---\n' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'write_note body starting with frontmatter',
    tool: 'write_note',
    args: { path: 'Empty.md', body: '---\naccess: read-only\n---\n' },
    expect: 'refused',
  },
  ...[
    '---\naccess: private\n---\nx\n',
    '---\nAccess: read-only\n---\n',
    '---\nagent_overrides: {a: b}\n---\n',
    '---\nbase: &b {access: private}\n<<: *b\n---\n',
    '---\naccess: private\ntitle: "unclosed\n---\n',
  ].map((content, i): ToolCase => ({
    kind: 'tool',
    family: 'access-edit',
    id: `create_note with access #${i}`,
    tool: 'create_note',
    args: { path: `NewAccess${i}.md`, content },
    expect: 'refused',
  })),
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'write read-only',
    tool: 'write_note',
    args: { path: 'RO.md', body: 'x\n' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'append read-only',
    tool: 'append_note',
    args: { path: 'RO.md', content: 'x' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'loosen read-only',
    tool: 'set_properties',
    args: { path: 'RO.md', properties: { access: 'read-write' } },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'delete read-only',
    tool: 'delete_note',
    args: { path: 'RO.md', confirm: true },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move read-only',
    tool: 'move_note',
    args: { path: 'RO.md', to: 'RO2.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move into quarantine',
    tool: 'move_note',
    args: { path: 'Plain.md', to: '_private/Plain.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move into dot folder',
    tool: 'move_note',
    args: { path: 'Plain.md', to: '.hidden/Plain.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move into link out',
    tool: 'move_note',
    args: { path: 'Plain.md', to: 'LinkedDir/Plain.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move onto private',
    tool: 'move_note',
    args: { path: 'Plain.md', to: 'Secret/Kx1.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move folder holding private',
    tool: 'move_note',
    args: { path: 'Secret', to: 'Elsewhere' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move linked note (linker outside roots)',
    tool: 'move_note',
    args: { path: 'Rooted/Inside.md', to: 'Rooted/Renamed.md' },
    key: 'rooted',
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'write non-UTF-8 note',
    tool: 'append_note',
    args: { path: 'Latin1.md', content: 'x' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'move rewriting links in a non-UTF-8 note',
    tool: 'move_note',
    args: { path: 'LatinTargets/Target.md', to: 'Elsewhere/Target.md' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'folder move rewriting links in a non-UTF-8 note',
    tool: 'move_note',
    args: { path: 'LatinTargets', to: 'Elsewhere2' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'create over private',
    tool: 'create_note',
    args: { path: 'Secret/Kx1.md', content: 'x\n' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'create in quarantine',
    tool: 'create_note',
    args: { path: '_private/New.md', content: 'x\n' },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'access-edit',
    id: 'create folder in quarantine',
    tool: 'create_folder',
    args: { path: '.hidden/sub' },
    expect: 'refused',
  },
];

/** The access edits again with a propose key: nothing that would change a rule may even be staged. */
const proposeAccessEdits: ToolCase[] = accessEditCases
  .filter((c) => c.key === undefined)
  .map((c): ToolCase => ({ ...c, id: `${c.id} (propose key)`, key: 'propose' }));

/** `__proto__` / `constructor` keys in arguments and frontmatter patches. */
const protoCases: ToolCase[] = [
  {
    id: 'set_properties __proto__',
    tool: 'set_properties',
    args: { json: '{"path":"Proto.md","properties":{"__proto__":{"access":"private","polluted":1}}}' },
  },
  {
    id: 'write_note patch __proto__',
    tool: 'write_note',
    args: { json: '{"path":"Proto.md","frontmatter_patch":{"__proto__":{"access":"private"}}}' },
  },
  {
    id: 'set_properties constructor.prototype',
    tool: 'set_properties',
    args: { json: '{"path":"Proto.md","properties":{"constructor":{"prototype":{"polluted":1,"access":"private"}}}}' },
  },
  {
    id: 'set_properties prototype key',
    tool: 'set_properties',
    args: { json: '{"path":"Proto.md","properties":{"prototype":{"access":"private"}}}' },
  },
  { id: 'read_note args __proto__ path', tool: 'read_note', args: { json: '{"__proto__":{"path":"Secret/Kx1.md"}}' } },
  {
    id: 'read_note __proto__ beside path',
    tool: 'read_note',
    args: { json: '{"path":"Proto.md","__proto__":{"section":"x","max_chars":1}}' },
  },
  { id: 'search __proto__', tool: 'search', args: { json: '{"query":"plain","__proto__":{"regex":true}}' } },
  { id: 'search query constructor', tool: 'search', args: { query: 'constructor __proto__ hasOwnProperty toString' } },
  { id: 'read_note path __proto__', tool: 'read_note', args: { path: '__proto__' } },
  { id: 'read_note path constructor', tool: 'read_note', args: { path: 'constructor' } },
  { id: 'read_note id __proto__', tool: 'read_note', args: { id: '__proto__' } },
  { id: 'get_links path hasOwnProperty', tool: 'get_links', args: { path: 'hasOwnProperty' } },
  {
    id: 'create_note __proto__.md',
    tool: 'create_note',
    args: { path: '__proto__.md', content: '---\nconstructor: 1\n__proto__: {access: private}\n---\n' },
  },
  { id: 'query_notes constructor', tool: 'query_notes', args: { query: 'WHERE constructor = 1' } },
  { id: 'query_notes __proto__', tool: 'query_notes', args: { query: 'WHERE __proto__.polluted = 1' } },
].map((c): ToolCase => ({ kind: 'tool', family: 'prototype', expect: 'answered', after: 'proto-readable', ...c }));

const deepCases: ToolCase[] = [
  {
    kind: 'tool',
    family: 'deep-nesting',
    id: 'frontmatter_patch 1000 deep',
    tool: 'write_note',
    args: { path: 'Proto.md', frontmatter_patch: { deep: nested(1000) } },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'deep-nesting',
    id: 'set_properties 40 deep',
    tool: 'set_properties',
    args: { path: 'Proto.md', properties: { deep: nested(40) } },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'deep-nesting',
    id: 'search query 5000 deep',
    tool: 'search',
    args: { json: `{"query":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}` },
    expect: 'refused',
  },
  {
    kind: 'tool',
    family: 'deep-nesting',
    id: 'search 10k parentheses',
    tool: 'search',
    args: { query: `${'('.repeat(10000)}a${')'.repeat(10000)}` },
    expect: 'answered',
  },
  {
    kind: 'tool',
    family: 'deep-nesting',
    id: 'query_notes 10k parentheses',
    tool: 'query_notes',
    args: { query: `WHERE ${'('.repeat(1900)}` },
    expect: 'answered',
  },
];

const redosCases: ToolCase[] = ['(a+)+$', '(a|aa)+$', '(a|a?)+$', '([a-z]+)*!$', '(.*a){20}', '^(\\w+\\s?)*$', '(x+x+)+y'].map(
  (query, i): ToolCase => ({
    kind: 'tool',
    family: 'redos',
    id: `regex #${i} ${query}`,
    tool: 'search',
    args: { query, regex: true },
    expect: 'answered',
  }),
);
redosCases.push(
  { kind: 'tool', family: 'redos', id: 'inline /regex/ in query', tool: 'search', args: { query: '/(a+)+$/' }, expect: 'answered' },
  { kind: 'tool', family: 'redos', id: 'path:/regex/', tool: 'search', args: { query: 'path:/(a+)+$/ a' }, expect: 'answered' },
  { kind: 'tool', family: 'redos', id: 'invalid regex', tool: 'search', args: { query: '(((', regex: true }, expect: 'refused' },
);

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});
const PING = JSONRPC('ping', {});

const doorCases: HttpCase[] = [
  ...[
    'evil.com',
    'evil.com:80',
    'localhost.evil.com',
    '127.0.0.1.nip.io',
    '127.0.0.2',
    '0.0.0.0',
    '[::2]',
    '127.0.0.1:80@evil.com',
    'localhost:abc',
    'localhost:',
    ' ',
    '127.0.0.1, evil.com',
  ].map((host): HttpCase => ({
    kind: 'http',
    family: 'door-host',
    id: `Host ${JSON.stringify(host)}`,
    auth: 'valid',
    headers: { Host: host },
    body: INIT,
    expect: { status: [403, 400] },
  })),
  ...[
    'http://evil.com',
    'null',
    'http://127.0.0.1.evil.com',
    'http://localhost@evil.com',
    'https://localhost.evil.com:3000',
    'file://',
    'chrome-extension://abc',
    'app://obsidian.md.evil.com',
    'http://[::2]',
  ].map((origin): HttpCase => ({
    kind: 'http',
    family: 'door-origin',
    id: `Origin ${origin}`,
    auth: 'valid',
    headers: { Origin: origin },
    body: INIT,
    expect: { status: [403] },
  })),
  ...(['none', 'wrong', 'revoked', 'prefix', 'suffix', 'basic', 'empty'] as const).map((auth): HttpCase => ({
    kind: 'http',
    family: 'door-key',
    id: `key ${auth}`,
    auth,
    body: INIT,
    expect: { status: [401] },
  })),
  { kind: 'http', family: 'door-key', id: 'key cloud-only', auth: 'cloud', body: INIT, expect: { status: [403], code: -32004 } },
  { kind: 'http', family: 'door-key', id: 'session of another key', auth: 'rooted', session: true, body: PING, expect: { status: [403] } },
  { kind: 'http', family: 'door-key', id: 'no key in a session', auth: 'none', session: true, body: PING, expect: { status: [401] } },
  {
    kind: 'http',
    family: 'door-key',
    id: 'unknown session',
    auth: 'valid',
    headers: { 'Mcp-Session-Id': 'not-a-session' },
    body: PING,
    expect: { status: [404] },
  },
  { kind: 'http', family: 'door-key', id: 'GET without key', method: 'GET', auth: 'none', expect: { status: [401] } },
  { kind: 'http', family: 'door-key', id: 'DELETE without key', method: 'DELETE', auth: 'none', session: true, expect: { status: [401] } },
  {
    kind: 'http',
    family: 'oversize',
    id: 'declared 5 MiB body',
    auth: 'none',
    headers: { 'Content-Length': String(5 * 1024 * 1024) },
    body: '',
    expect: { status: [413] },
  },
  {
    kind: 'http',
    family: 'oversize',
    id: 'declared 5 MiB body with key',
    auth: 'valid',
    session: true,
    headers: { 'Content-Length': String(5 * 1024 * 1024) },
    body: '',
    expect: { status: [413] },
  },
  {
    kind: 'http',
    family: 'oversize',
    id: 'chunked 5 MiB body with key',
    auth: 'valid',
    session: true,
    body: () => JSONRPC('tools/call', { name: 'search', arguments: { query: 'x'.repeat(5 * 1024 * 1024) } }),
    expect: { status: [413, 0] },
  },
  {
    kind: 'http',
    family: 'oversize',
    id: '64 KiB header',
    auth: 'valid',
    headers: { 'X-Big': 'x'.repeat(64 * 1024) },
    body: INIT,
    expect: { status: [431, 0] },
  },
  {
    kind: 'http',
    family: 'oversize',
    id: '300 headers',
    auth: 'valid',
    headers: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`X-H${i}`, 'y'.repeat(60)])),
    body: INIT,
    expect: { status: [431, 0] },
  },
  {
    kind: 'http',
    family: 'oversize',
    id: '1 MiB tool argument',
    auth: 'valid',
    session: true,
    body: () => JSONRPC('tools/call', { name: 'search', arguments: { query: 'q'.repeat(1024 * 1024) } }),
    expect: { status: [200] },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: '2000 pings in a batch',
    auth: 'valid',
    session: 'batching',
    body: () => JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ jsonrpc: '2.0', id: 1000 + i, method: 'ping' }))),
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: '500 regex searches in a batch',
    auth: 'valid',
    session: 'batching',
    body: () =>
      JSON.stringify(
        Array.from({ length: 500 }, (_, i) => ({
          jsonrpc: '2.0',
          id: 5000 + i,
          method: 'tools/call',
          params: { name: 'search', arguments: { query: '(a+)+$', regex: true } },
        })),
      ),
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: '100 pings in a batch (the most allowed)',
    auth: 'valid',
    session: 'batching',
    body: () => JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: 9000 + i, method: 'ping' }))),
    expect: { status: [200] },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: '20000 notifications in a batch',
    auth: 'valid',
    session: 'batching',
    body: () => JSON.stringify(Array.from({ length: 20000 }, () => ({ jsonrpc: '2.0', method: 'notifications/initialized' }))),
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: 'batch of 1000 initialize',
    auth: 'valid',
    body: () =>
      JSON.stringify(
        Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'initialize', params: JSON.parse(INIT).params })),
      ),
    expect: { status: [400] },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: '2 pings in a batch in a 2025-06-18 session (batching was removed)',
    auth: 'valid',
    session: true,
    body: () => JSON.stringify([1, 2].map((i) => ({ jsonrpc: '2.0', id: 9500 + i, method: 'ping' }))),
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'batch-bomb',
    id: 'empty batch',
    auth: 'valid',
    session: true,
    body: '[]',
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'deep-nesting',
    id: 'JSON body 100k arrays deep',
    auth: 'valid',
    session: true,
    body: () =>
      `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":${'['.repeat(100000)}${']'.repeat(100000)}}}}`,
    expect: { status: [200, 400] },
  },
  {
    kind: 'http',
    family: 'deep-nesting',
    id: 'JSON params 100k objects deep',
    auth: 'valid',
    session: true,
    body: () => `{"jsonrpc":"2.0","id":10,"method":"ping","params":${'{"a":'.repeat(100000)}1${'}'.repeat(100000)}}`,
    expect: { status: [200, 400] },
  },
  {
    kind: 'http',
    family: 'deep-nesting',
    id: 'JSON id 100k deep',
    auth: 'valid',
    session: true,
    body: () => `{"jsonrpc":"2.0","id":${'['.repeat(100000)}${']'.repeat(100000)},"method":"ping"}`,
    expect: { status: [400], code: -32600 },
  },
  {
    kind: 'http',
    family: 'deep-nesting',
    id: 'unauthenticated deep JSON',
    auth: 'none',
    body: () => '['.repeat(200000),
    expect: { status: [401] },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'not JSON',
    auth: 'valid',
    session: true,
    body: '{"jsonrpc":',
    expect: { status: [400], code: -32700 },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'prototype keys in message',
    auth: 'valid',
    session: true,
    body: '{"jsonrpc":"2.0","id":11,"method":"tools/list","__proto__":{"method":"tools/call"},"constructor":{"prototype":{"x":1}}}',
    expect: { status: [200, 400] },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'method __proto__',
    auth: 'valid',
    session: true,
    body: JSONRPC('__proto__', {}, 12),
    expect: { status: [200] },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'method constructor',
    auth: 'valid',
    session: true,
    body: JSONRPC('constructor', {}, 13),
    expect: { status: [200] },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'tools/call name __proto__',
    auth: 'valid',
    session: true,
    body: JSONRPC('tools/call', { name: '__proto__', arguments: {} }, 14),
    expect: { status: [200] },
  },
  {
    kind: 'http',
    family: 'framing',
    id: 'tools/call name toString',
    auth: 'valid',
    session: true,
    body: JSONRPC('tools/call', { name: 'toString', arguments: {} }, 15),
    expect: { status: [200] },
  },
];

const socketCases: SocketCase[] = [
  {
    kind: 'socket',
    family: 'slow',
    id: 'slowloris: headers never finished',
    data: 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n',
    dribble: true,
    expect: 'closed',
  },
  {
    kind: 'socket',
    family: 'slow',
    id: 'body promised, never sent (no key)',
    data: 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{',
    expect: { status: [401] },
  },
  {
    kind: 'socket',
    family: 'door-host',
    id: 'no Host header (HTTP/1.0)',
    data: 'POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    expect: { status: [403, 400] },
  },
  {
    kind: 'socket',
    family: 'door-host',
    id: 'two Host headers',
    data: 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.com\r\nContent-Length: 2\r\n\r\n{}',
    expect: { status: [400, 403] },
  },
  {
    kind: 'socket',
    family: 'framing',
    id: 'request smuggling: CL and TE',
    data: 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    expect: { status: [400, 401] },
  },
  { kind: 'socket', family: 'framing', id: 'garbage request line', data: '\u0000\u0001\u0002 garbage\r\n\r\n', expect: { status: [400] } },
];

const timingCases: TimingCase[] = [
  { kind: 'timing', family: 'token-timing', id: 'valid token', presented: '{VALID}' },
  { kind: 'timing', family: 'token-timing', id: 'empty token', presented: '' },
  { kind: 'timing', family: 'token-timing', id: 'one char', presented: 'v' },
  { kind: 'timing', family: 'token-timing', id: 'prefix of the valid token', presented: '{VALID_PREFIX}' },
  { kind: 'timing', family: 'token-timing', id: '1 MiB token', presented: 'x'.repeat(1024 * 1024) },
  { kind: 'timing', family: 'token-timing', id: 'revoked token', presented: '{REVOKED}' },
];

/** The whole corpus, in the order the runner tries it. */
export const ATTACK_CORPUS: readonly AttackCase[] = [
  ...doorCases,
  ...socketCases,
  ...timingCases,
  ...probeCases,
  ...proposeProbes,
  ...folderProbes,
  ...rootedProbes,
  ...hiddenSearchCases,
  ...traversalCases,
  ...accessEditCases,
  ...proposeAccessEdits,
  ...protoCases,
  ...deepCases,
  ...redosCases,
];
