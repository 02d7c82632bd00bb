import * as fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, HELP_EN_VAULT } from '../../harness/temp-copy';

type Json = Record<string, any>;

/** The text a client receives for a tool call: what the agent pays for, in chars. */
async function callText(client: Client, name: string, args: Json): Promise<{ json: Json; chars: number }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  const text = (result.content as Array<{ text: string }>)[0].text;
  return { json: result.structuredContent as Json, chars: text.length };
}

/** Four everyday questions and the note that answers each (issue 11, "Search quality"). */
const QUESTIONS: Array<{ query: string; top: string }> = [
  { query: 'how to sync notes between devices', top: 'Getting started/Sync your notes across devices.md' },
  { query: 'publish a site custom domain', top: 'Obsidian Publish/Custom domains.md' },
  { query: 'canvas', top: 'Plugins/Canvas.md' },
  { query: 'keyboard shortcut hotkeys', top: 'User interface/Hotkeys.md' },
];

const helpEn = fs.existsSync(HELP_EN_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_EN_VAULT)) console.log(`Skipping search economy tests: ${HELP_EN_VAULT} is absent.`);
helpEn('search then read the part, on obsidian-help-en', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let client: Client;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const copy = await copyToTemp(HELP_EN_VAULT);
    cleanup = copy.cleanup;
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    client = await connectClient(booted.url, booted.token);
  });
  afterAll(async () => {
    await client?.close();
    await booted?.stop();
    await cleanup?.();
  });

  const figures: string[] = [];
  afterAll(() => console.log(`search + read_note {section} of the top hit, chars:\n${figures.join('\n')}`));

  it.each(QUESTIONS)('"$query": top hit $top, with a section; page + section ≤ 8000 chars', async ({ query, top }) => {
    const page = await callText(client, 'search', { query });
    const hit = page.json.results[0];
    expect(hit.path).toBe(top);
    expect(hit.section).not.toBeNull();
    const part = await callText(client, 'read_note', { path: hit.path, section: hit.section });
    expect(part.json.section).toMatchObject({ path: hit.section, heading: hit.section_heading });
    figures.push(
      `${query}: search ${page.chars} + read_note ${part.chars} = ${page.chars + part.chars} (section ${hit.section} "${hit.section_heading}")`,
    );
    expect(page.chars + part.chars).toBeLessThanOrEqual(8000);
  });

  it('the page is compact: no repeated facts per hit; fields:"metadata" drops the snippets', async () => {
    const full = await callText(client, 'search', { query: 'canvas' });
    expect(full.json.results).toHaveLength(10);
    for (const hit of full.json.results) {
      expect(hit.source).toBeUndefined();
      expect(hit.id).toBeUndefined();
      expect(hit.snippet.replace(/\*\*/g, '').length).toBeLessThanOrEqual(170);
    }
    const meta = await callText(client, 'search', { query: 'canvas', fields: 'metadata' });
    expect(meta.json.results.map((h: Json) => h.path)).toEqual(full.json.results.map((h: Json) => h.path));
    expect(meta.json.results.every((h: Json) => h.snippet === undefined && h.section !== undefined)).toBe(true);
    figures.push(`canvas page: ${full.chars} chars with snippets, ${meta.chars} with fields:"metadata"`);
    expect(meta.chars).toBeLessThan(full.chars / 2);
  });
});
