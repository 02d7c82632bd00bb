import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { NOTE_URI_PREFIX } from '../../../src/server/content/note-resources';
import { DEMO_VAULT } from '../../harness/temp-copy';
import { writeEnvPerBlock, type Json } from '../../harness/edits/write-helpers';
import { connectClient } from '../../harness/boot-plugin';

// A newcomer's report (issue 20 session): invisible characters in search queries, wrong
// not-found sentences for hidden names, and paths that reached another note than they named.
describe('a newcomer’s faults, through the tools over MCP', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);
  const { call, callError } = env;
  const paths = async (query: string): Promise<string[]> =>
    ((await call('search', { query, mode: 'lexical', limit: 100 })).results as Json[]).map((r) => r.path);

  describe('search queries with invisible characters', () => {
    it('a query of NUL, zero-width characters or a lone surrogate is the empty-query error a space-only query gets', async () => {
      const empty = await callError('search', { query: '   ' });
      expect(empty).toMatch(/^The search query is empty/);
      for (const query of [
        '\u0000',
        '\u200b',
        '\u200b\u200c',
        '\u200d',
        '\ud800',
        '\udc00\u0000',
        '\u2060\ufeff',
        '\u0007 \u0000',
        ' \u00ad ',
        '\u202e',
      ])
        expect(await callError('search', { query, mode: 'lexical' })).toBe(empty);
      // An empty string is caught by the argument check first: the same sentence, not the validator's "Too small" (a newcomer s35).
      expect(await callError('search', { query: '' })).toBe(`Invalid arguments for search: query: ${empty}`);
    });

    it('an invisible character inside a phrase is read as a space, as it is between unquoted words', async () => {
      const phrase = await paths('"picking throughput"');
      expect(phrase).toContain('Projects/Alpha/Alpha overview.md');
      const words = await paths('picking throughput');
      for (const invisible of [
        '\u0000',
        '\u0007',
        '\u007f',
        '\u0085',
        '\u200b',
        '\u2060',
        '\ufeff',
        '\u00ad',
        '\ud800',
        '\u200c ',
        ' \u200d',
      ]) {
        expect(await paths(`"picking${invisible}throughput"`)).toEqual(phrase);
        expect(await paths(`picking${invisible}throughput`)).toEqual(words);
      }
      expect(await callError('search', { query: '"\u0000\u200b"' })).toMatch(/empty phrase at character 1/);
    });

    it('a zero-width joiner or non-joiner between two characters is kept: it spells a Persian word or an emoji', async () => {
      await call('create_note', {
        path: 'Joiners',
        content: 'Persian: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645. Emoji: \u{1f469}\u200d\u{1f4bb} coder.\n',
      });
      await env.booted.plugin.search.whenBuilt();
      expect(await paths('"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"')).toEqual(['Joiners.md']);
      expect(await paths('"\u{1f469}\u200d\u{1f4bb} coder"')).toEqual(['Joiners.md']);
      expect(await paths('"\u{1f469} \u{1f4bb} coder"')).toEqual([]);
    });
  });

  // A second newcomer's report (issue 20, sixth session): a word meant the same thing in every place.
  describe('a word or a group means one thing, included or excluded', () => {
    const search = async (query: string): Promise<Json> => call('search', { query, mode: 'lexical', limit: 100 });
    it('an excluded word drops exactly the notes the word finds, typo matches included ("replika" finds "replica")', async () => {
      const typo = await paths('replika');
      expect(typo.length).toBeGreaterThan(0);
      expect(await paths('replika')).toEqual(await paths('replica'));
      const northwind = await paths('northwind');
      const both = new Set(await paths('northwind line:replika'));
      expect(both.size).toBeGreaterThan(0);
      for (const query of ['northwind -replika', 'northwind -REPLICA', 'northwind -line:replika']) {
        const without = await paths(query);
        expect(without.filter((p) => typo.includes(p))).toEqual([]);
        expect(without.sort()).toEqual(northwind.filter((p) => !typo.includes(p)).sort());
      }
      const everything = (await search('-zzzzqq')).total as number;
      expect((await search('-replika')).total).toBe(everything - typo.length);
    });
    it('parentheses make a filter: every word in them must match, as the docs say', async () => {
      const ranked = await search('alpha beta');
      expect(ranked.all_terms_total).toBeLessThan(ranked.total);
      for (const query of ['alpha (beta)', '(alpha beta)', '((alpha)) beta']) {
        const filtered = await search(query);
        expect(filtered.all_terms_total).toBeUndefined();
        expect(filtered.total).toBe(ranked.all_terms_total);
      }
      expect((await search('(alpha)')).total).toBe((await search('alpha')).total);
    });
    it('a word of no letters or digits beside plain words is ignored and listed, not a filter that finds nothing', async () => {
      const ranked = await search('alpha beta');
      for (const sign of ['&', '+', '&&']) {
        const result = await search(`alpha ${sign} beta`);
        expect(result.total).toBe(ranked.total);
        expect(result.all_terms_total).toBe(ranked.all_terms_total);
        expect(result.ignored_terms).toEqual([sign]);
      }
    });
  });

  describe('not-found and refusal sentences name what the path is', () => {
    it('a dot-file at the vault root is a hidden name, not "in a folder", whether it exists or not', async () => {
      fs.writeFileSync(nodePath.join(env.dir, '.bashrc'), 'secret');
      for (const path of ['.bashrc', '.profile']) {
        const text = await callError('read_note', { path });
        expect(text).toBe(
          `Path '${path}' is a hidden file or folder (its name starts with '.'), which agents may not access; use a path outside it.`,
        );
        expect(await callError('create_note', { path, content: 'x' })).toMatch(/is a hidden file or folder/);
        expect(await callError('list_notes', { folder: path })).toMatch(/is a hidden file or folder/);
      }
    });

    it('a path inside a hidden or _private folder names that folder', async () => {
      expect(await callError('read_note', { path: 'Notes/.hidden/x.md' })).toBe(
        "Path 'Notes/.hidden/x.md' is inside 'Notes/.hidden', a hidden file or folder (its name starts with '.'), which agents may not access; use a path outside it.",
      );
      expect(await callError('read_note', { path: '.obsidian/app.json' })).toMatch(/inside '\.obsidian', a hidden file or folder/);
      expect(await callError('append_note', { path: '_private/Passwords hint', content: 'x' })).toBe(
        "Path '_private/Passwords hint' is inside '_private', a '_private' folder, which agents may not access; use a path outside it.",
      );
      expect(await callError('list_notes', { folder: '_private' })).toMatch(
        /^Path '_private' is a '_private' folder, which agents may not access/,
      );
    });

    it('a missing note at the root or in a folder, and a folder, each get their own sentence', async () => {
      expect(await callError('read_note', { path: 'Nope.md' })).toMatch(/^Note 'Nope\.md' not found/);
      expect(await callError('read_note', { path: 'Projects/Nope.md' })).toMatch(/^Note 'Projects\/Nope\.md' not found/);
      expect(await callError('read_note', { path: 'Projects/' })).toBe(
        "'Projects' is a folder; call list_notes with folder 'Projects' to see its notes.",
      );
      expect(await callError('list_notes', { folder: 'Inbox.md' })).toBe("'Inbox.md' is a note, not a folder; read it with read_note.");
      expect(await callError('list_folders', { folder: 'Projects/Alpha/Budget.md' })).toMatch(
        /^'Projects\/Alpha\/Budget\.md' is a note, not a folder/,
      );
      expect(await callError('list_notes', { folder: 'Nowhere' })).toMatch(/^Folder 'Nowhere' not found/);
    });

    it('a folder on the way that the disk holds but Obsidian does not list (node_modules) makes the path taken, not an internal error', async () => {
      fs.mkdirSync(nodePath.join(env.dir, 'node_modules', 'pkg'), { recursive: true });
      const taken = 'Cannot create a folder at that path: it is taken or unavailable; choose another path.';
      expect(await callError('create_note', { path: 'node_modules/x', content: 'x\n' })).toBe(taken);
      expect(await callError('create_note', { path: 'node_modules/pkg/deeper/x', content: 'x\n' })).toBe(taken);
      expect(await callError('create_folder', { path: 'node_modules/pkg/sub' })).toBe(taken);
      expect(await callError('move_note', { path: 'Inbox', to: 'node_modules/Inbox' })).toBe(taken);
      expect(fs.readdirSync(nodePath.join(env.dir, 'node_modules'), { recursive: true })).toEqual(['pkg']);
      expect(fs.existsSync(nodePath.join(env.dir, 'Inbox.md'))).toBe(true);
    });
  });

  describe('a frontmatter id', () => {
    it("starting with 'path:' is no id of its own: the note is read by its own path id, never as the note that path names", async () => {
      await call('create_note', { path: 'Dupid/D', content: '---\nid: path:Home.md\n---\nD\n' });
      await call('create_note', { path: 'Dupid/E', content: '---\nid: path:Nowhere.md\n---\nE\n' });
      const listed = (await call('list_notes', { folder: 'Dupid' })).notes as Json[];
      expect(listed.map((n) => [n.path, n.id]).sort()).toEqual([
        ['Dupid/D.md', 'path:Dupid/D.md'],
        ['Dupid/E.md', 'path:Dupid/E.md'],
      ]);
      expect((await call('read_note', { id: 'path:Home.md' })).path).toBe('Home.md');
      expect((await call('read_note', { id: 'path:Dupid/D.md' })).path).toBe('Dupid/D.md');
      expect((await call('read_note', { id: 'path:Dupid/E.md' })).path).toBe('Dupid/E.md');
      expect(await callError('read_note', { id: 'path:Nowhere.md' })).toMatch(/^Note 'Nowhere\.md' not found/);
    });
  });

  it("a YAML error is quoted without the colon that introduced the parser's excerpt (it read as cut off)", async () => {
    expect(await callError('create_note', { path: 'Props/P4', content: '---\nbad: [unclosed\n---\nbody\n' })).toMatch(
      /^This change would leave the frontmatter of 'Props\/P4\.md' unparseable \(.*at line 2, column 1\); keep the YAML between the --- lines valid\.$/,
    );
  });

  describe('frontmatter nested past what a parse may take', () => {
    it('create_note and edit_note refuse a block nesting [ ] or { } over 256 deep, writing nothing', async () => {
      const nested = (depth: number): string => `a: ${'['.repeat(depth)}${']'.repeat(depth)}`;
      const refusal = (path: string): string =>
        `This change would leave the frontmatter of '${path}' unparseable (the YAML nests [ ] or { } more than 256 deep); keep the YAML between the --- lines valid.`;
      expect(await callError('create_note', { path: 'Deep.md', content: `---\n${nested(300_000)}\n---\nbody\n` })).toBe(refusal('Deep.md'));
      expect(fs.existsSync(nodePath.join(env.dir, 'Deep.md'))).toBe(false);
      await call('create_note', { path: 'Shallow.md', content: `---\n${nested(256)}\n---\nbody\n` });
      const before = fs.readFileSync(nodePath.join(env.dir, 'Shallow.md'), 'utf8');
      expect(await callError('edit_note', { path: 'Shallow.md', anchor: 'a: [', op: 'insert_after', content: '[' })).toBe(
        refusal('Shallow.md'),
      );
      expect(fs.readFileSync(nodePath.join(env.dir, 'Shallow.md'), 'utf8')).toBe(before);
    });
  });

  describe('a path names one note exactly', () => {
    const inbox = (): string => fs.readFileSync(nodePath.join(env.dir, 'Inbox.md'), 'utf8');

    it('the documented conveniences still reach Inbox.md: no .md, other case, a wikilink', async () => {
      for (const path of ['Inbox.md', 'Inbox', 'inbox.md', 'INBOX', '[[Inbox]]', './Inbox.md', 'Inbox.MD'])
        expect((await call('read_note', { path })).path).toBe('Inbox.md');
    });

    it('Inbox.md.md, Inbox.md/ and Inbox/ reach no note through any path tool, and Inbox.md is left as it was', async () => {
      const before = inbox();
      const hash = (await call('read_note', { path: 'Inbox.md' })).hash as string;
      for (const path of ['Inbox.md.md', 'Inbox.md/', 'Inbox/', 'Inbox.md\\', 'Inbox.md/.', 'Inbox.md%2F', 'path:Inbox.md/']) {
        const calls: Array<[string, Json]> = [
          ['read_note', { path }],
          ['get_links', { path }],
          ['write_note', { path, body: 'clobbered' }],
          ['append_note', { path, content: 'clobbered' }],
          ['edit_note', { path, anchor: 'Inbox', op: 'replace', content: 'clobbered' }],
          ['set_properties', { path, properties: { clobbered: true } }],
          ['move_note', { path, to: 'Archive/Moved inbox' }],
          ['delete_note', { path, confirm: true }],
        ];
        for (const [tool, args] of calls) {
          const text = await callError(tool, args);
          if (path.startsWith('Inbox.md.md')) expect(text).toMatch(/^Note 'Inbox\.md\.md' not found\. Did you mean 'Inbox\.md'\?/);
          else expect(text).toMatch(/^No folder 'Inbox(\.md)?' \(a path ending in '\/' names one\); for the note, give 'Inbox\.md'\.$/);
        }
        expect((await call('read_notes', { paths: [path] })).not_found).toEqual([path]);
        await expect(env.client.readResource({ uri: `${NOTE_URI_PREFIX}${encodeURIComponent(path)}` })).rejects.toThrow(/not found/i);
      }
      expect(await callError('read_note', { id: 'Inbox.md/' })).toMatch(/ending in '\/' names one/);
      expect(inbox()).toBe(before);
      expect((await call('read_note', { path: 'Inbox' })).hash).toBe(hash);
      expect(fs.existsSync(nodePath.join(env.dir, 'Archive/Moved inbox.md'))).toBe(false);
    });

    // s23 newcomer finding 5: `T/Y.md` reached `T/Y.md.md` (a delete of a note never named).
    it('a path ending in .md never reaches <name>.md.md: not found on every route, that note left as it was', async () => {
      expect((await call('create_note', { path: 'T/Y.md.md', content: 'doubled\n' })).path).toBe('T/Y.md.md');
      expect((await call('create_note', { path: 'Areas/AGENTS.md.md', content: 'not instructions\n' })).path).toBe('Areas/AGENTS.md.md');
      const doubled = nodePath.join(env.dir, 'T/Y.md.md');
      for (const path of ['T/Y.md', 't/y.MD', 'Y.md', '[[T/Y.md]]', '[[Y.md]]', 'path:T/Y.md']) {
        const calls: Array<[string, Json]> = [
          ['read_note', { path }],
          ['get_links', { path }],
          ['write_note', { path, body: 'overwritten' }],
          ['append_note', { path, content: 'appended' }],
          ['edit_note', { path, anchor: 'doubled', op: 'replace', content: 'edited' }],
          ['set_properties', { path, properties: { touched: true } }],
          ['move_note', { path, to: 'T/Moved' }],
          ['delete_note', { path, confirm: true }],
        ];
        for (const [tool, args] of calls)
          expect([path, tool, await callError(tool, args)]).toEqual([path, tool, expect.stringMatching(/not found/)]);
        expect((await call('read_notes', { paths: [path] })).not_found).toEqual([path]);
      }
      expect(await callError('read_note', { path: 'T/Y.md' })).toMatch(/^Note 'T\/Y\.md' not found\. Did you mean 'T\/Y\.md\.md'\?/);
      await expect(env.client.readResource({ uri: `${NOTE_URI_PREFIX}T/Y.md` })).rejects.toThrow(/not found/i);
      expect(await callError('read_note', { path: 'Areas/AGENTS.md' })).toMatch(/^Note 'Areas\/AGENTS\.md' not found/);
      expect(fs.readFileSync(doubled, 'utf8')).toBe('doubled\n');
      expect(fs.existsSync(nodePath.join(env.dir, 'T/Moved.md'))).toBe(false);
      // The note is still reached by its own name, with or without the last `.md`.
      for (const path of ['T/Y.md.md', 'T/Y.md.md'.toUpperCase()]) expect((await call('read_note', { path })).path).toBe('T/Y.md.md');
      // A move onto `T/Y.md` is a new note beside it, not the doubled one.
      await call('create_note', { path: 'T/Source', content: 'source\n' });
      expect((await call('move_note', { path: 'T/Source', to: 'T/Y.md' })).path).toBe('T/Y.md');
      expect((await call('read_note', { path: 'T/Y.md' })).path).toBe('T/Y.md');
      expect(fs.readFileSync(doubled, 'utf8')).toBe('doubled\n');
    });

    it('a path with outer spaces names the note of that exact name when one exists: a write never lands on the trimmed name', async () => {
      const spaced = nodePath.join(env.dir, 'Inbox .md');
      // The user's own note (the tools refuse to create a name ending in a space, which some disks drop).
      await env.booted.app.vault.create('Inbox .md', 'Spaced inbox\n');
      const before = inbox();
      for (const path of ['Inbox ', 'Inbox .md', 'path:Inbox .md']) expect((await call('read_note', { path })).path).toBe('Inbox .md');
      expect((await call('read_notes', { paths: ['Inbox '] })).notes.map((n: Json) => n.path)).toEqual(['Inbox .md']);
      expect((await call('append_note', { path: 'Inbox ', content: 'appended' })).path).toBe('Inbox .md');
      expect((await call('set_properties', { path: 'Inbox ', properties: { spaced: true } })).path).toBe('Inbox .md');
      expect(fs.readFileSync(spaced, 'utf8')).toContain('appended');
      expect(inbox()).toBe(before);
      // Without a note of the spaced name, outer spaces are dropped as before: 'Inbox ' is Inbox.md.
      await call('delete_note', { path: 'Inbox .md', confirm: true });
      for (const path of ['Inbox ', ' Inbox.md', 'Inbox.md\n']) expect((await call('read_note', { path })).path).toBe('Inbox.md');
      expect(inbox()).toBe(before);
    });

    it('a note moved to a path ending in / is refused with the whole path to give, never renamed to <folder>.md', async () => {
      const text = await callError('move_note', { path: 'Ideas', to: 'Archive/' });
      expect(text).toBe(
        "'Archive/' names the folder 'Archive' (a path ending in '/', '/.' or '/..' names a folder); give the note's whole new path, such as 'Archive/Ideas.md'.",
      );
      expect(fs.existsSync(nodePath.join(env.dir, 'Archive.md'))).toBe(false);
      expect(fs.existsSync(nodePath.join(env.dir, 'Ideas.md'))).toBe(true);
      expect(await callError('create_note', { path: 'New%2F', content: 'x' })).toMatch(
        /^'New%2F' names the folder 'New' \(a path ending in/,
      );
    });

    // Session 40's newcomer: 'Test/..' was said to "end with '/'", and move_note suggested 'Test/../Mover.md' (the vault root's
    // Mover.md). The answer names the folder the path names, and the suggestion is a path in it.
    it("a path ending in '/.' or '/..' is refused naming the folder it names, and move_note suggests a path inside it", async () => {
      expect(await callError('create_note', { path: 'Projects/..', content: 'x' })).toBe(
        "'Projects/..' names the vault root (a path ending in '/', '/.' or '/..' names a folder); give a note path such as 'Folder/Note.md', or call create_folder.",
      );
      expect(await callError('create_note', { path: 'Projects/Alpha/.', content: 'x' })).toMatch(
        /^'Projects\/Alpha\/\.' names the folder 'Projects\/Alpha' /,
      );
      expect(await callError('move_note', { path: 'Ideas', to: 'Projects/Alpha/..' })).toBe(
        "'Projects/Alpha/..' names the folder 'Projects' (a path ending in '/', '/.' or '/..' names a folder); give the note's whole new path, such as 'Projects/Ideas.md'.",
      );
      expect(await callError('move_note', { path: 'Ideas', to: 'Projects/..' })).toMatch(/names the vault root .* such as 'Ideas\.md'\.$/);
      expect(fs.existsSync(nodePath.join(env.dir, 'Ideas.md'))).toBe(true);
    });

    it('a folder still moves and lists with a trailing slash', async () => {
      expect((await call('list_notes', { folder: 'Projects/' })).notes.length).toBeGreaterThan(0);
      expect((await call('create_folder', { path: 'Scratch/' })).path).toBe('Scratch');
      expect((await call('move_note', { path: 'Scratch/', to: 'Scratch2/' })).path).toBe('Scratch2');
    });
  });
});

