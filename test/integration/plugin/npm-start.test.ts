/**
 * `npm start` as a newcomer runs it: the runner (the bundle scripts/start.mjs runs over the
 * built main.js, as `npm start` and the conformance run start it; bundled once for this file) in
 * its own process, read through its printed lines, with the official MCP SDK client over real
 * HTTP. Semantic and hybrid search against
 * the tests' fake embeddings server; a settings file (`--settings`, or the vault's own
 * data.json) that sets quarantine and several keys; a bad file that stops the run with exit 2.
 */
import { promises as fsp } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { startRecordingServer } from '../../fakes/recording-server';
import { buildRunner, runEndpoint as endpoint, startRunner, type StartedRun as Run } from '../../harness/server/npm-start-run';

type Json = Record<string, any>;

jest.setTimeout(90_000);

const runs: Run[] = [];
const clients: Client[] = [];
let vault: { dir: string; cleanup(): Promise<void> };
let scratch: string;

// `npm start` builds main.js first; the runner only bundles itself.
beforeAll(buildRunner, 120_000);
beforeEach(async () => {
  vault = await copyToTemp(DEMO_VAULT);
  scratch = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-start-'));
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null) run.child.kill('SIGTERM');
    await run.exited;
  }
  await vault.cleanup();
  await fsp.rm(scratch, { recursive: true, force: true });
});

/** Starts the runner with `...args` over the test's vault copy on any free port. */
function start(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const run = startRunner(['--vault', vault.dir, '--port', '0', ...args], env);
  runs.push(run);
  return run;
}

/** The token printed for the settings key labelled `label`. */
async function keyToken(run: Run, label: string): Promise<string> {
  const line = await run.line(new RegExp(`^Key "${label}": .*; token \\(shown once\\): `));
  return /token \(shown once\): (\S+)$/.exec(line)![1];
}

async function connect(url: string, token: string): Promise<Client> {
  const client = await connectClient(url, token);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Json): Promise<{ json: Json; isError: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0].text;
  return { json: result.structuredContent as Json, isError: result.isError === true, text };
}

