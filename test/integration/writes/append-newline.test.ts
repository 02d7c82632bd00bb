import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { attempt, call } from '../../harness/edits/write-helpers';

/**
 * Issue 19: append_note keeps a note's final-newline state (text-edits.ts appendText), in
 * force mode (an append-mode write) and after accepting a proposal (a whole-note write), and
 * refuses empty content in both modes before anything is written or staged.
 */
describe.each(['force', 'propose'] as const)('append_note and the final newline (%s key)', (mode) => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(dir, p), 'utf8');

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-newline-'));
    await fsp.writeFile(nodePath.join(dir, 'Ends.md'), 'a\nb\n');
    await fsp.writeFile(nodePath.join(dir, 'Open.md'), 'a\nb');
    await fsp.writeFile(nodePath.join(dir, 'Crlf.md'), 'a\r\nb\r\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode, allowWrites: true });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** Appends (accepting the proposal for a propose key) and returns the note's text after. */
  async function append(path: string, content: string, ensureNewline?: boolean): Promise<string> {
    const out = await call(client, 'append_note', {
      path,
      content,
      ...(ensureNewline === undefined ? {} : { ensure_newline: ensureNewline }),
    });
    if (mode === 'propose') {
      expect(out.status).toBe('pending');
      const { applied } = await booted.plugin.review.accept(String(out.proposal_id));
      expect(applied).toBeGreaterThan(0);
    } else {
      expect(out.status).toBe('applied');
    }
    return disk(`${path}.md`);
  }

  test('a note ending in a line break still ends in one; a note without keeps none', async () => {
    expect(await append('Ends', 'c')).toBe('a\nb\nc\n');
    expect(await append('Open', 'c')).toBe('a\nb\nc');
    expect(await append('Crlf', 'c\nd')).toBe('a\r\nb\r\nc\r\nd\r\n');
  });

  test('ensure_newline false appends exactly what was given', async () => {
    expect(await append('Open', 'c', false)).toBe('a\nbc');
    expect(await append('Ends', 'c', false)).toBe('a\nb\nc');
  });

  test('empty content is refused with one sentence, nothing written or staged', async () => {
    const out = await attempt(client, 'append_note', { path: 'Ends', content: '' });
    expect(out).toEqual({ ok: false, message: "content is empty, so there is nothing to append to 'Ends.md'; pass the text to add." });
    expect(await disk('Ends.md')).toBe('a\nb\n');
    expect(booted.plugin.proposals.pending()).toEqual([]);
  });
});
