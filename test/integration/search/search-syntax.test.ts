import * as fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, HELP_EN_VAULT } from '../../harness/temp-copy';

/**
 * Obsidian's search syntax through the real `search` tool over HTTP: every operator and
 * every example of Obsidian Help's Search page (obsidian-help-en, Plugins/Search.md), on a
 * vault written so each example separates the notes it must find from those it must not.
 */

type Json = Record<string, any>;

const NOTES: Record<string, string> = {
  // "Search terms": meeting / work / meetup / personal.
  'm1.md': '---\nduration: 3\n---\nA meeting about work.\n',
  'm2.md': 'A personal meetup.\n',
  'm3.md': '---\nduration: 5\n---\nA meeting with personal notes, and a meetup.\n',
  'm4.md': '---\nduration: 10\n---\nA meeting only.\n',
  'm5.md': 'Work, then a meetup.\n',
  'm6.md': 'A meeting at work, then a meetup.\n',
  's1.md': 'I watched star wars yesterday.\n',
  's2.md': 'The wars among the star systems.\n',
  'q1.md': 'They said "hello" to each other.\n',
  'q2.md': 'They said hello to each other.\n',
  // "Search operators".
  'Zettel/202209051200 Idea.md': 'An idea.\n',
  'Zettel/202210011200 Other.md': 'Another idea.\n',
  'Daily notes/2022-07-01.md': 'Sunny.\n',
  'Daily notes/2022-07-15.md': 'Rainy.\n',
  'Daily notes/2022-08-01.md': 'Windy.\n',
  'c1.md': 'A happy cat sleeps.\n',
  'happy cat.md': 'A title that says it all.\n',
  'h1.md': 'Our HappyCat app.\n',
  'h2.md': 'The happycat logo.\n',
  'i1.md': 'Bought shelves at IKEA.\n',
  'i2.md': 'Ikea opens at ten.\n',
  't1.md': 'Tagged #work here.\n',
  't2.md': 'Tagged #myjob/work here.\n',
  't3.md': 'Tagged #work/project here.\n',
  'r1.md': 'Mix the flour with water.\nAdd salt.\n',
  'r2.md': 'Mix the water.\nAdd flour.\n',
  'b1.md': 'The dog and\nthe cat play.\n\nAnother paragraph.\n',
  'b2.md': 'The dog sleeps.\n\nThe cat eats.\n',
  'sec1.md': '# Pets\n\nThe dog sleeps.\n\nThe cat eats.\n\n# Other\n\nNothing here.\n',
  'sec2.md': '# Dogs\n\nThe dog.\n\n# Cats\n\nThe cat.\n',
  'task1.md': '- [ ] call Bob\n- [x] email Alice\n- plain item about a call\n',
  'task2.md': '- call mom, not a task\n\nI will email.\n',
  'task3.md': '1. [X] email the team\n',
  'task4.md': '- [-] call the plumber\n  who never came\n',
  'd1.md': 'Due 2022-01-01.\n',
  // "Search properties".
  'p1.md': '---\naliases: [Name, Other]\n---\nOne.\n',
  'p2.md': '---\naliases:\n---\nTwo.\n',
  'p3.md': '---\naliases: ""\n---\nThree.\n',
  'p4.md': '---\naliases: []\n---\nFour.\n',
  'st1.md': '---\nstatus: Draft\n---\nFirst.\n',
  'st2.md': '---\nstatus: Published\n---\nSecond.\n',
  'st3.md': '---\nstatus: Archived\n---\nThird.\n',
};

let dir: string;
let booted: BootedPlugin<VaultMcpPlugin>;
let client: Client;

beforeAll(async () => {
  dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-syntax-'));
  for (const [path, text] of Object.entries(NOTES)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, path), text);
  }
  booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir });
  client = await connectClient(booted.url, booted.token);
});

