import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import type { KeyToolSet } from '../../../src/settings/key-record';
import { connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { SKILL } from '../../harness/env/notification-env';
import { bootWithToolSetKeys, toolSetKeyToken } from '../../harness/server/tool-set-keys';

const WRITE_TOOLS = ['create_note', 'write_note', 'append_note', 'edit_note', 'set_properties', 'move_note', 'delete_note'];

/**
 * The keys beside the run's ("Writer": all tools, force), by label: mode and tool set, and what
 * the set lets the key see in messages (tool-set-routes.ts toolSetSight).
 */
const KEYS: Record<string, { mode: 'force' | 'propose'; tools: KeyToolSet; names: boolean; text: boolean }> = {
  WriteOnly: { mode: 'propose', tools: WRITE_TOOLS, names: false, text: false },
  AppendOnly: { mode: 'force', tools: ['append_note'], names: false, text: false },
  // Reads notes it names, lists none.
  Lookup: { mode: 'force', tools: ['read_note', 'read_notes', 'edit_note', 'set_properties', 'append_note'], names: false, text: true },
  // Finds notes by search, reads none whole.
  // Gets skill prompts with a note attached, lists no notes.
  Prompter: { mode: 'force', tools: ['skill_read', 'read_note'], names: false, text: true },
  Finder: { mode: 'force', tools: ['search', 'edit_note', 'set_properties', 'append_note'], names: true, text: false },
};

const THERAPY = 'Journal/2026-12-01 Therapy session.md';
const SALARY = 'Journal/2026-12-02 Salary negotiation.md';
const FILES: Record<string, string> = {
  [THERAPY]: '# Therapy session\n\n## ZQHEADING Diagnosis details\n\nZQLOOSE text here\n\n## Medication ZQPILLNAME\n',
  [SALARY]: '# Salary\n\nZQSALARY figure\n',
  'A/Dup.md': 'one\n',
  'B/Dup.md': 'two\n',
  'C/One.md': '---\nid: shared-id\n---\nZQONE\n',
  'C/Two.md': '---\nid: shared-id\n---\nZQTWO\n',
  'Outline.md': '# Top\n\n## ZQFIRST\n\n## 1.1\n',
  'Props.md': '---\nPriority: 1\nPRIORITY: 2\n---\nbody\n',
  'Anchored.md': '---\nbase: &b old\nzqcolor: *b\n---\nbody\n',
  'Broken.md': '---\nmood: *ZQYAML\n---\nbody\n',
  'Fenced.md': '---\ntitle: ZQTITLE\n---\nbody\n',
  'Skills/good/SKILL.md': SKILL('Good'),
  'Hidden.md': '---\naccess: private\n---\n# ZQHIDDEN\n',
};

/**
 * One faulty call and what its error shows of the vault beyond the call's own arguments: `shown`
 * appears in it only for a key that may see `shows` (docs/security.md#keys); any other key is told
 * the fault and what to do without it (`plain`).
 */
interface Case {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  shows: 'names' | 'text';
  shown: string;
  plain: RegExp;
}

/** edit_note's arguments replacing the part `target` (an anchor or a heading) names with `x`. */
const edit = (path: string, target: { anchor: string } | { heading: string }): Record<string, unknown> => ({
  path,
  ...target,
  op: 'replace',
  content: 'x',
});

const CASES: Case[] = [
  {
    what: 'a note not found: similar note names',
    tool: 'append_note',
    args: { path: 'Salary', content: 'x' },
    shows: 'names',
    shown: `Did you mean '${SALARY}'`,
    plain: /^Note 'Salary' not found; check the path \(this key cannot list notes: ask the user\)\.$/,
  },
  {
    what: 'a name several notes share: their paths',
    tool: 'append_note',
    args: { path: 'Dup', content: 'x' },
    shows: 'names',
    shown: 'A/Dup.md, B/Dup.md',
    plain: /^Note name 'Dup' matches several notes; pass the full path \(this key cannot list notes: ask the user\)\.$/,
  },
  {
    what: 'an id several notes share: their paths',
    tool: 'append_note',
    args: { path: 'shared-id', content: 'x' },
    shows: 'names',
    shown: 'C/One.md, C/Two.md',
    plain: /^Id 'shared-id' is used by several notes; pass the path instead \(this key cannot list notes: ask the user\)\.$/,
  },
  {
    what: 'a folder for a note: advice to list it',
    tool: 'edit_note',
    args: edit('Journal', { anchor: 'x' }),
    shows: 'names',
    shown: "call list_notes with folder 'Journal'",
    plain: /^'Journal' is a folder; give a note's path \(this key cannot list notes: ask the user\)\.$/,
  },
  {
    what: "a heading not found: the note's headings",
    tool: 'edit_note',
    args: edit(THERAPY, { heading: 'nothing' }),
    shows: 'text',
    shown: 'ZQHEADING Diagnosis details',
    plain:
      /^Heading 'nothing' not found in '.*Therapy session\.md'; give one as written, an outline path or "Parent\/Child" \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: 'an outline path that is also a heading text: both headings',
    tool: 'edit_note',
    args: edit('Outline', { heading: '1.1' }),
    shows: 'text',
    shown: 'ZQFIRST',
    plain:
      /^'1\.1' in 'Outline\.md' is an outline path and another heading's text; pass the outline path of the one you mean \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: 'an anchor found only ignoring case: where',
    tool: 'edit_note',
    args: edit(THERAPY, { anchor: 'zqloose TEXT' }),
    shows: 'text',
    shown: 'differing only in case or spacing is on line 5',
    plain:
      /^The anchor was not found in '.*Therapy session\.md'; give it exactly as the note has it, or a heading \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: "a property the note spells twice: the note's spellings",
    tool: 'set_properties',
    args: { path: 'Props', properties: { priority: 3 } },
    shows: 'text',
    shown: "'PRIORITY'",
    plain:
      /^Note 'Props\.md' has several spellings of 'priority', none exact; name one as written \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: 'a property whose lines depend on others: those lines',
    tool: 'set_properties',
    args: { path: 'Anchored', properties: { base: 'new' } },
    shows: 'text',
    shown: "'zqcolor'",
    plain:
      /^Nothing was changed in 'Anchored\.md': its frontmatter lines for this change cannot be changed alone \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: "frontmatter that does not parse: the parser's words",
    tool: 'set_properties',
    args: { path: 'Broken', properties: { mood: 'ok' } },
    shows: 'text',
    shown: 'Unresolved alias (the anchor must be set before the alias): ZQYAML',
    plain: /^The frontmatter of 'Broken\.md' does not parse as YAML; nothing was changed \(this key cannot read notes: ask the user\)\.$/,
  },
  {
    what: "a change that breaks the frontmatter: the parser's words",
    tool: 'edit_note',
    args: { path: 'Fenced', anchor: 'title: ZQ', op: 'replace', content: 'title: *ZQ' },
    shows: 'text',
    shown: 'Unresolved alias (the anchor must be set before the alias): ZQTITLE',
    plain:
      /^This change would leave the frontmatter of 'Fenced\.md' unparseable; keep its YAML valid \(this key cannot read notes: ask the user\)\.$/,
  },
];

/** Text of the vault a refusal may never show a key that may not see it: note paths not asked for, and note text. */
const SECRETS = [
  ...Object.keys(FILES).filter((p) => p !== 'Props.md' && p !== 'Anchored.md'),
  'ZQHEADING',
  'ZQPILLNAME',
  'ZQFIRST',
  'zqcolor',
  'PRIORITY',
  'ZQYAML',
  'ZQTITLE',
];

/**
 * docs/security.md#keys, CHANGELOG (session 30, F3): a key's refusals show note names only when its
 * tool set lists notes (list_notes, search, query_notes) and note text only when it reads notes
 * (read_note, read_notes). Before, a key given only `append_note` listed the vault's note names by
 * probing ("Did you mean ...?"), and a key of write tools only was told a note's headings, its
 * property spellings and frontmatter lines by edit_note and set_properties.
 */
describe('what a refusal shows follows the key tool set', () => {
  let booted: BootedPlugin<VaultMcpPlugin>;
  let done: () => Promise<void>;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ booted, done } = await bootWithToolSetKeys('vault-mcp-toolset-errors-', FILES, KEYS));
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) await client.close();
    await done();
  });

  const connected = new Map<string, Client>();
  async function client(label: string): Promise<Client> {
    let c = connected.get(label);
    if (!c) {
      c = await connectClient(booted.url, label === 'Writer' ? booted.token : toolSetKeyToken(label));
      clients.push(c);
      connected.set(label, c);
    }
    return c;
  }

  async function refusal(label: string, tool: string, args: Record<string, unknown>): Promise<string> {
    const result = await (await client(label)).callTool({ name: tool, arguments: args });
    expect(result.isError).toBe(true);
    return (result.content as Array<{ text: string }>)[0].text;
  }

  const KEY_SIGHT = { Writer: { tools: 'all' as KeyToolSet, names: true, text: true }, ...KEYS };

  // One test per refusal, over every key whose set holds its tool: each has keys that see and keys that do not.
  test.each(CASES.map((c) => [c.what, c] as const))('%s', async (_what, c) => {
    const keys = Object.entries(KEY_SIGHT).filter(([, key]) => !Array.isArray(key.tools) || key.tools.includes(c.tool));
    expect(keys.some(([, key]) => key[c.shows]) && keys.some(([, key]) => !key[c.shows])).toBe(true);
    for (const [label, key] of keys) {
      const message = await refusal(label, c.tool, c.args);
      if (key[c.shows]) {
        expect({ label, message }).toEqual({ label, message: expect.stringContaining(c.shown) });
        continue;
      }
      expect({ label, message }).toEqual({ label, message: expect.stringMatching(c.plain) });
      const given = JSON.stringify(c.args);
      for (const secret of [c.shown, ...SECRETS]) {
        if (!given.includes(secret.replace(/\.md$/, '')))
          expect({ label, message }).toEqual({ label, message: expect.not.stringContaining(secret) });
      }
    }
  });

  test('read_notes lists a shared name without the notes for a key that lists none, with them for one that does', async () => {
    const answer = async (label: string): Promise<unknown> =>
      (await (await client(label)).callTool({ name: 'read_notes', arguments: { paths: ['Dup', 'Salary'] } })).structuredContent;
    expect(await answer('Lookup')).toMatchObject({
      not_found: ['Salary'],
      errors: [{ path: 'Dup', message: expect.stringMatching(/^Note name 'Dup' matches several notes; pass the full path/) }],
    });
    expect(JSON.stringify(await answer('Lookup'))).not.toMatch(/[AB]\/Dup\.md/);
    expect(await answer('Writer')).toMatchObject({ errors: [{ path: 'Dup', message: expect.stringContaining('(A/Dup.md, B/Dup.md)') }] });
  });

  test("a write-only key is told the YAML error of a text all its own (a new note), never one quoting a note's lines", async () => {
    const created = await refusal('WriteOnly', 'create_note', { path: 'New', content: '---\nmood: *OWNALIAS\n---\n' });
    expect(created).toContain('unparseable (Unresolved alias (the anchor must be set before the alias): OWNALIAS');
    const edited = await refusal('WriteOnly', 'edit_note', { path: 'Fenced', anchor: 'title: ZQ', op: 'replace', content: 'title: *ZQ' });
    expect(edited).not.toContain('ZQTITLE');
  });

  test("a skill prompt's note argument names no similar note to a key that lists none", async () => {
    const get = async (label: string): Promise<string> =>
      (await client(label)).getPrompt({ name: 'good', arguments: { note: 'Salary' } }).then(
        () => 'ok',
        (e: Error) => e.message,
      );
    expect(await get('Prompter')).toContain(
      `Argument "note" of prompt "good": Note 'Salary' not found; check the path (this key cannot list notes: ask the user).`,
    );
    expect(await get('Writer')).toContain(`Did you mean '${SALARY}'`);
  });

  test('a private note answers a write-only key exactly as a missing one', async () => {
    const answer = (path: string): Promise<string> => refusal('AppendOnly', 'append_note', { path, content: 'x' });
    expect(await answer('Hidden')).toBe("Note 'Hidden' not found; check the path (this key cannot list notes: ask the user).");
    expect(await answer('Nowhere')).toBe((await answer('Hidden')).replace('Hidden', 'Nowhere'));
  });
});
