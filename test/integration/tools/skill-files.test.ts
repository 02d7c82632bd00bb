/**
 * A skill's other files (Agent Skills: scripts, references, assets beside SKILL.md) are read with
 * `skill_read {id, file}`, the route the skill prompt and skill_read's own answer name: text files
 * only, paged as read_note pages a body, and only files the skill's listing shows, so the rules
 * that hide a skill or a file (quarantine, links out, key and client roots, access rules, the
 * key's tool set) hold for its files exactly as for SKILL.md (docs/resources-and-prompts.md).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type VaultMcpPlugin from '../../../src/main';
import { SKILL_FILE_MAX_BYTES } from '../../../src/vault/skills';
import { connectClient, type BootedPlugin, type BootOptions } from '../../harness/boot-plugin';
import { bootFilesEnv, call, callError, writeVaultFiles, type WriteEnv } from '../../harness/edits/write-helpers';

const SKILL = '---\nname: Demo\ndescription: A demo skill.\n---\nRun run.sh, then read reference.md.\n';
const RUN = '#!/bin/sh\necho "hi"\n';
/** 7999 ASCII chars, then a character made of a surrogate pair across the 8000-char page edge, then more. */
const BIG = `${'a'.repeat(7999)}😀${'b'.repeat(5000)}`;

const FILES: Record<string, string | Buffer> = {
  'Skills/demo/SKILL.md': SKILL,
  'Skills/demo/run.sh': RUN,
  'Skills/demo/scripts/build.py': 'print("build")\n',
  'Skills/demo/reference.md': '# Reference\n\nThe reference.\n',
  'Skills/demo/private-ref.md': '---\naccess: private\n---\nSECRET-MARK private reference\n',
  'Skills/demo/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
  'Skills/demo/latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  'Skills/demo/big.txt': BIG,
  'Skills/demo/_private/secret.txt': 'SECRET-MARK quarantined by name\n',
  'Skills/demo/vendor/lib.js': 'SECRET-MARK quarantined by the user\n',
  'Skills/other/SKILL.md': '---\nname: Other\ndescription: Another skill.\n---\nBody\n',
  'Skills/other/x.txt': 'other skill file\n',
  'Skills/hidden/SKILL.md': '---\nname: Hidden\ndescription: Private.\naccess: private\n---\nBody\n',
  'Skills/hidden/run.sh': 'SECRET-MARK hidden skill script\n',
  'Notes/plain.md': 'Plain\n',
};

