import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { parseRunOptions } from '../../../scripts/start/run-options';
import { applyRunFlags, pluginDataPath, readRunSettings, RunInputError, runSecrets } from '../../../scripts/start/run-settings';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import { secretIdForKey } from '../../../src/settings/key-record';
import { defaultSettings } from '../../../src/settings/settings';
import { ALL_TOOLS } from '../../../src/tools/registry';

let dir: string;
let vault: string;
beforeEach(async () => {
  dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-run-settings-'));
  vault = nodePath.join(dir, 'vault');
  await fsp.mkdir(vault);
});
afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

/** Writes `text` (an object is JSON-encoded) to `name` under the temp folder. @returns its path. */
async function write(name: string, text: unknown): Promise<string> {
  const path = nodePath.join(dir, name);
  await fsp.mkdir(nodePath.dirname(path), { recursive: true });
  await fsp.writeFile(path, typeof text === 'string' ? text : JSON.stringify(text));
  return path;
}

/** readRunSettings with `argv`, expected to refuse: its message. */
async function refusal(argv: string[]): Promise<string> {
  const error = await readRunSettings(parseRunOptions(argv), vault).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunInputError);
  return (error as Error).message;
}

describe('npm start --settings FILE', () => {
  it('resolves a relative file from the folder given (where npm start was typed), and names the absolute path when it is missing', async () => {
    const file = await write('conf/run.json', { access: { quarantine: ['Personal'] } });
    const typedIn = nodePath.join(dir, 'conf');
    const run = await readRunSettings(parseRunOptions(['--settings', 'run.json']), vault, typedIn);
    expect(run.source).toEqual({ kind: 'file', path: file });
    const error = await readRunSettings(parseRunOptions(['--settings', '../run.json']), vault, typedIn).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `../run.json (${nodePath.join(dir, 'run.json')}): no such file; pass the path of a JSON file in the plugin's data.json format.`,
    );
    const folder = await readRunSettings(parseRunOptions(['--settings', '.']), vault, typedIn).catch((e: Error) => e);
    expect((folder as Error).message).toBe(
      `. (${typedIn}) is a folder, not a settings file; pass the path of a JSON file in the plugin's data.json format.`,
    );
  });

  it('reads the plugin format: quarantine, skills folder, several keys and the AI provider; what it leaves out takes defaults', async () => {
    const file = await write('run.json', {
      access: { quarantine: ['Personal'] },
      skills: { folder: 'Agent skills' },
      keys: [{ label: 'Claude Code', mode: 'force', roots: ['Projects'] }, { label: 'Cursor' }],
      ai: { enabled: true, baseUrl: 'http://127.0.0.1:11434/v1', embeddingModel: 'nomic-embed-text', semanticIndex: true },
    });
    const run = await readRunSettings(parseRunOptions(['--settings', file]), vault);
    expect(run.source).toEqual({ kind: 'file', path: file });
    expect(run.settings.access.quarantine).toEqual(['Personal']);
    expect(run.settings.skills.folder).toBe('Agent skills');
    expect(run.settings.keys.map((k) => [k.id, k.label, k.mode, k.roots])).toEqual([
      ['key-1', 'Claude Code', 'force', ['Projects']],
      ['key-2', 'Cursor', 'propose', []],
    ]);
    expect(run.settings.ai).toMatchObject({ enabled: true, embeddingModel: 'nomic-embed-text', semanticIndex: true, allowRemote: false });
    expect(run.settings.server).toEqual(defaultSettings().server);
  });

  it("uses the vault's own data.json under its config folder when no --settings is given, and --settings instead when given", async () => {
    await write('vault/.obsidian/plugins/vault-mcp/data.json', { access: { quarantine: ['Own'] } });
    await write('vault/.work/plugins/vault-mcp/data.json', { access: { quarantine: ['Work'] } });
    const own = await readRunSettings(parseRunOptions([]), vault);
    expect(own.source).toEqual({ kind: 'vault', path: pluginDataPath(vault, '.obsidian') });
    expect(own.settings.access.quarantine).toEqual(['Own']);
    const work = await readRunSettings(parseRunOptions(['--config-dir', '.work']), vault);
    expect(work.settings.access.quarantine).toEqual(['Work']);
    const file = await write('run.json', { access: { quarantine: ['File'] } });
    const given = await readRunSettings(parseRunOptions(['--settings', file]), vault);
    expect(given).toMatchObject({ source: { kind: 'file', path: file }, ignored: pluginDataPath(vault, '.obsidian') });
    expect(given.settings.access.quarantine).toEqual(['File']);
  });

  it('starts from the defaults when there is no file at all', async () => {
    expect(await readRunSettings(parseRunOptions([]), vault)).toEqual({ settings: defaultSettings(), source: null });
  });

  it('refuses a missing file, a folder, and a file that is not JSON, naming the file and where it breaks', async () => {
    const missing = nodePath.join(dir, 'nope.json');
    expect(await refusal(['--settings', missing])).toBe(
      `${missing}: no such file; pass the path of a JSON file in the plugin's data.json format.`,
    );
    const folder = nodePath.join(dir, 'folder.json');
    await fsp.mkdir(folder);
    expect(await refusal(['--settings', folder])).toBe(
      `${folder} is a folder, not a settings file; pass the path of a JSON file in the plugin's data.json format.`,
    );
    // V8 names an unexpected token with the text around it, other mistakes with a position: both become a line and column.
    const broken = await write('broken.json', '{\n  "access": {\n    "quarantine": ["a",]\n  }\n}\n');
    expect(await refusal(['--settings', broken])).toBe(
      `${broken} is not JSON (Unexpected token ']' at line 3, column 24); fix the file so it parses, or pass another one.`,
    );
    const unquoted = await write('unquoted.json', '{\n  access: {}\n}');
    expect(await refusal(['--settings', unquoted])).toBe(
      `${unquoted} is not JSON (Expected property name or '}' at line 2, column 3); fix the file so it parses, or pass another one.`,
    );
    const early = await write('early.json', '[1,2,3,4,5,6,7,8,9,10,11,12,13,x]');
    expect(await refusal(['--settings', early])).toBe(
      `${early} is not JSON (Unexpected token 'x' at line 1, column 32); fix the file so it parses, or pass another one.`,
    );
    const empty = await write('empty.json', '');
    expect(await refusal(['--settings', empty])).toBe(
      `${empty} is empty; write a settings object in braces, such as {"access": {"quarantine": ["Private"]}}, or pass another file.`,
    );
  });

  it('refuses a pipe or device (a pipe held the run past Ctrl-C), a file too large, lists nested thousands deep, and a link to nothing (a newcomer s35)', async () => {
    expect(await refusal(['--settings', '/dev/zero'])).toBe(
      "/dev/zero is not a regular file (a pipe, socket or device); pass the path of a JSON file in the plugin's data.json format.",
    );
    const fifo = nodePath.join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    expect(await refusal(['--settings', fifo])).toMatch(/pipe\.json is not a regular file \(a pipe, socket or device\)/);
    const big = await write('big.json', '');
    await fsp.truncate(big, 64_000_001);
    expect(await refusal(['--settings', big])).toBe(
      `${big} is 64 MB, too large for a settings file (at most 64 MB); pass the path of a JSON file in the plugin's data.json format.`,
    );
    const deepList = await write('deep.json', '['.repeat(200_000) + ']'.repeat(200_000));
    let nested = '1';
    for (let i = 0; i < 100_000; i++) nested = `{"access":${nested}}`;
    const deepObject = await write('deep-object.json', nested);
    for (const deep of [deepList, deepObject])
      expect(await refusal(['--settings', deep])).toBe(
        `${deep} nests lists or objects thousands of levels deep, which no settings do; pass the plugin's data.json or a file in its format.`,
      );
    // The vault's own data.json as a folder: no path was passed, so it is told to be moved aside (it was told to pass a path).
    const own = pluginDataPath(vault, '.obsidian');
    await fsp.mkdir(own, { recursive: true });
    expect(await refusal([])).toBe(
      `${own} is a folder, not a settings file; move it aside to start from the defaults, or pass --settings with a JSON file in the plugin's data.json format.`,
    );
    await fsp.rmdir(own);
    // The vault's own data.json as a link to nothing: refused, not taken for no file (the defaults, its quarantine gone).
    await fsp.symlink(nodePath.join(dir, 'gone.json'), own);
    expect(await refusal([])).toBe(
      `${own} is a symbolic link to ${nodePath.join(dir, 'gone.json')}, which does not exist; point it at the settings file, or remove it to start from the defaults.`,
    );
  });

  it('names a wrong key escaped and cut: no terminal control characters, no megabyte line; the names it suggests are settings, not stamps', async () => {
    const escape = await write('escape.json', { '\u001b[31mRED\u001b]0;title\u0007': 1, access: {} });
    expect(await refusal(['--settings', escape])).toBe(
      `${escape}: \\u001b[31mRED\\u001b]0;title\\u0007 is not a setting; correct its spelling or remove it (settings of the top level: schemaVersion, server, keys, revokedKeys, tools, access, skills, proposals, widgets, widgetWriters, widgetTexts, activity, ai).`,
    );
    const long = await write('long.json', { ['k'.repeat(1_000_000)]: 1 });
    expect(await refusal(['--settings', long])).toMatch(new RegExp(`: ${'k'.repeat(40)}… is not a setting;`));
    const twice = await write('twice-escape.json', '{"\\u202eaccess":1,"\\u202eaccess":2}');
    expect(await refusal(['--settings', twice])).toMatch(/: \\u202eaccess is given twice/);
    // Under access (a block read through a preprocess), the suggestion lists its two settings (it listed none).
    const access = await write('access.json', { access: { acess: 1 } });
    expect(await refusal(['--settings', access])).toBe(
      `${access}: access.acess is not a setting; correct its spelling or remove it (settings of access: quarantine, trustedSymlinks).`,
    );
    const server = await write('server.json', { server: { prot: 1 } });
    expect(await refusal(['--settings', server])).toMatch(/\(settings of server: enabled, port, maxBodyBytes\)\.$/);
  });

  it('refuses a key given twice in one object, naming it and where (JSON.parse kept the last: a second "access" dropped the quarantine)', async () => {
    const twiceAccess = await write('twice.json', '{"access":{"quarantine":["Journal"]},\n "access":{"trustedSymlinks":[]}}');
    expect(await refusal(['--settings', twiceAccess])).toBe(
      `${twiceAccess}: access is given twice (line 2, column 2); a JSON reader keeps only the last, so merge them into one.`,
    );
    const twicePort = await write('port.json', '{"server":{"port":27910,"port":27911}}');
    expect(await refusal(['--settings', twicePort])).toMatch(/: server\.port is given twice \(line 1, column 25\)/);
    const inKey = await write(
      'key.json',
      JSON.stringify({ keys: [{ id: 'a', label: 'A' }] }).replace('"label":"A"', '"label":"A","label":"B"'),
    );
    expect(await refusal(['--settings', inKey])).toMatch(/: keys\[0\]\.label is given twice/);
    // The same name in different objects, or as a value, is no repeat.
    const fine = await write('fine.json', { access: { quarantine: ['access'] }, skills: { folder: 'access' }, widgets: { folder: 'W' } });
    await expect(readRunSettings(parseRunOptions(['--settings', fine]), vault)).resolves.toBeDefined();
  });

  it('reads a file that starts with a byte order mark', async () => {
    const file = await write('bom.json', `\uFEFF${JSON.stringify({ skills: { folder: 'S' } })}`);
    expect((await readRunSettings(parseRunOptions(['--settings', file]), vault)).settings.skills.folder).toBe('S');
  });

  it.each([
    [
      { access: { quarantine: 'Personal' } },
      'access.quarantine must be a list of vault folders in brackets, not one folder\'s text (found "Personal"); write it as ["Personal"].',
    ],
    [{ acess: {} }, /^acess is not a setting; correct its spelling or remove it \(settings of the top level: /],
    [
      { keys: [{ label: 'A', mode: 'yolo' }] },
      'keys[0].mode must be "propose" or "force" (found "yolo"); correct it, or remove it to use the default.',
    ],
    [{ keys: [{ label: 'A', token: 'vmcp_x' }] }, /^keys\[0\]\.token is not a setting \(tokens and API keys never go in settings/],
    [{ tools: { enabled: { serch: true } } }, /^tools\.enabled\.serch is not a tool of Vault MCP;/],
    [[], 'the file holds a list, not settings; write a settings object in braces, such as {"access": {"quarantine": ["Private"]}}.'],
    [{ keys: [{ label: 'npm start' }] }, 'keys[0].label "npm start" is the label of the run\'s own key; give that key another label.'],
    [
      { keys: [{ label: ' Bot ' }] },
      'keys[0].label " Bot " has spaces at its ends; write it as "Bot" (agent_overrides in notes match labels exactly).',
    ],
    // A root that would be the whole vault, or that no note can be inside, is refused like --roots ../x (a newcomer's report: "" read every note).
    [
      { keys: [{ label: 'A', roots: [''] }] },
      'keys[0].roots[0] "" is empty, which would be the whole vault; give folders relative to the vault, such as "Projects" or "Journal/2025"; a key with no roots sees the whole vault.',
    ],
    [
      { keys: [{ label: 'A' }, { label: 'B', roots: ['Projects', '../etc'] }] },
      /^keys\[1\]\.roots\[1\] "\.\.\/etc" climbs out of the vault with "\.\.";/,
    ],
    [
      { keys: [{ label: 'A', roots: ['/etc'] }] },
      /^keys\[0\]\.roots\[0\] "\/etc" is an absolute path, not a folder relative to the vault;/,
    ],
    [{ keys: [{ label: 'A', roots: ['.'] }] }, /^keys\[0\]\.roots\[0\] "\." names the vault itself, which would be the whole vault;/],
    [
      { keys: [{ label: 'A', id: 'runkey' }] },
      'keys[0].id "runkey" is the id of the run\'s own key; give that key another id, or leave the id out.',
    ],
  ])('refuses %j with one sentence naming the file and the key', async (data, message) => {
    const file = await write('bad.json', data);
    const text = await refusal(['--settings', file]);
    expect(text.startsWith(`${file}: `)).toBe(true);
    expect(text.slice(file.length + 2)).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
  });

  it("refuses a bad data.json of the vault's own the same way, naming its path", async () => {
    await write('vault/.obsidian/plugins/vault-mcp/data.json', { server: { port: 80 } });
    expect(await refusal([])).toMatch(
      /\.obsidian\/plugins\/vault-mcp\/data\.json: server\.port must be a whole number from 1024 to 65535 \(found 80\);/,
    );
  });
});

describe('npm start flags over the settings', () => {
  const flags = (...argv: string[]) => parseRunOptions(argv);

  it("--allow-writes turns on writes and every write tool; the file's other tool toggles stay", () => {
    const base = defaultSettings();
    base.tools.enabled = { list_tags: false };
    const settings = applyRunFlags(base, flags('--allow-writes'), null, null);
    expect(settings.tools.allowWrites).toBe(true);
    for (const tool of ALL_TOOLS.filter((t) => t.kind === 'write')) expect(settings.tools.enabled[tool.name]).toBe(true);
    expect(settings.tools.enabled.list_tags).toBe(false);
    expect(base.tools.allowWrites).toBe(false);
  });

  it('--mode force alone leaves writes off, and the docs say so (they said it let agents write)', async () => {
    expect(applyRunFlags(defaultSettings(), flags('--mode', 'force'), null, null).tools.allowWrites).toBe(false);
    const read = (file: string): Promise<string> => fsp.readFile(nodePath.resolve(__dirname, '../../..', file), 'utf8');
    for (const file of ['README.md', 'docs/npm-start.md'])
      expect([file, await read(file)]).not.toContainEqual(expect.stringMatching(/or `--mode force`\)/));
    expect(await read('docs/npm-start.md')).toMatch(/`--mode force`\s+alone changes nothing while writes are off/);
  });

  it("--embed-url and --embed-model turn on AI and the semantic index over the file's provider", () => {
    const base = defaultSettings();
    base.ai = { ...base.ai, provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', model: 'claude', embeddingModel: 'old' };
    const settings = applyRunFlags(base, flags('--embed-url', 'http://127.0.0.1:9/v1', '--embed-model', 'nomic-embed-text'), null, null);
    expect(settings.ai).toMatchObject({
      enabled: true,
      semanticIndex: true,
      provider: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      embeddingModel: 'nomic-embed-text',
      allowRemote: false,
    });
  });

  it("--embed-model alone uses the settings' base URL (Ollama's by default); --embed-url alone the settings' model", () => {
    expect(applyRunFlags(defaultSettings(), flags('--embed-model', 'nomic-embed-text'), null, null).ai.baseUrl).toBe(
      'http://localhost:11434/v1',
    );
    const base = defaultSettings();
    base.ai.embeddingModel = 'mxbai-embed-large';
    expect(applyRunFlags(base, flags('--embed-url', 'http://localhost:1234/v1'), null, null).ai.embeddingModel).toBe('mxbai-embed-large');
    expect(() => applyRunFlags(defaultSettings(), flags('--embed-url', 'http://localhost:1234/v1'), null, null)).toThrow(
      new RunInputError(
        '--embed-url http://localhost:1234/v1 needs --embed-model NAME, the embedding model that server serves (such as nomic-embed-text for Ollama).',
      ),
    );
  });

  it('a remote endpoint needs --allow-remote (or ai.allowRemote in the file) and an API key from the environment', () => {
    const remote = ['--embed-url', 'https://api.openai.com/v1', '--embed-model', 'text-embedding-3-small'];
    expect(() => applyRunFlags(defaultSettings(), flags(...remote), 'sk-x', null)).toThrow(
      '--embed-url https://api.openai.com/v1 is not on this computer, so your notes would be sent to it to be embedded; add --allow-remote to allow that, or use a server on this computer such as Ollama (http://127.0.0.1:11434/v1).',
    );
    expect(() => applyRunFlags(defaultSettings(), flags(...remote, '--allow-remote'), null, null)).toThrow(
      '--embed-url https://api.openai.com/v1 is not on this computer and needs an API key; put it in the environment variable VAULT_MCP_AI_API_KEY (not a flag, which would land in your shell history).',
    );
    expect(applyRunFlags(defaultSettings(), flags(...remote, '--allow-remote'), 'sk-x', null).ai).toMatchObject({
      allowRemote: true,
      baseUrl: 'https://api.openai.com/v1',
    });
    const allowed = defaultSettings();
    allowed.ai.allowRemote = true;
    expect(applyRunFlags(allowed, flags(...remote), 'sk-x', null).ai.allowRemote).toBe(true);
  });

  it('localhost. (trailing dot: a DNS name) is not on this computer, so it needs --allow-remote like any remote URL', () => {
    expect(() =>
      applyRunFlags(defaultSettings(), flags('--embed-url', 'http://localhost.:27432/v1', '--embed-model', 'm'), 'sk-x', null),
    ).toThrow(
      '--embed-url http://localhost.:27432/v1 is not on this computer, so your notes would be sent to it to be embedded; add --allow-remote to allow that, or use a server on this computer such as Ollama (http://127.0.0.1:11434/v1).',
    );
    expect(() =>
      applyRunFlags(
        defaultSettings(),
        flags('--embed-url', 'http://ollama.localhost./v1', '--embed-model', 'm', '--allow-remote'),
        null,
        null,
      ),
    ).toThrow(/is not on this computer and needs an API key/);
    expect(
      applyRunFlags(defaultSettings(), flags('--embed-url', 'http://ollama.localhost:27432/v1', '--embed-model', 'm'), null, null).ai
        .baseUrl,
    ).toBe('http://ollama.localhost:27432/v1');
  });

  it('names the file when the remote base URL came from it', () => {
    const base = defaultSettings();
    base.ai.baseUrl = 'https://api.openai.com/v1';
    expect(() =>
      applyRunFlags(base, flags('--embed-model', 'text-embedding-3-small'), null, { kind: 'file', path: '/tmp/run.json' }),
    ).toThrow(/^the base URL https:\/\/api\.openai\.com\/v1 \(ai\.baseUrl in \/tmp\/run\.json\) is not on this computer,/);
  });

  it('makes one new token per key of the settings and puts the AI key where the plugin reads it', () => {
    const settings = defaultSettings();
    settings.keys = [
      { id: 'a', label: 'A', mode: 'propose', scope: 'local', roots: [], created_at: '', last_used_at: null },
      { id: 'b', label: 'B', mode: 'force', scope: 'local', roots: [], created_at: '', last_used_at: null },
    ];
    const { secrets, tokens } = runSecrets(settings.keys, 'sk-local');
    expect([...tokens.keys()]).toEqual(['a', 'b']);
    for (const token of tokens.values()) expect(token).toMatch(/^vmcp_[A-Za-z0-9_-]{43}$/);
    expect(tokens.get('a')).not.toBe(tokens.get('b'));
    expect(secrets).toEqual({
      [secretIdForKey('a')]: tokens.get('a'),
      [secretIdForKey('b')]: tokens.get('b'),
      [AI_API_KEY_SECRET_ID]: 'sk-local',
    });
    expect(runSecrets([], null).secrets).toEqual({});
  });
});
