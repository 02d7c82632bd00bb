import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient } from '../../harness/boot-plugin';
import { DEMO_VAULT, HELP_EN_VAULT } from '../../harness/temp-copy';
import { attempt, bootWriteEnv, call, callError, type WriteEnv } from '../../harness/edits/write-helpers';

describe('concurrent writes from several MCP clients to one note', () => {
  let env: WriteEnv;
  let clients: Client[];
  const disk = (p: string): Promise<string> => fsp.readFile(path.join(env.dir, p), 'utf8');

  beforeAll(async () => {
    env = await bootWriteEnv(DEMO_VAULT);
    clients = await Promise.all(Array.from({ length: 8 }, (_, i) => connectClient(env.booted.url, env.booted.token, `client-${i}`)));
  });
  afterAll(async () => {
    await Promise.all((clients ?? []).map((c) => c.close()));
    await env?.done();
  });

  it('appends without a hash all land, each reported once', async () => {
    const jobs = clients.flatMap((client, i) =>
      [0, 1, 2].map((j) => call(client, 'append_note', { path: 'Inbox', content: `- line ${i}.${j}` })),
    );
    const results = await Promise.all(jobs);
    const text = await disk('Inbox.md');
    for (let i = 0; i < clients.length; i++)
      for (const j of [0, 1, 2]) expect(text.split('\n').filter((l) => l === `- line ${i}.${j}`)).toHaveLength(1);
    expect(new Set(results.map((r) => r.hash)).size).toBe(results.length);
  });

  it('heading edits racing each other all land or are reported as conflicts; none is lost', async () => {
    const results = await Promise.all(
      clients.map((client, i) =>
        attempt(client, 'edit_note', {
          path: 'Ideas',
          heading: i % 2 ? 'Home' : 'Work',
          op: 'append_within',
          content: `- idea from client ${i}`,
        }),
      ),
    );
    const text = await disk('Ideas.md');
    results.forEach((result, i) => {
      const present = text.includes(`- idea from client ${i}\n`);
      if (result.ok) expect(present).toBe(true);
      else {
        expect(result.message).toMatch(/kept changing|changed since|indexing/);
        expect(present).toBe(false);
      }
    });
    expect(results.filter((r) => r.ok).length).toBeGreaterThan(0);
    const work = text.slice(text.indexOf('## Work'), text.indexOf('## Home'));
    const home = text.slice(text.indexOf('## Home'), text.indexOf('## Writing'));
    results.forEach((r, i) => {
      if (r.ok) expect((i % 2 ? home : work).includes(`client ${i}\n`)).toBe(true);
    });
  });

  it('edits that all carry the same expected_hash: exactly one applies, the others are conflicts', async () => {
    const read = await call(clients[0], 'read_note', { path: 'Reading list' });
    const results = await Promise.all(
      clients.map((client, i) =>
        attempt(client, 'append_note', { path: 'Reading list', content: `- pick ${i}`, expected_hash: read.hash }),
      ),
    );
    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.message).toMatch(/changed since you read it/);
    const text = await disk('Reading list.md');
    expect(text.match(/- pick \d/g)).toHaveLength(1);
    expect((winners[0] as { ok: true; value: Record<string, unknown> }).value.hash).toBe(
      (await call(clients[0], 'read_note', { path: 'Reading list' })).hash,
    );
  });

  it('property patches from every client all land, alongside body appends', async () => {
    const jobs = clients.map((client, i) =>
      i % 2
        ? call(client, 'set_properties', { path: 'Home', properties: { [`key_${i}`]: i } })
        : call(client, 'append_note', { path: 'Home', content: `tail ${i}` }),
    );
    await Promise.all(jobs);
    await env.booted.app.metadataCache.whenResolved();
    const read = await call(clients[0], 'read_note', { path: 'Home', max_chars: 0 });
    for (let i = 1; i < clients.length; i += 2) expect(read.frontmatter[`key_${i}`]).toBe(i);
    for (let i = 0; i < clients.length; i += 2) expect(read.body).toContain(`tail ${i}`);
  });

  it('two moves onto one free path, or a move and a create there: one applies, the other is refused, no note is lost', async () => {
    const exists = (p: string): boolean => fs.existsSync(path.join(env.dir, p));
    for (let round = 0; round < 6; round++) {
      const [a, b, target] = [`Race/${round}/first`, `Race/${round}/second`, `Race/${round}/target`];
      await call(env.client, 'create_note', { path: a, content: `first ${round}\n` });
      await call(env.client, 'create_note', { path: b, content: `second ${round}\n` });
      // Even rounds: two moves onto the target; odd rounds: a move and a create of it, at the same moment.
      const results = await Promise.all([
        attempt(clients[0], 'move_note', { path: a, to: target }),
        round % 2 === 0
          ? attempt(clients[1], 'move_note', { path: b, to: target })
          : attempt(clients[1], 'create_note', { path: target, content: `second ${round}\n` }),
      ]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refused = results.find((r) => !r.ok) as { ok: false; message: string };
      expect(refused.message).toMatch(/taken/);
      const winner = results[0].ok ? `first ${round}\n` : `second ${round}\n`;
      expect(await disk(`${target}.md`)).toBe(winner);
      // Each source note is where it was unless its own move applied.
      expect(exists(`${a}.md`)).toBe(!results[0].ok);
      if (round % 2 === 0) {
        expect(exists(`${b}.md`)).toBe(!results[1].ok);
        if (!results[1].ok) expect(await disk(`${b}.md`)).toBe(`second ${round}\n`);
      }
      if (!results[0].ok) expect(await disk(`${a}.md`)).toBe(`first ${round}\n`);
    }
  });
});

