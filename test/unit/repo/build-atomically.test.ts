/**
 * scripts/bundle/build-atomically.mjs: a process reading a bundle while it is rebuilt (an
 * `npm start` in another terminal loading main.js) gets the old bytes or the new, never a part.
 */
import { spawn, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';

jest.setTimeout(60_000);

/** A reader in another process: reads `file` in a tight loop until told to stop, and reports every length it saw. */
function startReader(file: string): { stop(): Promise<number[]> } {
  const source = `
    const fs = require('node:fs');
    const seen = new Set();
    let stopped = false;
    process.stdin.on('data', () => { stopped = true; });
    (function loop() {
      for (let i = 0; i < 200; i++) { try { seen.add(fs.readFileSync(${JSON.stringify(file)}).length); } catch { seen.add(-1); } }
      if (stopped) process.stdout.write(JSON.stringify([...seen]), () => process.exit(0)); else setImmediate(loop);
    })();`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    stop: async () => {
      child.stdin.end('stop');
      await exited;
      return JSON.parse(out) as number[];
    },
  };
}

const HELPER = nodePath.resolve(__dirname, '../../../scripts/bundle/build-atomically.mjs');

/**
 * Runs buildAtomically `times` times in a Node process of its own (the helper is an ES module
 * of scripts/, which Jest's CommonJS runtime cannot import); returns its exit status and stderr.
 */
function buildInChild(options: object, times: number): { status: number | null; stderr: string } {
  const source = `import { buildAtomically } from ${JSON.stringify(HELPER)};
    const options = ${JSON.stringify({ ...options, logLevel: 'silent' })};
    for (let i = 0; i < ${times}; i++) await buildAtomically(options);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('buildAtomically', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-build-'));
  });
  afterEach(async () => fsp.rm(dir, { recursive: true, force: true }));

  it('never shows a reader a half-written bundle while it is rebuilt again and again', async () => {
    // About 1 MB of output, so a write takes long enough for a reader to meet it half-done.
    const entry = nodePath.join(dir, 'entry.js');
    await fsp.writeFile(entry, `module.exports = ${JSON.stringify('x'.repeat(1_000_000))};\n`);
    const outfile = nodePath.join(dir, 'out.js');
    const options = { entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile };
    expect(buildInChild(options, 1).status).toBe(0);
    const full = (await fsp.stat(outfile)).size;
    const reader = startReader(outfile);
    expect(buildInChild(options, 6).status).toBe(0);
    const lengths = await reader.stop();
    expect(lengths).toEqual([full]);
    // No temporary file is left beside it.
    expect(await fsp.readdir(dir)).toEqual(['entry.js', 'out.js']);
  });

  it('writes nothing and leaves the old bundle in place when the build fails', async () => {
    const outfile = nodePath.join(dir, 'out.js');
    await fsp.writeFile(outfile, 'old bundle');
    const entry = nodePath.join(dir, 'broken.js');
    await fsp.writeFile(entry, 'module.exports = (;\n');
    const failed = buildInChild({ entryPoints: [entry], bundle: true, outfile }, 1);
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toMatch(/Build failed/);
    expect(await fsp.readFile(outfile, 'utf8')).toBe('old bundle');
    expect((await fsp.readdir(dir)).sort()).toEqual(['broken.js', 'out.js']);
  });
});
