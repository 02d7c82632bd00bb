/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NOTE_URI_PREFIX } from '../../../src/server/content/note-resources';
import { bootFilesEnv, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * Every read route judges the access rules of the text it serves, not only the metadata cache's
 * entry of the path asked (verifier, session 30, F1 and F2). A note with a second name (a hard
 * link, or a file symbolic link in the vault) made private in Obsidian through one name: the
 * other name gets no event and keeps its old metadata, yet is neither served (read_note,
 * read_notes, resources/read, search hits and snippets, regex and phrase checks, agent_md) nor
 * listed, and every answer is the one the vault gives once that name is gone. A long note (read
 * from disk) and a short one (served from the vault's cached text) alike. And a note another
 * program rewrites as private, read before the vault's event: not served, long or short.
 * Real files and links in a temp folder, the real plugin over MCP.
 */

/** Text long enough that the vault reads it from disk on every read (the host caches up to 65,536 chars, as Obsidian does). */
const FILLER = 'filler line of plain words\n'.repeat(3000);
const SECRET = 'ZQSECRET';

/** The second names of the F1 vault: [id, the note's path, its second name, hard link or symbolic link, long or short]. */
const NAMES: Array<[string, string, string, 'hard' | 'symbolic', boolean]> = [
  ['HS', 'Notes/DiaryHS.md', 'Public/diaryHS.md', 'hard', false],
  ['HL', 'Notes/DiaryHL.md', 'Public/diaryHL.md', 'hard', true],
  ['SS', 'Notes/DiarySS.md', 'Public/diarySS.md', 'symbolic', false],
  ['SL', 'Notes/DiarySL.md', 'Public/diarySL.md', 'symbolic', true],
];

/** A diary's text before the user makes it private, and after (with a canary word that must never be served). */
const before = (long: boolean): string => `# Diary\n\nharmless alpha words\n\n${long ? FILLER : ''}`;
const after = (id: string, long: boolean): string =>
  `---\naccess: private\n---\n# Diary\n\nharmless alpha words ${SECRET}${id}\n\n${long ? FILLER : ''}`;

/** A tool call's answer either way, as JSON (an error as its message). */
async function answer(client: Client, name: string, args: Json): Promise<unknown> {
  const result = await client.callTool({ name, arguments: args });
  return result.isError ? { error: (result.content as Array<{ text: string }>)[0].text } : result.structuredContent;
}

/** resources/read of a note's URI: its text, or the error. */
async function resource(client: Client, path: string): Promise<unknown> {
  try {
    return (await client.readResource({ uri: `${NOTE_URI_PREFIX}${path}` })).contents;
  } catch (err) {
    return { error: String((err as Error).message) };
  }
}

/** Waits until `probe` holds (every 25 ms, up to 10 s). */
async function eventually(probe: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached within 10 s');
}

describe('a note made private through one of its names', () => {
  let env: WriteEnv & { root: string };
  const files: Record<string, string> = {
    'Public/Other.md': '# Other\n\nharmless alpha words elsewhere\n',
    'Personal/Rules.md': '# Rules\n\nbe kind\n',
    'Personal/Rules2.md': '# Rules two\n\nbe brief\n',
    'Projects/Plan.md': '# Plan\n\nsteps\n',
    'Projects/Sub/Plan.md': '# Sub plan\n\nmore steps\n',
  };
  for (const [, path, , , long] of NAMES) files[path] = before(long);

  beforeAll(async () => {
    env = await bootFilesEnv('vault-mcp-served-rules-', files, { mode: 'force', allowWrites: true }, async (vault) => {
      const at = (path: string): string => nodePath.join(vault, ...path.split('/'));
      for (const [, path, second, kind] of NAMES) {
        if (kind === 'hard') await fsp.link(at(path), at(second));
        else await fsp.symlink(nodePath.relative(nodePath.dirname(at(second)), at(path)), at(second), 'file');
      }
      // Instructions shown above a key's roots: the root AGENTS.md is a second name of a note (a hard link), and so is
      // Projects/Sub/AGENTS.md (a symbolic link).
      await fsp.link(at('Personal/Rules.md'), at('AGENTS.md'));
      await fsp.symlink('../../Personal/Rules2.md', at('Projects/Sub/AGENTS.md'), 'file');
    });
  });
  afterAll(async () => env?.done());

  /** What every read and list route answers about the second names (and the instructions through them). */
  async function answers(): Promise<Record<string, unknown>> {
    const { client } = env;
    const out: Record<string, unknown> = {};
    for (const [id, , second] of NAMES) {
      const bare = second.slice(0, -'.md'.length);
      out[`read_note ${id}`] = await answer(client, 'read_note', { path: bare });
      out[`read_note outline ${id}`] = await answer(client, 'read_note', { path: second, outline: true });
      out[`read_notes ${id}`] = await answer(client, 'read_notes', { paths: [bare, 'Public/Other'] });
      out[`resource ${id}`] = await resource(client, second);
    }
    for (const query of ['"harmless alpha words"', 'harmless alpha', `/${SECRET}/`, 'diary', 'file:diaryHS'])
      out[`search ${query}`] = await answer(client, 'search', { query, mode: 'lexical' });
    out['search regex'] = await answer(client, 'search', { query: 'alpha words', regex: true, mode: 'lexical' });
    out['list_notes Public'] = await answer(client, 'list_notes', { folder: 'Public' });
    out['list_folders'] = await answer(client, 'list_folders', {});
    out['agent_md Projects/Plan'] = ((await answer(client, 'read_note', { path: 'Projects/Plan' })) as Json).agent_md ?? null;
    out['agent_md Projects/Sub/Plan'] = ((await answer(client, 'read_note', { path: 'Projects/Sub/Plan' })) as Json).agent_md ?? null;
    out['read_notes agent_md'] = ((await answer(client, 'read_notes', { paths: ['Projects/Plan', 'Projects/Sub/Plan'] })) as Json).agent_md;
    return out;
  }

  test('the other name is served by no read route and listed nowhere: every answer is that of a vault without it', async () => {
    const { app } = env.booted;
    // Everything is readable under both names at first, and read once (so the vault caches the short texts).
    const first = await answers();
    for (const [id] of NAMES) expect(JSON.stringify(first[`read_note ${id}`])).toContain('harmless alpha words');
    expect(JSON.stringify(first['agent_md Projects/Plan'])).toContain('be kind');
    expect(JSON.stringify(first['agent_md Projects/Sub/Plan'])).toContain('be brief');

    // The user makes each note private in Obsidian through its first name (an event for that path alone).
    for (const [id, path, , , long] of NAMES) await app.vault.modify(app.vault.getFileByPath(path)!, after(id, long));
    await app.vault.modify(app.vault.getFileByPath('Personal/Rules.md')!, `---\naccess: private\n---\n# Rules\n\nbe kind ${SECRET}R1\n`);
    await app.vault.modify(app.vault.getFileByPath('Personal/Rules2.md')!, `---\naccess: private\n---\n# Rules two\n\n${SECRET}R2\n`);
    await app.metadataCache.whenResolved();
    await new Promise((resolve) => setTimeout(resolve, 300));

    const seen = await answers();
    // The answers (the queries naming the canary are the keys).
    const shown = JSON.stringify(Object.values(seen));
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain('be kind');
    expect(shown).not.toContain('be brief');
    for (const [id] of NAMES) expect(seen[`read_note ${id}`]).toEqual({ error: expect.stringMatching(/^Note '.+' not found/) });

    // The same vault without the second names: every answer must be the same.
    const { root } = env;
    const seconds = [...NAMES.map(([, , second]) => second), 'AGENTS.md', 'Projects/Sub/AGENTS.md'];
    for (const second of seconds) await fsp.unlink(nodePath.join(root, 'vault', ...second.split('/')));
    await eventually(() => seconds.every((second) => app.vault.getAbstractFileByPath(second) === null));
    await app.metadataCache.whenResolved();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual(await answers());
  });
});

describe('a note another program rewrites as private, read before the vault hears of it', () => {
  let env: WriteEnv & { root: string };
  const NOTES: Array<[string, boolean]> = [
    ['Notes/D1.md', true],
    ['Notes/D2.md', true],
    ['Notes/S1.md', false],
    ['Notes/S2.md', false],
  ];
  const files: Record<string, string> = { 'Notes/Keep.md': '# Keep\n\nalpha publicword kept\n' };
  for (const [path, long] of NOTES) files[path] = `# Note\n\nalpha publicword line\n\n${long ? FILLER : ''}`;

  beforeAll(async () => {
    env = await bootFilesEnv('vault-mcp-served-stale-', files, { mode: 'force', allowWrites: true });
  });
  afterAll(async () => env?.done());

  /** What the read routes answer about the rewritten note at `path`, whose canary is `canary`. */
  async function answers(path: string, canary: string): Promise<Record<string, unknown>> {
    const { client } = env;
    const out: Record<string, unknown> = {
      read_note: await answer(client, 'read_note', { path }),
      'read_note section': await answer(client, 'read_note', { path, section: 'Note' }),
      resource: await resource(client, path),
      read_notes: await answer(client, 'read_notes', { paths: [path, 'Notes/Keep.md'] }),
    };
    for (const query of ['publicword', '"alpha publicword"', `/${canary}/`, canary])
      out[`search ${query}`] = await answer(client, 'search', { query, mode: 'lexical' });
    return out;
  }

  test('its new private text is never served, nor its old text: each route answers as for a private note', async () => {
    const { app } = env.booted;
    for (const [path] of NOTES) expect(JSON.stringify(await answer(env.client, 'read_note', { path }))).toContain('alpha publicword line');
    // No vault event from here on: the window between another program's write and the vault's event, held open.
    await app.vault.stopWatching();
    for (const [n, [path, long]] of NOTES.entries()) {
      const canary = `zqstale${n}x`;
      await fsp.writeFile(
        nodePath.join(env.root, 'vault', ...path.split('/')),
        `---\naccess: private\n---\n# Note\n\nalpha publicword ${canary} line\n\n${long ? FILLER : ''}`,
      );
      const window = await answers(path, canary);
      // The answers (the queries naming the canary are the keys).
      expect({ path, shown: JSON.stringify(Object.values(window)).includes(canary) }).toEqual({ path, shown: false });
      expect(window.read_note).toEqual({ error: expect.stringMatching(/^Note '.+' not found/) });
      expect(JSON.stringify(window['search publicword'])).not.toContain(path);
      expect((window.read_notes as Json).not_found).toEqual([path]);
      // Once the vault has heard of the change, the note is private by its metadata: the answers are the same.
      await app.vault.syncFromDisk();
      await app.metadataCache.whenResolved();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect({ path, ...window }).toEqual({ path, ...(await answers(path, canary)) });
    }
  });
});