describe('npm start --embed-url: semantic and hybrid search from the terminal', () => {
  let fake: FakeOpenAi;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ models: {}, embeddingModels: { 'nomic-embed-text': { dimensions: 256 } } });
  });
  afterEach(() => fake.close());

  it('embeds the vault through the given endpoint and answers mode semantic and hybrid with semantic sources', async () => {
    const run = start(['--embed-url', fake.baseUrl, '--embed-model', 'nomic-embed-text']);
    const { url, token } = await endpoint(run);
    expect(run.out).toContain(
      `Semantic index: nomic-embed-text at ${fake.baseUrl}; semantic and hybrid search use it once it is built (a line says when).`,
    );
    expect(await run.line(/^Semantic index ready: /)).toMatch(/^Semantic index ready: \d+ notes, \d+ chunks\.$/);
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings').length).toBeGreaterThan(0);
    const client = await connect(url, token);

    const semantic = await call(client, 'search', { query: 'how often to feed the starter on a schedule', mode: 'semantic', limit: 5 });
    expect(semantic.isError).toBe(false);
    expect(semantic.json.results[0]).toMatchObject({ path: 'Reference/Sourdough handbook.md', source: 'semantic' });
    for (const hit of semantic.json.results) expect(hit.source).toBe('semantic');

    const hybrid = await call(client, 'search', { query: 'how often to feed the starter on a schedule', mode: 'hybrid', limit: 10 });
    expect(hybrid.isError).toBe(false);
    // Hybrid used the embedding index (no "lexical only" note) and says per hit which half found it.
    expect(hybrid.json.note).toBeUndefined();
    expect(hybrid.json.results[0].path).toBe('Reference/Sourdough handbook.md');
    const sources = new Set(hybrid.json.results.map((hit: Json) => hit.source));
    expect([...sources].every((s) => ['lexical', 'semantic', 'both'].includes(s as string))).toBe(true);
    expect(sources.has('semantic') || sources.has('both')).toBe(true);
    expect(hybrid.json.results[0].source).toBe('both');
  });

  it('refuses a remote endpoint without --allow-remote before anything starts (exit 2)', async () => {
    const run = start(['--embed-url', 'https://embeddings.example.com/v1', '--embed-model', 'nomic-embed-text']);
    expect(await run.exited).toBe(2);
    expect(run.out.some((l) => l.startsWith('MCP server listening'))).toBe(false);
    expect(run.err.join('\n')).toMatch(
      /^vault-mcp: --embed-url https:\/\/embeddings\.example\.com\/v1 is not on this computer, .*add --allow-remote to allow that/,
    );
  });

  it('refuses localhost. (trailing dot: looked up in DNS) like any remote endpoint (exit 2)', async () => {
    const run = start(['--embed-url', `http://localhost.:${new URL(fake.origin).port}/v1`, '--embed-model', 'nomic-embed-text']);
    expect(await run.exited).toBe(2);
    expect(run.err.join('\n')).toMatch(
      /^vault-mcp: --embed-url http:\/\/localhost\.:\d+\/v1 is not on this computer, .*add --allow-remote to allow that/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('does not follow an endpoint that redirects: the index is off, naming where it pointed, and the target hears nothing', async () => {
    const redirector = await startRecordingServer((req) => ({ status: 307, body: '', headers: { location: `${fake.origin}${req.path}` } }));
    try {
      const run = start(['--embed-url', `${redirector.origin}/v1`, '--embed-model', 'nomic-embed-text'], {
        VAULT_MCP_AI_API_KEY: 'sk-SECRET',
      });
      await endpoint(run);
      expect(await run.line(/^Semantic index (ready|paused|off)/)).toBe(
        `Semantic index off: The AI provider at ${redirector.origin}/v1/embeddings answered HTTP 307, a redirect to ${fake.origin}/v1/embeddings; ` +
          "Vault MCP does not follow an AI provider's redirects, so your notes and API key go only to the base URL you set. " +
          `If that server is the one you mean, set the base URL to ${fake.baseUrl} in Settings → Vault MCP → AI provider ` +
          '(from the terminal: --embed-url URL --embed-model NAME).',
      );
      expect(redirector.requests.length).toBeGreaterThan(0);
      expect(fake.requests).toHaveLength(0);
    } finally {
      await redirector.close();
    }
  });
});

describe("npm start --settings FILE: the plugin's settings format for a run", () => {
  const settingsFile = {
    access: { quarantine: ['Journal'] },
    keys: [
      { label: 'Claude Code', mode: 'force', roots: ['Projects'] },
      { label: 'Cursor', mode: 'propose' },
    ],
  };

  it('applies its quarantine folders and serves each of its keys with the token printed for it; flags apply on top', async () => {
    const file = nodePath.join(scratch, 'run.json');
    await fsp.writeFile(file, JSON.stringify(settingsFile));
    const run = start(['--settings', file, '--allow-writes']);
    const { url, token } = await endpoint(run);
    expect(run.out).toContain(`Settings: ${file} (--settings)`);
    expect(run.out).toContain('Quarantined: Journal (besides the config folder, dot-folders and _private)');

    const own = await connect(url, token);
    const all = await call(own, 'list_notes', { limit: 1000 });
    expect(all.json.notes.length).toBeGreaterThan(5);
    expect(all.json.notes.filter((n: Json) => n.path.startsWith('Journal/'))).toEqual([]);
    const found = await call(own, 'search', { query: 'path:Journal', mode: 'lexical' });
    expect(found.json.results).toEqual([]);

    const claude = await connect(url, await keyToken(run, 'Claude Code'));
    const confined = await call(claude, 'list_notes', { limit: 1000 });
    expect(confined.json.notes.length).toBeGreaterThan(0);
    expect(confined.json.notes.every((n: Json) => n.path.startsWith('Projects/'))).toBe(true);
    // --allow-writes over the file: the force key writes at once, the propose key stages.
    expect((await call(claude, 'create_note', { path: 'Projects/From Claude.md', content: 'hello\n' })).json).toMatchObject({
      status: 'applied',
    });
    expect(await fsp.readFile(nodePath.join(vault.dir, 'Projects/From Claude.md'), 'utf8')).toBe('hello\n');

    const cursor = await connect(url, await keyToken(run, 'Cursor'));
    expect((await call(cursor, 'create_note', { path: 'From Cursor.md', content: 'hi\n' })).json).toMatchObject({ status: 'pending' });
    await expect(fsp.stat(nodePath.join(vault.dir, 'From Cursor.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads a quarantine entry as the plugin does: the absolute path of a vault folder quarantines it, a missing folder is said to be missing', async () => {
    const file = nodePath.join(scratch, 'q.json');
    await fsp.writeFile(file, JSON.stringify({ access: { quarantine: [nodePath.join(vault.dir, 'Journal'), 'reference/', 'Journ'] } }));
    const run = start(['--settings', file]);
    const { url, token } = await endpoint(run);
    // The banner used to print the entry as written while read_note returned the whole note.
    expect(run.out).toContain(
      'Quarantined: Journal, Reference, Journ (no such folder yet) (besides the config folder, dot-folders and _private)',
    );
    const client = await connect(url, token);
    const read = await call(client, 'read_note', { path: 'Journal/2026/2026-02-02' });
    expect(read.isError).toBe(true);
    expect(read.text).toMatch(/a folder the user closed to agents/);
    const notes = (await call(client, 'list_notes', { limit: 1000 })).json.notes as Json[];
    expect(notes.filter((n) => /^(Journal|Reference)\//.test(n.path))).toEqual([]);
  });

  it('trusts a settings file\'s link " Shared" as written, never the link "Shared" beside it (Obsidian trims nothing)', async () => {
    for (const [link, note] of [
      ['Shared', 'plain'],
      [' Shared', 'spaced'],
    ]) {
      await fsp.mkdir(nodePath.join(scratch, note));
      await fsp.writeFile(nodePath.join(scratch, note, `${note}.md`), `${note}\n`);
      await fsp.symlink(nodePath.join(scratch, note), nodePath.join(vault.dir, link), 'dir');
    }
    const file = nodePath.join(scratch, 'trust.json');
    await fsp.writeFile(file, JSON.stringify({ access: { trustedSymlinks: [' Shared'] } }));
    const run = start(['--settings', file]);
    const { url, token } = await endpoint(run);
    const client = await connect(url, token);
    // The entry used to be trimmed where links are judged: "Shared" was opened, " Shared" stayed closed.
    const notes = ((await call(client, 'list_notes', { limit: 1000 })).json.notes as Json[]).map((n) => n.path as string);
    expect(notes.filter((path) => /^ ?Shared\//.test(path))).toEqual([' Shared/spaced.md']);
    expect((await call(client, 'read_note', { path: 'Shared/plain.md' })).isError).toBe(true);
  });

  it('stops with exit 2 when a quarantine entry can name no vault folder, one sentence each saying what to write', async () => {
    const file = nodePath.join(scratch, 'q.json');
    await fsp.writeFile(file, JSON.stringify({ access: { quarantine: ['Journal', '/', 'Jour*', '..', '/etc'] } }));
    const run = start(['--settings', file]);
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    const advice = 'give a folder of the vault, relative to it, such as "Journal" or "Work/HR".';
    expect(run.err.filter((l) => l !== '')).toEqual([
      `vault-mcp: ${file}: access.quarantine[1] "/" names the vault itself, not a folder in it; ${advice}`,
      `vault-mcp: ${file}: access.quarantine[2] "Jour*" holds a wildcard (* or ?), but entries are folder paths, not patterns; ${advice}`,
      `vault-mcp: ${file}: access.quarantine[3] ".." climbs out of the vault with ".."; ${advice}`,
      `vault-mcp: ${file}: access.quarantine[4] "/etc" is an absolute path or URL outside the vault; ${advice}`,
    ]);
  });

  it("uses the vault's own data.json when there is no --settings, says so, and never writes it", async () => {
    const dataJson = nodePath.join(vault.dir, '.obsidian', 'plugins', 'vault-mcp', 'data.json');
    await fsp.mkdir(nodePath.dirname(dataJson), { recursive: true });
    const text = JSON.stringify(settingsFile, null, 2);
    await fsp.writeFile(dataJson, text);
    const run = start([]);
    const { url, token } = await endpoint(run);
    expect(run.out).toContain(`Settings: ${dataJson} (the vault's own, read as Obsidian reads it; this run never writes it)`);
    const client = await connect(url, token);
    const notes = await call(client, 'list_notes', { limit: 1000 });
    expect(notes.json.notes.filter((n: Json) => n.path.startsWith('Journal/'))).toEqual([]);
    await connect(url, await keyToken(run, 'Cursor'));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await fsp.readFile(dataJson, 'utf8')).toBe(text);
    // Nothing else of the run's stays in the plugin folder: its writer lock removed at the stop, its search index never saved (docs/npm-start.md).
    expect(await fsp.readdir(nodePath.dirname(dataJson))).toEqual(['data.json']);
  });

  it('stops with exit 2 when the port is taken, printing the command to type with the other flags kept', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    try {
      const run = startRunner(['--vault', vault.dir, '--port', String(taken), '--mode', 'propose']);
      runs.push(run);
      expect(await run.exited).toBe(2);
      expect(run.out.some((l) => l.startsWith('MCP server listening'))).toBe(false);
      expect(run.err.join('\n')).toContain(`vault-mcp: Port ${taken} is already in use`);
      expect(run.err.join('\n')).toContain(`npm start -- --vault ${vault.dir} --mode propose --port 27300`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('stops with exit 2 and one sentence naming the file and the key when the file is wrong; nothing listens', async () => {
    const file = nodePath.join(scratch, 'bad.json');
    await fsp.writeFile(file, JSON.stringify({ keys: [{ label: 'Claude Code', mode: 'forse' }] }));
    const run = start(['--settings', file]);
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.filter((l) => l !== '')).toEqual([
      `vault-mcp: ${file}: keys[0].mode must be "propose" or "force" (found "forse"); correct it, or remove it to use the default.`,
    ]);
  });

  it('--roots and a settings key name a folder in another case, as client roots do: the key gets that folder, on every disk', async () => {
    const file = nodePath.join(scratch, 'case.json');
    await fsp.writeFile(file, JSON.stringify({ keys: [{ label: 'Areas key', roots: ['areas'] }] }));
    // A case-sensitive disk used to stop the run here: "--roots projects: no such folder in the vault."
    const run = start(['--settings', file, '--roots', 'projects']);
    const { url, token } = await endpoint(run);
    expect(run.out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/, roots Projects$/),
        expect.stringMatching(/^Key "Areas key": .*, roots Areas; token/),
      ]),
    );
    for (const [key, folder] of [
      [token, 'Projects/'],
      [await keyToken(run, 'Areas key'), 'Areas/'],
    ]) {
      const notes = (await call(await connect(url, key), 'list_notes', { limit: 1000 })).json.notes as Json[];
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.filter((n) => !n.path.startsWith(folder))).toEqual([]);
    }
  });

  it('--roots " Sp " confines the key to the folder " Sp " when no "Sp" is there, and stops when both are: never the other folder', async () => {
    await fsp.mkdir(nodePath.join(vault.dir, ' Sp '));
    await fsp.writeFile(nodePath.join(vault.dir, ' Sp ', 'Spaced.md'), 'spaced\n');
    // The trimmed `Sp` named no folder: the run used to stop ("no folder named 'Sp'"), or with `Sp` there, confine the key to it.
    const run = start(['--roots', ' Sp ']);
    const { url, token } = await endpoint(run);
    // Its spaces show in the start lines, spelt as --roots takes it back.
    expect(run.out).toContainEqual(expect.stringMatching(/, roots \.\/ Sp \/$/));
    const notes = (await call(await connect(url, token), 'list_notes', { limit: 1000 })).json.notes as Json[];
    expect(notes.map((n) => n.path)).toEqual([' Sp /Spaced.md']);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);

    await fsp.mkdir(nodePath.join(vault.dir, 'Sp'));
    const both = start(['--roots', 'Projects, Sp ']);
    expect(await both.exited).toBe(2);
    expect(both.out).toEqual([]);
    expect(both.err.filter((l) => l !== '')).toEqual([
      'vault-mcp: --roots " Sp ": that root names two folders, "Sp" with its outer spaces trimmed and " Sp " as typed; write "Sp" with no space before or after it ' +
        'for the first, or "./ Sp /" for the second ("./" before it and "/" after it keep its spaces).',
    ]);
    // Every refusal of a root checked against the vault is one `vault-mcp:` line, as the flags' own refusals are.
    const missing = start(['--roots', 'Nowhere']);
    expect(await missing.exited).toBe(2);
    expect(missing.err.filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^vault-mcp: --roots Nowhere: the vault has no folder named 'Nowhere'/),
    ]);
    // A root whose spaces were kept (`./ Nope /`) is quoted; a space after a comma is no part of the next root.
    const spaced = start(['--roots', 'Sp, ./ Nope /']);
    expect(await spaced.exited).toBe(2);
    expect(spaced.err.filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^vault-mcp: --roots "\.\/ Nope \/": the vault has no folder named ' Nope '/),
    ]);
    const listed = start(['--roots', 'Sp, Nowhere']);
    expect(await listed.exited).toBe(2);
    expect(listed.err.filter((l) => l !== '')).toEqual([expect.stringMatching(/^vault-mcp: --roots Nowhere: /)]);
  });

  it('stops with exit 2 when a quarantine entry names a note: quarantine takes folders, and the start lines would call it one', async () => {
    const file = nodePath.join(scratch, 'note.json');
    await fsp.writeFile(file, JSON.stringify({ access: { quarantine: ['Journal', 'home.md'] } }));
    const run = start(['--settings', file]);
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    // It used to start with "Quarantined: Journal, Home.md" while only that note was hidden.
    expect(run.err.filter((l) => l !== '')).toEqual([
      `vault-mcp: ${file}: access.quarantine[1] "home.md" names the note "Home.md", not a folder; quarantine takes folders: ` +
        'move the note into a quarantined folder, or add "access: private" to the note\'s frontmatter to hide that note alone.',
    ]);
  });

  it('stops with exit 2 when a settings key names a missing or quarantined folder, as --roots does: no key silently sees nothing', async () => {
    const file = nodePath.join(scratch, 'missing.json');
    await fsp.writeFile(
      file,
      JSON.stringify({
        keys: [
          { label: 'A', roots: ['Projects'] },
          { label: 'B', roots: ['Projcts', '_private'] },
        ],
      }),
    );
    const run = start(['--settings', file]);
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.filter((l) => l !== '')).toEqual([
      `vault-mcp: ${file}: keys[1].roots[0] "Projcts": the vault has no folder named 'Projcts' (in any case); give a folder that exists, relative to the vault, such as Projects, or create it first.`,
      expect.stringMatching(
        new RegExp(
          `^vault-mcp: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: keys\\[1\\]\\.roots\\[1\\] "_private": that folder is quarantined`,
        ),
      ),
    ]);
  });

  it('stops with exit 2 when a key root is empty, ".", absolute or climbs out: no key is quietly given the whole vault or nothing', async () => {
    const file = nodePath.join(scratch, 'roots.json');
    const keys = [[''], ['../etc'], ['/etc'], ['.']].map((roots, i) => ({ label: `Agent ${i}`, roots }));
    await fsp.writeFile(file, JSON.stringify({ keys }));
    const run = start(['--settings', file]);
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.filter((l) => l !== '')).toEqual([
      `vault-mcp: ${file}: keys[0].roots[0] "" is empty, which would be the whole vault; give folders relative to the vault, such as "Projects" or "Journal/2025"; a key with no roots sees the whole vault.`,
    ]);
  });
});
