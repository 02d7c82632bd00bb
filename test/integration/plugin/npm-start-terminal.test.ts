/**
 * `npm start` speaks to a terminal (issue 21): each case spawns the runner as a user starts it
 * and reads what it prints. A proposal names the terminal's review commands; a run with writes
 * off says how to turn them on, and so does a refused write call; Ctrl-C says at once that it
 * stops, a second one forces the exit; SIGHUP (a closed terminal) removes the demo copy too;
 * flags npm kept for itself are named with the command to type; the whole disk and the home
 * folder are refused as vaults; a large vault prints progress before the server listens; an
 * absolute --roots is answered with its vault-relative spelling.
 */
import { promises as fsp } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { buildRunner, descendants, ROOT, runEndpoint, startNpm, startRunner, type StartedRun } from '../../harness/server/npm-start-run';
import { portTaken } from '../../../scripts/start/port-check';
import { LARGE_VAULT_NOTES } from '../../../scripts/start/run-progress';
import { FORCED_EXIT_CODE, STOPPING_LINE } from '../../../scripts/start/run-signals';

jest.setTimeout(90_000);

const runs: StartedRun[] = [];
const clients: Client[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(buildRunner, 120_000);
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await run.exited;
  }
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function start(args: string[], env: NodeJS.ProcessEnv = {}): StartedRun {
  const run = startRunner(args, env);
  runs.push(run);
  return run;
}

/** A run over a fresh copy of the demo vault (removed after the test). */
async function startOnCopy(args: string[]): Promise<StartedRun> {
  const copy = await copyToTemp(DEMO_VAULT);
  cleanups.push(() => copy.cleanup());
  return start(['--vault', copy.dir, '--port', '0', ...args]);
}

async function connect(url: string, token: string): Promise<Client> {
  const client = await connectClient(url, token);
  clients.push(client);
  return client;
}

/** The temporary demo copy a run without --vault serves, from its `Vault:` line. */
async function demoCopyOf(run: StartedRun): Promise<string> {
  return /^Vault: (.+) \(a temporary copy of the demo vault\)$/.exec(await run.line(/^Vault: /))![1];
}

async function exists(path: string): Promise<boolean> {
  return fsp.stat(path).then(
    () => true,
    () => false,
  );
}

