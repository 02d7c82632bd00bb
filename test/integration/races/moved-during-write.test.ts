/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { App } from '../../host/index';
import { attempt, bootFilesEnv, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * The user moves a note into a quarantined folder (Obsidian's rename, so the vault's TFile follows
 * it) while an agent's write of that note is under way, after its access checks and before the
 * vault writes (verifier s30 F8, and the same gap in append_note's append-mode route). The write
 * must not follow the note there: it answers that the note was deleted or moved, naming only the
 * path the agent gave (docs/reliability.md), and nothing is written. The move is made to land at
 * one exact step of the write by wrapping the host call that step makes.
 */

const DRAFT = 'diary draft\n';
const NOT_FOUND = /^Note 'X\.md' was deleted or moved while this change was made; nothing was written/;

interface Env extends WriteEnv {
  vault: string;
}

async function boot(): Promise<Env> {
  const env = await bootFilesEnv(
    'vault-mcp-moved-during-',
    { 'Home.md': 'home\n', 'X.md': DRAFT, 'Journal/old.md': 'j\n' },
    { mode: 'force', allowWrites: true, configure: (s) => void (s.access.quarantine = ['Journal']) },
  );
  return { ...env, vault: nodePath.join(env.root, 'vault') };
}

/** Makes the user's move of X.md into Journal land the first time `method` of `target` is called for X.md. */
function moveDuring<T extends object>(app: App, target: T, method: keyof T & string): () => boolean {
  const original = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  let armed = true;
  (target as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    const first = args[0] as string | { path: string };
    if (armed && (typeof first === 'string' ? first : first.path) === 'X.md') {
      armed = false;
      await app.fileManager.renameFile(app.vault.getFileByPath('X.md')!, 'Journal/X.md');
    }
    return original(...args);
  };
  return () => !armed;
}

describe('a note moved into a quarantined folder while an agent write to it is under way', () => {
  let env: Env | null = null;
  afterEach(async () => {
    await env?.done();
    env = null;
  });

  test('write_note (the move lands after the checks, before vault.process): not found, nothing written there', async () => {
    env = await boot();
    const app = env.booted.app;
    // NoteWriter.identityOnDisk's stat runs inside the write lock, after the first disk check.
    const moved = moveDuring(app, app.vault.adapter as unknown as { stat(p: string): Promise<unknown> }, 'stat');
    const answer = await attempt(env.client, 'write_note', { path: 'X', body: 'AGENT WROTE\n' });
    expect(moved()).toBe(true);
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(NOT_FOUND) });
    expect(JSON.stringify(answer)).not.toContain('Journal');
    expect(await fsp.readFile(nodePath.join(env.vault, 'Journal/X.md'), 'utf8')).toBe(DRAFT);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });

  test('append_note without expected_hash (the move lands while the note is read before the append): not found', async () => {
    env = await boot();
    const app = env.booted.app;
    const moved = moveDuring(app, app.vault, 'read');
    const answer = await attempt(env.client, 'append_note', { path: 'X', content: 'AGENT LINE' });
    expect(moved()).toBe(true);
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(NOT_FOUND) });
    expect(JSON.stringify(answer)).not.toContain('Journal');
    expect(await fsp.readFile(nodePath.join(env.vault, 'Journal/X.md'), 'utf8')).toBe(DRAFT);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });

  test('delete_note (the move lands while the trash reads the note): not found, the note kept', async () => {
    env = await boot();
    const app = env.booted.app;
    const moved = moveDuring(app, app.vault, 'readBinary');
    const answer = await attempt(env.client, 'delete_note', { path: 'X', confirm: true });
    expect(moved()).toBe(true);
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(NOT_FOUND) });
    expect(await fsp.readFile(nodePath.join(env.vault, 'Journal/X.md'), 'utf8')).toBe(DRAFT);
    expect(env.booted.plugin.activity.all()).toEqual([]);
  });
});