describe('skill_read {id, file}: the files of a skill', () => {
  let env: WriteEnv | undefined;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let outside: string;

  /** The refusal for a file that is not there, which every hidden file must answer too. */
  const missing = (file: string, id = 'demo'): string =>
    `No file '${file}' in skill '${id}'; call skill_read with id '${id}' for the files it has.`;

  beforeAll(async () => {
    const configure: BootOptions['configure'] = (settings) => void (settings.access.quarantine = ['Skills/demo/vendor']);
    env = await bootFilesEnv('skill-files-', FILES, { label: 'Agent', configure }, async (vault, root) => {
      outside = nodePath.join(root, 'outside');
      await writeVaultFiles(outside, { 'secret.txt': 'SECRET-MARK outside the vault\n', 'dir/x.txt': 'SECRET-MARK outside dir\n' });
      await fsp.writeFile(nodePath.join(vault, 'Skills/demo/huge.txt'), Buffer.alloc(SKILL_FILE_MAX_BYTES + 1, 0x61));
      await fsp.symlink(nodePath.join(outside, 'secret.txt'), nodePath.join(vault, 'Skills/demo/outside.txt'), 'file');
      await fsp.symlink(nodePath.join(outside, 'dir'), nodePath.join(vault, 'Skills/demo/ext'), 'dir');
    });
    ({ booted, client } = env);
  });
  afterAll(() => env?.done());
  afterEach(() => {
    booted.plugin.settings.keys[0].roots = [];
    delete booted.plugin.settings.keys[0].tools;
  });

  it('lists the readable files and says how to read them; a file reads by its listed or relative path', async () => {
    const skill = await call(client, 'skill_read', { id: 'demo' });
    expect(skill.files).toEqual([
      'Skills/demo/big.txt',
      'Skills/demo/huge.txt',
      'Skills/demo/latin1.txt',
      'Skills/demo/logo.png',
      'Skills/demo/reference.md',
      'Skills/demo/run.sh',
      'Skills/demo/scripts/build.py',
    ]);
    expect(skill.note).toBe('Read one of files with skill_read {"id": "demo", "file": "<path>"}.');
    for (const file of ['Skills/demo/run.sh', 'run.sh', './run.sh', 'RUN.SH', 'Skills//demo/run.sh']) {
      expect({ file, answer: await call(client, 'skill_read', { id: 'demo', file }) }).toEqual({
        file,
        answer: {
          id: 'demo',
          path: 'Skills/demo/run.sh',
          size: RUN.length,
          content: RUN,
          content_length: RUN.length,
          content_offset: 0,
          has_more: false,
        },
      });
    }
    expect((await call(client, 'skill_read', { id: 'demo', file: 'scripts/build.py' })).content).toBe('print("build")\n');
    expect((await call(client, 'skill_read', { id: 'demo', file: 'SKILL.md' })).content).toBe(SKILL);
  });

  it("prompts/get names skill_read for the skill's files, and following it reads each text file", async () => {
    const got = await client.getPrompt({ name: 'demo' });
    const text = (got.messages[0].content as { text: string }).text;
    expect(text).not.toMatch(/read_note/);
    const line = /Files of this skill \(read one when needed with skill_read \{"id": "demo", "file": "<path>"\}\): (.*)$/.exec(text);
    expect(line?.[1]?.split(', ')).toContain('Skills/demo/run.sh');
    expect((await call(client, 'skill_read', { id: 'demo', file: 'Skills/demo/run.sh' })).content).toBe(RUN);
  });

  it('a note beside SKILL.md reads through skill_read as through read_note; a private one answers as a missing file', async () => {
    expect((await call(client, 'skill_read', { id: 'demo', file: 'reference.md' })).content).toBe('# Reference\n\nThe reference.\n');
    expect((await call(client, 'read_note', { path: 'Skills/demo/reference.md' })).body).toBe('# Reference\n\nThe reference.\n');
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'private-ref.md' })).toBe(missing('private-ref.md'));
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'privatf-ref.md' })).toBe(missing('privatf-ref.md'));
  });

  it("refuses paths out of the skill's folder, whatever is there", async () => {
    const outsideSpelling = (file: string): string =>
      `file '${file}' is not a path inside the skill's folder; give it as skill_read lists it in files, or relative to the skill's folder (e.g. 'scripts/run.sh'), without '..'.`;
    const absolute = nodePath.join(outside, 'secret.txt');
    for (const file of [
      '../other/x.txt',
      'scripts/../../other/x.txt',
      '..\\other\\x.txt',
      '/etc/passwd',
      absolute,
      'C:\\Windows\\win.ini',
      `file://${absolute}`,
      '~/secret.txt',
    ])
      expect({ file, answer: await callError(client, 'skill_read', { id: 'demo', file }) }).toEqual({
        file,
        answer: outsideSpelling(file),
      });
    // Another skill's file by its vault path is no file of this skill.
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'Skills/other/x.txt' })).toBe(missing('Skills/other/x.txt'));
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'Notes/plain.md' })).toBe(missing('Notes/plain.md'));
    expect(await callError(client, 'skill_read', { id: 'demo', file: ' ' })).toBe(
      'file is empty; give one of the paths skill_read lists in files.',
    );
  });

  it('a file behind a link out of the vault or in a quarantined folder answers as a missing one', async () => {
    for (const file of ['outside.txt', 'ext/x.txt', '_private/secret.txt', 'vendor/lib.js', 'nope.sh']) {
      expect({ file, answer: await callError(client, 'skill_read', { id: 'demo', file }) }).toEqual({ file, answer: missing(file) });
    }
  });

  it('refuses binary and oversized files with one sentence', async () => {
    const notText = (path: string): string =>
      `'${path}' is not a text file (it is not UTF-8 or holds NUL bytes); skill_read reads only text files of a skill.`;
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'logo.png' })).toBe(notText('Skills/demo/logo.png'));
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'latin1.txt' })).toBe(notText('Skills/demo/latin1.txt'));
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'huge.txt' })).toBe(
      `'Skills/demo/huge.txt' is ${SKILL_FILE_MAX_BYTES + 1} bytes, more than the ${SKILL_FILE_MAX_BYTES} skill_read reads; ask the user for the part you need.`,
    );
  });

  it('pages a long file as read_note pages a body, never splitting a character', async () => {
    const first = await call(client, 'skill_read', { id: 'demo', file: 'big.txt' });
    expect(first).toMatchObject({ content_length: BIG.length, content_offset: 0, has_more: true });
    expect(first.content).toBe('a'.repeat(7999));
    expect(first.note).toBe(
      `File cut at 7999 of ${BIG.length} chars; call skill_read with the same id and file and offset=7999 for the rest.`,
    );
    const rest = await call(client, 'skill_read', { id: 'demo', file: 'big.txt', offset: 7999 });
    expect(rest).toMatchObject({ content: `😀${'b'.repeat(5000)}`, content_offset: 7999, has_more: false });
    expect(first.content + rest.content).toBe(BIG);
    // An offset between the halves of the pair starts at its first half.
    expect((await call(client, 'skill_read', { id: 'demo', file: 'big.txt', offset: 8000 })).content).toBe(`😀${'b'.repeat(5000)}`);
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'big.txt', offset: BIG.length + 1 })).toMatch(/past the end/);
    expect(await callError(client, 'skill_read', { id: 'demo', offset: 10 })).toBe(
      'offset pages one file of the skill; give file too (the SKILL.md body comes whole).',
    );
  });

  it("a hidden skill's files answer as a missing skill's", async () => {
    const hidden = await callError(client, 'skill_read', { id: 'hidden', file: 'run.sh' });
    expect(hidden).toBe("No skill 'hidden' in Skills/; call skills_list for the skill ids.");
    expect(await callError(client, 'skill_read', { id: 'hiddem', file: 'run.sh' })).toBe(
      "No skill 'hiddem' in Skills/; call skills_list for the skill ids.",
    );
  });

  it("follows the key's roots: a file outside them answers as a missing one; roots elsewhere close the skills folder", async () => {
    booted.plugin.settings.keys[0].roots = ['Skills/demo/SKILL.md', 'Skills/demo/scripts'];
    expect((await call(client, 'skill_read', { id: 'demo' })).files).toEqual(['Skills/demo/scripts/build.py']);
    expect((await call(client, 'skill_read', { id: 'demo', file: 'scripts/build.py' })).content).toBe('print("build")\n');
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'run.sh' })).toBe(missing('run.sh'));
    booted.plugin.settings.keys[0].roots = ['Notes'];
    expect(await callError(client, 'skill_read', { id: 'demo', file: 'run.sh' })).toBe(
      "The skills folder 'Skills' is outside the folders this key may use (Notes); skills need a key whose roots include it.",
    );
  });

  it("follows the key's tool set: skill_read reads the files; a set without it is refused the tool", async () => {
    booted.plugin.settings.keys[0].tools = ['skill_read'];
    const only = await connectClient(booted.url, booted.token);
    try {
      expect((await call(only, 'skill_read', { id: 'demo', file: 'run.sh' })).content).toBe(RUN);
    } finally {
      await only.close();
    }
    booted.plugin.settings.keys[0].tools = ['read_note', 'skills_list'];
    const without = await connectClient(booted.url, booted.token);
    try {
      await expect(without.callTool({ name: 'skill_read', arguments: { id: 'demo', file: 'run.sh' } })).rejects.toThrow(
        /-32602: Tool "skill_read" is not in the tool set of key "Agent"/,
      );
    } finally {
      await without.close();
    }
  });
});