// Session 40's newcomer: delete_note on a folder answered as read_note does ("call list_notes ... to see its notes"),
// which does not say that a folder cannot be deleted. Both key modes now say so, and the folder is untouched.
describe.each(['force', 'propose'] as const)('delete_note on a folder, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('says that only notes are deleted, with or without the trailing slash, and deletes nothing', async () => {
    for (const path of ['Projects', 'Projects/']) {
      expect(await env.callError('delete_note', { path, confirm: true })).toBe(
        `'${path}' is a folder; delete_note deletes notes only, so delete its notes one by one.`,
      );
    }
    expect(fs.existsSync(nodePath.join(env.dir, 'Projects', 'Alpha', 'Budget.md'))).toBe(true);
    // A note beside it is still deleted (force) or staged (propose) as usual.
    expect((await env.call('delete_note', { path: 'Ideas', confirm: true })).status).toBe(mode === 'force' ? 'applied' : 'pending');
  });
});

// Session 40's newcomer: move_note to 'Archive', where a folder 'Archive/' is, made 'Archive.md' beside it with no word of it;
// session 43's newcomer: the remark came after the fact, with every link to the note already renamed 'Archive'. Refused now.
describe.each(['force', 'propose'] as const)('move_note to the name of a folder, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it("is refused naming the path into the folder and the note beside it; '.md' given, or no folder there, moves", async () => {
    expect(await env.callError('move_note', { path: 'Ideas', to: 'Archive' })).toBe(
      "'Archive' is a folder: to move the note into it, give 'Archive/Ideas.md'; for a note named 'Archive.md' beside it, give 'Archive.md'. Nothing was moved.",
    );
    expect(fs.existsSync(nodePath.join(env.dir, 'Ideas.md'))).toBe(true);
    expect(await env.callError('move_note', { path: 'Ideas', to: 'archive' })).toMatch(
      /^'Archive' is a folder: .* give 'Archive\/Ideas\.md'/,
    );
    const beside = await env.call('move_note', { path: 'Ideas', to: 'Archive.md' });
    expect(beside[mode === 'force' ? 'path' : 'to']).toBe('Archive.md');
    expect(beside.note).toBeUndefined();
    expect((await env.call('move_note', { path: 'Home', to: 'Nowhere/Home' })).note).toBeUndefined();
  });
});

