import {
  intersectRoots,
  isRootPath,
  MAX_CLIENT_ROOTS,
  parseRoots,
  rootPathOf,
  rootsInVault,
  type PathRules,
} from '../../../src/server/roots/client-roots';
import { sessionAccess } from '../../../src/server/roots/session-access';

const LINUX: PathRules = { platform: 'posix', caseInsensitive: false };
const MAC: PathRules = { platform: 'posix', caseInsensitive: true };
const WINDOWS: PathRules = { platform: 'win32', caseInsensitive: true };

describe('rootPathOf', () => {
  it('reads file:// URIs as normalized absolute paths, percent-decoded, NFC, no trailing slash', () => {
    expect(rootPathOf('file:///home/me/Vault/Projects/', LINUX)).toEqual({ path: '/home/me/Vault/Projects' });
    expect(rootPathOf('file://localhost/home/me/My%20Vault', LINUX)).toEqual({ path: '/home/me/My Vault' });
    expect(rootPathOf('file:///home/me/Cafe%CC%81', LINUX)).toEqual({ path: '/home/me/Caf\u00e9' });
    expect(rootPathOf('file:///', LINUX)).toEqual({ path: '/' });
    expect(rootPathOf('file:///C:/Users/Me/Vault/', WINDOWS)).toEqual({ path: 'C:\\Users\\Me\\Vault' });
  });

  it.each([
    ['https://example.com/x', 'only file://'],
    ['File:relative/path', 'only file://'],
    ['file://server/share/Vault', 'another host'],
    ['file:///v/%2e%2e/etc', '".."'],
    ['file:///v/.%2E/etc', '".."'],
    ['file:///v/..', '".."'],
    ['file:///v/a%00b', 'control characters'],
    ['file:///v/a\u0000b', 'control characters'],
    ['file:///v/a%2Fb', 'encoded separator'],
    // An encoded backslash is ignored on every platform, not read as Projects/Alpha.
    ['file:///v/Projects%5CAlpha', 'encoded separator'],
    ['file:///v/Projects%5cAlpha', 'encoded separator'],
    ['file:///v/Projects/%', 'broken percent-escape'],
    ['file:///v/Projects/%4', 'broken percent-escape'],
    ['file:///v/Projects/%zz', 'broken percent-escape'],
    ['file:///v/Projects/%FF', 'not UTF-8'],
    ['file:///v?x=1', 'query or fragment'],
    ['file:///v#top', 'query or fragment'],
  ])('ignores %j (%s)', (uri, reason) => {
    const verdict = rootPathOf(uri, LINUX);
    expect(verdict).toHaveProperty('reason');
    expect((verdict as { reason: string }).reason).toContain(reason);
  });

  it('ignores an encoded backslash and a UNC host on Windows', () => {
    expect(rootPathOf('file:///C:/v/a%5Cb', WINDOWS)).toHaveProperty('reason');
    expect(rootPathOf('file://server/share', WINDOWS)).toHaveProperty('reason');
  });
});

describe('parseRoots', () => {
  it('keeps valid entries, reports each bad one, and reads at most MAX_CLIENT_ROOTS', () => {
    const roots = [
      { uri: 'file:///a' },
      null,
      { uri: 7 },
      { uri: 'file:///a' },
      ...Array.from({ length: MAX_CLIENT_ROOTS }, (_, i) => ({ uri: `file:///r${i}` })),
    ];
    const parsed = parseRoots(roots, LINUX);
    expect(parsed.paths[0]).toBe('/a');
    expect(parsed.paths).toHaveLength(MAX_CLIENT_ROOTS - 3);
    expect(parsed.ignored.map((i) => i.reason)).toEqual([
      'uri is not a string',
      'uri is not a string',
      '4 roots past the first 100 were not read',
    ]);
    expect(parseRoots('nope', LINUX)).toEqual({ paths: [], ignored: [{ uri: '', reason: 'roots is not a list' }] });
  });
});

describe('rootsInVault', () => {
  const vault = ['/home/me/Vault', '/private/home/me/Vault'];
  it('places roots: inside → folders, outermost only; the vault or above → whole; else elsewhere', () => {
    expect(rootsInVault(['/home/me/Vault/A', '/home/me/Vault/A/B', '/home/me/Vault/C/D'], vault, LINUX)).toEqual({
      kind: 'folders',
      folders: ['A', 'C/D'],
    });
    expect(rootsInVault(['/home/me/Vault/A', '/home/me'], vault, LINUX)).toEqual({ kind: 'whole' });
    expect(rootsInVault(['/home/me/Vault'], vault, LINUX)).toEqual({ kind: 'whole' });
    expect(rootsInVault(['/home/me/VaultOther', '/srv'], vault, LINUX)).toEqual({ kind: 'elsewhere' });
    expect(rootsInVault(['/private/home/me/Vault/A'], vault, LINUX)).toEqual({ kind: 'folders', folders: ['A'] });
  });

  it('follows the case rules of the disk', () => {
    expect(rootsInVault(['/HOME/me/vault/Projects'], vault, LINUX)).toEqual({ kind: 'elsewhere' });
    expect(rootsInVault(['/HOME/me/vault/Projects'], vault, MAC)).toEqual({ kind: 'folders', folders: ['Projects'] });
    expect(rootsInVault(['c:\\users\\me\\vault\\Notes\\Daily'], ['C:\\Users\\Me\\Vault'], WINDOWS)).toEqual({
      kind: 'folders',
      folders: ['Notes/Daily'],
    });
  });
});

