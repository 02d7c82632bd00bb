import { spawn } from 'node:child_process';
import { appendFileSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TFile } from '../host';
import VaultMcpPlugin from '../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../harness/boot-plugin';
import { attempt } from './write-helpers';

/**
 * Issue 12.11: another program appending to a note while append_note writes it. A write
 * compares the note's bytes on disk with the text it was computed on immediately before
 * handing the new text to the vault (inside `vault.process`), so an outside change up to that
 * moment makes it start over (or, with expected_hash, answer conflict) instead of dropping
 * the outside text. What remains (README "Security model"): an append landing while the
 * vault itself writes the file is lost, since no file API offers compare-and-swap.
 */
describe('append_note against an outside appender', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const full = (p: string): string => nodePath.join(dir, p);

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-appender-'));
    await fsp.writeFile(full('Log.md'), '# Log\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Makes the next `vault.process` on Log.md see an outside append after its read, before its callback. */
  function appendDuringNextProcess(line: string): void {
    const vault = booted.app.vault;
    const original = vault.process.bind(vault);
    let armed = true;
    vault.process = ((file: TFile, fn: (data: string) => string, options?: unknown) =>
      original(file, (current: string) => {
        if (armed && file.path === 'Log.md') {
          armed = false;
          appendFileSync(full('Log.md'), line);
        }
        return fn(current);
      }, options as never)) as typeof vault.process;
  }

  test('an outside append between the read and the write is kept: the write starts over on the newer text', async () => {
    appendDuringNextProcess('outside line\n');
    const out = await attempt(client, 'append_note', { path: 'Log', content: 'agent line' });
    expect(out.ok).toBe(true);
    expect(await fsp.readFile(full('Log.md'), 'utf8')).toBe('# Log\noutside line\nagent line');
  });

  test('with expected_hash the same race answers conflict and writes nothing', async () => {
    const read = await attempt(client, 'read_note', { path: 'Log' });
    if (!read.ok) throw new Error(read.message);
    appendDuringNextProcess('outside line\n');
    const out = await attempt(client, 'append_note', { path: 'Log', content: 'agent line', expected_hash: read.value.hash });
    expect(out).toEqual({ ok: false, message: expect.stringMatching(/changed/i) });
    expect(await fsp.readFile(full('Log.md'), 'utf8')).toBe('# Log\noutside line\n');
  });

  /**
   * Runs a child process appending `outside <i>` every 5 ms while the agent appends `agent <k>`
   * (each after a read_note when `withHash`, passing its hash) until the child is done.
   * @returns the counts, with the final file's lines.
   */
  async function race(withHash: boolean): Promise<{ applied: string[]; refused: number; lost: number; outside: number[]; lines: string[] }> {
    const outsideLines = 300;
    const script = `const fs=require('fs');let i=0;const t=setInterval(()=>{fs.appendFileSync(process.argv[1],'outside '+i+'\\n');if(++i>=${outsideLines})clearInterval(t);},5);`;
    const child = spawn(process.execPath, ['-e', script, full('Log.md')], { stdio: 'ignore' });
    let running = true;
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve())).then(() => (running = false));
    const applied: string[] = [];
    let refused = 0;
    for (let k = 0; running; k++) {
      const args: Record<string, unknown> = { path: 'Log', content: `agent ${k}\n` };
      if (withHash) {
        const read = await attempt(client, 'read_note', { path: 'Log', max_chars: 0 });
        if (!read.ok) throw new Error(read.message);
        args.expected_hash = read.value.hash;
      }
      const out = await attempt(client, 'append_note', args);
      if (out.ok) applied.push(`agent ${k}`);
      else if (/chang/i.test(out.message)) refused++;
      else throw new Error(out.message);
    }
    await exited;
    const lines = (await fsp.readFile(full('Log.md'), 'utf8')).split('\n');
    const outside = lines.filter((l) => l.startsWith('outside ')).map((l) => Number(l.slice('outside '.length)));
    const lost = outsideLines - outside.length;
    process.stdout.write(`\nOutside appender (${withHash ? 'with' : 'without'} expected_hash): ${outsideLines} outside lines every 5 ms, ${applied.length} agent appends applied, ${refused} refused as changed or kept changing, ${lost} outside lines lost\n`);
    return { applied, refused, lost, outside, lines };
  }

  test.each([false, true])('a program appending every 5 ms (expected_hash %s): every applied agent line is there, outside lines stay in order, losses are counted', async (withHash) => {
    const { applied, refused, outside, lines } = await race(withHash);
    for (const line of applied) expect(lines).toContain(line);
    expect(outside).toEqual([...outside].sort((a, b) => a - b));
    expect(new Set(outside).size).toBe(outside.length);
    expect(applied.length + refused).toBeGreaterThan(0);
  });
});