// Session 42's newcomer: a page after a write repeated two notes and missed the new ones, with only `total` moving.
describe('search paging across a write', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('a page whose matches changed since the previous one says so; an unchanged one says nothing', async () => {
    const first = await env.call('search', { query: 'path:.md', mode: 'lexical', limit: 5 });
    const second = await env.call('search', { query: 'path:.md', mode: 'lexical', limit: 5, cursor: first.next_cursor });
    expect(second.note).toBeUndefined();
    await env.call('create_note', { path: 'AAA first.md', content: 'x\n' });
    await env.call('create_note', { path: 'AAB second.md', content: 'y\n' });
    const third = await env.call('search', { query: 'path:.md', mode: 'lexical', limit: 5, cursor: second.next_cursor });
    expect(third.total).toBe(first.total + 2);
    expect(third.note).toBe(
      `The matches changed since the previous page (${first.total} then, ${first.total + 2} now: notes were written meanwhile), ` +
        'so this page may repeat or skip some; search again without a cursor for a fresh list.',
    );
  });
});

// Session 43: `[tag:project]` (a property no note has) answered "nothing found" with no word why; query_notes said so.
describe('search for a property no readable note has', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { roots: ['Projects'] });

  it('names the property and a close spelling the notes have; a property that is there, or only excluded, gets no remark', async () => {
    const tag = await env.call('search', { query: '[tag:project]', mode: 'lexical' });
    expect(tag.total).toBe(0);
    expect(tag.note).toBe(
      "No note you can read has the property 'tag' (names ignore case); check the spelling: the notes have 'tags'. " +
        'For tags, tag:name finds the notes tagged #name, inline ones too.',
    );
    const typo = await env.call('search', { query: '[staus:active] OR [nope:>3]', mode: 'lexical' });
    expect(typo.note).toBe(
      "No note you can read has the properties 'staus', 'nope' (names ignore case); check the spelling: the notes have 'status'.",
    );
    // A property the notes have, matched by no value: nothing to say about its name.
    const value = await env.call('search', { query: '[status:zzzz]', mode: 'lexical' });
    expect(value.total).toBe(0);
    expect(value.note).toBeUndefined();
    // Only a property the query needs: one excluded by '-' is not why nothing matched.
    expect((await env.call('search', { query: '-[nope] [status:zzzz]', mode: 'lexical' })).note).toBeUndefined();
    // In the default (hybrid) mode the remark comes before the fallback's note.
    expect((await env.call('search', { query: '[tag:project]' })).note).toMatch(
      /^No note you can read has the property 'tag' .* lexical results only\.$/,
    );
  });

  it("a property only notes outside the key's roots have is absent for that key, and never suggested", async () => {
    // loaves_baked is a property of Reference/Sourdough handbook.md only, outside the key's roots.
    const outside = await env.call('search', { query: '[loaves_baked:>1]', mode: 'lexical' });
    expect(outside.total).toBe(0);
    expect(outside.note).toBe(
      "No note you can read has the property 'loaves_baked' (names ignore case); check the spelling: list_notes shows each note's frontmatter.",
    );
    expect((await env.call('search', { query: '[loaves_bakd:>1]', mode: 'lexical' })).note).not.toMatch(/loaves_baked/);
  });
});

