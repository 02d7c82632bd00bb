import { textAccess } from '../../../../src/vault/access/text-rules';
import { rulesTextOf } from '../../../../src/vault/access/utf16-rules';

/**
 * text-rules textAccess: the access a note's served text names for itself, read by the rules the
 * metadata cache's reading (noteAccess) and the unparsed reading (unparsedBlockAccess) use, with
 * the fast path for texts that name no rule.
 */
describe('textAccess', () => {
  const LABEL = 'Claude';

  test.each<[string, string, string]>([
    ['no frontmatter', '# Note\n\naccess: private\n', 'read-write'],
    ['a block naming no rule', '---\ntitle: t\ntags: [a]\n---\nbody\n', 'read-write'],
    ['a word in a value is no rule', '---\ntitle: access notes\nauthor: agent smith\n---\nbody\n', 'read-write'],
    ['a longer key is no rule', '---\naccessible: private\nmy_access: private\n---\nbody\n', 'read-write'],
    ['access: private', '---\naccess: private\n---\nbody\n', 'private'],
    ['access: read-only', '---\naccess: read-only\n---\nbody\n', 'read-only'],
    ['any case, CRLF', '---\r\nAccess: Private\r\n---\r\nbody\r\n', 'private'],
    ['lone CR line endings', '---\raccess: private\r---\rbody\r', 'private'],
    ['after a byte-order mark', '\uFEFF---\naccess: private\n---\nbody\n', 'private'],
    ['a YAML escape in the key', '---\n"acc\\x65ss": private\n---\nbody\n', 'private'],
    ['a merge key', '---\n<<: {access: private}\n---\nbody\n', 'private'],
    ['an unknown word (typo) at its strictest', '---\naccess: privat\n---\nbody\n', 'private'],
    ['a block that does not parse, at its strictest', '---\naccess: read-only\ntitle: [unclosed\n---\nbody\n', 'read-only'],
    ['an override for this label', '---\nagent_overrides:\n  Claude: no-access\n---\nbody\n', 'private'],
    ['an override for another label', '---\nagent_overrides:\n  Other: no-access\n---\nbody\n', 'read-write'],
    ['an unclosed block is no frontmatter', '---\naccess: private\nbody without a closing line\n', 'read-write'],
    ['an empty text', '', 'read-write'],
  ])('%s', (_name, text, level) => {
    expect(textAccess(text, LABEL)).toBe(level);
  });

  describe('a note saved as UTF-16, as the vault reads it (UTF-8)', () => {
    const asRead = (text: string, encoding: 'utf16le' | 'utf16be', mark: boolean): string => {
      const le = Buffer.from(text, 'utf16le');
      const bytes = encoding === 'utf16le' ? le : Buffer.from(le).swap16();
      const marked = mark ? Buffer.concat([Buffer.from(encoding === 'utf16le' ? [0xff, 0xfe] : [0xfe, 0xff]), bytes]) : bytes;
      return marked.toString('utf8');
    };
    test.each<['utf16le' | 'utf16be', boolean]>([
      ['utf16le', true],
      ['utf16le', false],
      ['utf16be', true],
      ['utf16be', false],
    ])('%s (byte-order mark %s): its own rules hold', (encoding, mark) => {
      expect(textAccess(asRead('---\r\naccess: private\r\n---\r\nLEAK body\r\n', encoding, mark), LABEL)).toBe('private');
      expect(textAccess(asRead('---\naccess: read-only\n---\nbody é\n', encoding, mark), LABEL)).toBe('read-only');
      expect(textAccess(asRead('---\ntitle: t\n---\nbody\n', encoding, mark), LABEL)).toBe('read-write');
      expect(textAccess(asRead('# No frontmatter\naccess: private\n', encoding, mark), LABEL)).toBe('read-write');
    });

    test('rulesTextOf gives back the ASCII and leaves UTF-8 notes alone, NULs in their body included', () => {
      expect(rulesTextOf(asRead('---\naccess: private\n---\n', 'utf16le', true))).toBe('---\naccess: private\n---\n');
      const utf8 = '---\ntitle: t\n---\nbinary \0 pasted\n';
      expect(rulesTextOf(utf8)).toBe(utf8);
      expect(textAccess('---\naccess: private\n---\n\0\0', LABEL)).toBe('private');
    });
  });

  test('an override for the unrestricted label (empty) is none', () => {
    expect(textAccess('---\nagent_overrides:\n  Claude: no-access\n---\n', '')).toBe('read-write');
  });
});
