import { runNotesQuery, type NoteFacts } from '../../../src/search/query-notes/evaluate';
import { parseNotesQuery, QuerySyntaxError } from '../../../src/search/query-notes/parse';
import { queryNotesTool } from '../../../src/tools/read/lists/query-notes';
import type { ToolContext } from '../../../src/tools/tool';
import { NoteStore } from '../../../src/vault/note-store';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';
import { toolContext } from '../../harness/tool-context';

/** The syntax error `source` raises; fails when it parses. */
function syntaxError(source: string): QuerySyntaxError {
  try {
    parseNotesQuery(source);
  } catch (err) {
    if (err instanceof QuerySyntaxError) return err;
    throw err;
  }
  throw new Error(`expected "${source}" not to parse`);
}

describe('query_notes: parsing', () => {
  it('reads every clause, in any order, case-insensitively, with WHERE optional', () => {
    const q = parseNotesQuery(
      'WHERE status is "draft" AND file.folder under "Projects" SORT file.mtime desc LIMIT 20 COLUMNS title, status',
    );
    expect(q).toEqual({
      where: {
        kind: 'and',
        left: { kind: 'test', field: { kind: 'property', name: 'status' }, op: 'is', value: 'draft' },
        right: { kind: 'test', field: { kind: 'file', name: 'file.folder' }, op: 'under', value: 'Projects' },
      },
      sort: [{ field: { kind: 'file', name: 'file.mtime' }, descending: true }],
      limit: 20,
      columns: [
        { kind: 'property', name: 'title' },
        { kind: 'property', name: 'status' },
      ],
    });
    const loose = parseNotesQuery("columns title limit 5 order by due asc, file.name where note.status = 'active'");
    expect(loose.where).toEqual({ kind: 'test', field: { kind: 'property', name: 'status' }, op: 'is', value: 'active' });
    expect(loose.sort.map((s) => [s.field.name, s.descending])).toEqual([
      ['due', false],
      ['file.name', false],
    ]);
    expect(loose.limit).toBe(5);
    expect(parseNotesQuery('priority >= 2').where).toMatchObject({ op: 'gte', value: '2' });
    expect(parseNotesQuery('')).toEqual({ where: null, sort: [], limit: null, columns: null });
  });

  it('OR binds looser than AND, NOT tighter; negated operators become NOT; quoted property names keep spaces', () => {
    const q = parseNotesQuery('a is 1 OR b is 2 AND NOT (c exists OR "due date" missing)');
    expect(q.where).toEqual({
      kind: 'or',
      left: { kind: 'test', field: { kind: 'property', name: 'a' }, op: 'is', value: '1' },
      right: {
        kind: 'and',
        left: { kind: 'test', field: { kind: 'property', name: 'b' }, op: 'is', value: '2' },
        right: {
          kind: 'not',
          child: {
            kind: 'or',
            left: { kind: 'test', field: { kind: 'property', name: 'c' }, op: 'exists', value: null },
            right: { kind: 'not', child: { kind: 'test', field: { kind: 'property', name: 'due date' }, op: 'exists', value: null } },
          },
        },
      },
    });
    expect(parseNotesQuery('status is not draft').where).toEqual({
      kind: 'not',
      child: expect.objectContaining({ op: 'is', value: 'draft' }),
    });
    expect(parseNotesQuery('tags not contains x').where).toEqual({ kind: 'not', child: expect.objectContaining({ op: 'contains' }) });
    expect(parseNotesQuery('status != x').where).toMatchObject({ kind: 'not' });
  });

  it('errors name what was expected and the 1-based position where the problem starts', () => {
    expect(syntaxError('status equals "draft"')).toMatchObject({
      position: 8,
      message: expect.stringMatching(/'equals' is not an operator; use is, is not/),
    });
    expect(syntaxError('status is')).toMatchObject({
      position: 10,
      message: expect.stringMatching(/Expected a value after 'is'.*ends there/),
    });
    expect(syntaxError('file.owner is x')).toMatchObject({
      position: 1,
      message: expect.stringMatching(/not a file field; use one of file\.name/),
    });
    expect(syntaxError('status is "draft')).toMatchObject({ position: 11, message: expect.stringMatching(/never closed/) });
    expect(syntaxError('(a is 1 OR b is 2')).toMatchObject({
      position: 18,
      message: expect.stringMatching(/Expected \) to close the \( at 1/),
    });
    expect(syntaxError('a is 1 LIMIT 0')).toMatchObject({ position: 14, message: expect.stringMatching(/whole number from 1 to 1000/) });
    expect(syntaxError('a is 1 LIMIT 5 LIMIT 6')).toMatchObject({ position: 16, message: expect.stringMatching(/LIMIT is given twice/) });
    expect(syntaxError('a is 1 b is 2')).toMatchObject({ position: 8, message: expect.stringMatching(/Unexpected 'b'; expected AND, OR/) });
    expect(syntaxError('SORT')).toMatchObject({ position: 5, message: expect.stringMatching(/Expected a field to sort by/) });
    expect(syntaxError('WHERE LIMIT 5')).toMatchObject({ position: 7 });
  });

  it('an invisible character outside quotes separates as a space, as search reads it (a bidi override before WHERE blamed `status`)', () => {
    // The newcomer's input: U+202E (right-to-left override) before WHERE made `\u202eWHERE` one word, and the error pointed at `status`.
    expect(parseNotesQuery('\u202eWHERE status is active')).toEqual(parseNotesQuery('WHERE status is active'));
    expect(parseNotesQuery('status\u200bis\u0000active').where).toEqual(parseNotesQuery('status is active').where);
    // A tag character (two UTF-16 units) is one separator; positions after it still count the query's own units.
    expect(parseNotesQuery('status is active\u{E0041}AND due exists').where).toEqual(
      parseNotesQuery('status is active AND due exists').where,
    );
    expect(syntaxError('\u200b\u200bstatus equals x')).toMatchObject({ position: 10 });
    // Joiners stay inside a word (an emoji, a Persian word), and quoted text is kept as written.
    expect(parseNotesQuery('mood is 👩\u200d💻').where).toMatchObject({ value: '👩\u200d💻' });
    expect(parseNotesQuery('status is "a\u200bb"').where).toMatchObject({ value: 'a\u200bb' });
  });

  it("SQL's `*` is refused where a field goes, naming what to write (it was read as a property named `*`: a column of nulls)", () => {
    expect(syntaxError('SELECT * LIMIT 1')).toMatchObject({
      position: 8,
      message: expect.stringMatching(/^`\*` is not a field: name the columns/),
    });
    expect(syntaxError('SORT * desc')).toMatchObject({ position: 6 });
    expect(syntaxError('* exists')).toMatchObject({ position: 1 });
    expect(parseNotesQuery('COLUMNS "*"').columns).toEqual([{ kind: 'property', name: '*' }]);
  });
});

