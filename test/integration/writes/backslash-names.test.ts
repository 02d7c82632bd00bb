import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NOTE_URI_TEMPLATE } from '../../../src/server/content/note-resources';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { call, searchPaths, writeEnvPerBlock, writeVaultFiles, type Json } from '../../harness/edits/write-helpers';
import { waitUntil } from '../../harness/wait-until';

/**
 * A file whose disk name holds a backslash (only a POSIX disk can) beside the note its name reads
 * as once `normalizePath` turns the backslash into `/`: `bs\x.md` and `bs/x.md`. No route may show
 * an agent the first under a name that leads to the second (docs/limits.md).
 */
const SLASH = 'SLASH NOTE #slashtag\n';
const BACKSLASH = '---\nstatus: bsonly\n---\nBACKSLASH NOTE quokkaword #bstag, see [[Home]].\n';
/** How the hidden names look inside a JSON answer (a backslash is escaped there). */
const HIDDEN = ['bs\\x', 'f\\g', 'late\\y'].map((name) => JSON.stringify(name).slice(1, -1));

/** Fails when `answer` names a hidden file or shows its text. */
function expectNothingHidden(answer: unknown): void {
  const text = JSON.stringify(answer);
  for (const name of HIDDEN) expect(text).not.toContain(name);
  expect(text).not.toMatch(/BACKSLASH|quokkaword|bstag|bsonly|INNER/);
}

/** The paths list_notes gives for the whole vault (one page of 500). */
async function listed(client: Client): Promise<string[]> {
  return ((await call(client, 'list_notes', { limit: 500 })).notes as Json[]).map((n) => n.path as string);
}

/** Every route that lists or names notes, each answer checked with {@link expectNothingHidden}. */
async function expectNoRouteShowsThem(client: Client): Promise<void> {
  expectNothingHidden(await call(client, 'list_notes', { limit: 500 }));
  expectNothingHidden(await call(client, 'list_notes', { limit: 500, since: '2000-01-01' }));
  expectNothingHidden(await call(client, 'list_folders', {}));
  expectNothingHidden(await call(client, 'list_tags', {}));
  for (const query of ['quokkaword', 'BACKSLASH', 'INNER', 'NOTE', 'SLASH', 'slashtag', 'zebrafishword'])
    expectNothingHidden(await call(client, 'search', { query }));
  expectNothingHidden(await call(client, 'search', { query: '[status:bsonly]' }));
  expectNothingHidden(await call(client, 'query_notes', { query: 'WHERE status = "bsonly"' }));
  expectNothingHidden(await call(client, 'query_notes', { query: '' }));
  expectNothingHidden(await call(client, 'get_links', { path: 'Home' }));
  expectNothingHidden(await call(client, 'read_note', { path: 'bs\\x.md', outline: true }));
  expectNothingHidden(await call(client, 'read_notes', { paths: ['bs\\x.md', 'Home'] }));
  expectNothingHidden(await client.listResources());
  for (const value of ['bs', 'f', 'late', ''])
    expectNothingHidden(
      await client.complete({ ref: { type: 'ref/resource', uri: NOTE_URI_TEMPLATE }, argument: { name: 'path', value } }),
    );
}

describe('a backslash in a disk name, with the host leaving such names out (its default)', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('a file made while the server runs is left out as at the start, so writing its name never reaches the other note', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await writeVaultFiles(env.dir, { 'bs/x.md': SLASH, 'bs\\x.md': BACKSLASH, 'marker.md': 'marker\n' });
      await waitUntil(() => env.booted.app.vault.getFileByPath('marker.md') !== null, 'the watcher applied the new files');
      await waitUntil(() => env.booted.app.vault.getFileByPath('bs/x.md') !== null, 'the watcher applied bs/x.md');
      expect(warn.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('bs\\x.md'))).toEqual([
        expect.stringContaining('cannot hold a backslash'),
      ]);
    } finally {
      warn.mockRestore();
    }
    expect(env.booted.app.vault.getFiles().filter((f) => f.path.includes('\\'))).toEqual([]);
    const paths = await listed(env.client);
    expect(paths).toContain('bs/x.md');
    expect(paths.filter((p) => p.startsWith('bs'))).toEqual(['bs/x.md']);
    // The backslash, typed, is a folder separator (docs/tools.md): the answer names the note it reached.
    expect(await env.call('read_note', { path: 'bs\\x.md' })).toMatchObject({ path: 'bs/x.md', body: SLASH });
    expect(await env.call('write_note', { path: 'bs\\x.md', body: 'REPLACED' })).toMatchObject({ path: 'bs/x.md' });
    expect(await fsp.readFile(nodePath.join(env.dir, 'bs\\x.md'), 'utf8')).toBe(BACKSLASH);
  });
});

describe('a backslash in a disk name, on an Obsidian that lists such names', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, {
    listBackslashNames: true,
  });
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(env.dir, p), 'utf8');

  beforeAll(async () => {
    // At the start scan and while running: both reach the index as `bs\x.md`-like vault paths.
    await writeVaultFiles(env.dir, { 'bs/x.md': SLASH, 'bs\\x.md': BACKSLASH, 'f\\g/inner.md': 'INNER quokkaword\n' });
    await env.booted.app.vault.syncFromDisk();
    await writeVaultFiles(env.dir, { 'late\\y.md': 'BACKSLASH late quokkaword\n', 'marker.md': 'zebrafishword\n' });
    await waitUntil(() => env.booted.app.vault.getFileByPath('marker.md') !== null, 'the watcher applied the new files');
    await waitUntil(() => env.booted.app.vault.getFiles().some((f) => f.path === 'late\\y.md'), 'the host listed late\\y.md');
    // Indexed: the search index and the metadata cache have seen every new note.
    await waitUntil(() => env.booted.app.metadataCache.resolvedLinks['bs\\x.md']?.['Home.md'] === 1, 'bs\\x.md indexed');
    for (let i = 0; i < 200 && (await searchPaths(env.client, 'zebrafishword')).length === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
  });

  it('no route lists or names a note by a path that holds a backslash; a typed one reaches only the note its slashes name', async () => {
    expect((await listed(env.client)).filter((p) => p.startsWith('bs'))).toEqual(['bs/x.md']);
    await expectNoRouteShowsThem(env.client);
    // The backslash, typed, is a folder separator (as a path: id too), and the answer names the note it reached.
    for (const ref of [{ path: 'bs\\x.md' }, { id: 'path:bs\\x.md' }, { path: '[[bs\\x]]' }])
      expect(await env.call('read_note', ref)).toMatchObject({ path: 'bs/x.md', body: SLASH });
    expect(await env.callError('read_note', { path: 'late\\y.md' })).toMatch(/not found|No note/i);
    expect(await env.callError('read_note', { path: 'f\\g/inner.md' })).toMatch(/not found|No note/i);
    expect(await disk('bs\\x.md')).toBe(BACKSLASH);
  });

  it('a move whose link updates would rewrite the hidden note is refused, and it stays as it was', async () => {
    expect(await env.callError('move_note', { path: 'Home', to: 'Home moved' })).toMatch(
      /would update links in notes this key may not change/,
    );
    expect(await disk('bs\\x.md')).toBe(BACKSLASH);
    expect(env.booted.app.vault.getFileByPath('Home.md')).not.toBeNull();
  });
});
