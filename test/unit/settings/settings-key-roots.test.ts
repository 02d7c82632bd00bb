import {
  checkKeyRoot,
  checkKeyRoots,
  formatRootList,
  keyRootsNotice,
  keyRootsRefusal,
  listSpelling,
  pickListedRoot,
  splitRootList,
  untrimmedRoot,
} from '../../../src/settings/key-roots';

/** The one roots rule every route of a key's roots goes through (src/settings/key-roots.ts). */
describe('checkKeyRoot: a root is a folder relative to the vault, non-empty and inside it', () => {
  it.each([
    ['Projects', 'Projects'],
    ['Projects/', 'Projects'],
    ['./Projects/Alpha', 'Projects/Alpha'],
    ['Areas\\Home', 'Areas/Home'],
    ['Projects//Alpha/.', 'Projects/Alpha'],
    ['Projects/../Journal', 'Journal'],
    ['Cafe\u0301', 'Café'],
    ['Two\u00a0words', 'Two words'],
    [' Spaced ', ' Spaced '],
  ])('reads %j as %j', (given, root) => {
    expect(checkKeyRoot(given)).toEqual({ ok: true, root });
  });

  it.each([
    ['', 'empty', /is empty, which would be the whole vault/],
    ['   ', 'empty', /is empty/],
    ['.', 'vault', /names the vault itself, which would be the whole vault/],
    ['./', 'vault', /names the vault itself/],
    ['Projects/..', 'vault', /names the vault itself/],
    ['/etc', 'absolute', /is an absolute path/],
    ['\\Users', 'absolute', /is an absolute path/],
    ['C:\\Users', 'absolute', /is an absolute path/],
    ['c:Users', 'absolute', /is an absolute path/],
    ['file:///etc', 'absolute', /is an absolute path/],
    ['../etc', 'escapes', /climbs out of the vault/],
    ['Projects/../../etc', 'escapes', /climbs out of the vault/],
    ['Pro\u0000jects', 'control', /control characters/],
    ['Skills/*', 'wildcard', /holds a wildcard \(\* or \?\), but roots are folder paths, not patterns/],
    ['Notes?', 'wildcard', /not patterns/],
    [5, 'type', /is not text/],
    [null, 'type', /is not text/],
  ])('refuses %j (%s)', (given, fault, reason) => {
    expect(checkKeyRoot(given)).toEqual({ ok: false, fault, reason: expect.stringMatching(reason) });
  });
});

describe('checkKeyRoots', () => {
  it('normalizes a list, dropping duplicates after normalization; an empty list is the whole vault', () => {
    expect(checkKeyRoots(['Projects/', './Projects', 'Journal'])).toEqual({ ok: true, roots: ['Projects', 'Journal'] });
    expect(checkKeyRoots([])).toEqual({ ok: true, roots: [] });
  });
  it('names the first refused root and its place', () => {
    expect(checkKeyRoots(['Projects', '../etc', ''])).toMatchObject({ ok: false, index: 1, given: '../etc', fault: 'escapes' });
  });
});

describe('keyRootsRefusal and keyRootsNotice: saved keys whose roots break the rule', () => {
  it('say which key, which root and what to do; null when the roots pass', () => {
    expect(keyRootsRefusal({ label: 'Claude', roots: ['Projects'] })).toBeNull();
    expect(keyRootsRefusal({ label: 'Claude', roots: ['Projects', ''] })).toBe(
      'Key "Claude" may touch no note: its root "" is empty, which would be the whole vault; fix its roots in Vault MCP settings → Keys ' +
        '(give folders relative to the vault, such as "Projects" or "Journal/2025"; a key with no roots sees the whole vault).',
    );
    expect(keyRootsNotice([{ label: 'A', roots: [] }])).toBeNull();
    expect(
      keyRootsNotice([
        { label: 'A', roots: ['.'] },
        { label: 'B', roots: ['/etc'] },
      ]),
    ).toMatch(
      /^Vault MCP: Key "A" may touch no note: its root "\." names the vault itself.* Key "B" may touch no note: its root "\/etc" is an absolute path/,
    );
  });
});

