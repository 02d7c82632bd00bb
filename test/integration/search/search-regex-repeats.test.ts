import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { largestRepeat, MAX_REGEX_REPEAT } from '../../../src/search/query/regex-repeats';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';

/**
 * A regex whose counted repeat is huge (`/a{99999999}/`) is slow without any nested repetition:
 * the count is read ahead from every place the part could start (0.9 s in V8 over one run of
 * 20,000 `a`). The search tool refuses it before it runs, naming the count and what to write,
 * by every route a user regex takes; a count it takes that is still too slow on these notes is
 * named as the cause, not backtracking.
 */

let vault: string;
let booted: BootedPlugin<VaultMcpPlugin>;
let client: Client;

beforeAll(async () => {
  vault = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-regex-repeats-'));
  // One run of 20,000 `a`: where a huge count is slow (each start reads the rest of the run).
  await fsp.writeFile(nodePath.join(vault, 'Run.md'), `x${'a'.repeat(20_000)}b\n`);
  await fsp.writeFile(nodePath.join(vault, 'Years.md'), '---\nstatus: aaa\n---\nBorn 1984, moved 2001.\n');
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault });
  client = await connectClient(booted.url, booted.token);
});

afterAll(async () => {
  await client.close();
  await booted.stop();
  await fsp.rm(vault, { recursive: true, force: true });
});

/** The search tool's answer: the refusal's text, or the paths found. */
async function search(query: string, regex = false): Promise<{ error?: string; paths?: string[] }> {
  const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical', ...(regex ? { regex: true } : {}) } });
  const text = (result.content as Array<{ text: string }>)[0].text;
  if (result.isError) return { error: text };
  return { paths: (JSON.parse(text) as { results: Array<{ path: string }> }).results.map((r) => r.path).sort() };
}

describe('a huge repeat count in a search regex', () => {
  it('/a{99999999}/ is refused before it runs, naming the count, the limit and what to write', async () => {
    const { error } = await search('/a{99999999}/');
    expect(error).toBe(
      `The regular expression /a{99999999}/ repeats a part 99999999 times ({99999999}), over the ${MAX_REGEX_REPEAT} a search takes: a counted repeat is read that far ahead from every place the part could start, which is too slow on long notes. Use a count of at most ${MAX_REGEX_REPEAT}; for "n or more" write {n,} or +.`,
    );
    expect(error).not.toMatch('backtracking');
    // The term it names works: the search runs on the other notes.
    expect(await search('/a{9000}y/ -path:"Run.md"')).toEqual({ paths: [] });
  });

  it('neighbours: {2,99999999} (the larger bound counts), {99999999,}, nested counts multiplied, by every route a regex takes', async () => {
    expect((await search('/a{2,99999999}/')).error).toMatch(
      /^The regular expression \/a\{2,99999999\}\/ repeats a part 99999999 times \(\{2,99999999\}\)/,
    );
    expect((await search('/a{99999999,}/')).error).toMatch('repeats a part 99999999 times ({99999999,})');
    expect((await search('/(a{1000}){1000}/')).error).toMatch(
      /^The regular expression \/\(a\{1000\}\)\{1000\}\/ repeats a part 1000000 times in all \(\{1000\} inside \{1000\}\)/,
    );
    expect((await search('/(?:x(?<n>a{200}|b)){51}/')).error).toMatch('repeats a part 10200 times in all ({200} inside {51})');
    // regex: true, path:, file:, a property's value and a text operator take the same check.
    expect((await search('a{99999999}', true)).error).toMatch('repeats a part 99999999 times');
    expect((await search('path:/a{99999999}/')).error).toMatch('repeats a part 99999999 times');
    expect((await search('file:/a{99999999}/')).error).toMatch('repeats a part 99999999 times');
    expect((await search('[status:/a{99999999}/]')).error).toMatch('repeats a part 99999999 times');
    expect((await search('line:(/a{99999999}/)')).error).toMatch('repeats a part 99999999 times');
  });

  it('counts up to the limit still search; braces that are no count (escaped, in a class, \\u{…}) are not counted', async () => {
    expect(await search('/\\d{4}/')).toEqual({ paths: ['Years.md'] });
    // Anchored at the run's one x: without it every place in the run starts a greedy {2,} (quadratic, near the 50 ms run limit on a loaded machine).
    expect(await search('/xa{2,}b/')).toEqual({ paths: ['Run.md'] });
    expect(await search('/(a{100}){100}/')).toEqual({ paths: ['Run.md'] });
    expect(await search('/\\{99999999}|[{99999999}]|moved/')).toEqual({ paths: ['Years.md'] });
    expect(await search('/\\u{61}{3}/u')).toEqual({ paths: ['Run.md'] });
    expect(largestRepeat('\\u{99999}x|\\p{L}{3}', true)).toEqual({ times: 3, counts: ['{3}'] });
    // Without the u flag \u{99999} is u repeated 99999 times, and is counted.
    expect(largestRepeat('\\u{99999}x')).toEqual({ times: 99999, counts: ['{99999}'] });
    expect((await search('/\\u{99999}/')).error).toMatch('repeats a part 99999 times');
    expect(largestRepeat('a{5}?(b{2,7}){3}')).toEqual({ times: 21, counts: ['{2,7}', '{3}'] });
    expect(largestRepeat('plain (a+)+ words')).toEqual({ times: 1, counts: [] });
    // A count of any length is read whole (one of 23 digits was once taken for a plain brace).
    expect(largestRepeat('a{99999999999999999999999}').times).toBeGreaterThan(MAX_REGEX_REPEAT);
  });

  it('a count under the limit that is still too slow on a note is named as the cause, with the note', async () => {
    // {9999} over the run of 20,000 `a`: matches at its first place, so it is fast.
    expect(await search('/a{9999}/')).toEqual({ paths: ['Run.md'] });
    // x then 9,000 `a` then y never occurs: each of the 20,000 places reads up to 9,000 ahead (about 10⁸ steps).
    const { error } = await search('/a{9000}y/');
    // The one note it is slow on is named, with the term that leaves it out.
    expect(error).toMatch(
      /^The regular expression \/a\{9000\}y\/ is too slow on the note 'Run\.md', over 50 ms on it alone \(it repeats a part 9000 times: \{9000\}, read that far ahead.* Or search without it: -path:"Run\.md" leaves that note out\.$/,
    );
    expect(error).not.toMatch('backtracking');
    // The term it names works: the search runs on the other notes.
    expect(await search('/a{9000}y/ -path:"Run.md"')).toEqual({ paths: [] });
  });
});
