import { checkKeyRoot, checkKeyRoots, keyRootsNotice, keyRootsRefusal } from '../../src/settings/key-roots';

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
