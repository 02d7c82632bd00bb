import { parseYaml } from 'obsidian';
import { parse as yamlParse } from 'yaml';
import { noteAccess, unparsedBlockAccess } from '../../../../src/vault/access/access-rules';
import { namesAccessRules, namesLabelRules, ruleKeyOf } from '../../../../src/vault/access/rule-keys';

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

describe('agent_overrides names the key label in either Unicode form (a note typed on macOS, a label pasted from a file name)', () => {
  const nfc = 'Caf\u00e9 bot';
  const nfd = nfc.normalize('NFD');
  test.each([
    ['a mapping entry in NFD, the label in NFC', { agent_overrides: { [nfd]: 'no-access' } }, nfc, 'private'],
    ['a mapping entry in NFC, the label in NFD', { agent_overrides: { [nfc]: 'read-only' } }, nfd, 'read-only'],
    ['a text naming it in NFD', { agent_overrides: `${nfd}: no-access` }, nfc, 'private'],
    ['a list item naming it in NFD', { agent_overrides: [nfd] }, nfc, 'private'],
    ['a merged mapping naming it in NFD', { '<<': { agent_overrides: { [nfd]: 'no-access' } } }, nfc, 'private'],
    ['another label is not matched', { agent_overrides: { [nfd]: 'no-access' } }, 'Cafe bot', 'read-write'],
  ])('%s', (_what, frontmatter, label, level) => {
    expect(noteAccess(frontmatter as Record<string, unknown>, label)).toBe(level);
  });

  test.each([
    ['a mapping line', `agent_overrides:\n  ${nfd}: no-access\nbroken: [`, nfc, 'private'],
    ['a flow mapping', `agent_overrides: {"${nfd}": read-only}\nbroken: [`, nfc, 'read-only'],
    ['an escaped label', `agent_overrides:\n  "Cafe\\u0301 bot": no-access\nbroken: [`, nfc, 'private'],
    ['the label in NFD, the note in NFC', `agent_overrides:\n  ${nfc}: no-access\nbroken: [`, nfd, 'private'],
  ])('unparsed: %s', (_what, block, label, level) => {
    expect(unparsedBlockAccess(block, label)).toBe(level);
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

describe('ruleKeyOf: the one comparison of rule names (trimmed, any case) every access reader uses', () => {
  test.each([
    ['access', 'access'],
    [' Access ', 'access'],
    ['\tAGENT_OVERRIDES\u00a0', 'agent_overrides'],
    ['<<', '<<'],
    [' << ', '<<'],
    ['accessible', null],
    ['my_access', null],
    ['agent_override', null],
    ['<', null],
    ['', null],
    // NFD of an ASCII name is that name; a combining mark makes another name (NFC composes it with the letter).
    ['access'.normalize('NFD'), 'access'],
    ['acce\u0301ss', null],
    ['access\u0301', null],
  ])('%j → %j', (name, rule) => {
    expect(ruleKeyOf(name)).toBe(rule);
  });

  test('matches exactly the names that trim and lower-case to a rule name, for every character in every position', () => {
    const expected = (name: string): string | null => {
      const key = name.trim().toLowerCase();
      return ['access', 'agent_overrides', '<<'].includes(key) ? key : null;
    };
    for (const rule of ['access', 'agent_overrides', '<<']) {
      for (let code = 0; code <= 0xffff; code++) {
        const c = String.fromCharCode(code);
        for (const name of [c + rule + c, ...[...rule].map((_, i) => rule.slice(0, i) + c + rule.slice(i + 1))]) {
          if (ruleKeyOf(name) !== expected(name)) throw new Error(`ruleKeyOf(${JSON.stringify(name)}) is ${ruleKeyOf(name)}`);
        }
      }
    }
  });

  test('namesAccessRules: any rule name, merge key included; namesLabelRules: the ones that may differ per label', () => {
    const cases: Array<[Record<string, unknown> | null | undefined, boolean, boolean]> = [
      [{ ' ACCESS ': 'private' }, true, false],
      [{ Agent_Overrides: {} }, true, true],
      [{ '<<': { x: 1 } }, true, true],
      // A merge key spelled with spaces is followed by noteAccess, so the note may differ per label too.
      [{ ' << ': { agent_overrides: { Bot: 'no-access' } } }, true, true],
      [{ accessible: 1, title: 't' }, false, false],
      [null, false, false],
      [undefined, false, false],
    ];
    for (const [frontmatter, any, perLabel] of cases) {
      expect(namesAccessRules(frontmatter)).toBe(any);
      expect(namesLabelRules(frontmatter)).toBe(perLabel);
    }
    expect(noteAccess({ ' << ': { agent_overrides: { Bot: 'no-access' } } }, 'Bot')).toBe('private');
  });
});

describe('noteAccess: merge keys and aliases that share objects are read whole, each object once', () => {
  /**
   * `value` with every object wrapped so that reading it counts (one alias, one wrapper: what
   * aliases share stays shared); past `budget` reads it throws. A walk that is not linear in the
   * note (a tree walk of shared aliases: 2^depth) fails here at once, where it would otherwise
   * hang: a jest timeout cannot cut a synchronous loop short.
   */
  function counted<T>(value: T, budget = 50_000): T {
    let reads = 0;
    const wrapped = new WeakMap<object, object>();
    const count = (): void => {
      if (++reads > budget) throw new Error(`more than ${budget} reads: the walk is not linear in the note`);
    };
    const wrap = (item: unknown): unknown => {
      if (item === null || typeof item !== 'object') return item;
      let proxy = wrapped.get(item);
      if (!proxy) {
        proxy = new Proxy(item, {
          get: (target, key, receiver) => (count(), wrap(Reflect.get(target, key, receiver))),
          ownKeys: (target) => (count(), Reflect.ownKeys(target)),
          getOwnPropertyDescriptor: (target, key) => {
            count();
            const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
            return descriptor && 'value' in descriptor ? { ...descriptor, value: wrap(descriptor.value) } : descriptor;
          },
        });
        wrapped.set(item, proxy);
      }
      return proxy;
    };
    return wrap(value) as T;
  }

  /** Frontmatter text parsed as a parser without an alias limit parses it: aliases are shared objects. */
  const unlimited = (text: string): Record<string, unknown> => yamlParse(text, { maxAliasCount: -1 }) as Record<string, unknown>;

  /** `levels` levels of mappings each merging `width` aliases of the level below, the last merged into the note. */
  function mergeChain(levels: number, width: number, leaf: string, own = ''): string {
    let text = `m0: &m0 {${leaf}}\n`;
    for (let i = 1; i <= levels; i++)
      text += `m${i}: &m${i} {<<: [${Array<string>(width)
        .fill(`*m${i - 1}`)
        .join(', ')}]}\n`;
    return `${text}${own}<<: *m${levels}\n`;
  }

  test('a note nesting 25+ levels of shared aliases under << is judged, and the rule at the bottom counts', () => {
    const deep = unlimited(mergeChain(30, 2, 'access: private'));
    expect((deep.m30 as Record<string, unknown[]>)['<<'][0]).toBe((deep.m30 as Record<string, unknown[]>)['<<'][1]);
    expect(noteAccess(counted(deep), 'Bot')).toBe('private');
    // Wide as well as deep: 12 aliases a level, 8 levels (12^8 mappings as a tree).
    expect(noteAccess(counted(unlimited(mergeChain(8, 12, 'access: read-only'))), 'Bot')).toBe('read-only');
    // The strictest reading holds: the note's own `access` cannot loosen what a merge key brings in.
    expect(noteAccess(counted(unlimited(mergeChain(30, 2, 'access: private', 'access: read-write\n'))), 'Bot')).toBe('private');
    // Per label, through merge keys: the override names Bot only.
    const overrides = unlimited(mergeChain(30, 3, 'agent_overrides: {Bot: no-access}'));
    expect(noteAccess(counted(overrides), 'Bot')).toBe('private');
    expect(noteAccess(counted(overrides), 'Other')).toBe('read-write');
    expect(noteAccess(counted(unlimited(mergeChain(30, 2, 'color: blue'))), 'Bot')).toBe('read-write');
  }, 10_000);

  test('an agent_overrides nesting 25+ levels of shared lists is judged, and the entry at the bottom counts', () => {
    for (const leaf of ['{Bot: no-access}', '"Bot: no-access"']) {
      let text = `a0: &a0 [${leaf}]\n`;
      for (let i = 1; i <= 30; i++) text += `a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}]\n`;
      const frontmatter = unlimited(`${text}agent_overrides: *a30\n`);
      expect(noteAccess(counted(frontmatter), 'Bot')).toBe('private');
      expect(noteAccess(counted(frontmatter), 'Other')).toBe('read-write');
    }
    // A merge key inside agent_overrides, deep and shared too.
    let text = 'o0: &o0 {Bot: read-only}\n';
    for (let i = 1; i <= 30; i++) text += `o${i}: &o${i} {<<: [*o${i - 1}, *o${i - 1}]}\n`;
    expect(noteAccess(counted(unlimited(`${text}agent_overrides: *o30\n`)), 'Bot')).toBe('read-only');
  }, 10_000);

  test('an access value nesting 25+ levels of shared lists is judged, its strictest word counting; a list that holds itself ends', () => {
    let text = 'l0: &l0 [read-write, read-only]\n';
    for (let i = 1; i <= 30; i++) text += `l${i}: &l${i} [*l${i - 1}, *l${i - 1}, *l${i - 1}]\n`;
    expect(noteAccess(counted(unlimited(`${text}access: *l30\n`)), 'Bot')).toBe('read-only');
    expect(noteAccess(counted(unlimited(`${text}agent_overrides: {Bot: *l30}\n`)), 'Bot')).toBe('read-only');
    const cyclic: unknown[] = ['read-only'];
    cyclic.push(cyclic, [cyclic]);
    expect(noteAccess({ access: cyclic }, 'Bot')).toBe('read-only');
    expect(noteAccess({ access: ['read-write', [[]]] }, 'Bot')).toBe('private');
  }, 10_000);

  test('a rule merge keys bring in from any depth counts, as a parser that expands them shows it (the host parser; no alias needed)', () => {
    for (const levels of [1, 8, 9, 40]) {
      // `<<: {<<: {… {access: private}}}`: nested merge keys, one mapping each.
      const text = `${'<<: {'.repeat(levels)}access: private${'}'.repeat(levels)}\n`;
      expect(noteAccess(parseYaml(text) as Record<string, unknown>, 'Bot')).toBe('private');
      const overrides = `agent_overrides: ${'{<<: '.repeat(levels)}{Bot: read-only}${'}'.repeat(levels)}\n`;
      expect(noteAccess(parseYaml(overrides) as Record<string, unknown>, 'Bot')).toBe('read-only');
      const lists = `agent_overrides: ${'['.repeat(levels)}"Bot: read-only"${']'.repeat(levels)}\n`;
      expect(noteAccess(parseYaml(lists) as Record<string, unknown>, 'Bot')).toBe('private');
    }
    // Thousands of levels do not overflow the stack.
    let chain: Record<string, unknown> = { access: 'read-only' };
    for (let i = 0; i < 20_000; i++) chain = { '<<': chain, [`p${i}`]: i };
    expect(noteAccess(chain, 'Bot')).toBe('read-only');
  });

  test('an alias cycle ends where it comes back, its rules counted', () => {
    const rules: Record<string, unknown> = { access: 'read-only' };
    rules['<<'] = [rules, { '<<': rules }];
    expect(noteAccess({ '<<': rules }, 'Bot')).toBe('read-only');
    const list: unknown[] = ['Other: no-access'];
    list.push(list, { '<<': list });
    expect(noteAccess({ agent_overrides: list }, 'Bot')).toBe('read-write');
    list.push('Bot: read-only');
    expect(noteAccess({ agent_overrides: list }, 'Bot')).toBe('private');
  });

  test("a merge key list's mappings count even beside items a parser would not merge", () => {
    expect(noteAccess(parseYaml('<<: [{access: private}, 3]') as Record<string, unknown>, 'Bot')).toBe('private');
  });
});
