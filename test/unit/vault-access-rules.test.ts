import { parseYaml } from 'obsidian';
import { namesLabelRules, noteAccess, unparsedBlockAccess } from '../../src/vault/access/access-rules';

describe('noteAccess: property names compare without case, the strictest spelling wins', () => {
  test.each([
    [{ Access: 'private' }, 'private'],
    [{ ACCESS: 'Read-Only' }, 'read-only'],
    [{ access: 'read-write', Access: 'private' }, 'private'],
    [{ Agent_Overrides: { Bot: 'no-access' } }, 'private'],
    [{ accessible: 'private' }, 'read-write'],
  ])('%j → %s', (frontmatter, level) => {
    expect(noteAccess(frontmatter as Record<string, unknown>, 'Bot')).toBe(level);
  });

  // Rules in a shape other than a mapping were dropped, leaving the note open (a newcomer's second pass): read at their strictest.
  test.each([
    ['an agent_overrides text naming the key', 'agent_overrides: "Bot: no-access"', 'private'],
    ['an agent_overrides text naming the key alone', 'agent_overrides: Bot', 'private'],
    ['an agent_overrides list of texts', 'agent_overrides:\n  - "Bot: read-only"', 'private'],
    ['an agent_overrides list of mappings, read as mappings', 'agent_overrides:\n  - Bot: read-only', 'read-only'],
    ['an agent_overrides text naming another key', 'agent_overrides: "Other: no-access"', 'read-write'],
    ['a merge key bringing access in', 'base: &b {access: private}\n<<: *b', 'private'],
    ['a merge key list', '<<: [{access: read-only}]', 'read-only'],
    ['a merge key bringing agent_overrides in', '<<: {agent_overrides: {Bot: no-access}}', 'private'],
    ['a merge key inside agent_overrides', 'm: &m {Bot: no-access}\nagent_overrides:\n  <<: *m', 'private'],
    ['a merge key of other properties', '<<: {color: blue}', 'read-write'],
  ])('%s: %s → %s', (_what, yaml, level) => {
    const frontmatter = parseYaml(yaml) as Record<string, unknown>;
    expect(noteAccess(frontmatter, 'Bot')).toBe(level);
    // The level may differ by label, so the note is judged per key.
    if (level !== 'read-write') expect(namesLabelRules(frontmatter)).toBe(true);
  });
});

describe('namesLabelRules: a note without agent_overrides has one level for every label', () => {
  test.each([
    [{ agent_overrides: { A: 'no-access' } }, true],
    [{ ' Agent_Overrides ': { A: 'no-access' } }, true],
    [{ AGENT_OVERRIDES: null }, true],
    [{ access: 'private', tags: ['a'] }, false],
    [{ agent_override: { A: 'no-access' } }, false],
    [{}, false],
    [undefined, false],
  ])('%j → %s', (frontmatter, expected) => {
    expect(namesLabelRules(frontmatter as Record<string, unknown> | undefined)).toBe(expected);
  });

  test('where it is false, noteAccess gives every label the level of no label', () => {
    const notes = [{ access: 'private' }, { Access: 'read-only', tags: ['x'] }, { title: 't' }, undefined];
    for (const fm of notes) {
      expect(namesLabelRules(fm)).toBe(false);
      for (const label of ['A', 'Claude Code', '']) expect(noteAccess(fm, label)).toBe(noteAccess(fm, ''));
    }
  });
});