describe('query_notes: evaluation', () => {
  const DAY = 86_400_000;
  const base = Date.UTC(2026, 0, 15, 12);
  const notes: NoteFacts[] = [
    {
      path: 'Projects/Alpha/Plan.md',
      mtime: base,
      ctime: base - 30 * DAY,
      size: 1200,
      tags: ['#project', '#project/alpha'],
      frontmatter: { status: 'Draft', priority: 2, due: '2026-02-01', owners: ['Ana', 'Ben'] },
    },
    {
      path: 'Projects/Beta.md',
      mtime: base - DAY,
      ctime: base - 40 * DAY,
      size: 300,
      tags: ['#project'],
      frontmatter: { status: 'active', priority: 10, due: '2026-01-20' },
    },
    { path: 'Inbox.md', mtime: base + DAY, ctime: base, size: 50, tags: [], frontmatter: { status: null } },
    { path: 'Journal/2026-01-15.md', mtime: base, ctime: base, size: 80, tags: ['#journal'], frontmatter: {} },
  ];
  const paths = (source: string): string[] => runNotesQuery(parseNotesQuery(source), notes).rows.map((r) => r[0] as string);

  it('a value alone after OR or AND is named, with the whole test to write (it blamed the clause after it)', () => {
    expect(syntaxError('WHERE status is "active" OR paused LIMIT 3')).toMatchObject({
      position: 29,
      message: `'paused' is a field with no test after it; each test is a field, an operator and a value (status is "paused"), also after OR and AND.`,
    });
    expect(syntaxError('WHERE status is "active" OR "paused" COLUMNS status')).toMatchObject({ position: 29 });
    expect(syntaxError('WHERE (status is x OR y) AND a is 1').message).toMatch(/^'y' is a field with no test after it/);
    expect(syntaxError('WHERE status').message).toMatch(/^'status' is a field with no test after it/);
  });

  it('sorts numbers written as text among numbers, as the comparisons read them (session 42: "100" sorted before 7)', () => {
    const scored: NoteFacts[] = [7, '100', '9', 12, ' 15 ', 'n/a'].map((score, k) => ({
      path: `S${k}.md`,
      mtime: base,
      ctime: base,
      size: 1,
      tags: [],
      frontmatter: { score },
    }));
    const order = (source: string): string[] => runNotesQuery(parseNotesQuery(source), scored).rows.map((r) => r[0] as string);
    expect(order('score exists SORT score desc')).toEqual(['S5.md', 'S1.md', 'S4.md', 'S3.md', 'S2.md', 'S0.md']);
    expect(order('score exists SORT score asc')).toEqual(['S0.md', 'S2.md', 'S3.md', 'S4.md', 'S1.md', 'S5.md']);
  });

  it('a size or date file field compared with text is an error at the value (it matched no note, silently)', () => {
    expect(syntaxError('file.size gt abc')).toMatchObject({
      position: 14,
      message: "file.size is a size in bytes, and 'abc' is not a number; compare it with one, e.g. file.size gt 10000.",
    });
    expect(syntaxError('file.mtime < soon').message).toBe(
      "file.mtime is a date, and 'soon' is not one; compare it with a date written YYYY-MM-DD, e.g. file.mtime gt 2026-01-15.",
    );
    // A word for a day would compare as text (session 42's newcomer: `due < today` listed every dated note): the date to write.
    expect(syntaxError('file.mtime < yesterday').message).toMatch(
      /^'yesterday' would be compared as text, not as a date; write the date instead, e.g. \d{4}-\d{2}-\d{2} \(yesterday on this computer\)\.$/,
    );
    expect(syntaxError('due < TODAY')).toMatchObject({ position: 7, message: expect.stringMatching(/^'TODAY' would be compared as text/) });
    expect(parseNotesQuery('title contains today').where).toMatchObject({ value: 'today' });
    expect(parseNotesQuery('when is today').where).toMatchObject({ value: 'today' });
    expect(parseNotesQuery('file.name contains 2026-01-15_trip').where).toMatchObject({ value: '2026-01-15_trip' });
    expect(syntaxError('file.ctime is "soon"').message).toMatch(/^file\.ctime is a date, and 'soon' is not one/);
    // Numbers and dates pass, as do text fields, properties (any type) and contains.
    expect(parseNotesQuery('file.size >= 1e3').where).toMatchObject({ value: '1e3' });
    expect(parseNotesQuery('file.mtime gt 2026-01-15').where).toMatchObject({ value: '2026-01-15' });
    expect(parseNotesQuery('file.name gt m').where).toMatchObject({ value: 'm' });
    expect(parseNotesQuery('rank gt high').where).toMatchObject({ value: 'high' });
    expect(parseNotesQuery('file.mtime contains 2026').where).toMatchObject({ op: 'contains' });
  });

  it('a bare date that names no calendar day is an error at its position; real dates and other words pass', () => {
    expect(syntaxError('file.mtime is 2026-13-45')).toMatchObject({
      position: 15,
      message: expect.stringMatching(/'2026-13-45' is not a calendar date/),
    });
    expect(syntaxError('due < 2026-02-30')).toMatchObject({ position: 7 });
    expect(parseNotesQuery('due < 2024-02-29').where).toMatchObject({ value: '2024-02-29' });
    expect(parseNotesQuery('file.mtime > 2026-01-15T10:00').where).toMatchObject({ value: '2026-01-15T10:00' });
    expect(parseNotesQuery('status is "2026-13-45"').where).toMatchObject({ value: '2026-13-45' });
    // A time after the date must be a time of day, and nothing else may follow it: each compared as text found nothing.
    expect(syntaxError('due < 2026-03-01T25:00')).toMatchObject({ position: 7, message: expect.stringMatching(/holds no time of day/) });
    expect(syntaxError('due < 2026-03-01x')).toMatchObject({ message: expect.stringMatching(/a date followed by other text/) });
    expect(parseNotesQuery('due < 2026-03-01T10:00:30').where).toMatchObject({ value: '2026-03-01T10:00:30' });
  });

  it('is / is not compare text case-insensitively, numbers numerically, lists by any item', () => {
    expect(paths('status is draft')).toEqual(['Projects/Alpha/Plan.md']);
    expect(paths('status is not draft')).toEqual(['Inbox.md', 'Journal/2026-01-15.md', 'Projects/Beta.md']);
    expect(paths('priority is 10')).toEqual(['Projects/Beta.md']);
    expect(paths('owners is ben')).toEqual(['Projects/Alpha/Plan.md']);
    expect(paths('status is null')).toEqual(['Inbox.md']);
  });

  it('contains, exists, missing, gt/lt/gte/lte on numbers and dates, under on folders and nested tags', () => {
    expect(paths('owners contains an')).toEqual(['Projects/Alpha/Plan.md']);
    expect(paths('status exists SORT file.path')).toEqual(['Inbox.md', 'Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    expect(paths('status missing')).toEqual(['Journal/2026-01-15.md']);
    expect(paths('priority gt 5')).toEqual(['Projects/Beta.md']);
    expect(paths('priority lte 2')).toEqual(['Projects/Alpha/Plan.md']);
    expect(paths('due lt 2026-01-31')).toEqual(['Projects/Beta.md']);
    expect(paths('file.mtime is 2026-01-15 SORT file.path')).toEqual(['Journal/2026-01-15.md', 'Projects/Alpha/Plan.md']);
    expect(paths('file.mtime gt 2026-01-15')).toEqual(['Inbox.md']);
    // A year or month compares at its own precision, as search does (session 42's newcomer: `due > 2026` listed 2026's notes).
    expect(paths('due > 2026')).toEqual([]);
    expect(paths('due >= 2026 SORT file.path')).toEqual(['Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    expect(paths('due is 2026-01')).toEqual(['Projects/Beta.md']);
    expect(paths('due < 2026-02')).toEqual(['Projects/Beta.md']);
    // A bare date is its whole day against a date-time: equal to its midnight, not before it.
    expect(paths('due is 2026-01-20T00:00')).toEqual(['Projects/Beta.md']);
    expect(paths('due < 2026-01-20T00:00')).toEqual([]);
    expect(paths('file.size gte 300 SORT file.size desc')).toEqual(['Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    expect(paths('file.folder under projects SORT file.path')).toEqual(['Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    expect(paths('file.folder is "/"')).toEqual(['Inbox.md']);
    expect(paths('file.tags under project SORT file.path')).toEqual(['Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    expect(paths('file.tags is "project/alpha"')).toEqual(['Projects/Alpha/Plan.md']);
    expect(paths('file.name is "Beta.md" OR file.basename is inbox SORT file.path')).toEqual(['Inbox.md', 'Projects/Beta.md']);
  });

  it('sorts by SORT keys then path (missing values last), else newest first; LIMIT cuts after counting', () => {
    expect(paths('SORT priority desc')).toEqual(['Projects/Beta.md', 'Projects/Alpha/Plan.md', 'Inbox.md', 'Journal/2026-01-15.md']);
    expect(paths('')).toEqual(['Inbox.md', 'Journal/2026-01-15.md', 'Projects/Alpha/Plan.md', 'Projects/Beta.md']);
    const limited = runNotesQuery(parseNotesQuery('SORT file.path LIMIT 2'), notes);
    expect(limited.rows.map((r) => r[0])).toEqual(['Inbox.md', 'Journal/2026-01-15.md']);
    expect(limited.total).toBe(4);
  });

  it('columns: file.path first, then COLUMNS, else the fields WHERE and SORT use; a missing property is null', () => {
    const listed = runNotesQuery(parseNotesQuery('status exists SORT file.path COLUMNS status, owners, file.path, file.size'), notes);
    expect(listed.columns).toEqual(['file.path', 'status', 'owners', 'file.size']);
    expect(listed.rows[0]).toEqual(['Inbox.md', null, null, 50]);
    expect(listed.rows[1]).toEqual(['Projects/Alpha/Plan.md', 'Draft', ['Ana', 'Ben'], 1200]);
    const implied = runNotesQuery(parseNotesQuery('priority gt 1 AND Priority lt 100 SORT due'), notes);
    expect(implied.columns).toEqual(['file.path', 'priority', 'due']);
    expect(implied.rows).toEqual([
      ['Projects/Beta.md', 10, '2026-01-20'],
      ['Projects/Alpha/Plan.md', 2, '2026-02-01'],
    ]);
  });
});

describe('query_notes tool on the demo vault', () => {
  let vault: DemoVault;
  let notes: NoteStore;
  beforeAll(async () => {
    vault = await openDemoVault();
    notes = new NoteStore(vault.app, { quarantine: () => [] });
  });
  afterAll(async () => vault?.close());

  const contextFor = (label = 'Test agent', roots: string[] = []): ToolContext => toolContext(notes, { label, roots });

  it('answers rows of readable notes with the fields asked for', async () => {
    const out = await queryNotesTool.handler({ query: 'WHERE status exists SORT file.path COLUMNS status, owner' }, contextFor());
    expect(out.columns).toEqual(['file.path', 'status', 'owner']);
    expect(out.rows).toEqual([
      ['Ideas.md', 'collecting', null],
      ['Projects/Alpha/Alpha overview.md', 'active', 'Ana Ruiz'],
      ['Projects/Beta/Beta overview.md', 'paused', 'Ben Okafor'],
    ]);
    expect(out.total).toBe(3);
    expect(out.note).toBeUndefined();
  });

  it('never shows private, quarantined or out-of-roots notes, nor no-access ones for that key', async () => {
    const all = await queryNotesTool.handler({ query: 'LIMIT 1000' }, contextFor());
    const shown = (all.rows as unknown[][]).map((r) => r[0] as string);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).not.toContain('Personal/Therapy notes.md');
    expect(shown.some((p) => p.startsWith('_private/') || p.startsWith('.'))).toBe(false);
    expect(shown).toContain('Projects/Beta/Retrospective.md');
    const tagged = await queryNotesTool.handler({ query: 'file.tags contains personal OR file.tags contains secret' }, contextFor());
    expect(tagged.rows).toEqual([]);
    const claude = await queryNotesTool.handler({ query: 'file.folder under Projects LIMIT 1000' }, contextFor('Claude Code'));
    expect((claude.rows as unknown[][]).map((r) => r[0])).not.toContain('Projects/Beta/Retrospective.md');
    const rooted = await queryNotesTool.handler({ query: 'LIMIT 1000' }, contextFor('Test agent', ['Projects/Alpha']));
    expect((rooted.rows as unknown[][]).every((r) => String(r[0]).startsWith('Projects/Alpha/'))).toBe(true);
    expect(rooted.total).toBe((rooted.rows as unknown[][]).length);
  });

  it('a query that does not parse is a result with the error, its position and the text there (not isError)', async () => {
    const out = await queryNotesTool.handler({ query: 'WHERE status equals "active"' }, contextFor());
    expect(out).toEqual({
      error: expect.stringMatching(/'equals' is not an operator/),
      position: 14,
      near: 'equals "active"',
    });
  });

  it('the text at an error position writes out what is drawn as nothing (U+202E inside quotes shows as <U+202E>)', async () => {
    const out = await queryNotesTool.handler({ query: 'WHERE status equals "\u202eactive"' }, contextFor());
    expect(out).toEqual({ error: expect.stringMatching(/'equals' is not an operator/), position: 14, near: 'equals "<U+202E>active"' });
  });

  it('names the properties of the query that no readable note has (a misspelt SORT sorted nothing, unsaid)', async () => {
    const sorted = await queryNotesTool.handler({ query: 'SORT nope desc LIMIT 1000' }, contextFor());
    expect(sorted.note).toBe(
      "No note you can read has the property 'nope' (names ignore case); check the spelling: list_notes shows each note's frontmatter.",
    );
    const many = await queryNotesTool.handler(
      { query: 'WHERE Nope exists OR STATUS is active SORT stauts COLUMNS nope, owner' },
      contextFor(),
    );
    expect(many.note).toMatch(/^No note you can read has the properties 'Nope', 'stauts' \(names ignore case\)/);
    // A close spelling the notes have is named (closest first), and only then.
    expect(many.note).toMatch(/check the spelling: the notes have 'status'\.$/);
    expect((await queryNotesTool.handler({ query: 'WHERE status exists COLUMNS owner' }, contextFor())).note).toBeUndefined();
    // A property only notes outside the key's roots have is absent for that key, as for every other answer.
    expect((await queryNotesTool.handler({ query: 'WHERE loaves_baked exists' }, contextFor())).note).toBeUndefined();
    const rooted = await queryNotesTool.handler({ query: 'WHERE loaves_baked exists' }, contextFor('Test agent', ['Projects']));
    expect(rooted.rows).toEqual([]);
    expect(rooted.note).toMatch(/^No note you can read has the property 'loaves_baked'/);
    // A query on a tags property no note has in its frontmatter is pointed at file.tags.
    const tagsOnly = await queryNotesTool.handler({ query: 'WHERE tags contains x' }, contextFor('Test agent', ['Attachments']));
    expect(tagsOnly.note).toMatch(
      /^No note you can read has the property 'tags' .* For tags, file\.tags has every tag of a note, inline ones too\.$/,
    );
    const cut = await queryNotesTool.handler({ query: 'SORT nope LIMIT 2' }, contextFor());
    expect(cut.note).toMatch(/^2 of \d+ notes shown; raise LIMIT .* No note you can read has the property 'nope'/);
  });

  it('a file.name compared with a name without its extension, finding nothing, is pointed at file.basename (session 43)', async () => {
    const out = await queryNotesTool.handler({ query: 'WHERE file.name is "Home"' }, contextFor());
    expect(out.total).toBe(0);
    expect(out.note).toBe(
      `file.name holds the extension ('Home.md'); for the name without it, compare file.basename ('file.basename is "Home"').`,
    );
    expect((await queryNotesTool.handler({ query: 'WHERE file.name is "Home.md"' }, contextFor())).note).toBeUndefined();
    expect((await queryNotesTool.handler({ query: 'WHERE file.basename is "Home"' }, contextFor())).note).toBeUndefined();
  });

  it("compares file.mtime with a timestamp as list_notes writes it, a final Z included (session 43's newcomer was refused)", async () => {
    const all = await queryNotesTool.handler({ query: 'LIMIT 1000' }, contextFor());
    const since = await queryNotesTool.handler({ query: 'WHERE file.mtime >= 1970-01-01T00:00:00.000Z LIMIT 1000' }, contextFor());
    expect(since.error).toBeUndefined();
    expect(since.total).toBe(all.total);
    expect((await queryNotesTool.handler({ query: 'WHERE file.mtime < 1970-01-01T00:00Z' }, contextFor())).total).toBe(0);
  });

  it('says when LIMIT cut the rows', async () => {
    const out = await queryNotesTool.handler({ query: 'LIMIT 2' }, contextFor());
    expect(out.rows).toHaveLength(2);
    expect(out.note).toMatch(/^2 of \d+ notes shown; raise LIMIT/);
  });
});