const helpVault = fs.existsSync(HELP_EN_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_EN_VAULT)) console.log(`Skipping help-vault write tests: ${HELP_EN_VAULT} is absent.`);

helpVault('write tools on a copy of the Obsidian help vault', () => {
  let env: WriteEnv;
  const note = 'Linking notes and files/Internal links.md';
  const disk = (p: string): Promise<string> => fsp.readFile(path.join(env.dir, p), 'utf8');

  beforeAll(async () => {
    env = await bootWriteEnv(HELP_EN_VAULT);
  });
  afterAll(async () => env?.done());

  it('set_properties keeps list-typed aliases and cssclasses, and every other property', async () => {
    const before = await call(env.client, 'read_note', { path: note });
    await call(env.client, 'set_properties', { path: note, properties: { mobile: false, cssclasses: 'wide', reviewed: 2 } });
    const after = await call(env.client, 'read_note', { path: note });
    expect(after.frontmatter).toEqual({ ...before.frontmatter, mobile: false, cssclasses: ['wide'], reviewed: 2 });
    expect(after.body).toBe(before.body);
  });

  it('heading edits by text and outline path land in the right section', async () => {
    const read = await call(env.client, 'read_note', { path: note });
    const out = await call(env.client, 'edit_note', {
      path: note,
      heading: 'Link to a heading in a note',
      op: 'append_within',
      content: 'Added by an agent.',
      expected_hash: read.hash,
    });
    const text = await disk(note);
    const lines = text.split('\n');
    expect(lines[out.lines.start - 1]).toBe('Added by an agent.');
    expect(text.indexOf('Added by an agent.')).toBeLessThan(text.indexOf('## Link to a block in a note'));
    expect(text.indexOf('Added by an agent.')).toBeGreaterThan(text.indexOf('## Link to a heading in a note'));
    expect(await callError(env.client, 'edit_note', { path: note, heading: 'Nonexistent heading', op: 'replace', content: 'x' })).toMatch(
      /Link to a file/,
    );
  });

  it('move_note keeps every backlink resolved', async () => {
    const before = await call(env.client, 'get_links', { path: note });
    await call(env.client, 'move_note', { path: note, to: 'Linking notes and files/Links/Internal links' });
    await env.booted.app.metadataCache.whenResolved();
    const after = await call(env.client, 'get_links', { path: 'Linking notes and files/Links/Internal links' });
    expect(after.backlinks.length).toBe(before.backlinks.length);
    expect(after.backlinks.length).toBeGreaterThan(5);
  });
});