describe('rootsInVault: case folded as the disk folds it, one segment at a time (foldPath)', () => {
  it('matches the vault folder spelled with ſ, ı or the Kelvin sign where the disk ignores case, never on Linux', () => {
    const vault = ['/Users/sam/Vault'];
    for (const spelled of ['/Users/\u017fam/Vault/A', '/USERS/SAM/VAULT/A']) {
      expect(rootsInVault([spelled], vault, MAC)).toEqual({ kind: 'folders', folders: ['A'] });
      expect(rootsInVault([spelled], vault, LINUX)).toEqual({ kind: 'elsewhere' });
    }
    expect(rootsInVault(['/Users/J\u0131m/Vault/A'], ['/Users/Jim/Vault'], MAC)).toEqual({ kind: 'folders', folders: ['A'] });
    expect(rootsInVault(['/Users/J\u0131m'], ['/Users/Jim/Vault'], MAC)).toEqual({ kind: 'whole' });
    expect(rootsInVault(['/Users/\u017fam'], vault, MAC)).toEqual({ kind: 'whole' });
    expect(rootsInVault(['C:\\Users\\\u212Aate\\Vault\\A'], ['C:\\Users\\kate\\Vault'], WINDOWS)).toEqual({
      kind: 'folders',
      folders: ['A'],
    });
    // As parseRoots gives it (NFC turns the Kelvin sign into K).
    const kelvin = parseRoots([{ uri: 'file:///Users/%E2%84%AAate/Vault/A' }], MAC).paths;
    expect(rootsInVault(kelvin, ['/Users/kate/Vault'], MAC)).toEqual({ kind: 'folders', folders: ['A'] });
  });

  it('cuts the folder part at the segment, whatever length the fold gives (İ lower-cases to two code units)', () => {
    // The vault folder spelled i + U+0307 (two code units) and the root İ (one), and the other way round.
    expect(rootsInVault(['/Users/\u0130lker/Vault/Projects'], ['/Users/i\u0307lker/Vault'], MAC)).toEqual({
      kind: 'folders',
      folders: ['Projects'],
    });
    expect(rootsInVault(['/Users/i\u0307lker/Vault/Projects'], ['/Users/\u0130lker/Vault'], MAC)).toEqual({
      kind: 'folders',
      folders: ['Projects'],
    });
    expect(rootsInVault(['/Users/\u0130\u0130/Vault/A/B'], ['/Users/i\u0307i\u0307/Vault'], MAC)).toEqual({
      kind: 'folders',
      folders: ['A/B'],
    });
    // The folder keeps the root's own spelling (the vault's spelling is looked up afterwards).
    expect(rootsInVault(['/v/\u0130ndex/\u017fub'], ['/v'], MAC)).toEqual({ kind: 'folders', folders: ['\u0130ndex/\u017fub'] });
  });

  it('a prefix of a sibling folder name is apart; trailing separators change nothing', () => {
    const vault = ['/home/me/Vault'];
    for (const rules of [LINUX, MAC]) {
      expect(rootsInVault(['/home/me/Vau', '/home/me/VaultOther/A', '/home/me/Vault2'], vault, rules)).toEqual({ kind: 'elsewhere' });
      expect(rootsInVault(['/home/me/Vault/A/'], vault, rules)).toEqual({ kind: 'folders', folders: ['A'] });
      expect(rootsInVault(['/home/me/Vault/A'], ['/home/me/Vault/'], rules)).toEqual({ kind: 'folders', folders: ['A'] });
      expect(rootsInVault(['/home/me/Vault/'], vault, rules)).toEqual({ kind: 'whole' });
      expect(rootsInVault(['/home/me/'], vault, rules)).toEqual({ kind: 'whole' });
      expect(rootsInVault(['/'], vault, rules)).toEqual({ kind: 'whole' });
    }
    expect(rootsInVault(['/home/me/\u017fault/A'], ['/home/me/Vau'], MAC)).toEqual({ kind: 'elsewhere' });
    expect(rootsInVault(['C:\\'], ['C:\\Users\\Me\\Vault'], WINDOWS)).toEqual({ kind: 'whole' });
    expect(rootsInVault(['C:\\Users\\Me\\Vault\\A\\'], ['C:\\Users\\Me\\Vault\\'], WINDOWS)).toEqual({
      kind: 'folders',
      folders: ['A'],
    });
    expect(rootsInVault(['\\\\server\\share\\Vault\\A'], ['\\\\server\\share\\Vault'], WINDOWS)).toEqual({
      kind: 'folders',
      folders: ['A'],
    });
    expect(rootsInVault(['\\server\\share\\Vault\\A'], ['\\\\server\\share\\Vault'], WINDOWS)).toEqual({ kind: 'elsewhere' });
  });

  it('a root spelled with ſ narrows the session instead of being ignored (which left the whole key)', () => {
    const access = sessionAccess(
      ['A', 'B'],
      { status: 'listed', paths: ['/Users/\u017fam/Vault/A'], ignored: [] },
      ['/Users/sam/Vault'],
      MAC,
      (f) => f,
    );
    expect(access).toMatchObject({ roots: ['A'], blocked: null, report: { source: 'client' } });
  });
});

