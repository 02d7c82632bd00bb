/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { attempt, bootFilesEnv, call, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A note or a skill's file that another program (a sync client, git) swaps for a symbolic link,
 * `ln -s target tmp && mv tmp note`, before the vault's event tells of it (verifier, session 30,
 * F2): every read judges the path on the disk where the file lies at the read (DiskReads:
 * an lstat of the note before, the whole path after, as the write routes judge it), so nothing is served
 * through the link, whether the vault reads the disk for it (a note longer than
 * `vault.cacheLimit`, a skill's script read as bytes, any note Obsidian has not read yet) or
 * holds its old text in memory; and the route answers exactly as it answers once the note is
 * gone. The host's disk watcher is stopped once the vault is listed, so no event arrives
 * between the swap and the read. Real links in a real temp folder, through the MCP routes.
 */

const SECRET = 'journalsecretword line one\nsecond secret line\n';
const FAR = 'OUTSIDE-SECRET-KEY-MATERIAL\nline two\n';
/** Longer than the vault's cacheLimit (65,536 chars): the vault reads it from disk on every read. */
const BIG = '# Big\n' + 'filler line of an ordinary long note\n'.repeat(2000);
const LEAK = /journalsecretword|OUTSIDE-SECRET/;

interface Env extends WriteEnv {
  root: string;
  vault: string;
}

/**
 * `<root>/vault` with `Journal` quarantined and `LinkedDir → <root>/outside` trusted, notes long
 * and short, a skill, instructions and the swaps' targets; the disk watcher then stopped.
 */
async function boot(): Promise<Env> {
  const files = {
    'Home.md': 'home\n',
    'Quarry.md': BIG,
    'Orchard.md': BIG,
    'Dangle.md': BIG,
    'Saffron.md': 'a short note\n',
    'Notes/Tundra.md': BIG,
    'Harbor.md': BIG,
    'Control.md': BIG,
    'Pebble.md': 'pebbleword in a short note\n',
    'Inbox.md': BIG + 'inbox end\n',
    'Team/AGENTS.md': BIG + 'team instructions\n',
    'Team/Plan.md': 'the plan\n',
    'Skills/demo/SKILL.md': '---\nname: Demo\ndescription: A demo skill.\n---\nRun run.sh.\n',
    'Skills/demo/run.sh': '#!/bin/sh\necho hi\n',
    'Skills/demo/ref.txt': 'reference\n',
    'Skills/other/SKILL.md': '---\nname: Other\ndescription: Another skill.\n---\nBody.\n',
    'Journal/quarry.md': SECRET,
    'Journal/saffron.md': SECRET,
    'Journal/notes/Tundra.md': SECRET,
    'Journal/harbor.md': 'filler line of ' + SECRET,
    'Journal/pebble.md': SECRET,
    'Journal/agents.md': SECRET,
    'Journal/skill.md': '---\nname: Secret\ndescription: journalsecretword\n---\n' + SECRET,
    'Journal/diary.md': SECRET,
    'Walnut.md': BIG,
    'Journal/walnut.md': SECRET,
    'Ledger.md': 'ledgerword in a short note\n',
    'Spiral.md': `${'a'.repeat(36)}!\n`,
  };
  const env = await bootFilesEnv(
    'vault-mcp-read-links-',
    files,
    {
      mode: 'force',
      allowWrites: true,
      configure: (s) => {
        s.access.quarantine = ['Journal'];
        s.access.trustedSymlinks = ['LinkedDir'];
      },
    },
    async (vault, root) => {
      await fsp.mkdir(nodePath.join(root, 'outside'));
      await fsp.writeFile(nodePath.join(root, 'outside', 'Deep.md'), BIG);
      await fsp.writeFile(nodePath.join(root, 'far.txt'), FAR);
      await fsp.mkdir(nodePath.join(root, 'moved'));
      await fsp.symlink(nodePath.join(root, 'outside'), nodePath.join(vault, 'LinkedDir'), 'dir');
      // A file link inside the vault that Obsidian lists: read through it as the note it leads to.
      await fsp.mkdir(nodePath.join(vault, 'Projects'));
      await fsp.symlink(nodePath.join('..', 'Inbox.md'), nodePath.join(vault, 'Projects', 'inbox.md'), 'file');
    },
  );
  // No vault event from here on: what another program does on disk stays unreported, as in the window before an event.
  await env.booted.app.vault.stopWatching();
  return { ...env, vault: nodePath.join(env.root, 'vault') };
}

/** The disk path of the vault path `path`. */
const full = (env: Env, path: string): string => nodePath.join(env.vault, ...path.split('/'));

/** Swaps the entry at `path` for a link to `target` as `ln -s target tmp && mv tmp note` does: made beside it, renamed over it. */
async function swap(env: Env, path: string, target: string, type: 'file' | 'dir' = 'file'): Promise<void> {
  const at = full(env, path);
  const tmp = nodePath.join(nodePath.dirname(at), `.swap-${nodePath.basename(at)}`);
  await fsp.symlink(target, tmp, type);
  await fsp.rename(tmp, at);
}

/** Takes the swapped-in link at `path` away and lets the vault see it (a full scan): the entry is then simply gone. */
async function removeAndSync(env: Env, path: string): Promise<void> {
  await fsp.rm(full(env, path));
  await env.booted.app.vault.syncFromDisk();
}

/** resources/read's answer either way: the text, or the error's message. */
async function readResource(env: Env, uri: string): Promise<string> {
  try {
    const res = await env.client.readResource({ uri });
    return JSON.stringify(res);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('reads of a note or skill file swapped on disk for a symbolic link before the vault reports it', () => {
  let env: Env;
  beforeAll(async () => {
    env = await boot();
  });
  afterAll(async () => env?.done());

  test('read_note answers exactly as for a missing note: a link into quarantine, out of the vault, dangling; long and short notes', async () => {
    const cases: Array<[string, string]> = [
      ['Quarry', nodePath.join(env.vault, 'Journal', 'quarry.md')],
      ['Orchard', nodePath.join(env.root, 'far.txt')],
      ['Dangle', nodePath.join(env.root, 'gone.md')],
      // A short note: its old text is in the vault's memory (a note Obsidian has not read yet would come from disk).
      ['Saffron', nodePath.join(env.vault, 'Journal', 'saffron.md')],
      ['LinkedDir/Deep', nodePath.join(env.root, 'far.txt')],
    ];
    for (const [name, target] of cases) {
      // Read once, so every cached answer about it is warm.
      expect((await call(env.client, 'read_note', { path: name, max_chars: 10 })).path).toBe(`${name}.md`);
      await swap(env, `${name}.md`, target);
      const swapped = await attempt(env.client, 'read_note', { path: name });
      const many = await call(env.client, 'read_notes', { paths: ['Home', name] });
      await removeAndSync(env, `${name}.md`);
      const gone = await attempt(env.client, 'read_note', { path: name });
      expect({ name, swapped }).toEqual({ name, swapped: gone });
      expect({ name, swapped }).toEqual({ name, swapped: { ok: false, message: expect.stringMatching(/^Note '.+' not found/) } });
      expect({ name, many: [(many.notes as Json[]).map((n) => n.path), many.not_found] }).toEqual({ name, many: [['Home.md'], [name]] });
      expect(JSON.stringify(many)).not.toMatch(LEAK);
    }
  });

  test('a folder on the way swapped for a link into quarantine: answered as a missing note', async () => {
    expect((await call(env.client, 'read_note', { path: 'Notes/Tundra', max_chars: 10 })).path).toBe('Notes/Tundra.md');
    await fsp.rename(full(env, 'Notes'), nodePath.join(env.root, 'Notes-away'));
    await swap(env, 'Notes', nodePath.join(env.vault, 'Journal', 'notes'), 'dir');
    const swapped = await attempt(env.client, 'read_note', { path: 'Notes/Tundra' });
    expect(JSON.stringify(swapped)).not.toMatch(LEAK);
    await removeAndSync(env, 'Notes');
    expect(swapped).toEqual(await attempt(env.client, 'read_note', { path: 'Notes/Tundra' }));
  });

  test('resources/read answers as for a missing note', async () => {
    const uri = 'vault-mcp://note/Quarry.md';
    // Quarry.md is gone since the first test: the answer for a missing note.
    const gone = await readResource(env, uri);
    await writeVaultFiles(env.vault, { 'Quarry.md': BIG });
    await env.booted.app.vault.syncFromDisk();
    expect(await readResource(env, uri)).toContain('filler line');
    await swap(env, 'Quarry.md', nodePath.join(env.vault, 'Journal', 'quarry.md'));
    const swapped = await readResource(env, uri);
    expect(swapped).not.toMatch(LEAK);
    expect(swapped).toBe(gone);
  });

  test('agent_md of a note whose AGENTS.md was swapped: left out, as a missing one', async () => {
    expect((await call(env.client, 'read_note', { path: 'Team/Plan' })).agent_md).toEqual(
      expect.objectContaining({ path: 'Team/AGENTS.md' }),
    );
    await swap(env, 'Team/AGENTS.md', nodePath.join(env.vault, 'Journal', 'agents.md'));
    const plan = await call(env.client, 'read_note', { path: 'Team/Plan' });
    const both = await call(env.client, 'read_notes', { paths: ['Team/Plan', 'Home'] });
    expect(JSON.stringify([plan, both])).not.toMatch(LEAK);
    expect(plan.agent_md).toBeUndefined();
    expect(both.agent_md).toBeUndefined();
    expect(plan.body).toBe('the plan\n');
  });

  test('search shows no hit of a swapped note: a phrase checked on its text, a word found in the index', async () => {
    const before = ((await call(env.client, 'search', { query: '"filler line"', mode: 'lexical', limit: 50 })).results as Json[]).map(
      (r) => r.path,
    );
    expect(before).toEqual(expect.arrayContaining(['Harbor.md', 'Control.md']));
    expect(((await call(env.client, 'search', { query: 'pebbleword', mode: 'lexical' })).results as Json[]).map((r) => r.path)).toEqual([
      'Pebble.md',
    ]);
    await swap(env, 'Harbor.md', nodePath.join(env.vault, 'Journal', 'harbor.md'));
    await swap(env, 'Pebble.md', nodePath.join(env.vault, 'Journal', 'pebble.md'));
    const phrase = await call(env.client, 'search', { query: '"filler line"', mode: 'lexical', limit: 50 });
    const word = await call(env.client, 'search', { query: 'pebbleword', mode: 'lexical' });
    expect(JSON.stringify([phrase, word])).not.toMatch(LEAK);
    const paths = (phrase.results as Json[]).map((r) => r.path);
    expect(paths).toContain('Control.md');
    expect(paths).not.toContain('Harbor.md');
    expect(word.results).toEqual([]);
  });

  test('skill_read, skills_list: a skill file or SKILL.md swapped answers as a missing one', async () => {
    expect((await call(env.client, 'skill_read', { id: 'demo', file: 'run.sh' })).content).toBe('#!/bin/sh\necho hi\n');
    await swap(env, 'Skills/demo/run.sh', nodePath.join(env.vault, 'Journal', 'diary.md'));
    await swap(env, 'Skills/demo/ref.txt', nodePath.join(env.root, 'far.txt'));
    const run = await attempt(env.client, 'skill_read', { id: 'demo', file: 'run.sh' });
    const ref = await attempt(env.client, 'skill_read', { id: 'demo', file: 'ref.txt' });
    const listed = await call(env.client, 'skill_read', { id: 'demo' });
    expect(JSON.stringify([run, ref, listed])).not.toMatch(LEAK);
    for (const path of ['Skills/demo/run.sh', 'Skills/demo/ref.txt']) await removeAndSync(env, path);
    expect(run).toEqual(await attempt(env.client, 'skill_read', { id: 'demo', file: 'run.sh' }));
    expect(ref).toEqual(await attempt(env.client, 'skill_read', { id: 'demo', file: 'ref.txt' }));
    expect(run).toEqual({ ok: false, message: expect.stringMatching(/^No file 'run.sh' in skill 'demo'/) });

    await swap(env, 'Skills/other/SKILL.md', nodePath.join(env.vault, 'Journal', 'skill.md'));
    const list = await call(env.client, 'skills_list', {});
    const other = await attempt(env.client, 'skill_read', { id: 'other' });
    expect(JSON.stringify([list, other])).not.toMatch(LEAK);
    expect(JSON.stringify(list)).not.toContain('Skills/other');
    expect(JSON.stringify(list)).toContain('Skills/demo/SKILL.md');
    await removeAndSync(env, 'Skills/other/SKILL.md');
    expect(other).toEqual(await attempt(env.client, 'skill_read', { id: 'other' }));
  });

  test('prompts/get with a note swapped: answered as for a missing note', async () => {
    /** prompts/get's answer either way: the messages, or the error's message. */
    const prompt = async (): Promise<string> => {
      try {
        return JSON.stringify(await env.client.getPrompt({ name: 'demo', arguments: { note: 'Walnut' } }));
      } catch (error) {
        return `error: ${(error as Error).message}`;
      }
    };
    expect(await prompt()).toContain('filler line');
    await swap(env, 'Walnut.md', nodePath.join(env.vault, 'Journal', 'walnut.md'));
    const swapped = await prompt();
    expect(swapped).not.toMatch(LEAK);
    await removeAndSync(env, 'Walnut.md');
    expect(swapped).toBe(await prompt());
    expect(swapped).toMatch(/^error: .*Walnut/);
  });

  test("a note moved out of the vault and linked back in leaves search's total and a slow regex's message (newcomer finding)", async () => {
    // `mv note out/ && ln -s out/note note`: the file keeps its stat, so no vault event may ever tell of it.
    const moveOutAndLink = async (path: string): Promise<void> => {
      const away = nodePath.join(env.root, 'moved', path);
      await fsp.rename(full(env, path), away);
      await fsp.symlink(away, full(env, path), 'file');
    };
    expect(await call(env.client, 'search', { query: 'ledgerword', mode: 'lexical' })).toMatchObject({ total: 1 });
    const slow = await attempt(env.client, 'search', { query: '/(a+)+$/', mode: 'lexical' });
    expect(slow).toMatchObject({ ok: false, message: expect.stringContaining("too slow on the note 'Spiral.md'") });
    await moveOutAndLink('Ledger.md');
    await moveOutAndLink('Spiral.md');
    // Its hit's read is refused, the index drops the note, and the search is made again without it.
    expect(await call(env.client, 'search', { query: 'ledgerword', mode: 'lexical' })).toEqual({
      results: [],
      total: 0,
      all_terms_total: 0,
    });
    // The slow note was read with no disk check: it is judged before it is named, dropped, and the search made again.
    expect(await call(env.client, 'search', { query: '/(a+)+$/', mode: 'lexical' })).toEqual({ results: [], total: 0 });
    expect(await call(env.client, 'search', { query: 'ledgerword OR /(a+)+$/', mode: 'lexical' })).toMatchObject({ total: 0 });
    expect(await attempt(env.client, 'read_note', { path: 'Spiral.md' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('not found'),
    });
  });

  test('reads that must still work: a long note, one through a file link Obsidian lists, one below a trusted link', async () => {
    expect((await call(env.client, 'read_note', { path: 'Control', max_chars: 0 })).body).toBe(BIG);
    expect((await call(env.client, 'read_note', { path: 'Projects/inbox', max_chars: 0 })).body).toContain('inbox end');
    await writeVaultFiles(nodePath.join(env.root, 'outside'), { 'Deep2.md': BIG });
    await env.booted.app.vault.syncFromDisk();
    expect((await call(env.client, 'read_note', { path: 'LinkedDir/Deep2', max_chars: 20 })).body).toBe(BIG.slice(0, 20));
  });
});
