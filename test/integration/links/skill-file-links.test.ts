/**
 * A skill's file that is a link judged where it really lies: `skill_read {id, file}` hands out any
 * file's bytes, so a `.txt` symbolic link to a Markdown note must answer by that note's own access
 * rules (`access: private`, `agent_overrides` for the key's label), quarantine and roots, exactly as
 * read_note judges the note; and a file with several hard links (whose other names cannot be
 * judged) is never read. Every refused file answers as a missing one and is left out of `files`
 * (docs/security.md, Skills).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type VaultMcpPlugin from '../../../src/main';
import type { BootedPlugin } from '../../harness/boot-plugin';
import { bootFilesEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';

const FILES: Record<string, string> = {
  'Personal/Therapy notes.md': '---\naccess: private\n---\nSECRET-MARK therapy\n',
  'Personal/Barred.md': '---\nagent_overrides:\n  Agent: no-access\n---\nSECRET-MARK barred for Agent\n',
  'Personal/Readonly.md': '---\naccess: read-only\n---\nRead-only but readable\n',
  'Notes/Open.md': 'SECRET-MARK open but outside the roots\n',
  '_private/Passwords hint.md': 'SECRET-MARK quarantined hint\n',
  'Skills/demo/SKILL.md': '---\nname: Demo\ndescription: A demo skill.\n---\nRead refs.\n',
  'Skills/demo/refs/plain.txt': 'plain reference\n',
  'Skills/demo/refs/swap.txt': 'swap plain\n',
  'Projects/Swapped.md': 'an open note\n',
};

describe('skill_read: a skill file behind a link is judged where it really lies', () => {
  let env: WriteEnv | undefined;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;

  const missing = (file: string): string => `No file '${file}' in skill 'demo'; call skill_read with id 'demo' for the files it has.`;

  beforeAll(async () => {
    env = await bootFilesEnv('skill-file-links-', FILES, { label: 'Agent' }, async (vault) => {
      const refs = nodePath.join(vault, 'Skills/demo/refs');
      await fsp.symlink('../../../Personal/Therapy notes.md', nodePath.join(refs, 'therapy.txt'), 'file');
      await fsp.symlink('../../../Personal/Barred.md', nodePath.join(refs, 'barred.txt'), 'file');
      await fsp.symlink('../../../Personal/Readonly.md', nodePath.join(refs, 'readonly.txt'), 'file');
      await fsp.symlink('../../../Notes/Open.md', nodePath.join(refs, 'open.txt'), 'file');
      // A chain of links: every link is followed to the note.
      await fsp.symlink('therapy.txt', nodePath.join(refs, 'chain.txt'), 'file');
      await fsp.link(nodePath.join(vault, 'Personal/Therapy notes.md'), nodePath.join(refs, 'hard-private.txt'));
      await fsp.link(nodePath.join(vault, '_private/Passwords hint.md'), nodePath.join(refs, 'hardlink.txt'));
    });
    ({ booted, client } = env);
  });
  afterAll(() => env?.done());
  afterEach(() => {
    booted.plugin.settings.keys[0].roots = [];
  });

  const refused = ['therapy.txt', 'chain.txt', 'barred.txt', 'hard-private.txt', 'hardlink.txt'];

  it('lists only the files whose real place the key may read: a plain file and a link to a read-only note', async () => {
    expect((await call(client, 'skill_read', { id: 'demo' })).files).toEqual([
      'Skills/demo/refs/open.txt',
      'Skills/demo/refs/plain.txt',
      'Skills/demo/refs/readonly.txt',
      'Skills/demo/refs/swap.txt',
    ]);
    expect((await call(client, 'skill_read', { id: 'demo', file: 'refs/plain.txt' })).content).toBe('plain reference\n');
    expect((await call(client, 'skill_read', { id: 'demo', file: 'refs/readonly.txt' })).content).toContain('Read-only but readable');
  });

  it('a link to a private or no-access note, a chain to one, and a hard link answer as a missing file, by either path', async () => {
    for (const name of refused) {
      for (const file of [`refs/${name}`, `Skills/demo/refs/${name}`]) {
        expect({ file, answer: await callError(client, 'skill_read', { id: 'demo', file }) }).toEqual({ file, answer: missing(file) });
      }
    }
    // The same answer as a name that is not there at all.
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'refs/therapy2.txt' })).toBe(missing('refs/therapy2.txt'));
    // read_note agrees on the private note itself.
    expect(await callError(client, 'read_note', { path: 'Personal/Therapy notes.md' })).toMatch(/not found|No note/i);
  });

  it('with roots Skills: a link to a note outside them and a hard link stay out; the plain file reads', async () => {
    booted.plugin.settings.keys[0].roots = ['Skills'];
    expect((await call(client, 'skill_read', { id: 'demo' })).files).toEqual(['Skills/demo/refs/plain.txt', 'Skills/demo/refs/swap.txt']);
    for (const file of ['refs/open.txt', 'refs/readonly.txt', 'refs/hardlink.txt', 'refs/hard-private.txt', 'refs/therapy.txt']) {
      expect({ file, answer: await callError(client, 'skill_read', { id: 'demo', file }) }).toEqual({ file, answer: missing(file) });
    }
    expect((await call(client, 'skill_read', { id: 'demo', file: 'refs/plain.txt' })).content).toBe('plain reference\n');
  });

  it('a file replaced by a link while the plugin runs (a modify to the vault) is judged again: skill_read and read_note', async () => {
    const vault = booted.app.vault.adapter.getFullPath('');
    expect((await call(client, 'skill_read', { id: 'demo', file: 'refs/swap.txt' })).content).toBe('swap plain\n');
    expect((await call(client, 'read_note', { path: 'Projects/Swapped.md' })).body).toBe('an open note\n');
    // Replaced in place, as `ln -s … tmp && mv -f tmp file` or a sync tool's rename over it does.
    const swap = async (at: string, target: string): Promise<void> => {
      const tmp = nodePath.join(vault, `${at}.tmp-link`);
      await fsp.symlink(target, tmp, 'file');
      await fsp.rename(tmp, nodePath.join(vault, at));
    };
    await swap('Skills/demo/refs/swap.txt', '../../../Personal/Therapy notes.md');
    await swap('Projects/Swapped.md', '../_private/Passwords hint.md');
    await booted.app.vault.syncFromDisk();
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'refs/swap.txt' })).toBe(missing('refs/swap.txt'));
    expect(JSON.stringify((await call(client, 'skill_read', { id: 'demo' })).files)).not.toContain('swap.txt');
    const note = await client.callTool({ name: 'read_note', arguments: { path: 'Projects/Swapped.md' } });
    expect(JSON.stringify(note)).not.toContain('SECRET-MARK');
  });
});
