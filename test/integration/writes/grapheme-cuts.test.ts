import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { TFile } from '../../host/vault/abstract-file';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';

/**
 * The newcomer's report (session 27): search answers carried lone surrogates and split grapheme
 * clusters in their snippets, in the text content and the structuredContent alike; a strict
 * JSON client (serde_json into a String) refuses such an answer whole. Over MCP, every text
 * cut from a note (snippets of every query kind, bold marks, read_note pages, the active
 * note's selection) is whole clusters.
 */

type Json = Record<string, any>;

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const clusters = (text: string): string[] => [...graphemes.segment(text)].map((s) => s.segment);

const NOTES: Record<string, string> = {
  'Kanji.md': `${'𠮷野家'.repeat(60)}牛丼${'𠮷田さん'.repeat(60)}\n`,
  'Emoji.md': `${'😀'.repeat(100)} targetemoji ${'👩‍💻'.repeat(60)}\n`,
  'Marks.md': `${'e\u0301'.repeat(100)} combtarget ${'🇯🇵'.repeat(60)}\n`,
  'Cafe.md': 'Cafe\u0301 and more 👍🏽 end\n',
  // Longer than active_note's 8000-char selection budget, which falls inside an emoji.
  'Long.md': `a${'👩‍💻'.repeat(2000)}\n`,
};
const ALL = Object.values(NOTES).join('');

/** Fails unless `shown` has no lone surrogate and each of its clusters is a note's or a snippet's own (`*`, `…`, space). */
function expectWhole(shown: string): void {
  expect(shown).not.toMatch(LONE);
  const allowed = new Set([...clusters(ALL), '*', '…', ' ']);
  expect(clusters(shown).filter((c) => !allowed.has(c))).toEqual([]);
}

describe('text cut from notes over MCP is whole grapheme clusters', () => {
  let dir: string;
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-graphemes-'));
    for (const [name, text] of Object.entries(NOTES)) await fsp.writeFile(nodePath.join(dir, name), text);
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir });
    client = await connectClient(booted.url, booted.token);
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** The search answer's snippets, from the text content and the structuredContent, after checking both agree. */
  async function snippets(query: string): Promise<string[]> {
    const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical' } });
    expect(result.isError).toBeFalsy();
    // The text content is the answer as JSON: a lone surrogate shows there as a \uXXXX escape (JSON.stringify writes a whole pair as itself).
    const text = (result.content as Array<{ text: string }>).map((c) => c.text).join('');
    expect(text).not.toMatch(/\\u[dD][89a-fA-F][0-9a-fA-F]{2}/);
    const fromText = (JSON.parse(text) as Json).results.map((r: Json) => r.snippet as string);
    const fromStructured = ((result.structuredContent as Json).results as Json[]).map((r) => r.snippet as string);
    expect(fromText).toEqual(fromStructured);
    expect(fromStructured.length).toBeGreaterThan(0);
    return fromStructured;
  }

  it.each([
    ['牛丼', '**牛丼**'],
    ['targetemoji', '**targetemoji**'],
    ['"targetemoji"', '**targetemoji**'],
    ['/targetemoji/', '**targetemoji**'],
    ['line:targetemoji', '**targetemoji**'],
    ['combtarget', '**combtarget**'],
    ['/Cafe/', '**Cafe\u0301**'],
    ['👍', '**👍🏽**'],
  ])('search %s: snippets whole in content and structuredContent, the match bolded whole', async (query, bold) => {
    const shown = await snippets(query);
    for (const s of shown) expectWhole(s);
    expect(shown.join('\n')).toContain(bold);
  });

  it('read_note pages end and start between clusters', async () => {
    const read = async (args: Json): Promise<Json> =>
      (await client.callTool({ name: 'read_note', arguments: { path: 'Emoji.md', ...args } })).structuredContent as Json;
    // 😀 × 100 and " targetemoji " fill 213 chars; each 👩‍💻 is 5. Offset 215 and a page end at 219 fall inside one.
    expect(await read({ offset: 215, max_chars: 6 })).toMatchObject({ body: '👩‍💻', body_offset: 213, has_more: true });
    const cut = await read({ max_chars: 216 });
    expectWhole(cut.body);
    expect(cut.body.endsWith(' targetemoji ')).toBe(true);
  });

  it("active_note's selection is cut between clusters", async () => {
    const file = booted.app.vault.getAbstractFileByPath('Long.md') as TFile;
    const text = NOTES['Long.md'];
    await booted.app.workspace.openNote(file, { selection: { anchor: 0, head: text.length - 1 } });
    const { active } = (await client.callTool({ name: 'active_note', arguments: {} })).structuredContent as Json;
    expect(active.selection_length).toBe(text.length - 1);
    expectWhole(active.selection);
    expect(active.selection).toBe(text.slice(0, 7996));
  });
});
