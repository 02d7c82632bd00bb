import type { Vault } from 'obsidian';
import { TFile, TFolder } from '../../../host/index';
import { canonicalPath, findEntry } from '../../../../src/vault/paths/lookup';
import { isWithinRoots, noteAccess, parseAccessValue } from '../../../../src/vault/access/access-rules';
import { frontmatterId, pathOfSyntheticId, syntheticId, unwrapWikilink } from '../../../../src/vault/paths/note-ref';
import {
  assertPathInput,
  decodePercentOnce,
  foldPath,
  isPathInside,
  lexicalVaultPath,
  rootsShown,
  type VaultOnDisk,
} from '../../../../src/vault/paths/paths';
import { Quarantine } from '../../../../src/vault/access/quarantine';
import { codeOf } from '../../../harness/server/tool-errors';

describe('lexicalVaultPath', () => {
  const cafeNfd = 'Cafe\u0301 notes.md';
  test.each([
    ['Projects/Alpha/Budget.md', 'Projects/Alpha/Budget.md'],
    ['/Projects/Alpha/Budget.md', 'Projects/Alpha/Budget.md'],
    ['///Projects//Alpha/', 'Projects/Alpha'],
    ['Projects\\Alpha\\Budget.md', 'Projects/Alpha/Budget.md'],
    ['./Projects/./Alpha/Budget.md', 'Projects/Alpha/Budget.md'],
    ['Projects/Beta/../Alpha/Budget.md', 'Projects/Alpha/Budget.md'],
    // Outer spaces are kept, as Obsidian's normalizePath keeps them (PathSpelling decides when they are dropped).
    ['Inbox .md', 'Inbox .md'],
    ['Inbox ', 'Inbox '],
    [cafeNfd, 'Caf\u00e9 notes.md'],
    ['Reference/Non\u00a0breaking.md', 'Reference/Non breaking.md'],
    ['/', ''],
    ['.', ''],
    ['Projects/..', ''],
  ])('%j → %j', (input, expected) => {
    expect(lexicalVaultPath(input)).toBe(expected);
  });

  test.each([
    ['', 'invalid_argument'],
    ['   ', 'invalid_argument'],
    ['C:\\Users\\me\\vault\\Note.md', 'invalid_argument'],
    ['c:/vault/Note.md', 'invalid_argument'],
    ['\\\\server\\share\\Note.md', 'invalid_argument'],
    ['file:///etc/passwd', 'invalid_argument'],
    ['obsidian://open?vault=x', 'invalid_argument'],
    ['Inbox\u0000.md', 'invalid_argument'],
    ['  Inbox.md\n', 'invalid_argument'],
    ['..', 'forbidden'],
    ['../outside.md', 'forbidden'],
    ['Projects/../../etc/passwd', 'forbidden'],
    ['..\\..\\Windows\\win.ini', 'forbidden'],
  ])('%j is refused with %s', (input, code) => {
    expect(codeOf(() => lexicalVaultPath(input))).toBe(code);
  });

  test('a refusal names what to do', () => {
    expect(() => lexicalVaultPath('../x.md')).toThrow(/leaves the vault; give a path inside the vault/);
  });

  test('a lone UTF-16 surrogate is refused (a file name would get U+FFFD instead); whole characters pass', () => {
    for (const input of ['E/lone\udc00', '\ud83d.md', 'a\ud800b/c.md', 'Inbox/\udfff\ud800'])
      expect(() => lexicalVaultPath(input)).toThrow(/lone UTF-16 surrogate at char \d+ .*send whole characters/);
    expect(lexicalVaultPath('E/😀.md')).toBe('E/😀.md');
    expect(() => assertPathInput('\ud83d')).toThrow(/lone UTF-16 surrogate at char 0/);
    expect(() => assertPathInput('😀')).not.toThrow();
  });

  test('a refusal quotes at most a short, visibly cut excerpt of the path', () => {
    for (const input of [`${'../'.repeat(400)}x`, `C:\\${'d\\'.repeat(400)}`, `${'x'.repeat(1000)}\u0000`]) {
      const message = (() => {
        try {
          lexicalVaultPath(input);
        } catch (err) {
          return (err as Error).message;
        }
        return '';
      })();
      expect(message).toMatch(/…'/);
      expect(message.length).toBeLessThan(250);
    }
  });
});

describe('lexicalVaultPath with the vault on disk: absolute paths as agents write them', () => {
  const posix: VaultOnDisk = {
    folders: ['/home/me/Vault', '/data/real/Vault'],
    caseInsensitive: false,
    hasTopEntry: (name) => ['Projects', 'Inbox.md'].includes(name),
    diskRootHas: (name) => ['home', 'tmp', 'etc', 'data'].includes(name),
  };
  const windows: VaultOnDisk = {
    folders: ['C:\\Users\\me\\Vault'],
    caseInsensitive: true,
    hasTopEntry: () => false,
    diskRootHas: () => false,
  };

  test.each([
    ['/home/me/Vault/Ideas.md', 'Ideas.md'],
    ['/home/me/Vault/Projects/Alpha/plan.md', 'Projects/Alpha/plan.md'],
    ['/data/real/Vault/Ideas.md', 'Ideas.md'],
    ['/home/me/Vault/../Vault/Ideas.md', 'Ideas.md'],
    ['/home/me/other/../Vault/./Ideas.md', 'Ideas.md'],
    ['/home/me/Vault', ''],
    ['/home/me/Vault/', ''],
    ['file:///home/me/Vault/Caf%C3%A9.md', 'Café.md'],
    ['file://localhost/home/me/Vault/Ideas.md', 'Ideas.md'],
    ['/Projects/plan.md', 'Projects/plan.md'],
    ['/Inbox.md', 'Inbox.md'],
    ['/New folder/x.md', 'New folder/x.md'],
    ['Projects/plan.md', 'Projects/plan.md'],
  ])('%s is the vault path %j', (input, expected) => {
    expect(lexicalVaultPath(input, posix)).toBe(expected);
  });

  test.each([
    '/home/me/Other/Ideas.md',
    '/home/me/Vault/../Other/Ideas.md',
    '/home/me/Vault/sub/../../x.md',
    '/home/me/VaultCopy/Ideas.md',
    '/home/me/vault/Ideas.md',
    '/tmp/Vault/Ideas.md',
    '/etc/passwd',
    'file:///etc/passwd',
    'C:\\Windows\\win.ini',
  ])('%s, outside the vault, is refused with one sentence', (input) => {
    const error = (() => {
      try {
        lexicalVaultPath(input, posix);
      } catch (err) {
        return err as Error;
      }
      throw new Error('not refused');
    })();
    expect(codeOf(() => lexicalVaultPath(input, posix))).toBe('invalid_argument');
    expect(error.message).toMatch(
      /^Path '.*' is an absolute file-system path( or URL)?(;| outside this vault;) give a vault-relative path/,
    );
    expect(error.message.split('. ').length).toBe(1);
  });

  test("a path starting with '~' (a shell's home folder) is refused unless the vault has a top-level '~' (newcomer finding)", () => {
    for (const input of ['~/x.md', '~', '~\\Notes\\a.md'])
      expect(() => lexicalVaultPath(input, posix)).toThrow(/starts with '~', a shell's home folder, .*give a vault-relative path/);
    expect(lexicalVaultPath('~draft.md', posix)).toBe('~draft.md');
    expect(lexicalVaultPath('Notes/~/x.md', posix)).toBe('Notes/~/x.md');
    const withTilde: VaultOnDisk = { ...posix, hasTopEntry: (name) => name === '~' };
    expect(lexicalVaultPath('~/x.md', withTilde)).toBe('~/x.md');
  });

  test('a Windows vault: drive paths and file URLs inside it, any case and separator, are vault paths', () => {
    expect(lexicalVaultPath('C:\\Users\\me\\Vault\\Ideas.md', windows)).toBe('Ideas.md');
    expect(lexicalVaultPath('c:/users/ME/vault/Notes/a.md', windows)).toBe('Notes/a.md');
    expect(lexicalVaultPath('file:///C:/Users/me/Vault/Notes/a.md', windows)).toBe('Notes/a.md');
    expect(codeOf(() => lexicalVaultPath('D:\\Vault\\Ideas.md', windows))).toBe('invalid_argument');
    expect(codeOf(() => lexicalVaultPath('C:\\Users\\me\\Vault\\..\\x.md', windows))).toBe('invalid_argument');
  });
});

describe('decodePercentOnce', () => {
  test.each([
    ['Caf%C3%A9%20notes.md', 'Café notes.md'],
    ['%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%83%A1%E3%83%A2.md', '日本語メモ.md'],
    ['%2e%2e/secret.md', '../secret.md'],
    ['100%25 done.md', '100% done.md'],
    ['%252e%252e/x.md', '%2e%2e/x.md'],
    ['50% off.md', '50% off.md'],
    ['broken%E2%82.md', 'broken%E2%82.md'],
    ['no escapes.md', 'no escapes.md'],
  ])('%j → %j', (input, expected) => {
    expect(decodePercentOnce(input)).toBe(expected);
  });
});

describe('isPathInside', () => {
  test('matches the folder itself and its descendants only', () => {
    expect(isPathInside('Projects/Alpha/x.md', 'Projects')).toBe(true);
    expect(isPathInside('Projects', 'Projects')).toBe(true);
    expect(isPathInside('Projects2/x.md', 'Projects')).toBe(false);
    expect(isPathInside('anything.md', '')).toBe(true);
    expect(isPathInside('projects/x.md', 'Projects')).toBe(false);
    expect(isPathInside('projects/x.md', 'Projects', true)).toBe(true);
  });

  test('folded: case and Unicode form set aside, ASCII and not', () => {
    expect(foldPath('Projects/Alpha X.md')).toBe('projects/alpha x.md');
    expect(foldPath('Cafe\u0301S/\u212Aey.md')).toBe('caf\u00e9s/key.md');
    expect(isPathInside('CAFE\u0301/x.md', 'caf\u00e9', true)).toBe(true);
    expect(isPathInside('_PRIVATE/x.md', '_private', true)).toBe(true);
  });

  // s23 newcomer finding 2: macOS (Unicode case folding) and Windows (NTFS upcase table) take these for one name.
  test('folded as case-insensitive disks fold one character: ſ, ı, ς, ϐ, µ, the Kelvin sign; length kept', () => {
    expect(foldPath('\u017fkills')).toBe('skills');
    expect(foldPath('sk\u0131lls')).toBe('skills');
    expect(foldPath('Projects/AGENT\u017f.md')).toBe(foldPath('Projects/AGENTS.md'));
    expect(isPathInside('\u017fKILLS/x/SKILL.md', 'Skills', true)).toBe(true);
    expect(foldPath('\u039f\u0394\u039f\u03a3')).toBe(foldPath('\u03bf\u03b4\u03bf\u03c2'));
    expect(foldPath('\u03bf\u03b4\u03bf\u03c2')).toBe('\u03bf\u03b4\u03bf\u03c3');
    expect(foldPath('\u03d0/\u00b5/\u212a')).toBe('\u03b2/\u03bc/k');
    // A fold that would change the length does not happen: ß stays ß (ẞ folds to it); İ lower-cases to i̇ as before.
    expect(foldPath('Stra\u00dfe')).toBe('stra\u00dfe');
    expect(foldPath('STRA\u1e9eE')).toBe('stra\u00dfe');
    expect(foldPath('\u0130')).toBe('i\u0307');
    expect(foldPath('\u{10400}x')).toBe('\u{10428}x');
  });

  test('an ASCII path folds to its lower case, as before', () => {
    for (const path of ['Projects/Alpha X.md', 'AGENTS.md', 'Skills/summarize/SKILL.md', '', 'a_b-C~1 (2).md'])
      expect(foldPath(path)).toBe(path.toLowerCase());
  });

  test('every character folds to one that folds to itself, the same as its upper case does', () => {
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const folded = foldPath(ch);
      if (foldPath(folded) !== folded) throw new Error(`U+${cp.toString(16)} folds to ${folded}, which folds on`);
      const upper = ch.toUpperCase();
      if ([...upper].length === 1 && foldPath(upper) !== folded) throw new Error(`U+${cp.toString(16)} and its upper case fold apart`);
      // Outside the BMP the lower case is the fold (foldsToItself leaves surrogates alone).
      if (cp > 0xffff && [...upper].length === 1 && upper.toLowerCase() !== ch.toLowerCase())
        throw new Error(`U+${cp.toString(16)} folds apart`);
    }
  });
});

describe('Quarantine', () => {
  const user: string[] = ['Archive/Sealed', '/Clients\\Secret/', '../bad', ''];
  const q = new Quarantine('.obsidian', () => user);

  test.each([
    ['.obsidian/app.json', true],
    ['.obsidian', true],
    ['.trash/Deleted draft.md', true],
    ['Projects/.hidden/x.md', true],
    ['.env', true],
    ['_private/Passwords hint.md', true],
    ['_Private/x.md', true],
    ['Areas/_private/x.md', true],
    ['Archive/Sealed/letter.md', true],
    ['archive/sealed', true],
    ['Clients/Secret/deal.md', true],
    ['Archive/Sealed2/x.md', false],
    ['Archive/Old ideas.md', false],
    ['Projects/Alpha/Budget.md', false],
    ['my_private_notes.md', false],
    ['Caf\u00e9/_PRIVATE/x.md', true],
    ['CLIENTS/SECRET', true],
    ['Clients/Secret.md', false],
    ['', false],
  ])('%j quarantined: %s', (path, expected) => {
    expect(q.contains(path)).toBe(expected);
    // contains is the quick form of refusal: both say the same of every path.
    expect(q.refusal(path) !== null).toBe(expected);
  });

  test('judges a note by its own name after notes of the same open folder, and a closed folder after an open one', () => {
    const fresh = new Quarantine('.obsidian', () => []);
    expect(
      ['A/b/x.md', 'A/b/.y.md', 'A/b/_Private', 'A/b/z.md', 'A/.b/x.md', 'A/b/x.md', '_private/x.md', 'x.md'].map((p) => fresh.contains(p)),
    ).toEqual([false, true, true, false, true, false, true, false]);
  });

  test('says what refusal says of every entry of a folder asked about after its neighbours, whatever the user list held before', () => {
    const list: string[] = [];
    const scanned = new Quarantine('.obsidian', () => list);
    const folders = ['', 'Archive', 'ARCHIVE/Sealed', 'Archive/Sealed/Inner', 'Caf\u00e9', 'Cafe\u0301/Menu', '\u0391\u03a3', 'Notes'];
    const names = ['x.md', 'Sealed', 'Sealed.md', '.hidden.md', '_PRIVATE', 'Menu', '\u03b1\u03c3', 'Inner', 'Notes.md'];
    const lists = [
      [],
      ['Archive/Sealed'],
      ['Archive/Sealed/Inner', 'Notes/Notes.md'],
      ['Caf\u00e9/Menu', '\u03b1\u03c3/x.md'],
      ['Notes.md', 'archive'],
    ];
    for (const next of lists) {
      list.splice(0, list.length, ...next);
      for (const folder of folders)
        for (const name of names) {
          const path = folder === '' ? name : `${folder}/${name}`;
          expect([path, scanned.contains(path)]).toEqual([path, scanned.refusal(path) !== null]);
        }
    }
    // The list changes between two notes of one folder: the second is judged by the new list.
    list.splice(0, list.length);
    expect(scanned.contains('Projects/a.md')).toBe(false);
    list.push('Projects/b.md');
    expect(scanned.contains('Projects/b.md')).toBe(true);
    expect(scanned.contains('Projects/a.md')).toBe(false);
    list.push('projects');
    expect(scanned.contains('Projects/a.md')).toBe(true);
  });

  test('a nested entry closes its folder, the outer one named; an entry edited in place is read anew; a list of 100,000 folders', () => {
    const list = ['Work/HR', 'Work'];
    const nested = new Quarantine('.obsidian', () => list);
    expect(nested.refusal('work/hr/pay.md')).toMatch("is inside 'work', a folder the user closed to agents");
    list[1] = 'Play';
    expect(nested.refusal('work/hr/pay.md')).toMatch("is inside 'work/hr', a folder the user closed to agents");
    expect(nested.contains('Work/plan.md')).toBe(false);
    expect(nested.contains('PLAY/x.md')).toBe(true);
    const many = Array.from({ length: 100_000 }, (_, i) => `Q/f${i}`);
    const large = new Quarantine('.obsidian', () => many);
    expect(['Q/f99999/x.md', 'Q/f100000/x.md', 'Q/f5', 'q/F5/a/b.md', 'Q/x.md'].map((p) => large.contains(p))).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
  });

  test('reads the user list on every check and honours a custom config dir', () => {
    const list: string[] = [];
    const custom = new Quarantine('config', () => list);
    expect(custom.contains('config/app.json')).toBe(true);
    expect(custom.contains('Journal/x.md')).toBe(false);
    list.push('Journal');
    expect(custom.contains('Journal/x.md')).toBe(true);
  });
});

describe('access rules', () => {
  test.each([
    ['private', 'private'],
    [' Private ', 'private'],
    ['no-access', 'private'],
    ['no access', 'private'],
    ['read-only', 'read-only'],
    ['readonly', 'read-only'],
    ['Read_Only', 'read-only'],
    [['read-only', 'private'], 'private'],
    ['public', 'read-write'],
    ['Read Write', 'read-write'],
    ['open', 'read-write'],
    // A rule the plugin cannot read is taken at its strictest: a typo never opens a note.
    ['privat', 'private'],
    ['private!', 'private'],
    ['hidden', 'private'],
    ['', 'private'],
    [true, 'private'],
    [null, 'private'],
    [3, 'private'],
    [[], 'private'],
    [['public', 'nonsense'], 'private'],
    [undefined, 'private'],
  ])('access %j → %s', (value, expected) => {
    expect(parseAccessValue(value)).toBe(expected);
  });

  test('agent_overrides tighten per key label, never loosen', () => {
    const fm = { access: 'read-only', agent_overrides: { 'Claude Code': 'no-access', Cursor: 'read-write' } };
    expect(noteAccess(fm, 'Claude Code')).toBe('private');
    expect(noteAccess(fm, 'Cursor')).toBe('read-only');
    expect(noteAccess(fm, 'claude code')).toBe('read-only');
    expect(noteAccess(fm, '')).toBe('read-only');
    expect(noteAccess({ agent_overrides: { Cursor: 'read-only' } }, 'Cursor')).toBe('read-only');
    // A list naming the label is a rule for it the plugin cannot read: private for that key, as an unknown value is (session 20).
    expect(noteAccess({ agent_overrides: ['Cursor'] }, 'Cursor')).toBe('private');
    expect(noteAccess({ agent_overrides: ['Cursor'] }, 'Claude Code')).toBe('read-write');
    // An override for this label the plugin cannot read tightens to private; another label's is not this key's rule.
    expect(noteAccess({ agent_overrides: { Cursor: 'noacess' } }, 'Cursor')).toBe('private');
    expect(noteAccess({ agent_overrides: { Cursor: 'noacess' } }, 'Claude Code')).toBe('read-write');
    expect(noteAccess(undefined, 'Cursor')).toBe('read-write');
  });

  test('roots confine exactly', () => {
    expect(isWithinRoots('Projects/Alpha/x.md', [])).toBe(true);
    expect(isWithinRoots('Projects/Alpha/x.md', ['Projects/Alpha'])).toBe(true);
    expect(isWithinRoots('Projects/Alphabet/x.md', ['Projects/Alpha'])).toBe(false);
    expect(isWithinRoots('Projects/Beta/x.md', ['Projects/Alpha', 'Areas'])).toBe(false);
    expect(isWithinRoots('projects/alpha/x.md', ['Projects/Alpha'])).toBe(false);
  });

  test('an empty root contains nothing: it fails closed, never passing for the whole vault', () => {
    expect(isWithinRoots('Inbox.md', [''])).toBe(false);
    expect(isWithinRoots('Projects/x.md', ['', 'Projects'])).toBe(true);
    expect(isWithinRoots('Inbox.md', ['', 'Projects'])).toBe(false);
  });
});

describe('note references', () => {
  test('synthetic ids round-trip', () => {
    expect(syntheticId('Inbox.md')).toBe('path:Inbox.md');
    expect(pathOfSyntheticId('path:Projects/Alpha/Budget.md')).toBe('Projects/Alpha/Budget.md');
    expect(pathOfSyntheticId('PRJ-ALPHA')).toBeNull();
  });

  test('frontmatter ids: strings and numbers only', () => {
    expect(frontmatterId({ id: ' PRJ-ALPHA ' })).toBe('PRJ-ALPHA');
    expect(frontmatterId({ id: 2041 })).toBe('2041');
    expect(frontmatterId({ id: '' })).toBeNull();
    expect(frontmatterId({ id: ['a'] })).toBeNull();
    expect(frontmatterId(undefined)).toBeNull();
    // The synthetic ids' prefix names a note by its path: a note's own `id: path:…` is no id of its own.
    expect(frontmatterId({ id: 'path:Home.md' })).toBeNull();
    expect(frontmatterId({ id: ' path:Nowhere.md ' })).toBeNull();
    expect(frontmatterId({ id: 'Path:x' })).toBe('Path:x');
  });

  test('wikilinks unwrap to their link path', () => {
    expect(unwrapWikilink('[[Alpha overview|Project Alpha]]')).toBe('Alpha overview');
    expect(unwrapWikilink('![[Alpha overview#Goals]]')).toBe('Alpha overview');
    expect(unwrapWikilink('[[Meeting notes#^display-check]]')).toBe('Meeting notes');
    expect(unwrapWikilink('Plain [[not]] wrapped')).toBe('Plain [[not]] wrapped');
  });
});

describe('findEntry / canonicalPath', () => {
  /** A tiny vault tree of host TFolder/TFile objects, with names as given (possibly NFD). */
  function fakeVault(paths: string[]): Vault {
    const byPath = new Map<string, TFile | TFolder>();
    const root = new TFolder(null as never, '/');
    for (const p of paths) {
      let parent = root;
      const segments = p.split('/');
      segments.forEach((_, i) => {
        const sub = segments.slice(0, i + 1).join('/');
        let entry = byPath.get(sub);
        if (!entry) {
          entry = i === segments.length - 1 ? new TFile(null as never, sub) : new TFolder(null as never, sub);
          entry.parent = parent;
          parent.children.push(entry);
          byPath.set(sub, entry);
        }
        if (entry instanceof TFolder) parent = entry;
      });
    }
    return { getRoot: () => root, getAbstractFileByPath: (p: string) => byPath.get(p) ?? null } as unknown as Vault;
  }

  const vault = fakeVault(['Reference/Nai\u0308ve sourdough.md', 'Projects/Alpha/Plan.md', 'Mixed/note.md', 'Mixed/NOTE.md']);

  test('an NFD name on disk is found by its NFC spelling', () => {
    expect(findEntry(vault, 'Reference/Na\u00efve sourdough.md')?.path).toBe('Reference/Nai\u0308ve sourdough.md');
  });

  test('case differences resolve to the single existing entry, never guess between two', () => {
    expect(findEntry(vault, 'projects/alpha/plan.md')?.path).toBe('Projects/Alpha/Plan.md');
    expect(findEntry(vault, 'Mixed/Note.md')).toBeNull();
    expect(findEntry(vault, 'Mixed/NOTE.md')?.path).toBe('Mixed/NOTE.md');
    expect(findEntry(vault, 'Projects/Alpha/Plan.md/x')).toBeNull();
    expect(findEntry(vault, '')).toBe(vault.getRoot());
  });

  test('canonicalPath fixes the existing prefix and keeps the rest', () => {
    expect(canonicalPath(vault, 'projects/alpha/New.md')).toBe('Projects/Alpha/New.md');
    expect(canonicalPath(vault, 'projects/Gamma/New.md')).toBe('Projects/Gamma/New.md');
    expect(canonicalPath(vault, 'Elsewhere/x.md')).toBe('Elsewhere/x.md');
  });
});

describe('rootsShown', () => {
  it('lists roots for a message, quoting one whose outer spaces are part of its name', () => {
    expect(rootsShown(['Projects', 'Journal/2025'])).toBe('Projects, Journal/2025');
    expect(rootsShown([' Sp ', 'Sp', 'Tail '])).toBe('" Sp ", Sp, "Tail "');
    expect(rootsShown([])).toBe('');
  });
});