describe('unparsedBlockAccess: a block that does not parse is read line by line, at its strictest', () => {
  test.each([
    ['access: private\ntitle: "unclosed', 'private'],
    ['Access: read-only\ntitle: "unclosed', 'read-only'],
    ['"access": \'private\'\nx: [', 'private'],
    ['access: read-write\ntags: a\ntags: a', 'read-write'],
    ['access: read-write\naccess: private\ntags: a', 'private'],
    ['access:\n  - read-only\n  - private\nx: "', 'private'],
    ['access:\nx: "', 'private'],
    ['access: publik\nx: "', 'private'],
    ['access: private # the user\'s\nx: "', 'private'],
    ['agent_overrides:\n  Bot: no-access\nx: "', 'private'],
    ['agent_overrides:\n  Other: no-access\nx: "', 'read-write'],
    ['agent_overrides: {Bot: read-only}\nx: "', 'read-only'],
  ])('%j → %s', (block, level) => {
    expect(unparsedBlockAccess(block, 'Bot')).toBe(level);
  });

  test('a block that names no access key gives null (the note keeps its default)', () => {
    expect(unparsedBlockAccess('title: "unclosed\ntags: a', 'Bot')).toBeNull();
    expect(unparsedBlockAccess('accessible: private\nx: "', 'Bot')).toBeNull();
  });
});

/**
 * The fault a newcomer found: only unindented `access:` lines were read, so these blocks (none of
 * which parses) left a private note open to search, list_notes and read_note. Every place that
 * names `access` or `agent_overrides` as a key counts now, and a value that cannot be read is
 * `private`.
 */