describe('intersectRoots and sessionAccess', () => {
  it("keeps the inner folder of each overlapping pair; a key without roots takes the client's", () => {
    expect(intersectRoots([], ['A', 'B'], false)).toEqual(['A', 'B']);
    expect(intersectRoots(['A'], ['A/x', 'B'], false)).toEqual(['A/x']);
    expect(intersectRoots(['A/x', 'C'], ['A'], false)).toEqual(['A/x']);
    expect(intersectRoots(['A'], ['B'], false)).toEqual([]);
    expect(intersectRoots(['projects'], ['Projects/sub'], true)).toEqual(['Projects/sub']);
  });

  it('an empty key root or client folder allows nothing, never the whole vault', () => {
    expect(intersectRoots([''], ['A', 'B'], false)).toEqual([]);
    expect(intersectRoots(['', 'B'], ['A', 'B/x'], false)).toEqual(['B/x']);
    expect(intersectRoots([], ['', 'A'], false)).toEqual(['A']);
  });

  it('isRootPath accepts only roots as rootPathOf gives them (for roots another vault forwards)', () => {
    expect(isRootPath('/home/me/Vault/A', LINUX)).toBe(true);
    expect(isRootPath('/', LINUX)).toBe(true);
    expect(isRootPath('C:\\Users\\Me', WINDOWS)).toBe(true);
    for (const bad of ['', 'A', '../etc', '/home/me/../etc', '/home/me/Vault/', '/home//me', '/home/./me', '/home/me\u0000'])
      expect([bad, isRootPath(bad, LINUX)]).toEqual([bad, false]);
  });

  it("blocks the session when the client's roots and the key's share nothing; otherwise never widens the key", () => {
    const spell = (f: string): string => f;
    const listed = (paths: string[]) => ({ status: 'listed' as const, paths, ignored: [] });
    const blocked = sessionAccess(['A'], listed(['/v/B']), ['/v'], LINUX, spell);
    expect(blocked.blocked).toMatch(/lie outside this key's folders \(A\)/);
    expect(sessionAccess(['A'], listed(['/v']), ['/v'], LINUX, spell)).toMatchObject({
      roots: ['A'],
      blocked: null,
      report: { source: 'key' },
    });
    expect(sessionAccess(['A'], listed(['/elsewhere']), ['/v'], LINUX, spell).roots).toEqual(['A']);
    expect(sessionAccess([], listed(['/v/B']), [], LINUX, spell).roots).toEqual([]);
    expect(
      sessionAccess(
        [],
        { status: 'unanswered', reason: 'the client answered roots/list with -32601 (method not found)' },
        ['/v'],
        LINUX,
        spell,
      ).report.note,
    ).toMatch(/-32601/);
  });

  it('names the client roots that match no usable folder or note; keeps them narrowing (nothing widens)', () => {
    const spell = (f: string): string | null => (f.toLowerCase() === 'projects' ? 'Projects' : null);
    const access = sessionAccess(
      [],
      { status: 'listed', paths: ['/v/projects', '/v/Gone', '/v/Secret'], ignored: [] },
      ['/v'],
      LINUX,
      spell,
    );
    expect(access.roots).toEqual(['Projects', 'Gone', 'Secret']);
    expect(access.report.note).toBe(
      "Narrowed to the client's MCP roots in this vault. These name no folder or note this session can use (missing or quarantined), so they match nothing: Gone, Secret.",
    );
    const fine = sessionAccess([], { status: 'listed', paths: ['/v/Projects'], ignored: [] }, ['/v'], LINUX, spell);
    expect(fine.report.note).toBe("Narrowed to the client's MCP roots in this vault.");
    const previous = sessionAccess([], { status: 'listed', paths: ['/v/Projects'], ignored: [], previous: true }, ['/v'], LINUX, spell);
    expect(previous.roots).toEqual(['Projects']);
    expect(previous.report.note).toMatch(/previous MCP roots .* not yet answered roots\/list after notifications\/roots\/list_changed/);
  });
});
