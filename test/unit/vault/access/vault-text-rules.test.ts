import { textAccess } from '../../../../src/vault/access/text-rules';

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

  test('an override for the unrestricted label (empty) is none', () => {
    expect(textAccess('---\nagent_overrides:\n  Claude: no-access\n---\n', '')).toBe('read-write');
  });
});