// Session 43's newcomer: create_note 'Scratch/img.png' made the note 'Scratch/img.png.md' with no word of it.
describe.each(['force', 'propose'] as const)('a note path typed with an attachment file type, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it("create_note and move_note say the note is Markdown named after it; a dotted name or one ending in '.md' gets no remark", async () => {
    const image = await env.call('create_note', { path: 'Scratch/img.png', content: 'x\n' });
    expect(image.path).toBe('Scratch/img.png.md');
    expect(image.note).toBe(
      "'Scratch/img.png' ends in '.png', the type of a file that is no note: this is the note " +
        "'Scratch/img.png.md' (Markdown text). Vault MCP writes notes only, not images, PDFs, canvases or other files.",
    );
    const dotted = await env.call('create_note', { path: 'Scratch/Release 1.2', content: 'y\n' });
    expect(dotted.note).toBeUndefined();
    expect((await env.call('create_note', { path: 'Scratch/paper.pdf.md', content: 'z\n' })).note).toBeUndefined();
    expect((await env.call('create_note', { path: 'Scratch/file.txt', content: 't\n' })).note).toMatch(
      /^'Scratch\/file\.txt' ends in '\.txt'/,
    );
    const moved = await env.call('move_note', { path: 'Inbox', to: 'Scratch/Board.Canvas' });
    expect(moved[mode === 'force' ? 'path' : 'to']).toBe('Scratch/Board.Canvas.md');
    expect(moved.note).toMatch(/^'Scratch\/Board\.Canvas' ends in '\.Canvas', the type of a file that is no note/);
  });
});