afterAll(async () => {
  await client?.close();
  await booted?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** The tool result of one search call (lexical, so results do not depend on an embedding model). */
async function search(query: string): Promise<{ isError: boolean; json: Json; text: string }> {
  const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical', limit: 100 } });
  const text = (result.content as Array<{ text: string }>)[0].text;
  return { isError: result.isError === true, json: (result.structuredContent ?? {}) as Json, text };
}

/** The sorted paths a query finds; fails the test when the call is refused. */
async function found(query: string): Promise<string[]> {
  const out = await search(query);
  if (out.isError) throw new Error(`search ${query} was refused: ${out.text}`);
  return (out.json.results as Json[]).map((h) => h.path as string).sort();
}

describe('Obsidian Help "Search terms" examples', () => {
  it('meeting work: the notes with both words come first', async () => {
    const out = await search('meeting work');
    expect(
      (out.json.results as Json[])
        .slice(0, 2)
        .map((h) => h.path)
        .sort(),
    ).toEqual(['m1.md', 'm6.md']);
  });

  it.each([
    ['meeting OR work', ['m1.md', 'm3.md', 'm4.md', 'm5.md', 'm6.md', 't1.md', 't2.md', 't3.md']],
    // "returns files for work meetings and personal meetups": OR joins the two ANDed runs.
    ['meeting work OR meetup personal', ['m1.md', 'm2.md', 'm3.md', 'm6.md']],
    ['meeting (work OR meetup) personal', ['m3.md']],
    ['meeting -work', ['m3.md', 'm4.md']],
    ['meeting -work -meetup', ['m4.md']],
    ['meeting -(work meetup)', ['m1.md', 'm3.md', 'm4.md']],
    ['meeting [duration:<5]', ['m1.md']],
    ['meeting [duration:>5]', ['m4.md']],
    ['"star wars"', ['s1.md']],
    ['"they said \\"hello\\" to each other"', ['q1.md']],
  ])('%s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });
});

describe('Obsidian Help "Search operators" examples', () => {
  it.each([
    ['file:202209', ['Zettel/202209051200 Idea.md']],
    ['path:"Daily notes/2022-07"', ['Daily notes/2022-07-01.md', 'Daily notes/2022-07-15.md']],
    [
      'file:("2022-07" OR -"2022")',
      [...Object.keys(NOTES).filter((p) => !p.includes('2022')), 'Daily notes/2022-07-01.md', 'Daily notes/2022-07-15.md'].sort(),
    ],
    ['"happy cat"', ['c1.md', 'happy cat.md']],
    ['content:"happy cat"', ['c1.md']],
    // The text operators look at the note body; frontmatter is searched with [property] filters.
    ['archived', ['st3.md']],
    ['content:archived', []],
    ['line:(status draft)', []],
    ['block:(aliases name)', []],
    ['match-case:HappyCat', ['h1.md']],
    ['match-case:/happycat/i', ['h2.md']],
    ['ignore-case:/HAPPYCAT/', ['h1.md', 'h2.md']],
    ['ignore-case:ikea', ['i1.md', 'i2.md']],
    ['match-case:IKEA', ['i1.md']],
    ['match-case:ikea', []],
    ['match-case:(Ikea ignore-case:TEN)', ['i2.md']],
    // Nested tags are found from their parent (Help, "Tags"), a tag that only ends in /work is not.
    ['tag:#work', ['t1.md', 't3.md']],
    ['line:(mix flour)', ['r1.md']],
    ['mix -line:(mix flour)', ['r2.md']],
    ['line:(dog cat)', []],
    ['block:(dog cat)', ['b1.md']],
    // b1 and b2 have no heading: the whole note is one section.
    ['section:(dog cat)', ['b1.md', 'b2.md', 'sec1.md']],
    ['task:call', ['task1.md', 'task4.md']],
    ['task:(call OR email)', ['task1.md', 'task3.md', 'task4.md']],
    ['task-todo:call', ['task1.md']],
    ['task-done:call', ['task4.md']],
    ['task-done:email', ['task1.md', 'task3.md']],
    ['task-todo:email', []],
    // A task's continuation line belongs to it; a plain list item is not a task.
    ['task:(plumber came)', ['task4.md']],
    ['task:item', []],
    ['task:-call', ['task1.md', 'task3.md']],
  ])('%s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });

  it('nests operators and regexes inside line:, block:, section: and task:', async () => {
    expect(await found('section:(line:(mix flour) salt)')).toEqual(['r1.md']);
    expect(await found('section:(line:(mix water) -salt)')).toEqual(['r2.md']);
    expect(await found('line:(/^Mix\\b/ flour)')).toEqual(['r1.md']);
    expect(await found('task-todo:/call \\w+/')).toEqual(['task1.md']);
    expect(await found('block:(dog path:b1)')).toEqual(['b1.md']);
    expect(await found('section:(block:(dog cat) OR (dog "cat eats"))')).toEqual(['b1.md', 'b2.md', 'sec1.md']);
  });

  it('words inside the operators match at word starts, as everywhere in a query, not anywhere inside a word', async () => {
    expect(await found('line:(flo mix)')).toEqual(['r1.md']);
    expect(await found('line:(lour mix)')).toEqual([]);
    expect(await found('line:(/lour/ mix)')).toEqual(['r1.md']);
  });

  it.each([
    ['/\\d{4}-\\d{2}-\\d{2}/', ['d1.md']],
    ['path:/\\d{4}-\\d{2}-\\d{2}/', ['Daily notes/2022-07-01.md', 'Daily notes/2022-07-15.md', 'Daily notes/2022-08-01.md']],
  ])('regular expressions: %s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });
});

describe('Obsidian Help "Search properties" examples', () => {
  it.each([
    ['[aliases]', ['p1.md', 'p2.md', 'p3.md', 'p4.md']],
    ['[aliases:Name]', ['p1.md']],
    // "works when a property is empty, but not when the property contains empty quotes or empty brackets".
    ['[aliases:null]', ['p2.md']],
    ['[status:Draft OR Published]', ['st1.md', 'st2.md']],
    ['[status:/^(dr|ar)/i]', ['st1.md', 'st3.md']],
    ['[status:-draft]', ['st2.md', 'st3.md']],
  ])('%s', async (query, expected) => {
    expect(await found(query)).toEqual(expected);
  });
});

describe('bad syntax', () => {
  it.each([
    ['line:(mix flour', "The search query has 'line:(' at character 1 without a matching ')'; close the group (e.g. line:(mix flour))."],
    [
      'task-todo:',
      'The search query has task-todo: at character 1 without a value; write the value right after the colon (e.g. task-todo:call).',
    ],
    ['[status:Draft OR]', 'The search query has OR at character 15 without a term after it; add the alternative term.'],
  ])('%s is refused with one sentence saying what to write', async (query, message) => {
    const out = await search(query);
    expect(out.isError).toBe(true);
    expect(out.text).toBe(message);
  });
});

const helpEn = fs.existsSync(HELP_EN_VAULT) ? describe : describe.skip;
if (!fs.existsSync(HELP_EN_VAULT)) console.log(`Skipping the help-vault search syntax tests: ${HELP_EN_VAULT} is absent.`);
helpEn('on obsidian-help-en', () => {
  let helpBooted: BootedPlugin<VaultMcpPlugin>;
  let helpClient: Client;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const copy = await copyToTemp(HELP_EN_VAULT);
    cleanup = copy.cleanup;
    helpBooted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    helpClient = await connectClient(helpBooted.url, helpBooted.token);
  });
  afterAll(async () => {
    await helpClient?.close();
    await helpBooted?.stop();
    await cleanup?.();
  });

  it.each([
    // Basic formatting syntax shows tasks inside a code fence (not tasks) and as real task lists.
    ['task-done:completed', ['Editing and formatting/Basic formatting syntax.md']],
    ['task-todo:(incomplete OR subtask)', ['Editing and formatting/Basic formatting syntax.md']],
    ['task-done:subtask', []],
    ['[permalink:plugins/search]', ['Plugins/Search.md']],
    ['line:("match-case" HappyCat)', ['Plugins/Search.md']],
    ['section:("search operators" /task-todo/)', ['Plugins/Search.md']],
  ])('%s', async (query, expected) => {
    const result = await helpClient.callTool({ name: 'search', arguments: { query, mode: 'lexical', limit: 100 } });
    expect(result.isError).not.toBe(true);
    expect(((result.structuredContent as Json).results as Json[]).map((h) => h.path).sort()).toEqual(expected);
  });
});
