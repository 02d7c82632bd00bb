/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { attempt, bootFilesEnv, call, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A file link the user trusts (settings `access.trustedSymlinks` names the link itself) counts as
 * what it leads to on every read route, as the access checks count it: the disk look before a read
 * (DiskReads, OutsideLinks.ownFileOf) follows it. Session 31's first version of that look took any
 * link at a note's own path for a swap and answered each of these as a missing note (verifier s31, F1).
 */
const BIG = '# Big\n' + 'filler line of an ordinary long note\n'.repeat(2000);

describe('a trusted file link is read on every route', () => {
  let env: WriteEnv & { root: string };
  beforeAll(async () => {
    env = await bootFilesEnv(
      'vault-mcp-trusted-file-links-',
      { 'Home.md': 'home\n', 'Team/Plan.md': 'the plan\n' },
      {
        mode: 'force',
        allowWrites: true,
        configure: (s) => {
          s.access.trustedSymlinks = ['Shared.md', 'SharedBig.md', 'Team/AGENTS.md'];
        },
      },
      async (vault, root) => {
        await fsp.mkdir(nodePath.join(root, 'outside'));
        await fsp.writeFile(nodePath.join(root, 'outside', 'shared.md'), 'sharedword short trusted text\n');
        await fsp.writeFile(nodePath.join(root, 'outside', 'big.md'), BIG + 'bigtrustedend\n');
        await fsp.writeFile(nodePath.join(root, 'outside', 'agents.md'), 'team instructions trusted\n');
        await fsp.symlink(nodePath.join(root, 'outside', 'shared.md'), nodePath.join(vault, 'Shared.md'), 'file');
        await fsp.symlink(nodePath.join(root, 'outside', 'big.md'), nodePath.join(vault, 'SharedBig.md'), 'file');
        await fsp.symlink(nodePath.join(root, 'outside', 'agents.md'), nodePath.join(vault, 'Team', 'AGENTS.md'), 'file');
      },
    );
  });
  afterAll(async () => env?.done());

  test('read_note of a short note it leads to', async () => {
    const r = await attempt(env.client, 'read_note', { path: 'Shared' });
    expect(JSON.stringify(r)).toContain('sharedword');
  });
  test('read_note of a note over 64 KiB it leads to (read from disk each time)', async () => {
    const r = await attempt(env.client, 'read_note', { path: 'SharedBig', max_chars: 0 });
    expect(JSON.stringify(r)).toContain('bigtrustedend');
  });
  test('read_notes of both, beside a plain note', async () => {
    const r = await call(env.client, 'read_notes', { paths: ['Shared', 'SharedBig', 'Home'] });
    expect(r.not_found ?? []).toEqual([]);
    const notes = r.notes as Array<{ path: string; body: string }>;
    expect(notes.map((n) => n.path)).toEqual(['Shared.md', 'SharedBig.md', 'Home.md']);
    expect(notes[0].body).toContain('sharedword');
  });
  test('a search hit in it', async () => {
    const r = await call(env.client, 'search', { query: 'sharedword', mode: 'lexical' });
    expect((r.results as Array<{ path: string }>).map((x) => x.path)).toEqual(['Shared.md']);
  });
  test('agent_md from an AGENTS.md that is a trusted link', async () => {
    const plan = await call(env.client, 'read_note', { path: 'Team/Plan' });
    expect(JSON.stringify(plan.agent_md ?? null)).toContain('team instructions trusted');
  });
  test('resources/read of it', async () => {
    let out: string;
    try {
      out = JSON.stringify(await env.client.readResource({ uri: 'vault-mcp://note/Shared.md' }));
    } catch (e) {
      out = `error: ${(e as Error).message}`;
    }
    expect(out).toContain('sharedword');
  });
});