// Session 43's newcomer: append_note wrote a NUL byte and terminal escapes into a note without a word.
describe.each(['force', 'propose'] as const)('control characters in the text a write puts into a note, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('a NUL is refused on every route that writes text, nothing written; other controls are written with a remark', async () => {
    const before = fs.readFileSync(nodePath.join(env.dir, 'Inbox.md'), 'utf8');
    const nul = /^content holds a NUL character \(U\+0000\) at character 5: git, grep and many editors .* nothing was written\.$/;
    expect(await env.callError('append_note', { path: 'Inbox', content: 'nul \u0000 byte' })).toMatch(nul);
    expect(await env.callError('create_note', { path: 'Scratch/Nul', content: 'abcd\u0000' })).toMatch(nul);
    expect(await env.callError('edit_note', { path: 'Inbox', heading: 'Inbox', op: 'append_within', content: 'abcd\u0000' })).toMatch(nul);
    expect(await env.callError('write_note', { path: 'Inbox', body: 'abcd\u0000' })).toMatch(/^body holds a NUL character/);
    expect(fs.readFileSync(nodePath.join(env.dir, 'Inbox.md'), 'utf8')).toBe(before);
    expect(fs.existsSync(nodePath.join(env.dir, 'Scratch', 'Nul.md'))).toBe(false);
    const escaped = await env.call('append_note', { path: 'Inbox', content: 'esc \u001b[31mred\u001b[0m and bell \u0007\n' });
    // (A propose key's second append at the note's end is told that it clashes with its first: both insert there.)
    expect(escaped.note).toMatch(
      /^content holds 3 control characters \(U\+001B, U\+0007\), written as given: no editor shows them, so the user will not see them in the note\.( 'Inbox\.md' also has your pending proposal .*)?$/,
    );
    // Tabs, line breaks and a form feed are text.
    expect((await env.call('append_note', { path: 'Inbox', content: 'a\tb\r\nc\fd\n' })).note ?? '').not.toMatch(/control character/);
  });
});

// Session 43's newcomer: append_note of "   " or "\n" was applied (only "" was refused), adding lines with no text.
describe.each(['force', 'propose'] as const)('append_note of whitespace alone, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('is refused naming what it held, nothing written or staged', async () => {
    const before = fs.readFileSync(nodePath.join(env.dir, 'Inbox.md'), 'utf8');
    const spelled: Array<[string, string]> = [
      ['   ', '   '],
      ['\n', '\\n'],
      [' \r\n\t ', ' \\r\\n\\t '],
      ['\u200b', '<U+200B>'],
      ['\u202e\u00a0', '<U+202E><U+00A0>'],
    ];
    for (const [content, shown] of spelled)
      expect(await env.callError('append_note', { path: 'Inbox', content })).toBe(
        `content holds only whitespace or characters drawn as nothing ("${shown}"), so appending it to 'Inbox.md' adds no text; pass the text to add (line breaks before it go in the same content).`,
      );
    expect(fs.readFileSync(nodePath.join(env.dir, 'Inbox.md'), 'utf8')).toBe(before);
    expect((await env.call('proposal_status', {})).proposals ?? []).toEqual([]);
    // Text after blank lines is appended as given.
    expect((await env.call('append_note', { path: 'Inbox', content: '\n\nLater.' })).status).toBe(mode === 'force' ? 'applied' : 'pending');
  });
});

// Session 43's newcomer: query_notes `budget_eur > "abc"` found nothing, unsaid: 48000 was ordered as text against "abc".
describe('query_notes ordering a number by text', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('says the numbers were compared as text and how to compare numbers', async () => {
    const out = await env.call('query_notes', { query: 'WHERE budget_eur > "abc"' });
    expect(out.total).toBe(0);
    expect(out.note).toBe(
      "'budget_eur' > 'abc' ordered text: 1 note holds a number or date there (such as '48000'), and 'abc' is neither, " +
        'so > compared them as text; to compare numbers or dates, give one (budget_eur > 48000).',
    );
    // Text ordered by text, and numbers by a number, say nothing.
    expect((await env.call('query_notes', { query: 'WHERE title < "M"' })).note).toBeUndefined();
    expect((await env.call('query_notes', { query: 'WHERE budget_eur >= 1000' })).total).toBe(1);
    expect((await env.call('query_notes', { query: 'WHERE budget_eur >= 1000' })).note).toBeUndefined();
  });
});

// Session 43's newcomer: search `Ana's` reported `missing_terms: ["s"]` on every note naming Ana without a possessive.
describe("search for a possessive (Ana's)", () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it.each(["Ana's budget", 'Ana\u2019s budget'])('%s ranks by ana and budget, the possessive s no term a note must hold', async (query) => {
    const out = await env.call('search', { query, limit: 3 });
    expect(out.results[0]).toMatchObject({ path: 'Projects/Alpha/Budget.md', all_terms: true });
    for (const hit of out.results) expect(hit.missing_terms ?? []).not.toContain('s');
    expect(out.results[0].snippet).not.toMatch(/\*\*s\*\*/);
  });
});