/** A scratch folder removed after the test. */
async function scratch(): Promise<string> {
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-terminal-'));
  cleanups.push(() => fsp.rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('npm start: proposals and writes in the terminal', () => {
  it('prints each proposal with the terminal commands that review it, never the editor or Pending changes', async () => {
    const run = await startOnCopy(['--allow-writes']);
    const { url, token } = await runEndpoint(run);
    expect(run.out.some((l) => l.startsWith('Review proposals here (propose mode).'))).toBe(true);
    const client = await connect(url, token);
    const result = await client.callTool({ name: 'create_note', arguments: { path: 'Inbox/From agent.md', content: 'hello\n' } });
    const id = (result.structuredContent as { proposal_id: string }).proposal_id;
    const line = await run.line(/^\[proposal\] /);
    expect(line).toBe(
      `[proposal] "npm start" proposes a new note Inbox/From agent.md (id ${id}). Review it here: show ${id}, then accept ${id} or reject ${id}; proposals lists every pending one.`,
    );
    expect([...run.out, ...run.err].filter((l) => /Pending changes|in the editor/.test(l))).toEqual([]);
    run.child.stdin!.write('proposals\n');
    expect(await run.line(new RegExp(`^${id}\\b`))).toContain('Inbox/From agent.md');
  });

  it('says when standard input ends, answering the commands read before it, and proposals staged after it say they cannot be reviewed here', async () => {
    const run = await startOnCopy(['--allow-writes']);
    const { url, token } = await runEndpoint(run);
    run.child.stdin!.end('bogus\nproposals\n');
    // An unknown command lists the activity commands too, as help does (newcomer finding: they were left out).
    expect(await run.line(/^Unknown command 'bogus'\./)).toMatch(/accept all/);
    expect(await run.line(/^Agent activity: /)).toMatch(/revert <id>/);
    expect(await run.line(/^No pending changes\.$/)).toBe('No pending changes.');
    expect(await run.line(/^Standard input has ended/)).toMatch(/no longer read here; proposals wait in the vault's proposals\.json/);
    const client = await connect(url, token);
    const result = await client.callTool({ name: 'create_note', arguments: { path: 'Late.md', content: 'late\n' } });
    const id = (result.structuredContent as { proposal_id: string }).proposal_id;
    expect(await run.line(/^\[proposal\] /)).toBe(
      `[proposal] "npm start" proposes a new note Late.md (id ${id}). Standard input has ended, so it cannot be reviewed in this run (see the line above).`,
    );
  });

  it('says with writes off how to turn them on, offers no review, and the refused write call names --allow-writes', async () => {
    const run = await startOnCopy([]);
    const { url, token } = await runEndpoint(run);
    expect(run.out).toContain(
      'Writes are off: agents can read notes, and a write tool call is refused. Restart with --allow-writes (npm start -- --allow-writes) to let them propose changes you review here (proposals, show, accept, reject), or add --mode force to let them write at once.',
    );
    expect(run.out.some((l) => /Review proposals here/.test(l))).toBe(false);
    const client = await connect(url, token);
    await expect(client.callTool({ name: 'create_note', arguments: { path: 'x.md', content: '' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'create_note is a write tool, off until the user turns on "Allow writes" and its toggle in Vault MCP settings → Tools (npm start: --allow-writes).',
      ),
    });
    // An unknown name gets no write-tool hint.
    await expect(client.callTool({ name: 'make_coffee', arguments: {} })).rejects.toMatchObject({
      message: expect.not.stringContaining('write tool'),
    });
  });

  it('says in force mode with writes off that --allow-writes lets the key write at once', async () => {
    const run = await startOnCopy(['--mode', 'force']);
    await runEndpoint(run);
    expect(run.out).toContain(
      'Writes are off: agents can read notes, and a write tool call is refused. Restart with --allow-writes (npm start -- --allow-writes) to let them write at once (mode force; activity lists what they changed, revert undoes it).',
    );
  });
});

describe('npm start: stopping from the terminal', () => {
  it('prints at once that Ctrl-C is stopping, then removes the demo copy and exits 0', async () => {
    const run = start(['--port', '0']);
    const copy = await demoCopyOf(run);
    await runEndpoint(run);
    run.child.kill('SIGINT');
    expect(await run.line(/^Stopping/)).toBe(STOPPING_LINE);
    expect(await run.exited).toBe(0);
    expect(await exists(copy)).toBe(false);
  });

  it('forces the exit on a second Ctrl-C during the stop, still removing the demo copy', async () => {
    const run = start(['--port', '0']);
    const copy = await demoCopyOf(run);
    const { url, token } = await runEndpoint(run);
    // A connected client keeps a stream open, which the orderly stop gives its grace period.
    await connect(url, token);
    run.child.kill('SIGINT');
    await run.line(/^Stopping/);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(FORCED_EXIT_CODE);
    expect(run.out).toContain('Stopped at once: running calls were cut off; the temporary copy is removed.');
    expect(await exists(copy)).toBe(false);
  });

  it('removes the demo copy when the terminal closes (SIGHUP, its output gone)', async () => {
    const run = start(['--port', '0']);
    const copy = await demoCopyOf(run);
    await runEndpoint(run);
    expect(await exists(copy)).toBe(true);
    // A closed terminal: nobody reads the output any more, then the hang-up.
    run.child.stdout!.destroy();
    run.child.stderr!.destroy();
    run.child.kill('SIGHUP');
    expect(await run.exited).toBe(0);
    expect(await exists(copy)).toBe(false);
  });
});

describe('npm start through npm: a signal sent to npm', () => {
  const posix = process.platform === 'win32' ? it.skip : it;

  /** Whether process `pid` exists (signal 0 probes without sending anything). */
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  };

  /** A port no one listens on now, to pass as --port as a user would. */
  const freePort = (): Promise<number> =>
    new Promise((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });

  posix('SIGTERM to the npm process stops the server: no process left, the port free, the demo copy removed', async () => {
    const port = await freePort();
    const run = startNpm(['--port', String(port), '--token', 'sigterm-test-token-0123456789']);
    runs.push(run);
    const copy = await demoCopyOf(run);
    await run.line(new RegExp(`^MCP server listening on http://127\\.0\\.0\\.1:${port}/mcp$`));
    await run.line(/^Press Ctrl-C to stop\.$/);
    const below = descendants(run.child.pid!);
    expect(below.length).toBeGreaterThan(0);
    try {
      process.kill(run.child.pid!, 'SIGTERM');
      await run.exited;
      const deadline = Date.now() + 20_000;
      while (below.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(below.filter(alive)).toEqual([]);
      expect(await portTaken(port)).toBe(false);
      expect(await exists(copy)).toBe(false);
    } finally {
      // What the old runner left serving: gone before the next test.
      for (const pid of below.filter(alive)) process.kill(pid, 'SIGKILL');
      await fsp.rm(copy, { recursive: true, force: true });
    }
  });
});

describe('npm start through npm: paths typed in a subfolder', () => {
  // `ps` lists the runner below npm, to stop it.
  const posix = process.platform === 'win32' ? it.skip : it;

  posix('resolves a relative --vault and --settings from the folder npm start was typed in, not the repository', async () => {
    // A folder of the checkout (npm finds the package from it), holding a vault, a settings file and the folder typed in.
    await fsp.mkdir(nodePath.join(ROOT, '.tmp'), { recursive: true });
    const dir = await fsp.mkdtemp(nodePath.join(ROOT, '.tmp', 'npm-start-cwd-'));
    cleanups.push(async () => {
      await fsp.rm(dir, { recursive: true, force: true });
      await fsp.rmdir(nodePath.join(ROOT, '.tmp')).catch(() => undefined);
    });
    const vaultDir = nodePath.join(dir, 'vault');
    await fsp.cp(DEMO_VAULT, vaultDir, { recursive: true });
    const settings = nodePath.join(dir, 'run.json');
    await fsp.writeFile(settings, JSON.stringify({ access: { quarantine: ['Personal'] } }));
    const typedIn = nodePath.join(dir, 'typed-here');
    await fsp.mkdir(typedIn);
    // From the repository root, where npm runs the script, ../vault is another folder (one that does not exist).
    const run = startNpm(['--vault', '../vault', '--settings', '../run.json', '--port', '0'], { cwd: typedIn });
    runs.push(run);
    await runEndpoint(run);
    expect(run.out).toContain(`Vault: ${vaultDir}`);
    expect(run.out.some((l) => l.startsWith(`Settings: ${settings} (--settings`))).toBe(true);
    // Stop the runner below npm itself, so nothing of the run outlives the test.
    const runner = descendants(run.child.pid!);
    for (const pid of runner) process.kill(pid, 'SIGINT');
    await run.exited;
  });

  it('names the absolute path it looked at when a relative --vault is missing', async () => {
    const docs = nodePath.join(ROOT, 'docs');
    const run = startNpm(['--vault', '../no-such-vault-folder', '--port', '0'], { cwd: docs });
    runs.push(run);
    expect(await run.exited).toBe(2);
    expect(run.err).toContain(
      `vault-mcp: --vault ../no-such-vault-folder (${nodePath.join(ROOT, 'no-such-vault-folder')}): no such folder; pass the folder that holds your notes.`,
    );
  });
});

describe('npm start: flags as typed', () => {
  it('names a flag npm kept for itself (npm start --port 27310) with the command to type, starting nothing', async () => {
    const run = start(['27310'], { npm_lifecycle_event: 'start', npm_config_port: 'true' });
    expect(await run.exited).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err.join('\n')).toContain(
      'vault-mcp: npm kept --port for itself (flags after "npm start" need -- before them), so this run would go without it; run: npm start -- --port 27310',
    );
  });

  it('refuses a run npm took --allow-writes from, rather than starting with writes off', async () => {
    const run = start([], { npm_lifecycle_event: 'start', npm_config_allow_writes: 'true' });
    expect(await run.exited).toBe(2);
    expect(run.err.join('\n')).toContain('run: npm start -- --allow-writes');
  });

  it('answers a bare word with the -- to put before the flags', async () => {
    const run = start(['27310'], { npm_lifecycle_event: '' });
    expect(await run.exited).toBe(2);
    expect(run.err).toEqual([
      'vault-mcp: Unknown option 27310: the run takes --flags only; through npm, put -- before them (npm start -- --port 27310).',
    ]);
  });

  it('answers a bad flag with one line naming it, not the whole usage, and an unknown one with where the options are listed', async () => {
    const run = start(['--port', '80'], { npm_lifecycle_event: '' });
    expect(await run.exited).toBe(2);
    expect(run.err).toEqual(['vault-mcp: --port 80: use a number from 1024 to 65535, or 0 for any free port.']);
    expect(run.out).toEqual([]);
    const unknown = start(['--frobnicate'], { npm_lifecycle_event: '' });
    expect(await unknown.exited).toBe(2);
    expect(unknown.err).toEqual(['vault-mcp: Unknown option --frobnicate; npm start -- --help lists the options.']);
  });

  it('quotes a --roots entry as typed when its spaces are what it is refused for', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanups.push(() => copy.cleanup());
    await fsp.mkdir(nodePath.join(copy.dir, 'Sp'));
    await fsp.mkdir(nodePath.join(copy.dir, ' Sp '));
    const run = start(['--vault', copy.dir, '--port', '0', '--roots', ' Sp ']);
    expect(await run.exited).toBe(2);
    expect(run.err[0]).toMatch(/^vault-mcp: --roots " Sp ": that root names two folders, /);
  });

  it('answers an absolute --roots inside the vault with its vault-relative spelling', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    cleanups.push(() => copy.cleanup());
    const run = start(['--vault', copy.dir, '--port', '0', '--roots', nodePath.join(copy.dir, 'Projects')]);
    expect(await run.exited).toBe(2);
    expect(run.err[0]).toBe(
      `vault-mcp: --roots ${nodePath.join(copy.dir, 'Projects')}: roots are folders relative to the vault; use --roots Projects.`,
    );
  });
});

describe('npm start --vault: what it serves', () => {
  it('refuses the whole disk and the home folder, which are not vaults', async () => {
    const root = start(['--vault', '/', '--port', '0']);
    expect(await root.exited).toBe(2);
    expect(root.err[0]).toBe(
      'vault-mcp: --vault /: that is the whole disk, not a vault, and agents would see every file in it; pass the folder that holds your notes (an Obsidian vault has a .obsidian folder).',
    );
    const home = await scratch();
    const inHome = start(['--vault', home, '--port', '0'], { HOME: home, USERPROFILE: home });
    expect(await inHome.exited).toBe(2);
    expect(inHome.err[0]).toMatch(/: that is your home folder, not a vault, and agents would see every file in it; /);
  });

  it('marks a --roots folder whose notes are all private: the key would see nothing there', async () => {
    const run = await startOnCopy(['--roots', 'Personal,Projects']);
    await runEndpoint(run);
    expect(run.out).toContain('Key "npm start": mode propose, writes off, roots Personal (no note readable there), Projects');
  });

  it('leaves a folder without .obsidian as it found it: the plugin folders made for writer.lock go when the run stops', async () => {
    const dir = await scratch();
    await fsp.writeFile(nodePath.join(dir, 'Note.md'), '# Note\n');
    const run = start(['--vault', dir, '--port', '0']);
    await runEndpoint(run);
    expect(await exists(nodePath.join(dir, '.obsidian', 'plugins', 'vault-mcp', 'writer.lock'))).toBe(true);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(await fsp.readdir(dir)).toEqual(['Note.md']);
  });

  it('counts the notes of a large vault and says it is loading them before the server listens', async () => {
    const dir = await scratch();
    const total = LARGE_VAULT_NOTES + 200;
    for (let f = 0; f < total / 100; f++) {
      const folder = nodePath.join(dir, `Folder ${f}`);
      await fsp.mkdir(folder);
      await Promise.all(
        Array.from({ length: 100 }, (_, i) => fsp.writeFile(nodePath.join(folder, `Note ${i}.md`), `# Note ${f}.${i}\n\nSome text.\n`)),
      );
    }
    // Not notes: skipped by the count as by the vault.
    await fsp.mkdir(nodePath.join(dir, '.obsidian'));
    await fsp.writeFile(nodePath.join(dir, '.obsidian', 'x.md'), '');
    await fsp.writeFile(nodePath.join(dir, 'image.png'), '');
    const run = start(['--vault', dir, '--port', '0']);
    await runEndpoint(run);
    const loading = run.out.findIndex((l) => l.startsWith('Loading '));
    expect(run.out[loading]).toBe(
      `Loading 1,200 notes from ${dir}; a large vault takes a while (a line every 5 s until the server listens).`,
    );
    expect(loading).toBeLessThan(run.out.findIndex((l) => l.startsWith('MCP server listening on ')));
  });
});
