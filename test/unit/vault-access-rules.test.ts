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