// Sessions 39 and 41: an agent that kept a note's path got a bare "not found" after the note was renamed or moved.
describe('a note renamed or moved away from the path an agent gives', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('is named where it is now, through every later move, until it is deleted', async () => {
    await env.call('move_note', { path: 'Inbox.md', to: 'Archive/Inbox 2026.md' });
    const moved = "it was renamed or moved to 'Archive/Inbox 2026.md'; give that path.";
    expect(await env.callError('read_note', { path: 'Inbox.md' })).toBe(`Note 'Inbox.md' not found: ${moved}`);
    expect(await env.callError('append_note', { path: 'inbox', content: 'x' })).toBe(`Note 'inbox' not found: ${moved}`);
    await env.call('move_note', { path: 'Archive/Inbox 2026.md', to: 'Archive/Old inbox.md' });
    expect(await env.callError('read_note', { path: 'Inbox.md' })).toBe(
      "Note 'Inbox.md' not found: it was renamed or moved to 'Archive/Old inbox.md'; give that path.",
    );
    await env.call('delete_note', { path: 'Archive/Old inbox.md', confirm: true });
    expect(await env.callError('read_note', { path: 'Inbox.md' })).not.toMatch(/renamed or moved/);
  });
});

// Session 43's newcomer: proposal_status {activity: true} answered 7 MB after two creates of one long line each.
describe("an agent's activity diff of a note of one long line", () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('cuts the line at 240 characters and says how many were left out', async () => {
    await env.call('create_note', { path: 'Scratch/Blob', content: 'x'.repeat(200_000) });
    const mine = await env.call('proposal_status', { activity: true });
    expect(mine.activity[0].diff).toBe(`@@ Line 1\n+${'x'.repeat(240)}… (${200_000 - 240} more characters)`);
    expect(JSON.stringify(mine).length).toBeLessThan(5_000);
  });
});

// Session 43's newcomer: edit_note's heading replace took '### Step 1' and '### Step 2' with '## Plan', unsaid.
describe.each(['force', 'propose'] as const)('edit_note replacing a section that holds subsections, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('names the subsections that went with it; those the new content writes again, or none, get no remark', async () => {
    const content = '# S\n\n## Plan\n\nIntro.\n\n### Step 1\n\nDo X.\n\n### Step 2\n\nDo Y.\n\n## Notes\n\nN.\n';
    await env.call('create_note', { path: 'Scratch/S', content });
    if (mode === 'propose') await env.booted.plugin.review.accept((await env.call('proposal_status', {})).proposals[0].id);
    const replaced = await env.call('edit_note', { path: 'Scratch/S', heading: 'Plan', op: 'replace', content: 'New intro.' });
    expect(replaced.note).toBe(
      "The section 'Plan' held the subsections 'Step 1', 'Step 2', which this replace removed with it (a section runs to the " +
        'next heading of its level or higher). To change only the text above them, replace that text by anchor; if they were ' +
        'meant to stay, ask the user to revert this change (Agent activity).',
    );
    const kept = await env.call('edit_note', {
      path: 'Scratch/S',
      heading: 'Plan',
      op: 'replace',
      content: 'New intro.\n\n### Step 1\n\nDo X.\n\n###   Step 2  ##\n\nDo Y.',
    });
    // (A propose key is told that its replaces of one section clash: only their subsection remark is tested here.)
    expect(kept.note ?? '').not.toMatch(/held the subsection/);
    const notes = await env.call('edit_note', { path: 'Scratch/S', heading: 'Notes', op: 'replace', content: 'M.' });
    expect(notes.note ?? '').not.toMatch(/held the subsection/);
  });
});

// Session 43's newcomer: `status:active` ranked AGENTS.md first as two plain words, with no word that search has no such operator.
describe('search words written like an operator search does not have', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('the page says they were plain words and what to write; an operator, a link or a time gets no remark', async () => {
    const status = await env.call('search', { query: 'status:active', mode: 'lexical' });
    expect(status.note).toMatch(/^'status:active' was searched as plain words: .* Write \[status:active\] for a property instead\.$/);
    expect((await env.call('search', { query: '-tags:project alpha', mode: 'lexical' })).note).toMatch(/Write tag:project instead\.$/);
    for (const query of ['tag:project', 'see https://example.com', 'meeting at 10:30', '"status:active"']) {
      expect((await env.call('search', { query, mode: 'lexical' })).note).toBeUndefined();
    }
  });
});

// Session 43's newcomer: two set_properties proposals on one note staged side by side; accepting the first made the second
// stale, which the agent learned only by polling.
describe('a proposal that cannot be accepted together with the same key’s earlier one', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'propose' });

  it('says so when staged, naming the earlier proposal; a change elsewhere in the note, or another key’s, says nothing', async () => {
    const first = await env.call('set_properties', { path: 'Home', properties: { status: 'x' } });
    expect(first.note).toBeUndefined();
    const second = await env.call('set_properties', { path: 'Home', properties: { rating: 5 } });
    expect(second.note).toBe(
      `'Home.md' also has your pending proposal ${first.proposal_id} changing the same lines (or the whole note): once the user ` +
        'accepts one, the other no longer applies (stale). To make both changes, stage them as one write, or wait for the ' +
        "user's decision on the earlier one (proposal_status) and then stage the other on the note as it is.",
    );
    // The note's last line is far from its frontmatter: both can be accepted.
    expect((await env.call('append_note', { path: 'Home', content: '- later\n' })).note).toBeUndefined();
    // Two appends at the very end both land, in the order accepted: no clash.
    expect((await env.call('append_note', { path: 'Home', content: '- later still\n' })).note).toBeUndefined();
    const created = await env.call('create_note', { path: 'Scratch/Twice', content: 'a\n' });
    expect((await env.call('create_note', { path: 'Scratch/Twice', content: 'b\n' })).note).toBe(
      `'Scratch/Twice.md' is also the new path of your pending proposal ${created.proposal_id}: once the user accepts one, ` +
        'the path is taken and the other no longer applies (stale). Give one of them another path, or stage it once.',
    );
    // Another key's proposals on the note are not named (nor counted) to this key, nor this key's to it.
    const other = await env.booted.plugin.keyRing.mint({ label: 'Cursor', mode: 'propose' });
    const cursor = await connectClient(env.booted.url, other.token);
    try {
      const theirs = (await cursor.callTool({ name: 'set_properties', arguments: { path: 'Home', properties: { mood: 3 } } }))
        .structuredContent as { note?: string; proposal_id: string };
      expect(theirs.note).toBeUndefined();
      const mine = await env.call('set_properties', { path: 'Home', properties: { owner: 'me' } });
      expect(mine.note).toMatch(
        new RegExp(`^'Home\\.md' also has your pending proposals ${first.proposal_id}, ${second.proposal_id} changing`),
      );
      expect(mine.note).not.toContain(theirs.proposal_id);
    } finally {
      await cursor.close();
    }
  });
});

