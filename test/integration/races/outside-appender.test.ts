import { spawn } from 'node:child_process';
import { appendFileSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TFile } from '../../host/index';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt } from '../../harness/edits/write-helpers';

/**
 * Issue 12.11 and 19: another program appending to a note while append_note writes it.
 * Without expected_hash append_note is an append-mode write (`vault.append`), so neither side
 * can overwrite the other: target 0 lost lines. With expected_hash (and when a proposal is
 * accepted) the note is rewritten whole in one `vault.process`, which compares the bytes on
 * disk with the text it was computed on immediately before handing the new text over, so an
 * outside change up to that moment makes it start over (or, with expected_hash, answer
 * conflict); what remains (docs/security.md#other-programs-writing-the-same-note) is an append landing while the vault
 * itself writes the file, since no file API offers compare-and-swap: those runs count it.
 */
describe('append_note against an outside appender', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const full = (p: string): string => nodePath.join(dir, p);

  async function boot(mode: 'force' | 'propose'): Promise<void> {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-appender-'));
    await fsp.writeFile(full('Log.md'), '# Log\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode, allowWrites: true });
    client = await connectClient(booted.url, booted.token);
  }
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
      original(
        file,
        (current: string) => {
          if (armed && file.path === 'Log.md') {
            armed = false;
            appendFileSync(full('Log.md'), line);
          }
          return fn(current);
        },
        options as never,
      )) as typeof vault.process;
  }

  test('without expected_hash the append is an append-mode write: an outside append just before it is kept, no rewrite happens', async () => {
    await boot('force');
    const vault = booted.app.vault;
    const append = vault.append.bind(vault);
    const process = jest.spyOn(vault, 'process');
    const modify = jest.spyOn(vault, 'modify');
    vault.append = (async (file: TFile, data: string, options?: unknown) => {
      appendFileSync(full('Log.md'), 'outside line\n');
      return append(file, data, options as never);
    }) as typeof vault.append;
    const out = await attempt(client, 'append_note', { path: 'Log', content: 'agent line' });
    expect(out.ok).toBe(true);
    expect(await fsp.readFile(full('Log.md'), 'utf8')).toBe('# Log\noutside line\nagent line\n');
    expect(process).not.toHaveBeenCalled();
    expect(modify).not.toHaveBeenCalled();
    if (out.ok) expect(out.value).toMatchObject({ status: 'applied', lines: { start: 3, end: 3 } });
  });

  test('with expected_hash an outside append between the read and the write answers conflict and writes nothing', async () => {
    await boot('force');
    const read = await attempt(client, 'read_note', { path: 'Log' });
    if (!read.ok) throw new Error(read.message);
    appendDuringNextProcess('outside line\n');
    const out = await attempt(client, 'append_note', { path: 'Log', content: 'agent line', expected_hash: read.value.hash });
    expect(out).toEqual({ ok: false, message: expect.stringMatching(/changed/i) });
    expect(await fsp.readFile(full('Log.md'), 'utf8')).toBe('# Log\noutside line\n');
  });

  test('accepting a proposal compares inside vault.process: an outside append in that window is kept, the append goes after it', async () => {
    await boot('propose');
    const staged = await attempt(client, 'append_note', { path: 'Log', content: 'agent line' });
    if (!staged.ok) throw new Error(staged.message);
    appendDuringNextProcess('late line\n');
    const outcome = await booted.plugin.review.accept(String(staged.value.proposal_id));
    // Placed again on the text inside the process: lines added at the end since go first (docs/propose-mode.md).
    expect(outcome).toMatchObject({ applied: 1, stale: 0 });
    expect(await fsp.readFile(full('Log.md'), 'utf8')).toBe('# Log\nlate line\nagent line\n');
  });

  /**
   * Runs a child process appending `outside <i>` every 5 ms while the agent appends `agent <k>`
   * until the child is done: `append` plain, `hash` after a read_note passing its hash, `accept`
   * staged by a propose key and accepted at once through the plugin's review.
   * @returns the counts, with the final file's lines.
   */
  async function race(
    how: 'append' | 'hash' | 'accept',
  ): Promise<{ applied: string[]; refused: number; lost: number; outside: number[]; lines: string[] }> {
    const outsideLines = 300;
    const script = `const fs=require('fs');let i=0;const t=setInterval(()=>{fs.appendFileSync(process.argv[1],'outside '+i+'\\n');if(++i>=${outsideLines})clearInterval(t);},5);`;
    const child = spawn(process.execPath, ['-e', script, full('Log.md')], { stdio: 'ignore' });
    let running = true;
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve())).then(() => (running = false));
    const applied: string[] = [];
    let refused = 0;
    for (let k = 0; running; k++) {
      const args: Record<string, unknown> = { path: 'Log', content: `agent ${k}\n` };
      if (how === 'hash') {
        const read = await attempt(client, 'read_note', { path: 'Log', max_chars: 0 });
        if (!read.ok) throw new Error(read.message);
        args.expected_hash = read.value.hash;
      }
      const out = await attempt(client, 'append_note', args);
      if (out.ok && how === 'accept') {
        const id = String(out.value.proposal_id);
        // Every attempt of the accept met a note changed under it (a loaded machine: the appender outran them all);
        // it applied nothing and says so, as documented (docs/propose-mode.md): a refusal like the others.
        const accepted = await booted.plugin.review.accept(id).catch((error: unknown) => {
          if (error instanceof Error && /kept changing while proposal .* nothing was applied/.test(error.message)) return null;
          throw error;
        });
        if (accepted === null) {
          refused++;
          await booted.plugin.review.reject(id);
          continue;
        }
        const { applied: n, proposal } = accepted;
        if (n > 0) applied.push(`agent ${k}`);
        else if (proposal.status !== 'pending') throw new Error(`proposal ${proposal.id} is ${proposal.status}`);
        else {
          refused++;
          await booted.plugin.review.reject(proposal.id);
        }
      } else if (out.ok) applied.push(`agent ${k}`);
      else if (/chang/i.test(out.message)) refused++;
      else throw new Error(out.message);
    }
    await exited;
    const lines = (await fsp.readFile(full('Log.md'), 'utf8')).split('\n');
    const outside = lines.filter((l) => l.startsWith('outside ')).map((l) => Number(l.slice('outside '.length)));
    const lost = outsideLines - outside.length;
    process.stdout.write(
      `\nOutside appender (append_note ${how === 'append' ? 'without expected_hash' : how === 'hash' ? 'with expected_hash' : 'proposed, then accepted'}): ${outsideLines} outside lines every 5 ms, ${applied.length} agent appends applied, ${refused} refused as changed or kept changing, ${lost} outside lines lost\n`,
    );
    return { applied, refused, lost, outside, lines };
  }

  test.each(['append', 'hash', 'accept'] as const)(
    'a program appending every 5 ms (%s): every applied agent line is there, outside lines stay in order, losses are counted',
    async (how) => {
      await boot(how === 'accept' ? 'propose' : 'force');
      const { applied, refused, lost, outside, lines } = await race(how);
      for (const line of applied) expect(lines).toContain(line);
      expect(outside).toEqual([...outside].sort((a, b) => a - b));
      expect(new Set(outside).size).toBe(outside.length);
      expect(applied.length + refused).toBeGreaterThan(0);
      if (how === 'append') {
        expect(lost).toBe(0);
        expect(refused).toBe(0);
      }
    },
  );
});
