import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { runReviewCommand } from '../../../src/ui/review/review-commands';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { call, type Json } from '../../harness/edits/write-helpers';

/**
 * A newcomer's data loss: a note whose file ends right after the closing `---` of its
 * frontmatter (no line break) got write_note's body glued onto the fence (`---hello`), so
 * every property vanished and the YAML read as body; a later body deleted it. The same for
 * edit_note inserting right after that fence, in force mode and in propose mode after accept.
 * Now text placed after such a fence starts on a new line (note-body.ts fenceSeparators).
 */

const NOTE = '---\ntags: [x]\nstatus: draft\n---';
const CRLF_NOTE = '---\r\ntags: [x]\r\nstatus: draft\r\n---';
const PROPS = { tags: ['x'], status: 'draft' };

/** The fixtures, on disk before the plugin starts. */
const FIXTURES: Record<string, string> = {
  'fm.md': NOTE,
  'fm-edit.md': NOTE,
  'fm-append.md': NOTE,
  'fm-crlf.md': CRLF_NOTE,
  'fm-spaces.md': '---\ntags: [x]\nstatus: draft\n---  ',
  'fm-bom.md': `\uFEFF${NOTE}`,
};

async function bootWith(mode: 'force' | 'propose'): Promise<{
  booted: BootedPlugin<VaultMcpPlugin>;
  client: Client;
  disk: (p: string) => Promise<string>;
  done: () => Promise<void>;
}> {
  const copy = await copyToTemp(DEMO_VAULT);
  for (const [name, text] of Object.entries(FIXTURES)) await fs.writeFile(path.join(copy.dir, name), text, 'utf8');
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode, allowWrites: true, label: 'Newcomer' });
  const client = await connectClient(booted.url, booted.token);
  return {
    booted,
    client,
    disk: (p) => fs.readFile(path.join(copy.dir, p), 'utf8'),
    done: async () => {
      await client.close();
      await booted.stop();
      await copy.cleanup();
    },
  };
}

describe('a note ending at its closing frontmatter fence, force key', () => {
  let env: Awaited<ReturnType<typeof bootWith>>;
  beforeAll(async () => {
    env = await bootWith('force');
  });
  afterAll(async () => env?.done());

  const read = (p: string): Promise<Json> => call(env.client, 'read_note', { path: p });

  it('write_note body: on a new line, properties kept, and a second body replaces only the body', async () => {
    await call(env.client, 'write_note', { path: 'fm', body: 'hello' });
    expect(await env.disk('fm.md')).toBe(`${NOTE}\nhello`);
    let note = await read('fm');
    expect(note.frontmatter).toEqual(PROPS);
    expect(note.body).toBe('hello');
    await call(env.client, 'write_note', { path: 'fm', body: 'second' });
    expect(await env.disk('fm.md')).toBe(`${NOTE}\nsecond`);
    note = await read('fm');
    expect(note.frontmatter).toEqual(PROPS);
  });

  it('a note the agent created ending at the fence (create_note) takes a body the same way', async () => {
    await call(env.client, 'create_note', { path: 'made', content: '---\ntags: [x]\n---' });
    await call(env.client, 'write_note', { path: 'made', body: 'hello' });
    expect(await env.disk('made.md')).toBe('---\ntags: [x]\n---\nhello');
    expect((await read('made')).frontmatter).toEqual({ tags: ['x'] });
  });

  it('write_note body: CRLF stays CRLF, trailing spaces after ---, a BOM', async () => {
    await call(env.client, 'write_note', { path: 'fm-crlf', body: 'one\ntwo' });
    expect(await env.disk('fm-crlf.md')).toBe(`${CRLF_NOTE}\r\none\r\ntwo`);
    expect((await read('fm-crlf')).frontmatter).toEqual(PROPS);
    await call(env.client, 'write_note', { path: 'fm-spaces', body: 'hello' });
    expect(await env.disk('fm-spaces.md')).toBe(`${NOTE}  \nhello`);
    expect((await read('fm-spaces')).frontmatter).toEqual(PROPS);
    await call(env.client, 'write_note', { path: 'fm-bom', body: 'hello' });
    expect(await env.disk('fm-bom.md')).toBe(`\uFEFF${NOTE}\nhello`);
    expect((await read('fm-bom')).frontmatter).toEqual(PROPS);
  });

  it('edit_note inserting right after the fence starts on a new line', async () => {
    await call(env.client, 'edit_note', { path: 'fm-edit', anchor: 'draft\n---', op: 'insert_after', content: 'body' });
    expect(await env.disk('fm-edit.md')).toBe(`${NOTE}\nbody`);
    expect((await read('fm-edit')).frontmatter).toEqual(PROPS);
  });

  it('append_note with ensure_newline false does not continue the fence line', async () => {
    await call(env.client, 'append_note', { path: 'fm-append', content: 'tail', ensure_newline: false });
    expect(await env.disk('fm-append.md')).toBe(`${NOTE}\ntail`);
    expect((await read('fm-append')).frontmatter).toEqual(PROPS);
  });
});

describe('a note ending at its closing frontmatter fence, propose key and accept', () => {
  let env: Awaited<ReturnType<typeof bootWith>>;
  beforeAll(async () => {
    env = await bootWith('propose');
  });
  afterAll(async () => env?.done());

  const stageAndAccept = async (tool: string, args: Json): Promise<void> => {
    const staged = await call(env.client, tool, args);
    expect(staged.status).toBe('pending');
    expect(await runReviewCommand(env.booted.plugin, `accept ${staged.proposal_id}`)).toMatch(/it is now accepted\.$/);
  };

  it('write_note body, accepted: on a new line, properties kept', async () => {
    await stageAndAccept('write_note', { path: 'fm', body: 'hello' });
    expect(await env.disk('fm.md')).toBe(`${NOTE}\nhello`);
    expect((await call(env.client, 'read_note', { path: 'fm' })).frontmatter).toEqual(PROPS);
  });

  it('write_note body on a CRLF note, accepted: CRLF kept', async () => {
    await stageAndAccept('write_note', { path: 'fm-crlf', body: 'one\ntwo' });
    expect(await env.disk('fm-crlf.md')).toBe(`${CRLF_NOTE}\r\none\r\ntwo`);
  });

  it('edit_note inserting right after the fence, accepted: on a new line', async () => {
    await stageAndAccept('edit_note', { path: 'fm-edit', anchor: 'draft\n---', op: 'insert_after', content: 'body' });
    expect(await env.disk('fm-edit.md')).toBe(`${NOTE}\nbody`);
    expect((await call(env.client, 'read_note', { path: 'fm-edit' })).frontmatter).toEqual(PROPS);
  });

  it('append_note without ensure_newline, accepted: on a new line', async () => {
    await stageAndAccept('append_note', { path: 'fm-append', content: 'tail', ensure_newline: false });
    expect(await env.disk('fm-append.md')).toBe(`${NOTE}\ntail`);
  });
});