// Session 44's newcomer: two moves of one note, or a move and an edit, were told they exclude each other (both apply);
// a create at a path differing in case, a move onto a path the key's create takes, and a folder a note's create makes
// were told nothing (the second went stale).
describe('what a propose key is told of its own proposals that meet at a path', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'propose' });

  it('two moves of one note apply one after the other; a move and an edit both apply', async () => {
    const first = await env.call('move_note', { path: 'Ideas', to: 'Archive/Ideas' });
    const second = await env.call('move_note', { path: 'Ideas', to: 'Areas/Ideas' });
    expect(second.note).toBe(
      `'Ideas.md' also has your pending proposal ${first.proposal_id} moving it: if the user accepts both, the note is moved twice, ` +
        "the later move starting from where the first put it. To offer one place, wait for the user's decision on the earlier one (proposal_status).",
    );
    expect((await env.call('append_note', { path: 'Ideas', content: 'One more.' })).note).toBeUndefined();
  });

  it('a create at a path differing in case, and a move onto a path the key creates, take one path', async () => {
    const created = await env.call('create_note', { path: 'Scratch/Foo', content: '1' });
    const taken = (id: string, path: string) =>
      `'${path}' is also the new path of your pending proposal ${id}: once the user accepts one, the path is taken and the other ` +
      'no longer applies (stale). Give one of them another path, or stage it once.';
    expect((await env.call('create_note', { path: 'scratch/FOO', content: '2' })).note).toBe(taken(created.proposal_id, 'scratch/FOO.md'));
    const bar = await env.call('create_note', { path: 'Scratch/Bar', content: 'bar' });
    expect((await env.call('move_note', { path: 'Inbox', to: 'Scratch/bar' })).note).toBe(taken(bar.proposal_id, 'Scratch/bar.md'));
  });

  it('a folder and a note created into it: the note alone makes the folder', async () => {
    const note = await env.call('create_note', { path: 'Scratch/Baz/Q', content: 'q' });
    const folder = await env.call('create_folder', { path: 'Scratch/Baz' });
    expect(folder.note).toBe(
      `A note your pending proposal ${note.proposal_id} creates or moves into 'Scratch/Baz' makes that folder when accepted, and this ` +
        "proposal then no longer applies (stale): the note's proposal alone is enough.",
    );
    expect((await env.call('create_note', { path: 'Scratch/Other/R', content: 'r' })).note).toBeUndefined();
  });
});

// Session 44's newcomer: write_note {path: "[[T#B]]"} replaced the whole note T, delete_note deleted it, append_note
// appended at its end: the heading part of a pasted link was dropped unsaid.
describe.each(['force', 'propose'] as const)('a write given a pasted link to part of a note, %s key', (mode) => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode });

  it('is refused on every write tool, naming the note to give and how to change only that part; nothing written', async () => {
    const before = fs.readFileSync(nodePath.join(env.dir, 'Home.md'), 'utf8');
    const heading = (tool: string) =>
      `'[[Home#Areas]]' is a link to the heading 'Areas', but ${tool} changes the whole note; give the note alone ('Home'), ` +
      "and to change only that section use edit_note with heading 'Areas'. Nothing was written.";
    expect(await env.callError('write_note', { path: '[[Home#Areas]]', body: 'new\n' })).toBe(heading('write_note'));
    expect(await env.callError('delete_note', { path: '[[Home#Areas]]', confirm: true })).toBe(heading('delete_note'));
    expect(await env.callError('append_note', { path: '[[Home#Areas]]', content: 'x' })).toBe(heading('append_note'));
    expect(await env.callError('set_properties', { path: '[[Home#Areas]]', properties: { a: 1 } })).toBe(heading('set_properties'));
    expect(await env.callError('move_note', { path: '[[Home#Areas]]', to: 'Archive/Home' })).toBe(heading('move_note'));
    expect(await env.callError('edit_note', { path: '[[Home#Areas]]', heading: 'Areas', op: 'append_within', content: 'x' })).toBe(
      "'[[Home#Areas]]' is a link to the heading 'Areas'; give edit_note's path as the note alone ('Home') and the heading in heading ('Areas'). Nothing was written.",
    );
    expect(await env.callError('edit_note', { path: '[[Home#^ab12]]', anchor: 'x', op: 'replace', content: 'y' })).toBe(
      "'[[Home#^ab12]]' is a link to the block ^ab12; give edit_note's path as the note alone ('Home') and the block as an anchor " +
        'copied from read_note. Nothing was written.',
    );
    expect(await env.callError('create_note', { path: '[[New Note]]', content: 'x' })).toBe(
      "'[[New Note]]' is a link, not a path: the brackets would become part of the name; give the path alone ('New Note'). Nothing was written.",
    );
    expect(await env.callError('move_note', { path: 'Inbox', to: '[[Archive/Inbox]]' })).toMatch(
      /^'\[\[Archive\/Inbox\]\]' is a link, not a path/,
    );
    expect(fs.readFileSync(nodePath.join(env.dir, 'Home.md'), 'utf8')).toBe(before);
    expect((await env.call('proposal_status', {})).proposals ?? []).toEqual([]);
    // A link to a whole note names it, as reads take it.
    expect((await env.call('append_note', { path: '[[Home]]', content: 'Later.' })).path).toBe('Home.md');
  });

  it('read_notes says it read a linked heading or block whole, naming read_note for the part', async () => {
    const out = await env.call('read_notes', { paths: ['[[Home#Areas]]', '[[Inbox]]'] });
    expect(out.notes.map((n: Json) => n.path)).toEqual(['Home.md', 'Inbox.md']);
    expect(out.note).toContain(
      "read_notes reads whole notes, so '[[Home#Areas]]' was read whole; for the part a link names, call read_note with that link (a heading is read as its section).",
    );
  });
});

// Session 44's newcomer: a date set_properties stored as given (2026-02-30) could not be found: query_notes said to write
// YYYY-MM-DD, which it was, and not that quoting matches the text.
describe('a comparison with a date that is no calendar day', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('says to quote it to match the text, and the quoted form finds the note', async () => {
    await env.call('set_properties', { path: 'Ideas', properties: { due: '2026-02-30' } });
    const refused = await env.call('query_notes', { query: 'WHERE due is 2026-02-30' });
    expect(refused.error).toBe(
      '\'2026-02-30\' is not a calendar date; write a real day as YYYY-MM-DD, e.g. 2026-01-15, or quote it ("2026-02-30") to match it as text, as a note may hold it.',
    );
    expect((await env.call('query_notes', { query: 'WHERE due is "2026-02-30"' })).rows).toEqual([['Ideas.md', '2026-02-30']]);
    expect(await env.callError('search', { query: '[due:=2026-02-30]' })).toMatch(
      /or quote the value \(\[due:="2026-02-30"\]\) to match it as text/,
    );
    for (const query of ['[due:="2026-02-30"]', '[due:2026-02-30]'])
      expect((await env.call('search', { query })).results.map((r: Json) => r.path)).toEqual(['Ideas.md']);
  });
});

