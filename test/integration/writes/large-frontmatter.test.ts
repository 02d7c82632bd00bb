import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { DEMO_VAULT, copyToTemp } from '../../harness/temp-copy';
import { bootWriteEnvIn, call, callError, writeVaultFiles, type Json, type WriteEnv } from '../../harness/edits/write-helpers';
import { forgetParsedYaml } from '../../../src/vault/content/frontmatter/parsed-yaml';

/**
 * A write to a note with a very large frontmatter must cost a few parses of its block, not one per
 * line or a dozen (docs/performance.md, "Large frontmatter writes"): the plugin's YAML parses are
 * counted through the app's `parseYaml` (the test host's own metadata cache parses with its own
 * copy, so it is not counted), in characters, against the block's length. Structural, not timed.
 */
const mockParsedLengths: number[] = [];
jest.mock('obsidian', () => {
  const host = jest.requireActual<typeof import('obsidian')>('obsidian');
  return {
    ...host,
    parseYaml: (text: string): unknown => {
      mockParsedLengths.push(text.length);
      return host.parseYaml(text);
    },
  };
});

const KEYS = 3000;
const LABEL = 'Bulk bot';

/** A note whose block has `KEYS` plain keys, a commented line, keys a parse must read (quoted, a schema word, other case), and `extra` lines. */
function largeNote(extra = ''): string {
  const lines = ['---', 'status: draft  # to review', '"quoted key": 1', 'yes: 2', 'Mixed: 3'];
  for (let i = 0; i < KEYS; i++) lines.push(`key${String(i).padStart(5, '0')}: value ${i}`);
  if (extra) lines.push(extra);
  return [...lines, '---', 'Body.', ''].join('\n');
}

/** The frontmatter block of `text`, as the plugin parses it. */
function blockOf(text: string): string {
  return /^---\n([\s\S]*?\n)---\n/.exec(text)?.[1] ?? '';
}

describe('writes and reads of a note with thousands of frontmatter keys parse its block a few times, not per key', () => {
  let env: WriteEnv;
  const disk = (p: string): Promise<string> => fsp.readFile(nodePath.join(env.dir, p), 'utf8');

  beforeAll(async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    await writeVaultFiles(copy.dir, {
      'Big/Plain.md': largeNote(),
      'Big/Hidden.md': largeNote(`agent_overrides:\n  ${LABEL}: no-access`),
      'Big/Read only.md': largeNote('access: read-only'),
    });
    env = await bootWriteEnvIn(copy.dir, { label: LABEL }, copy.cleanup);
  });
  afterAll(async () => env?.done());

  /** Runs `op` with nothing remembered and every change indexed first; returns the characters the plugin parsed meanwhile. */
  async function parsedChars(op: () => Promise<unknown>): Promise<number> {
    await env.booted.app.metadataCache.whenResolved();
    forgetParsedYaml();
    mockParsedLengths.length = 0;
    await op();
    await env.booted.app.metadataCache.whenResolved();
    return mockParsedLengths.reduce((sum, n) => sum + n, 0);
  }

  it('set_properties and write_note frontmatter_patch parse the block before and after, once each', async () => {
    const block = blockOf(await disk('Big/Plain.md')).length;
    const parsed: Array<{ tool: string; blocks: number }> = [];
    // One key's value, one key matched in another case, one added: each a whole write.
    for (const [tool, args] of [
      ['set_properties', { path: 'Big/Plain', properties: { key01500: 'changed' } }],
      ['set_properties', { path: 'Big/Plain', properties: { KEY02999: 'cased' } }],
      ['set_properties', { path: 'Big/Plain', properties: { status: 'done', added: [1, 2] } }],
      ['write_note', { path: 'Big/Plain', frontmatter_patch: { mixed: 'patched', key00007: null } }],
    ] as const) {
      parsed.push({ tool, blocks: (await parsedChars(() => call(env.client, tool, args))) / block });
    }
    // Before and after (a few keys parsed alone are the rest); it was 15 to 16 blocks per write.
    expect(parsed.filter(({ blocks }) => blocks > 2.1)).toEqual([]);
    const text = await disk('Big/Plain.md');
    expect(text).toContain('\nkey01500: changed\n');
    expect(text).toContain('\nkey02999: cased\n');
    expect(text).toContain('\nstatus: done  # to review\n');
    expect(text).toContain('\nMixed: patched\n');
    expect(text).not.toContain('\nkey00007:');
    expect(text).toContain('\n"quoted key": 1\nyes: 2\n');
    expect(text.endsWith('added:\n  - 1\n  - 2\n---\nBody.\n')).toBe(true);
    // Reads: one parse; the rules of a note as large still hold.
    let read: Json = {};
    const readChars = await parsedChars(async () => {
      read = await call(env.client, 'read_note', { path: 'Big/Plain' });
    });
    expect(readChars).toBeLessThanOrEqual(blockOf(text).length + 1000);
    expect((read.frontmatter as Json).key02998).toBe('value 2998');
    expect(await callError(env.client, 'read_note', { path: 'Big/Hidden' })).toMatch(/not found/);
    expect(await callError(env.client, 'set_properties', { path: 'Big/Read only', properties: { key00001: 'x' } })).toMatch(/read-only/);
    expect(await disk('Big/Read only.md')).toContain('\nkey00001: value 1\n');
  });

  it('a patch of 1000 properties in another case parses the block before and after, once each, and keeps the note’s spellings', async () => {
    const properties = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`KEY${String(i + 2000).padStart(5, '0')}`, `v${i}`]));
    const block = blockOf(await disk('Big/Plain.md')).length;
    let result: Json = {};
    const chars = await parsedChars(async () => {
      result = await call(env.client, 'set_properties', { path: 'Big/Plain', properties });
    });
    // Before and after; the whole block was parsed again for each of the 1000 lines rewritten.
    expect(chars / block).toBeLessThan(2.1);
    expect(result.note).toMatch(/applied 'KEY02000' as the note's 'key02000'/);
    const text = await disk('Big/Plain.md');
    expect(text).toContain('\nkey02000: v0\n');
    expect(text).toContain('\nkey02999: v999\n');
    expect(text).not.toMatch(/\nKEY0/);
  });
});
