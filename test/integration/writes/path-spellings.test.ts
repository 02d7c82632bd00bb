import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { DEMO_VAULT, copyToTemp } from '../../harness/temp-copy';
import { call, callError } from '../../harness/edits/write-helpers';
import { waitUntil } from '../../harness/wait-until';

/** Folders on disk in the demo vault copy before the plugin boots: NFD names (macOS-made) and case twins (a Linux vault synced from elsewhere). */
const NFD_FOLDER = 'Mappe u\u0308';
const NFC_FOLDER = NFD_FOLDER.normalize('NFC');
/** One note name in both Unicode forms (Linux keeps the two files apart; the plugin reads them as one note), the NFC one private. */
const NFC_NOTE = 'R\u00e9sum\u00e9.md';
const NFD_NOTE = NFC_NOTE.normalize('NFD');

describe('paths over MCP: folders spelt in another Unicode form or case on disk', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let dir: string;
  let cleanup: () => Promise<void>;
  const names = (folder: string): Promise<string[]> => fs.readdir(path.join(dir, folder)).then((n) => n.sort());

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    dir = copy.dir;
    await fs.mkdir(path.join(dir, NFD_FOLDER, 'Inner'), { recursive: true });
    await fs.writeFile(path.join(dir, NFD_FOLDER, 'a.md'), 'a\n');
    await fs.mkdir(path.join(dir, 'CT/Notes'), { recursive: true });
    await fs.mkdir(path.join(dir, 'CT/notes'), { recursive: true });
    await fs.writeFile(path.join(dir, 'CT/Notes/a.md'), 'a\n');
    await fs.writeFile(path.join(dir, 'CT/notes/b.md'), 'b\n');
    await fs.writeFile(path.join(dir, 'CT/Notes/ab.md'), 'ab\n');
    await fs.writeFile(path.join(dir, 'CT/Notes/AB.md'), 'AB\n');
    await fs.writeFile(path.join(dir, 'Old\u200cname.md'), 'old\n');
    await fs.mkdir(path.join(dir, 'F15/Mixed/Deep'), { recursive: true });
    await fs.writeFile(path.join(dir, 'F15/Mixed/Deep/n.md'), 'n\n');
    await fs.writeFile(path.join(dir, 'F15/Links to it.md'), 'See [[F15/Mixed/Deep/n]].\n');
    await fs.writeFile(path.join(dir, 'F15/picture.svg'), '<svg/>');
    await fs.symlink(path.join(dir, '..', 'no-such-file-outside.md'), path.join(dir, 'F15/dangling.md'));
    await fs.writeFile(path.join(dir, 'Reference', NFC_NOTE), '---\naccess: private\n---\nnfcsecret\n');
    await fs.writeFile(path.join(dir, 'Reference', NFD_NOTE), 'nfdword\n');
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, mode: 'force', allowWrites: true });
    client = await connectClient(booted.url, booted.token);
    cleanup = copy.cleanup;
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await cleanup?.();
  });

  it('F18: every write reaches a note in an NFD folder, and new entries go into that folder, never an NFC twin', async () => {
    for (const [spelling, more] of [
      [NFC_FOLDER, 'more'],
      [NFD_FOLDER, 'most'],
    ]) {
      expect((await call(client, 'append_note', { path: `${spelling}/a`, content: more })).path).toBe(`${NFC_FOLDER}/a.md`);
    }
    expect((await call(client, 'edit_note', { path: `${NFC_FOLDER}/a`, anchor: 'more', op: 'replace', content: 'edited' })).path).toBe(
      `${NFC_FOLDER}/a.md`,
    );
    await call(client, 'set_properties', { path: `${NFC_FOLDER}/a`, properties: { k: 1 } });
    await call(client, 'create_note', { path: `${NFC_FOLDER}/b`, content: 'b' });
    await call(client, 'create_note', { path: `${NFC_FOLDER}/Inner/c`, content: 'c' });
    await call(client, 'create_folder', { path: `${NFC_FOLDER}/sub` });
    await call(client, 'move_note', { path: 'Ideas', to: `${NFC_FOLDER}/Ideas moved` });
    await call(client, 'move_note', { path: `${NFC_FOLDER}/b`, to: `${NFC_FOLDER}/b2` });
    // One folder on disk, in the user's spelling, holding everything.
    expect((await fs.readdir(dir)).filter((n) => n.normalize('NFC') === NFC_FOLDER)).toEqual([NFD_FOLDER]);
    expect(await names(NFD_FOLDER)).toEqual(['Ideas moved.md', 'Inner', 'a.md', 'b2.md', 'sub']);
    expect(await names(`${NFD_FOLDER}/Inner`)).toEqual(['c.md']);
    expect(await fs.readFile(path.join(dir, NFD_FOLDER, 'a.md'), 'utf8')).toMatch(/^---\nk: 1\n---\na\nedited\nmost/);
    expect((await call(client, 'read_note', { path: `${NFC_FOLDER}/a` })).body).toMatch(/edited/);
    await call(client, 'delete_note', { path: `${NFC_FOLDER}/b2`, confirm: true });
    expect(await names(NFD_FOLDER)).toEqual(['Ideas moved.md', 'Inner', 'a.md', 'sub']);
  });

  it('F18: an NFD folder that appears while the server runs (a sync, a Finder copy) is written in place too', async () => {
    const nfd = 'Dossier e\u0301';
    const nfc = nfd.normalize('NFC');
    await fs.mkdir(path.join(dir, nfd));
    await fs.writeFile(path.join(dir, nfd, 'a.md'), 'a\n');
    await waitUntil(() => booted.app.vault.getFileByPath(`${nfc}/a.md`) !== null, 'the new folder');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the new folder's own watcher rescans it
    expect((await call(client, 'append_note', { path: `${nfc}/a`, content: 'b' })).path).toBe(`${nfc}/a.md`);
    await call(client, 'create_note', { path: `${nfc}/b`, content: 'b' });
    await call(client, 'move_note', { path: 'Inbox', to: `${nfc}/Inbox` });
    await call(client, 'create_folder', { path: `${nfc}/sub` });
    expect((await fs.readdir(dir)).filter((n) => n.normalize('NFC') === nfc)).toEqual([nfd]);
    expect(await names(nfd)).toEqual(['Inbox.md', 'a.md', 'b.md', 'sub']);
    expect(await fs.readFile(path.join(dir, nfd, 'a.md'), 'utf8')).toBe('a\nb\n');
    expect((await call(client, 'read_note', { path: `${nfc}/a` })).body).toBe('a\nb\n');
  });

  it('F12: a folder spelling that matches several case-twin folders is refused naming them, and no new case twin is made', async () => {
    const ambiguous =
      /^'CT\/(NOTES|nOtEs)' matches the folders 'CT\/Notes' and 'CT\/notes', which differ only by case; give one of them exactly/;
    const before = { root: await names('CT'), Notes: await names('CT/Notes'), notes: await names('CT/notes') };
    expect(await callError(client, 'create_note', { path: 'CT/NOTES/x', content: 'x' })).toMatch(ambiguous);
    expect(await callError(client, 'create_note', { path: 'CT/nOtEs/b', content: 'x' })).toMatch(ambiguous);
    expect(await callError(client, 'create_folder', { path: 'CT/NOTES/sub' })).toMatch(ambiguous);
    expect(await callError(client, 'create_folder', { path: 'CT/NOTES' })).toMatch(
      /^Folders 'CT\/Notes' and 'CT\/notes' already exist, differing only by case/,
    );
    expect(await callError(client, 'move_note', { path: 'CT/Notes/a', to: 'CT/NOTES/a2' })).toMatch(ambiguous);
    expect(await callError(client, 'move_note', { path: 'Home', to: 'CT/NOTES/Home' })).toMatch(ambiguous);
    expect(await callError(client, 'read_note', { path: 'CT/NOTES/a' })).toMatch(ambiguous);
    expect(await callError(client, 'append_note', { path: 'ct/nOtEs/b', content: 'x' })).toMatch(/^'CT\/nOtEs' matches the folders/);
    expect(await callError(client, 'list_notes', { folder: 'CT/NOTES' })).toMatch(ambiguous);
    // A name equal to existing notes ignoring case is taken, however many spellings exist already.
    expect(await callError(client, 'create_note', { path: 'CT/Notes/Ab', content: 'x' })).toMatch(
      /^Cannot create at that path: it is taken/,
    );
    expect(await callError(client, 'move_note', { path: 'Home', to: 'CT/Notes/aB' })).toMatch(/^Cannot move to that path: it is taken/);
    expect({ root: await names('CT'), Notes: await names('CT/Notes'), notes: await names('CT/notes') }).toEqual(before);
    // Each exact spelling still works.
    expect((await call(client, 'create_note', { path: 'CT/notes/c', content: 'c' })).path).toBe('CT/notes/c.md');
    expect((await call(client, 'read_note', { path: 'CT/Notes/a' })).body).toBe('a\n');
    expect((await call(client, 'list_notes', { folder: 'CT/notes' })).notes.map((n: { path: string }) => n.path).sort()).toEqual([
      'CT/notes/b.md',
      'CT/notes/c.md',
    ]);
  });

  it('F9: invisible code points are refused in new names and move targets, naming them; existing such notes stay usable', async () => {
    const before = (await fs.readdir(dir)).sort();
    for (const [target, code] of [
      ['\u200cInbox', 'U+200C'],
      ['In\u200dbox', 'U+200D'],
      ['Inbox\u{e0041}', 'U+E0041'],
      ['\u3164Inbox', 'U+3164'],
      ['Inbox\ufe0f', 'U+FE0F'],
    ]) {
      const message = await callError(client, 'create_note', { path: target, content: 'fake' });
      expect(message).toMatch(new RegExp(`contains '${code.replace('+', '\\+')}': names may not contain invisible characters`));
      expect(message).toMatch(/remove it from the name/);
    }
    expect(await callError(client, 'move_note', { path: 'Home', to: 'Home\u200d' })).toMatch(/^'Home<U\+200D>\.md' contains 'U\+200D'/);
    expect(await callError(client, 'create_folder', { path: 'Pro\u2061jects' })).toMatch(/contains 'U\+2061'/);
    expect((await fs.readdir(dir)).sort()).toEqual(before);
    // What a visible character needs stays allowed, and a note that has such a name already is read and written as before.
    expect((await call(client, 'create_note', { path: 'Team \u{1f469}\u200d\u{1f4bb}', content: 'x' })).path).toBe(
      'Team \u{1f469}\u200d\u{1f4bb}.md',
    );
    expect((await call(client, 'read_note', { path: 'Old\u200cname' })).body).toBe('old\n');
    expect((await call(client, 'append_note', { path: 'Old\u200cname', content: 'new' })).path).toBe('Old\u200cname.md');
  });

  it('F15: a folder renamed in case only is renamed; messages name what the agent sent and what the path is', async () => {
    expect(await call(client, 'move_note', { path: 'F15/Mixed', to: 'F15/mixed' })).toEqual({
      status: 'applied',
      path: 'F15/mixed',
      from: 'F15/Mixed',
    });
    expect(await names('F15')).toContain('mixed');
    expect(await names('F15')).not.toContain('Mixed');
    expect(await fs.readFile(path.join(dir, 'F15/Links to it.md'), 'utf8')).toBe('See [[F15/mixed/Deep/n]].\n');
    expect((await call(client, 'read_note', { path: 'F15/mixed/Deep/n' })).body).toBe('n\n');
    // Into itself is still refused, in any case spelling.
    expect(await callError(client, 'move_note', { path: 'F15/mixed', to: 'F15/MIXED/Deep/x' })).toMatch(/into itself/);
    // A file link out of the vault answers as a taken path, not as "in a folder".
    for (const [tool, args] of [
      ['create_note', { path: 'F15/dangling.md', content: 'x' }],
      ['create_note', { path: 'F15/dangling', content: 'x' }],
      ['move_note', { path: 'Home', to: 'F15/dangling' }],
    ] as const) {
      expect(await callError(client, tool, args)).toBe('Cannot use that path: it is taken or unavailable; choose another path.');
    }
    // The name as the agent typed it, without the '.md' the tool adds.
    expect(await callError(client, 'create_note', { path: 'F15/trail.', content: 'x' })).toMatch(/^'trail\.' ends with a dot or a space/);
    // A non-Markdown file on a write route is not said to be "read".
    for (const [tool, args] of [
      ['append_note', { path: 'F15/picture.svg', content: 'x' }],
      ['delete_note', { path: 'F15/picture.svg', confirm: true }],
      ['move_note', { path: 'F15/picture.svg', to: 'F15/p.svg' }],
    ] as const) {
      const message = await callError(client, tool, args);
      expect(message).toMatch(/^'F15\/picture\.svg' is not a Markdown note; note tools read and change only \.md notes/);
    }
  });

  it('Unicode-form twin notes whose NFC one is private: neither is listed, read or found, and the private text never shows', async () => {
    const twin = /R(?:\u00e9|e\u0301)sum/;
    const listed = JSON.stringify(await call(client, 'list_notes', { folder: 'Reference' }));
    expect(listed).toMatch(/Reference\//); // the folder's other notes are listed
    expect(listed).not.toMatch(twin);
    for (const query of ['nfcsecret', 'nfdword']) {
      const found = JSON.stringify(await call(client, 'search', { query }));
      expect(found).not.toMatch(twin);
      expect(found).not.toMatch(/nfcsecret/);
    }
    for (const name of [NFC_NOTE, NFD_NOTE])
      expect(await callError(client, 'read_note', { path: `Reference/${name}` })).toMatch(/not found/i);
  });
});