// Session 44's newcomer: a retried anchor edit was told only to copy the anchor from read_note, not that it was made.
describe('an anchor edit sent again after it was made', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('says the content is in the note already', async () => {
    const edit = { path: 'Inbox', anchor: 'Renew the library card', op: 'replace', content: 'Renew the library card online' };
    expect((await env.call('edit_note', edit)).status).toBe('applied');
    expect(await env.callError('edit_note', { ...edit, anchor: 'Renew the library card\n' })).toBe(
      "The anchor was not found in 'Inbox.md'. Text differing only in case or spacing is on line 9; copy it exactly from read_note. " +
        'The content this edit would put in is in the note already: an earlier call may have made this edit; read_note to check before sending it again.',
    );
    // Content found by chance (under 4 characters) gives no such hint.
    expect(await env.callError('edit_note', { ...edit, anchor: 'No such text', content: 'the' })).not.toMatch(/earlier call/);
  });
});

// Session 44's newcomer: read_note section "#Agenda" (the heading as a link writes it) was not found.
describe('a heading given as a link writes it', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('reads that heading', async () => {
    const asLink = await env.call('read_note', { path: 'Home', section: '#Areas' });
    expect(asLink.body).toBe((await env.call('read_note', { path: 'Home', section: 'Areas' })).body);
    expect(await env.callError('read_note', { path: 'Home', section: '#Nowhere' })).toMatch(/^Heading 'Nowhere' not found in 'Home\.md'/);
  });
});

// Session 44's newcomer: query_notes `s > 5` returned a note holding "abc", `d > 2026-03-15` one holding "March 3": text was
// ordered against a number or a date as text (search's [s:>5] leaves such values out).
describe('query_notes ordering text against a number or a date', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it('leaves out values that are neither a number nor a date', async () => {
    const notes: Record<string, string> = { Text: 'abc', Words: 'March 3', Comma: '1,000', Ten: '10', Day: '2026-04-01' };
    for (const [name, value] of Object.entries(notes))
      await env.call('create_note', { path: `Scratch/${name}`, content: `---\nv: ${value}\n---\n` });
    const paths = async (where: string) =>
      ((await env.call('query_notes', { query: `WHERE ${where} SORT file.path` })).rows as Json[][]).map((row) => row[0]);
    expect(await paths('v > 5')).toEqual(['Scratch/Ten.md']);
    expect(await paths('v < 2')).toEqual([]);
    expect(await paths('v > 2026-03-15')).toEqual(['Scratch/Day.md']);
    expect(await paths('v < 2026-06-01')).toEqual(['Scratch/Day.md']);
    // Text ordered by text still orders every value as text.
    expect(await paths('v > "b"')).toEqual(['Scratch/Words.md']);
  });
});

// Session 43's newcomer: read_note 'H\u200Bome' answered "Note 'H(U+200B)ome' not found" with the character itself, which reads as "Home not found".
describe('an input quoted back with a character drawn as nothing', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('is written out in every quote of it, as create_note already wrote out a name', async () => {
    expect(await env.callError('read_note', { path: 'H\u200bome' })).toMatch(/^Note 'H<U\+200B>ome' not found\./);
    expect(await env.callError('read_note', { path: 'Home', section: 'Nope\u202e' })).toMatch(/'Nope<U\+202E>'/);
  });
});

// Session 43's newcomer: a 2001-character query_notes answered "query: Too big: expected string to have <=2000 characters".
describe('an argument over or under its size', () => {
  const env = writeEnvPerBlock(DEMO_VAULT);

  it('is refused in a sentence saying what to do, for a text and for a list', async () => {
    expect(await env.callError('query_notes', { query: 'x'.repeat(2001) })).toBe(
      'Invalid arguments for query_notes: query: is too long: at most 2000 characters are taken; shorten it.',
    );
    expect(await env.callError('read_notes', { paths: Array(21).fill('Home') })).toBe(
      'Invalid arguments for read_notes: paths: has too many items: at most 20; split them over several calls.',
    );
    expect(await env.callError('read_notes', { paths: [] })).toBe(
      'Invalid arguments for read_notes: paths: is empty; give at least one item.',
    );
  });
});

// Session 43's second newcomer: a top-level heading '1.1' (also the outline path of its child) was told to pass
// "Parent/1.1", which has no parent and was then not found.
describe('a heading text that is also another heading’s outline path', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { mode: 'force' });

  it("names the heading's own outline path, which then reads it", async () => {
    await env.call('create_note', { path: 'Scratch/h', content: '# 1.1\n\ntext\n\n## Child\n\nmore\n' });
    expect(await env.callError('read_note', { path: 'Scratch/h', section: '1.1' })).toBe(
      `'1.1' in 'Scratch/h.md' is both the outline path of 1.1 "Child" and the heading text of 1 "1.1"; ` +
        `pass "1", the outline path of the heading '1.1', or the heading text 'Child' for the other.`,
    );
    expect((await env.call('read_note', { path: 'Scratch/h', section: '1' })).section).toMatchObject({ path: '1', heading: '1.1' });
  });
});

// Session 43's second newcomer: resources/read of 'vault-mcp://note/Home.md/' said only "not found", while read_note names the note.
describe('a note resource URI ending in /', () => {
  const env = writeEnvPerBlock(DEMO_VAULT, { roots: ['Projects'] });

  it('names the note to read when the key may read it; a folder, a private note or one outside the roots stays not found', async () => {
    await expect(env.client.readResource({ uri: `${NOTE_URI_PREFIX}Projects/Alpha/Alpha%20overview.md/` })).rejects.toThrow(
      `Resource not found: '${NOTE_URI_PREFIX}Projects/Alpha/Alpha%20overview.md/' ends in '/', which names a folder; for the note, give '${NOTE_URI_PREFIX}Projects/Alpha/Alpha%20overview.md'.`,
    );
    for (const path of ['Projects/', 'Home.md/', '_private/Passwords%20hint.md/']) {
      await expect(env.client.readResource({ uri: `${NOTE_URI_PREFIX}${path}` })).rejects.toThrow(
        `Resource not found: no note this key may read is at '${NOTE_URI_PREFIX}${path}'; list notes with resources/list.`,
      );
    }
  });
});
