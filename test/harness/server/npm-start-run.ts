/**
 * `npm start` as a user runs it, for the runner's tests: the runner `npm start` runs
 * (build/headless.cjs, bundled once per test file by {@link buildRunner}) in its own process, or
 * `npm start -- ...args` itself (which builds main.js and bundles the runner on each run), read
 * through its printed lines.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as nodePath from 'node:path';

/** The repository root, where `npm start` runs. */
export const ROOT = nodePath.resolve(__dirname, '../../..');
/** How long a run may take to print a line it owes (bundling the runner, loading the vault, embedding it). */
export const LINE_TIMEOUT_MS = 45_000;

/** A running `npm start`: what it printed so far, and how to wait for more. */
export interface StartedRun {
  child: ChildProcess;
  /** Lines printed to stdout so far, without newlines. */
  out: string[];
  /** Lines printed to stderr so far. */
  err: string[];
  /** Resolves with the first stdout line matching `pattern` (already printed or to come); rejects after LINE_TIMEOUT_MS or when the run exits first. */
  line(pattern: RegExp): Promise<string>;
  /** Resolves with the exit code (null when a signal ended the process). */
  exited: Promise<number | null>;
}

/** The runner's bundle, as scripts/start.mjs writes it (scripts/run-bundled.mjs), relative to ROOT. */
const RUNNER_BUNDLE = 'build/headless.cjs';
/** Whether this test file has run {@link buildRunner}: before that, build/headless.cjs may be an older run's. */
let runnerBuilt = false;

/** Builds main.js as `npm start` does before it runs the runner. @throws Error with esbuild's output when the build fails. */
export function buildMainJs(): void {
  const build = spawnSync(process.execPath, ['esbuild.config.mjs', 'production'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`Building main.js failed: ${build.stderr}`);
}

/**
 * Builds main.js and bundles the runner (scripts/start/headless.ts to build/headless.cjs) as `npm start`
 * does before each run, once, so {@link startRunner} runs start the runner without bundling it
 * again (about 0.7 s a run). Call it in the test file's beforeAll.
 * @throws Error with esbuild's output when either build fails.
 */
export function buildRunner(): void {
  buildMainJs();
  const code = `import { bundle } from './scripts/run-bundled.mjs'; await bundle('start/headless.ts');`;
  const build = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`Bundling the runner failed: ${build.stderr}`);
  runnerBuilt = true;
}

/**
 * Starts the runner `npm start` runs (`node build/headless.cjs ...args`, what scripts/start.mjs
 * loads once it has bundled it) from the repository root with `env` over the test's own
 * environment (stdin a pipe, as commands are typed into it).
 * @throws Error when this test file has not run {@link buildRunner}: the bundle could be stale.
 */
export function startRunner(args: string[], env: NodeJS.ProcessEnv = {}): StartedRun {
  if (!runnerBuilt) throw new Error('startRunner runs build/headless.cjs: call buildRunner in beforeAll first');
  return follow(
    spawn(process.execPath, [RUNNER_BUNDLE, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
}

/**
 * Runs `npm start -- ...args` as a user types it, in `cwd` (default the repository root), with
 * the test's environment minus the npm_* and INIT_CWD variables an outer npm (npm test, npx) set,
 * plus `env`. The child is npm itself: its shell and the runner are its descendants.
 */
export function startNpm(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): StartedRun {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$)/i.test(name)));
  return follow(
    spawn('npm', ['start', '--', ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...clean, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    }),
  );
}

/** Every process below `pid` (children, their children, …), from `ps`; POSIX only. */
export function descendants(pid: number): number[] {
  const table = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).stdout;
  const pairs = table
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length;) {
    const next = pairs.filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** Follows a started run's output. */
function follow(child: ChildProcess): StartedRun {
  const out: string[] = [];
  const err: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve(line: string): void }> = [];
  const collect = (into: string[]) => {
    let rest = '';
    return (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        into.push(line);
        if (into !== out) continue;
        for (const w of waiting.filter((w) => w.pattern.test(line))) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(line);
        }
      }
    };
  };
  child.stdout!.on('data', collect(out));
  child.stderr!.on('data', collect(err));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = (pattern: RegExp): Promise<string> =>
    new Promise((resolve, reject) => {
      const found = out.find((l) => pattern.test(l));
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(
        () => reject(new Error(`npm start printed no line matching ${pattern} in ${LINE_TIMEOUT_MS} ms:\n${[...out, ...err].join('\n')}`)),
        LINE_TIMEOUT_MS,
      );
      waiting.push({ pattern, resolve: (l) => (clearTimeout(timer), resolve(l)) });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`npm start exited (${code}) before printing ${pattern}:\n${[...out, ...err].join('\n')}`));
      });
    });
  return { child, out, err, line, exited };
}

/** The MCP URL and the run key's token, once every line printed at start is in (they may come in several chunks). */
export async function runEndpoint(run: StartedRun): Promise<{ url: string; token: string }> {
  await run.line(/^Press Ctrl-C to stop\.$/);
  const url = /MCP server listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(await run.line(/^MCP server listening on /))![1];
  const token = /^Token \(shown once\): (\S+)$/.exec(await run.line(/^Token \(shown once\): /))![1];
  return { url, token };
}
