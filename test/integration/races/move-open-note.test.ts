/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { hashText } from '../../../src/vault/hash';
import { bootFilesEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';
import { openInEditor, typeAtEnd } from '../../harness/edits/editor-helpers';

/**
 * move_note of a note open in an editor with the user's unsaved typing. Every write tool compares
 * `expected_hash` with the text the note has as the user sees it, its open editor's when it has
 * one (text writes and delete_note did; move_note compared the file behind the editor): a hash
 * read before the typing is a conflict, and nothing moves. A move without one, or with the
 * editor's hash, saves the typing first (judged on the disk, as delete_note does), so the note at
 * its new place holds what the user sees at once and the answer's hash is of that text.
 * read_note reads the file, so while the typing is unsaved (Obsidian saves it 2 s after it) its
 * hash conflicts with every write tool alike.
 */

const NOTE = 'first line\n';
const TYPED = 'USER TYPED\n';

describe('move_note of a note open in an editor with unsaved typing', () => {
  let env: WriteEnv | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  const disk = (path: string): Promise<string | null> => fsp.readFile(nodePath.join(env!.dir, path), 'utf8').catch(() => null);

  test.each(['force', 'propose'] as const)(
    '%s: a hash read before the typing is a conflict, as for every write tool; nothing moves or is staged',
    async (mode) => {
      env = await bootFilesEnv('vault-mcp-move-open-', { 'M.md': NOTE }, { mode, allowWrites: true });
      const m = await openInEditor(env, 'M.md');
      const read = await call(env.client, 'read_note', { path: 'M' });
      typeAtEnd(m.cm, TYPED);
      const hash = read.hash as string;
      // Every write tool agrees on the text expected_hash is compared with.
      expect(await callError(env.client, 'move_note', { path: 'M', to: 'Archive/M', expected_hash: hash })).toMatch(/changed since/);
      expect(await callError(env.client, 'append_note', { path: 'M', content: 'x', expected_hash: hash })).toMatch(/changed since/);
      expect(await callError(env.client, 'delete_note', { path: 'M', confirm: true, expected_hash: hash })).toMatch(/changed since/);
      expect(await disk('M.md')).toBe(NOTE);
      expect(await disk('Archive/M.md')).toBeNull();
      expect(env.booted.plugin.proposals.pending()).toEqual([]);
      expect(m.cm.state.doc.toString()).toBe(NOTE + TYPED);
    },
  );

  test("force: a move with the editor's text's hash saves the typing first; the answer's hash is of that text", async () => {
    env = await bootFilesEnv('vault-mcp-move-open-', { 'M.md': NOTE }, { mode: 'force', allowWrites: true });
    const m = await openInEditor(env, 'M.md');
    typeAtEnd(m.cm, TYPED);
    const moved = await call(env.client, 'move_note', { path: 'M', to: 'Archive/M', expected_hash: hashText(NOTE + TYPED) });
    expect(moved).toMatchObject({ status: 'applied', path: 'Archive/M.md', hash: hashText(NOTE + TYPED) });
    expect(await disk('Archive/M.md')).toBe(NOTE + TYPED);
    expect(await disk('M.md')).toBeNull();
    expect(m.view.file?.path).toBe('Archive/M.md');
    expect(m.cm.state.doc.toString()).toBe(NOTE + TYPED);
    // The hash the move answered is the one the next write checks.
    const appended = await call(env.client, 'append_note', { path: 'Archive/M', content: 'AGENT', expected_hash: moved.hash });
    expect(appended).toMatchObject({ status: 'applied' });
    expect(await disk('Archive/M.md')).toBe(`${NOTE}${TYPED}AGENT\n`);
  });
});
