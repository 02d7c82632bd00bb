import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NOTE_URI_PREFIX } from '../../../src/server/content/note-resources';
import { bootFilesEnv } from '../../harness/edits/write-helpers';
import { eventuallyTrue, hitPaths } from '../../harness/server/search-hits';

/**
 * A note saved as UTF-16 (Windows PowerShell 5.1's `Out-File`, Notepad's "Unicode"): the app
 * reads it as UTF-8 and its metadata cache sees no frontmatter, yet its own `access: private`
 * holds on every route (utf16-rules.ts): not read (read_note, read_notes, resources/read), listed nor found, whether it was there at the
 * start or another program wrote it later; a UTF-16 note without rules is served as the app reads
 * it. Newcomer finding, session 39: such a note was listed and its text served.
 */

/** `text` as UTF-16LE bytes with a byte-order mark. */
const utf16 = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const PRIVATE_TEXT = '---\r\naccess: private\r\n---\r\nZQUTFSECRET diary\r\n';

/** Paths `list_notes` gives for `folder`. */
async function listed(client: Client, folder: string): Promise<string[]> {
  const result = await client.callTool({ name: 'list_notes', arguments: { folder } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { notes: Array<{ path: string }> }).notes.map((n) => n.path);
}

describe('notes saved as UTF-16', () => {
  let env: Awaited<ReturnType<typeof bootFilesEnv>>;
  const file = (p: string): string => nodePath.join(env.dir, ...p.split('/'));

  beforeAll(async () => {
    env = await bootFilesEnv('vault-mcp-utf16-', {
      'Home.md': '# Home\n',
      'Wide/wide-private.md': utf16(PRIVATE_TEXT),
      'Wide/wide-open.md': utf16('---\ntitle: open\n---\nwide open words\n'),
    });
  });
  afterAll(async () => env?.done());

  it('one there at the start is neither read, listed nor found; one without rules is served as read', async () => {
    const read = await env.client.callTool({ name: 'read_note', arguments: { path: 'Wide/wide-private' } });
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read)).not.toContain('Z\\u0000Q');
    expect(await listed(env.client, 'Wide')).toEqual(['Wide/wide-open.md']);
    expect(await hitPaths(env.client, 'wide')).not.toContain('Wide/wide-private.md');
    const batch = await env.client.callTool({ name: 'read_notes', arguments: { paths: ['Wide/wide-private', 'Wide/wide-open'] } });
    expect(JSON.stringify(batch)).not.toContain('Z\\u0000Q');
    expect(JSON.stringify(batch)).toContain('w\\u0000i\\u0000d\\u0000e');
    await expect(env.client.readResource({ uri: `${NOTE_URI_PREFIX}Wide/wide-private.md` })).rejects.toThrow();
    const open = await env.client.callTool({ name: 'read_note', arguments: { path: 'Wide/wide-open' } });
    expect(open.isError).toBeFalsy();
  });

  it('one another program writes later is neither read nor listed, from the first check on', async () => {
    await fsp.writeFile(file('Wide/wide-later.md'), utf16(PRIVATE_TEXT));
    await eventuallyTrue(async () => env.booted.app.vault.getFileByPath('Wide/wide-later.md') !== null);
    const read = await env.client.callTool({ name: 'read_note', arguments: { path: 'Wide/wide-later' } });
    expect(read.isError).toBe(true);
    expect(await listed(env.client, 'Wide')).toEqual(['Wide/wide-open.md']);
    expect(await hitPaths(env.client, 'later')).not.toContain('Wide/wide-later.md');
  });
});