describe('unparsedBlockAccess: an access key anywhere in a block that does not parse counts, failing closed', () => {
  const cases: Array<[string, string, string | null]> = [
    // The reported shapes.
    ['an indented block', '  access: private\n  tags: [a, b', 'private'],
    ['an indented block with another error', '  access: private\n  bad: [', 'private'],
    ['a broken flow mapping', '{access: private, x: [', 'private'],
    ['the access line indented under a broken value', 'title: [unclosed\n  access: private', 'private'],
    ['an explicit key', '? access\n: private\nbad: [', 'private'],
    ['the unindented case (already hidden)', 'tags: [a, b\naccess: private', 'private'],
    // More positions and spellings the parsed path would read as the key.
    ['a tab-indented key', '\taccess: private\nx: [', 'private'],
    ['a list of mappings', '- access: private\n- x: [', 'private'],
    ['a nested list item', '- - Access: read-only\nx: [', 'read-only'],
    ['a flow sequence', '[x, access: read-only]\nbad: [', 'read-only'],
    ['a closed flow mapping on a broken line', 'meta: {a: 1, ACCESS: read-only}\nbad: [', 'read-only'],
    ['a double-quoted key', '  "access": private\nbad: [', 'private'],
    ['a single-quoted key, space before the colon', "  'Access' : read-only\nbad: [", 'read-only'],
    ['a quoted key with spaces inside', '" access ": private\nbad: [', 'private'],
    ['a double-quoted key with a YAML escape', '"acc\\x65ss": private\nbad: [', 'private'],
    ['a double-quoted key with an escaped tab, trimmed away', '"\\taccess": read-only\nbad: [', 'read-only'],
    ['an anchored key', '&a access: private\nbad: [', 'private'],
    ['a tagged key', '!!str access: read-only\nbad: [', 'read-only'],
    ['no space after the colon', 'access:private\nbad: [', 'private'],
    ['JSON-style', '{"access":"private", "x": [', 'private'],
    ['an explicit key with its value indented', '  ? access\n  : read-only\nbad: [', 'read-only'],
    ['an explicit key on the line under ?', '?\n  access\n: private\nbad: [', 'private'],
    ['a bare key whose value follows on a : line', 'access\n: read-only\nbad: [', 'read-only'],
    ['a commented-out rule (comments cannot be trusted here)', '# access: private\nbad: [', 'private'],
    ['an access key inside another value', 'meta:\n  access: private\nbad: [', 'private'],
    ['a merge key', '<<: {access: private}\nbad: [', 'private'],
    // Values that cannot be read count as private.
    ['an indented key without a value', '  access:\n  bad: [', 'private'],
    ['an explicit key without a value', '? access\nbad: [', 'private'],
    ['a flow mapping whose value runs into the broken part', '{access: read-only, x: [', 'private'],
    ['a value whose quote does not close', 'access: "read-only\n  private"\nbad: [', 'private'],
    ['a flow list that does not close on its line', 'access: [read-only,\n  private]\nbad: [', 'private'],
    ['an alias', 'x: &r read-write\naccess: *r\nbad: [', 'private'],
    ['a nested mapping', '  access:\n    Bot: read-write\nbad: [', 'private'],
    ['an unknown word', '  access: privat\nbad: [', 'private'],
    ['two rules, one without a value', 'access: read-write\naccess:\nbad: [', 'private'],
    // Readable values keep their meaning, the strictest winning.
    ['an indented list', '  access:\n    - read-only\n    - read-write\n  bad: [', 'read-only'],
    ['a list at the key indentation', 'access:\n- read-only\nbad: [', 'read-only'],
    ['a readable value with a comment', "  access: read-only # the user's\n  bad: [", 'read-only'],
    ['a quoted value holding #', '  access: "read-only # private"\n  bad: [', 'private'],
    ['read-write stays read-write', '  access: read-write\n  bad: [', 'read-write'],
    // agent_overrides in the same positions, for the label Bot.
    ['an indented override', '  agent_overrides:\n    Bot: no-access\n  bad: [', 'private'],
    ['an override in a broken flow mapping', '{agent_overrides: {Bot: read-only}}\nx: [', 'read-only'],
    ['an override whose line runs into the broken part', '{agent_overrides: {Bot: read-only}, x: [', 'private'],
    ['an override under an explicit key', '? agent_overrides\n: {Bot: no-access}\nbad: [', 'private'],
    [
      'an override whose value is on the lines under the label',
      'agent_overrides:\n  Bot:\n    - read-only\n    - no-access\nbad: [',
      'private',
    ],
    ['an override with an unreadable value', '  agent_overrides:\n    Bot:\n  bad: [', 'private'],
    ['an override through an alias', 'rules: &r {Bot: no-access}\nagent_overrides: *r\nbad: [', 'private'],
    ['an override with an escaped label', 'agent_overrides: {"B\\x6ft": no-access}\nbad: [', 'private'],
    ['an override in another case', '  Agent_Overrides:\n    Bot: read-only\n  bad: [', 'read-only'],
    ['an override for another label only', '  agent_overrides:\n    Other: no-access\n  bad: [', 'read-write'],
    // Harmless blocks: no key named access or agent_overrides.
    ['a longer key', '  accessible: private\n  bad: [', null],
    ['a key with the word at its end', '  my_access: private\n  bad: [', null],
    ['a key of several words', 'Remote access: VPN\nbad: [', null],
    ['a commented key of several words', '# remote access: VPN\nbad: [', null],
    ['the word in a value', '  title: access notes\n  bad: [', null],
    ['the word in a list', 'tags:\n  - access\n  - b\nbad: [', null],
    ['the word in a flow list', 'tags: [access, b\n', null],
    ['the word as a plain scalar', 'access private', null],
    ['an agent key', '  agent: private\n  bad: [', null],
    ['nothing at all', '', null],
  ];

  /** What the metadata cache would hold: a mapping, or undefined when the YAML fails or is not a mapping. */
  const parsed = (block: string): unknown => {
    try {
      const data: unknown = parseYaml(block);
      return data !== null && typeof data === 'object' && !Array.isArray(data) ? data : undefined;
    } catch {
      return undefined;
    }
  };

  test.each(cases)('%s: %j → %s', (_what, block, level) => {
    expect(parsed(block)).toBeUndefined();
    expect(unparsedBlockAccess(block, 'Bot')).toBe(level);
  });

  test('an override never opens a note its access closes, and names nothing for a caller without a label', () => {
    expect(unparsedBlockAccess('  access: read-only\n  agent_overrides: {Bot: read-write}\n  bad: [', 'Bot')).toBe('read-only');
    expect(unparsedBlockAccess('  agent_overrides:\n    Bot: no-access\n  bad: [', '')).toBe('read-write');
  });
});
