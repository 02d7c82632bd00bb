import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../src/main';
import { NOTE_URI_PREFIX } from '../../src/server/content/note-resources';
import { bootPlugin, connectClient, type BootedPlugin } from '../harness/boot-plugin';
import { attempt, call } from '../harness/edits/write-helpers';

const SECRET = 'quarantine-entry-secret';

/**
 * A quarantine entry spelt as the absolute path of a vault folder (or its `file://` URL, in
 * another case) quarantines that folder on every route, as the settings tab, a synced data.json
 * and `npm start` give it: read_note, read_notes, search, list_notes, list_folders, resources and
 * every write. It used to be dropped as "not a vault path": the folder stayed open to every agent
 * while the run's banner said it was quarantined.
 */
describe.each([
  ['the absolute path', (dir: string) => nodePath.join(dir, 'Journal')],
  ['the file:// URL, in another case', (dir: string) => pathToFileURL(nodePath.join(dir, 'journal')).href],
])('a quarantine entry spelt as %s of a vault folder', (_what, spell) => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;

  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-qentry-'));
    await fsp.mkdir(nodePath.join(dir, 'Journal/2026'), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, 'Journal/2026/Day.md'), `# Day\n\n${SECRET}\n`);
    await fsp.writeFile(nodePath.join(dir, 'Home.md'), '# Home\n\nopen note\n');
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: dir,
      mode: 'force',
      allowWrites: true,
      configure: (settings) => {
        settings.access.quarantine = [spell(dir)];
      },
    });
    client = await connectClient(booted.url, booted.token);
  });
  afterEach(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('closes the folder to reads, listings, search and resources', async () => {
    for (const [tool, args] of [
      ['read_note', { path: 'Journal/2026/Day' }],
      ['read_notes', { paths: ['Journal/2026/Day.md'] }],
      ['list_notes', { folder: 'Journal' }],
      ['list_folders', { folder: 'Journal' }],
    ] as const) {
      const answer = JSON.stringify(await client.callTool({ name: tool, arguments: args }));
      expect(answer).not.toContain(SECRET);
      // The reads name the folder the user closed; the listings give nothing of it.
      expect(answer).toMatch(tool.startsWith('read') ? /a folder the user closed to agents/ : /^(?!.*2026)/);
    }
    const all = await call(client, 'list_notes', { limit: 100 });
    expect((all.notes as Array<{ path: string }>).map((n) => n.path)).toEqual(['Home.md']);
    const found = await call(client, 'search', { query: SECRET, mode: 'lexical' });
    expect(found.results).toEqual([]);
    await expect(client.readResource({ uri: `${NOTE_URI_PREFIX}Journal/2026/Day.md` })).rejects.toThrow();
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri).filter((u) => u.includes('Journal'))).toEqual([]);
  });

  it('refuses every write into the folder, and the note stays as it was', async () => {
    for (const [tool, args] of [
      ['create_note', { path: 'Journal/New.md', content: 'x' }],
      ['write_note', { path: 'Journal/2026/Day.md', body: 'gone\n' }],
      ['append_note', { path: 'Journal/2026/Day.md', content: 'more' }],
      ['move_note', { path: 'Home.md', to: 'Journal/Home.md' }],
      ['delete_note', { path: 'Journal/2026/Day.md', confirm: true }],
    ] as const) {
      expect(await attempt(client, tool, args)).toMatchObject({ ok: false });
    }
    expect(await fsp.readFile(nodePath.join(dir, 'Journal/2026/Day.md'), 'utf8')).toBe(`# Day\n\n${SECRET}\n`);
    await expect(fsp.stat(nodePath.join(dir, 'Journal/New.md'))).rejects.toThrow();
    await expect(fsp.stat(nodePath.join(dir, 'Journal/Home.md'))).rejects.toThrow();
  });
});