/** The one rule for a comma-separated roots list (`--roots`, the settings tab's roots field): trimmed, unless the spaces name the folder. */
describe('a roots list: entries trimmed, but never into another folder than the one typed', () => {
  it('splitRootList keeps each entry as typed beside its trimmed form and drops blanks', () => {
    expect(splitRootList('Projects, Journal ,, \u00a0 , Sp ')).toEqual([
      { typed: 'Projects', trimmed: 'Projects' },
      { typed: ' Journal ', trimmed: 'Journal' },
      { typed: ' Sp ', trimmed: 'Sp' },
    ]);
    expect(splitRootList(' , ')).toEqual([]);
    expect(splitRootList('')).toEqual([]);
  });

  it('untrimmedRoot gives the root the spaces make, or null when they make none or break the rule', () => {
    const entry = (typed: string) => ({ typed, trimmed: typed.trim() });
    expect(untrimmedRoot(entry(' Sp '), 'Sp')).toBe(' Sp ');
    // A no-break space is a space in a vault path (Obsidian's normalizePath).
    expect(untrimmedRoot(entry('\u00a0Sp'), 'Sp')).toBe(' Sp');
    expect(untrimmedRoot(entry('Sp'), 'Sp')).toBeNull();
    // A space after the last slash is a folder named " " inside Projects: a second spelling too.
    expect(untrimmedRoot(entry('Projects/ '), 'Projects')).toBe('Projects/ ');
    // What the route refuses or reads away gives no second spelling.
    expect(untrimmedRoot(entry(' Sp '), 'Sp', () => 'Sp')).toBeNull();
    expect(
      untrimmedRoot(entry(' Sp '), 'Sp', () => {
        throw new Error('outside the vault');
      }),
    ).toBeNull();
    expect(untrimmedRoot(entry(' \u0001Sp'), '\u0001Sp')).toBeNull();
  });

  it('pickListedRoot: the trimmed folder, else the typed one, and a refusal naming both when both exist', () => {
    expect(pickListedRoot({ root: 'Sp', folder: 'Sp' }, null)).toEqual({ ok: true, root: 'Sp' });
    expect(pickListedRoot({ root: 'projects', folder: 'Projects' }, { root: ' projects', folder: null })).toEqual({
      ok: true,
      root: 'Projects',
    });
    expect(pickListedRoot({ root: 'Sp', folder: null }, { root: ' Sp ', folder: ' Sp ' })).toEqual({ ok: true, root: ' Sp ' });
    // Neither there yet: the trimmed root, as a root naming nothing is kept as typed.
    expect(pickListedRoot({ root: 'Later', folder: null }, { root: ' Later', folder: null })).toEqual({ ok: true, root: 'Later' });
    expect(pickListedRoot({ root: 'Sp', folder: 'Sp' }, { root: ' Sp ', folder: 'Sp' })).toEqual({ ok: true, root: 'Sp' });
    expect(pickListedRoot({ root: 'Sp', folder: 'Sp' }, { root: ' Sp ', folder: ' Sp ' })).toEqual({
      ok: false,
      reason:
        'names two folders, "Sp" with its outer spaces trimmed and " Sp " as typed; write "Sp" with no space before or after it for the first, ' +
        'or "./ Sp /" for the second ("./" before it and "/" after it keep its spaces)',
    });
  });

  it('listSpelling and formatRootList spell a root with outer spaces so that the list reads it back', () => {
    expect(listSpelling('Projects/Alpha')).toBe('Projects/Alpha');
    expect(listSpelling(' Sp ')).toBe('./ Sp /');
    expect(formatRootList(['Projects', ' Sp ', 'Journal '])).toBe('Projects, ./ Sp /, ./Journal /');
    expect(formatRootList([7, null])).toBe('7, null');
    for (const roots of [
      ['Projects', ' Sp '],
      [' A', 'B ', 'C'],
    ]) {
      const read = splitRootList(formatRootList(roots)).map((entry) => {
        const verdict = checkKeyRoot(entry.trimmed);
        return verdict.ok ? verdict.root : null;
      });
      expect(read).toEqual(roots);
    }
  });
});
