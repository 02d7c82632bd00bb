import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { connectClient } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { call } from '../../harness/edits/write-helpers';

const ROOT = path.resolve(__dirname, '../../..');
/** The run's bearer token, new for every test run. */
const TOKEN = `vmcp_${randomBytes(24).toString('base64url')}`;

/** Every note and folder of a vault folder with its text, skipping the config folder and the local trash. */
async function snapshot(dir: string, sub = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fsp.readdir(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (rel === '.obsidian' || rel === '.trash') continue;
    if (entry.isDirectory()) Object.assign(out, { [`${rel}/`]: '' }, await snapshot(dir, rel));
    else out[rel] = await fsp.readFile(path.join(dir, rel), 'utf8');
  }
  return out;
}

/**
 * The terminal loop of docs/agent-activity.md#from-the-terminal with the real runner (`npm start`'s headless.ts over the built
 * main.js, in its own process): a force key edits, moves and deletes a note over MCP, the
 * terminal's `activity` lists the three changes, `revert` takes each back, and the vault is
 * as it was.
 */
describe('npm start: agent activity and revert from the terminal', () => {
  let child: ChildProcessWithoutNullStreams | null = null;
  let copy: { dir: string; cleanup(): Promise<void> };
  let output = '';
  /** Waits until the runner has printed something matching `pattern` after `from` chars of output. */
  const printed = async (pattern: RegExp, from = 0): Promise<RegExpMatchArray> => {
    for (let i = 0; i < 400; i++) {
      const match = output.slice(from).match(pattern);
      if (match) return match;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`the runner did not print ${pattern} in 10 s; it printed:\n${output}`);
  };
  /** Types one line into the runner and waits for an answer matching `pattern`. */
  const type = async (line: string, pattern: RegExp): Promise<string> => {
    const from = output.length;
    child?.stdin.write(`${line}\n`);
    return (await printed(pattern, from)).input?.slice(0) ?? '';
  };

  beforeAll(() => {
    const built = spawnSync(process.execPath, ['esbuild.config.mjs', 'production'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building main.js failed: ${built.stderr}`);
  }, 120_000);

  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child?.once('exit', r));
      child.kill('SIGINT');
      await exited;
    }
    await copy?.cleanup();
  });

  test('edit, move and delete a note with a force key, then "activity" and "revert" each: the vault is as it was', async () => {
    copy = await copyToTemp(DEMO_VAULT);
    const before = await snapshot(copy.dir);
    child = spawn(
      process.execPath,
      ['scripts/start.mjs', '--vault', copy.dir, '--port', '0', '--mode', 'force', '--allow-writes', '--token', TOKEN],
      { cwd: ROOT },
    );
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const url = (await printed(/MCP server listening on (\S+)/))[1];
    const client = await connectClient(url, TOKEN);
    try {
      await call(client, 'edit_note', { path: 'Ideas.md', anchor: 'Pair every new hire', op: 'replace', content: 'Pair each new hire' });
      await call(client, 'move_note', { path: 'Archive/Old ideas.md', to: 'Archive/Someday.md' });
      await call(client, 'delete_note', { path: 'Inbox.md', confirm: true });
    } finally {
      await client.close();
    }
    expect(await snapshot(copy.dir)).not.toEqual(before);

    const listed = await type('activity', /edit Ideas\.md via edit_note\n/);
    const rows = listed.slice(listed.lastIndexOf('"npm start", session')).split('\n').slice(1, 4);
    expect(rows).toEqual([
      expect.stringMatching(/^ {2}a_\w+ {2}.+ {2}delete Inbox\.md via delete_note$/),
      expect.stringMatching(/^ {2}a_\w+ {2}.+ {2}move Archive\/Old ideas\.md -> Archive\/Someday\.md via move_note$/),
      expect.stringMatching(/^ {2}a_\w+ {2}.+ {2}edit Ideas\.md via edit_note$/),
    ]);
    const ids = rows.map((r) => r.trim().split(/\s+/)[0]);
    for (const id of ids) await type(`revert ${id}`, new RegExp(`Reverted ${id}[^\\n]*\\n`));
    expect(await snapshot(copy.dir)).toEqual(before);
    const after = await type('activity', /reverted by a_\w+\)\n(?:.*\n){2}/);
    expect(after.match(/\(reverted by a_\w+\)/g)).toHaveLength(3);
    expect(await type(`revert ${ids[0]}`, /already reverted[^\n]*\n/)).toContain(`${ids[0]} is already reverted`);
    // Ctrl-C: the log's last write lands before the runner exits; the next run reads it back.
    const exited = new Promise((r) => child?.once('exit', r));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const saved = JSON.parse(await fsp.readFile(path.join(copy.dir, '.obsidian/plugins/vault-mcp/activity.json'), 'utf8')) as {
      entries: Array<{ via: string }>;
    };
    expect(saved.entries.map((e) => e.via)).toEqual(['agent', 'agent', 'agent', 'revert', 'revert', 'revert']);
  }, 60_000);
});
