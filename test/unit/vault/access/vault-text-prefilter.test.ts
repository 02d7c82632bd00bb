import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { NoteAccess } from '../../../../src/vault/access/access-rules';
import { AGENT_OVERRIDES_KEY, ACCESS_KEY } from '../../../../src/vault/access/rule-keys';
import { blockAccess, textAccess } from '../../../../src/vault/access/text-rules';
import { frontMatterInfo } from '../../../../src/vault/content/text/line-endings';
import { forgetParsedYaml } from '../../../../src/vault/content/frontmatter/parsed-yaml';
import { seededRandom } from '../../../harness/seeded-random';

/**
 * text-rules textAccess's prefilter (which frontmatter blocks are parsed for their access rules):
 * it skips the parse of a block whose rule words stand only inside longer words or plain values
 * (`title: Get-CAAuthorityInformationAccess`, `description: Disables access for users`), and it
 * stays complete: on every block, generated, mutated or real, it gives exactly the answer of the
 * session-31 prefilter, which parsed every block holding `access`, `agent`, `<<` or a backslash.
 * Parses are counted through the app's `parseYaml` (as test/integration/large-frontmatter does).
 */
const mockParsed: string[] = [];
jest.mock('obsidian', () => {
  const host = jest.requireActual<typeof import('obsidian')>('obsidian');
  return {
    ...host,
    parseYaml: (text: string): unknown => {
      mockParsed.push(text);
      return host.parseYaml(text);
    },
  };
});

// The yaml package warns (process.emitWarning) for each collection key it turns into text: many here.
beforeAll(() => jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined));
afterAll(() => jest.restoreAllMocks());

/** The session-31 prefilter, kept as the oracle: every block holding one of these was parsed. */
const OLD_MAY_NAME_RULE = /access|agent|<<|\\/i;

/** textAccess as it was in session 31 (same readers; only the prefilter differs). */
function oldTextAccess(text: string, label: string): NoteAccess {
  if (!text.startsWith('---') && !text.startsWith('\uFEFF---')) return 'read-write';
  const info = frontMatterInfo(text);
  if (!info.exists || !OLD_MAY_NAME_RULE.test(info.frontmatter)) return 'read-write';
  return blockAccess(info.frontmatter, label);
}

/** textAccess's answer for `text`, and whether it parsed the block (nothing remembered before). */
function judged(text: string, label: string): { level: NoteAccess; parsed: boolean } {
  forgetParsedYaml();
  mockParsed.length = 0;
  const level = textAccess(text, label);
  return { level, parsed: mockParsed.length > 0 };
}

/** A note whose frontmatter block is `lines` (joined with `eol`), then a body. */
function note(lines: readonly string[], eol = '\n', bom = ''): string {
  return `${bom}---${eol}${lines.join('\n').replace(/\n/g, eol)}${eol}---${eol}Body.${eol}`;
}

const LABELS = ['Claude', ''];

/** Compares new and old on `texts` for every label; returns the mismatches (at most 20) and counts. */
function compareAll(texts: Iterable<string>): {
  mismatches: Array<{ text: string; label: string; now: NoteAccess; before: NoteAccess }>;
  texts: number;
  ruled: number;
  skippedNow: number;
  parsedBefore: number;
} {
  const mismatches: Array<{ text: string; label: string; now: NoteAccess; before: NoteAccess }> = [];
  let count = 0;
  let ruled = 0;
  let skippedNow = 0;
  let parsedBefore = 0;
  for (const text of texts) {
    count++;
    let anyRule = false;
    // A label matters only through agent_overrides: the other label is tried where the text may name one.
    for (const label of /agent|<<|\\/i.test(text) ? LABELS : LABELS.slice(0, 1)) {
      const now = judged(text, label);
      forgetParsedYaml();
      mockParsed.length = 0;
      const before = oldTextAccess(text, label);
      const oldParsed = mockParsed.length > 0;
      if (label === LABELS[0]) {
        if (oldParsed) parsedBefore++;
        if (oldParsed && !now.parsed) skippedNow++;
      }
      if (before !== 'read-write') anyRule = true;
      if (now.level !== before && mismatches.length < 20) mismatches.push({ text, label, now: now.level, before });
    }
    if (anyRule) ruled++;
  }
  return { mismatches, texts: count, ruled, skippedNow, parsedBefore };
}

/** The names and near names a key or value is built from: the rule names, longer words, `agent` alone, a merge key. */
const WORDS = [
  ACCESS_KEY,
  AGENT_OVERRIDES_KEY,
  ACCESS_KEY,
  AGENT_OVERRIDES_KEY,
  'agent',
  'accessible',
  'my_access',
  'Getaccess',
  'access2',
  'Remote access',
  'agents',
  '<<',
];

/** Rule values: known words, a typo, empty, lists, override mappings and texts, aliases, anchors. */
const VALUES = [
  'private',
  'read-only',
  'Read Only',
  'read-write',
  'public',
  'privat',
  '',
  '[read-only, private]',
  '{Claude: no-access}',
  '{Other: no-access}',
  '"Claude: no-access"',
  'no-access',
  '\n  Claude: no-access',
  '\n  Other: read-only',
  '\n  - read-only',
  '*a',
  '&a read-only',
  '&r {Claude: read-only}',
];

type Form = (word: string, value: string) => string;

/** Every YAML way a key can be written: plain, indented, list items, quoted, escaped, flow, explicit, block scalars, properties, aliases, merge keys, comments, other white space. */
const KEY_FORMS: Form[] = [
  (w, v) => `${w}: ${v}`,
  (w, v) => `${w}:${v}`,
  (w, v) => `${w} : ${v}`,
  (w, v) => `meta:\n  ${w}: ${v}`,
  (w, v) => `- ${w}: ${v}`,
  (w, v) => `list:\n  - ${w}: ${v}`,
  (w, v) => `"${w}": ${v}`,
  (w, v) => `'${w}' : ${v}`,
  (w, v) => `"${escapedLetter(w)}": ${v}`,
  (w, v) => `"${w}\\\n  ": ${v}`,
  (w, v) => `{a: 1, ${w}: ${v}}`,
  (w, v) => `x: {a: 1,\n  ${w}: ${v}}`,
  (w) => `x: {a: 1,\n  b: c, ${w},\n  d: e}`,
  (w) => `{${w}}`,
  (w) => `{a: 1,\n  b: c, ${w},\n  d: e}`,
  (w) => `{a: 1,\n  b: c d, ${w}\n}`,
  (w, v) => `[x, ${w}: ${v}]`,
  (w, v) => `{"${w}":${v}}`,
  (w, v) => `? ${w}\n: ${v}`,
  (w, v) => `?\n  ${w}\n: ${v}`,
  (w, v) => `? |\n  ${w}\n: ${v}`,
  (w, v) => `? >-\n  ${w}\n: ${v}`,
  (w, v) => `? "${w}\n  "\n: ${v}`,
  (w, v) => `? '\n  ${w}'\n: ${v}`,
  (w, v) => `? [${w}]\n: ${v}`,
  (w, v) => `? - ${w}\n: ${v}`,
  (w, v) => `!!str ${w}: ${v}`,
  (w, v) => `! ${w}: ${v}`,
  (w, v) => `&k ${w}: ${v}`,
  (w, v) => `&k\n${w}: ${v}`,
  (w, v) => `x: &a ${w}\n*a : ${v}`,
  (w, v) => `x: &a Get${w}\n*a : ${v}`,
  (w, v) => `x: &a ${w}\n? *a\n: ${v}`,
  (w, v) => `<<: {${w}: ${v}}`,
  (w, v) => `base: &b {${w}: ${v}}\n<<: *b`,
  (w, v) => `# ${w}: ${v}`,
  (w, v) => `t: x # ${w}: ${v}`,
  (w, v) => `\u00A0${w}: ${v}`,
  (w, v) => `${w}\u3000: ${v}`,
  (w, v) => `"\u2003${w} ": ${v}`,
  (w, v) => `\uFEFF${w}: ${v}`,
  (w, v) => `\t${w}: ${v}`,
  (w, v) => `${w}:\t${v}`,
  (w, v) => `- - ${w}: ${v}`,
];

/** The word in a value: inside longer words, plain values (alone, first, among others), URLs, quoted, multi-line, block scalars, flow lists, comments, continuation lines. */
const VALUE_FORMS: Array<(word: string) => string> = [
  (w) => `title: ${w}`,
  (w) => `title: Get-CA${w}Info`,
  (w) => `title: Add-CAAuthorityInformation${w}`,
  (w) => `description: Disables ${w} for users, and more.`,
  (w) => `online version: https://learn.example/module/add-ca${w}?view=ps-2016&wt.mc_id=ps-gethelp`,
  (w) => `description: Grants ${w}: to all`,
  (w) => `description: x, ${w}: y`,
  (w) => `description: Grants ${w} to:`,
  (w) => `title: ${w} notes`,
  (w) => `title: '${w}'`,
  (w) => `title: "${w} x"`,
  (w) => `title: "foo\n  ${w}: private"`,
  (w) => `title: 'foo\n${w}: bar'`,
  (w) => `desc: |\n  ${w}: private\n  more`,
  (w) => `desc: >\n  Grants ${w} to all`,
  (w) => `tags: [a, ${w}]`,
  (w) => `title: ${w} # ${w}: private`,
  (w) => `t: x\n  ${w} y`,
  (w) => `t: x\n  ${w}`,
  (w) => `description: Grants ${w}`,
  (w) => `k: v ${w}ible`,
  (w) => `Module Name: Remote${w}`,
  (w) => `key: ${w} (read), ${w}=all; ${w}/x +${w}-y`,
  (w) => `  nested: ${w} of it`,
  (w) => `${w}ible: ${w} granted`,
];

/** Lines naming no rule word: plain, flow, breaking the parse (unclosed, duplicate keys, stray colons, tabs), comments, an override line. */
const OTHER_LINES = [
  'title: Plain note',
  'tags: [a, b]',
  'n: 1',
  'x: [unclosed',
  'dup: 1\ndup: 2',
  'bad: : :',
  '  stray: indent',
  '- item',
  '',
  '# a comment',
  'z: "unclosed',
  'Claude: no-access',
  '\tTab: x',
  'agent_overrides:\n  Claude: read-only',
  'u: café',
];

/** What is put right before or after a rule word when a block is mutated: line breaks, indicators, quotes, properties, white space, letters. */
const NEAR = [
  '\n',
  '\n  ',
  ': ',
  ':',
  '{',
  '}',
  '[',
  ']',
  ', ',
  ',',
  '"',
  "'",
  '? ',
  '- ',
  '&a ',
  '*a ',
  '*',
  '!!str ',
  '!',
  '# ',
  ' ',
  '  ',
  '\t',
  '\u00A0',
  'x',
  'X9',
  '_',
  '-',
  '.',
  '|',
  '>',
  '\\',
  '<<: ',
  '?',
  '&',
  '=',
  '(',
  ')',
  '/',
];

/** `word` with one letter as a YAML escape (`\x65`, `\u0065`, `\U00000065`), for double-quoted keys. */
function escapedLetter(word: string): string {
  const at = word.search(/[a-z]/i);
  if (at < 0) return word;
  const code = word.charCodeAt(at).toString(16);
  return `${word.slice(0, at)}\\x${code}${word.slice(at + 1)}`;
}

/** `word` with each letter upper-cased at random. */
function anyCase(word: string, r: () => number): string {
  return [...word].map((c) => (r() < 0.3 ? c.toUpperCase() : c)).join('');
}

/** `block` with `near` put before or after one rule word in it (any case), when it has one. */
function mutateNear(block: string, r: () => number): string {
  const words = [...block.matchAll(/access|agent/gi)];
  if (words.length === 0) return block;
  const word = words[Math.floor(r() * words.length)];
  const at = r() < 0.5 ? word.index : word.index + word[0].length;
  return block.slice(0, at) + pick(r, NEAR) + block.slice(at);
}

function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)];
}

/** One generated note: one to five fragments (rule keys, words in values, other lines), mutated near its words, in LF, CRLF or CR, with or without a byte-order mark. */
function generatedNote(r: () => number): string {
  const fragments: string[] = [];
  const count = 1 + Math.floor(r() * 5);
  for (let i = 0; i < count; i++) {
    const roll = r();
    const word = anyCase(pick(r, WORDS), r);
    if (roll < 0.4) fragments.push(pick(r, KEY_FORMS)(word, pick(r, VALUES)));
    else if (roll < 0.8) fragments.push(pick(r, VALUE_FORMS)(word));
    else fragments.push(pick(r, OTHER_LINES));
  }
  let block = fragments.join('\n');
  const mutations = Math.floor(r() * 3);
  for (let i = 0; i < mutations; i++) block = mutateNear(block, r);
  if (r() < 0.3) {
    // Anywhere, too: an indicator or line break far from the words can change what they are.
    const at = Math.floor(r() * (block.length + 1));
    block = block.slice(0, at) + pick(r, NEAR) + block.slice(at);
  }
  if (r() < 0.1) block = block.replace(/^/gm, '  ');
  const eol = pick(r, ['\n', '\n', '\r\n', '\r']);
  return note([block], eol, r() < 0.1 ? '\uFEFF' : '');
}

describe('textAccess parses only blocks where a reader may find a rule', () => {
  const LABEL = 'Claude';

  test.each<[string, string[]]>([
    [
      'a PowerShell cmdlet note (the word inside the title, the help file and the URL, with ? and & in it)',
      [
        'description: Use this topic to help manage Windows and Windows Server technologies with Windows PowerShell.',
        'external help file: Microsoft.CertificateServices.Administration.Commands.dll-Help.xml',
        'Module Name: ADCSAdministration',
        'ms.date: 12/27/2016',
        'online version: https://learn.microsoft.com/powershell/module/adcsadministration/add-caauthorityinformationaccess?view=windowsserver2016-ps&wt.mc_id=ps-gethelp',
        'schema: 2.0.0',
        'title: Add-CAAuthorityInformationAccess',
      ],
    ],
    ['a module named for it', ['Module Name: RemoteAccess', 'title: Get-RemoteAccessHealth']],
    [
      'the word among other words of a plain value',
      ['description: Disables access for specified standard users to event, service, and role data.'],
    ],
    ['the word first in a plain value', ['title: Access rules of a server (read-only view)']],
    ['longer keys', ['accessible: yes', 'AccessLevel: 3', 'agentsOnly: true']],
    ['agent without _overrides, as a key or a word', ['agent: Smith', 'title: Install the agent']],
  ])('%s: not parsed, read-write', (_name, lines) => {
    for (const [eol, bom] of [
      ['\n', ''],
      ['\r\n', ''],
      ['\r', ''],
      ['\n', '\uFEFF'],
    ]) {
      const text = note(lines, eol, bom);
      expect(judged(text, LABEL)).toEqual({ level: 'read-write', parsed: false });
      expect(oldTextAccess(text, LABEL)).toBe('read-write');
    }
  });

  test.each<[string, string[], NoteAccess]>([
    ['a rule key', ['title: Add-CAAuthorityInformationAccess', 'access: private'], 'private'],
    ['the word alone as a value', ['title: access'], 'read-write'],
    ['a value that is made a key through an alias', ['x: &a access', '*a : private'], 'private'],
    ['an alias anywhere', ['title: Disables access for users', 'x: &a y', 'z: *a'], 'read-write'],
    ['a tag anywhere', ['title: Disables access for users', 'n: !!int 3'], 'read-write'],
    [
      'a word before a colon in a value (the block does not parse; the unparsed reading counts it)',
      ['description: x, access: private'],
      'private',
    ],
    ['a value with a colon', ['description: Grants access: read-only'], 'read-write'],
    ['a comment in a block that does not parse', ['title: Disables access for users # access: private', 'x: [unclosed'], 'private'],
    ['a flow collection anywhere (a plain-looking line inside it)', ['{a: 1,', '  b: c, access,', '  d: e}'], 'private'],
    ['a quoted word', ['title: "access"'], 'read-write'],
    ['an explicit key', ['? access', ': read-only'], 'read-only'],
    ['a block scalar as an explicit key', ['? |', '  access', ': read-only'], 'read-only'],
    ['a word after a non-breaking space (trimmed as white space)', ['\u00A0access: private'], 'private'],
    ['a sequence entry', ['- access: private'], 'private'],
    ['agent_overrides', ['agent_overrides:', '  Claude: no-access'], 'private'],
    ['an escape', ['"acc\\x65ss": private'], 'private'],
    ['a merge key', ['<<: {access: read-only}'], 'read-only'],
  ])('%s: parsed, as before', (_name, lines, level) => {
    const text = note(lines);
    expect(judged(text, LABEL)).toEqual({ level, parsed: true });
    expect(oldTextAccess(text, LABEL)).toBe(level);
  });
});

describe('textAccess answers as the session-31 prefilter did, on every block', () => {
  /** The generated corpus's comparison, made once for the two tests that read it. */
  let generated: ReturnType<typeof compareAll> | undefined;
  const generatedResult = (): ReturnType<typeof compareAll> => {
    if (generated) return generated;
    const r = seededRandom(0x5eed32);
    generated = compareAll(Array.from({ length: 8000 }, () => generatedNote(r)));
    return generated;
  };

  test('8,000 generated and mutated blocks (every key form, any case, spacing, quotes, tags, anchors, aliases, flow, explicit keys, CRLF, CR, BOM)', () => {
    const result = generatedResult();
    expect(result.mismatches).toEqual([]);
    // The corpus means something: many of its blocks name a rule.
    expect(result.ruled).toBeGreaterThan(result.texts / 10);
  });

  test('the generated corpus: many blocks the old prefilter parsed are skipped, most are still parsed', () => {
    const result = generatedResult();
    expect(result.skippedNow).toBeGreaterThan(result.texts / 20);
    expect(result.parsedBefore - result.skippedNow).toBeGreaterThan(result.texts / 2);
  });

  test('every rule word of every key form, put next to each indicator in turn', () => {
    const texts: string[] = [];
    for (const form of KEY_FORMS)
      for (const value of ['private', '\n  Claude: no-access'])
        for (const word of [ACCESS_KEY, 'AGENT_Overrides']) {
          const block = form(word, value);
          texts.push(note([block]));
          for (const near of NEAR) {
            const at = block.search(/access|agent_overrides/i);
            if (at < 0) continue;
            texts.push(note([block.slice(0, at) + near + block.slice(at)]));
            const end = at + word.length;
            texts.push(note([block.slice(0, end) + near + block.slice(end)]));
          }
        }
    const result = compareAll(texts);
    expect(result.mismatches).toEqual([]);
    expect(result.ruled).toBeGreaterThan(result.texts / 20);
  });

  test('no character but ASCII ones folds (`/i` without `u`) or normalizes (NFC) to a character of a rule name', () => {
    const nameChars = new Set([
      ...`${ACCESS_KEY}${AGENT_OVERRIDES_KEY}<`.toLowerCase(),
      ...`${ACCESS_KEY}${AGENT_OVERRIDES_KEY}`.toUpperCase(),
    ]);
    const folds = new RegExp(`^[${[...nameChars].join('').replace(/[-\\\]^]/g, '\\$&')}]$`, 'i');
    const found: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const char = String.fromCodePoint(cp);
      if (folds.test(char) || [...char.normalize('NFC')].some((c) => nameChars.has(c))) found.push(cp.toString(16));
    }
    expect(found).toEqual([]);
  });
});

const ARCHIVE = nodePath.resolve(__dirname, '../../../../../shared/vaults/windows-powershell-docs.tar.zst');
const psPresent = existsSync(ARCHIVE) ? describe : describe.skip;
if (!existsSync(ARCHIVE)) console.log(`Skipping the PowerShell vault's prefilter check: ${ARCHIVE} is absent.`);

psPresent('textAccess on the PowerShell docs vault (14k real notes)', () => {
  let dir = '';
  const texts: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(nodePath.join(os.tmpdir(), 'ps-prefilter-'));
    execFileSync('tar', ['--zstd', '-xf', ARCHIVE, '-C', dir]);
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = nodePath.join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.md')) texts.push(readFileSync(path, 'utf8'));
      }
    };
    walk(dir);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The vault's comparison, made once for the two tests that read it. */
  let real: ReturnType<typeof compareAll> | undefined;
  const realResult = (): ReturnType<typeof compareAll> => (real ??= compareAll(texts));

  test('every note has the answer it had (none names a rule)', () => {
    expect(texts.length).toBeGreaterThan(10000);
    const result = realResult();
    expect(result.mismatches).toEqual([]);
    expect(result.ruled).toBe(0);
  });

  test('no note names a rule word where a key may stand, so none is parsed (the old prefilter parsed those naming access in a value)', () => {
    const result = realResult();
    expect(result.parsedBefore).toBeGreaterThan(0);
    expect(result.skippedNow).toBe(result.parsedBefore);
  });

  test("its notes' blocks mutated next to their rule words answer as before", () => {
    const r = seededRandom(0x9517);
    const mutated: string[] = [];
    for (const text of texts) {
      const info = frontMatterInfo(text);
      if (!info.exists || !/access|agent/i.test(info.frontmatter)) continue;
      for (let i = 0; i < 4; i++) {
        let block = mutateNear(info.frontmatter.replace(/\r\n?/g, '\n'), r);
        if (r() < 0.5) block = mutateNear(block, r);
        if (r() < 0.3) block = `${block}\n${pick(r, KEY_FORMS)(anyCase(pick(r, WORDS), r), pick(r, VALUES))}`;
        mutated.push(note([block], text.includes('\r\n') ? '\r\n' : '\n'));
      }
    }
    const result = compareAll(mutated);
    expect(result.mismatches).toEqual([]);
    expect(result.ruled).toBeGreaterThan(0);
  });
});

describe('textAccess judges each line of a block once', () => {
  /** How many times the prefilter's plain-value pattern ran while `run` ran (one spy on RegExp.prototype.exec, filtered by source). */
  function plainValueChecks(run: () => void): number {
    const exec = jest.spyOn(RegExp.prototype, 'exec');
    try {
      run();
      // The pattern of one `key: value` line (text-rules.ts PLAIN_VALUE_LINE): its key part is the only `[\w .-]*: +`.
      return exec.mock.contexts.filter((re) => (re as RegExp).source.includes(String.raw`[\w .-]*: +`)).length;
    } finally {
      exec.mockRestore();
    }
  }

  it('checks a long line of many rule words once, not once per word (each check scanned the line: seconds a read)', () => {
    const text = `---\ndescription:${' grant access'.repeat(4000)}\n---\nBody.\n`;
    let level: NoteAccess | null = null;
    expect(plainValueChecks(() => (level = textAccess(text, 'Claude')))).toBe(1);
    expect(level).toBe(oldTextAccess(text, 'Claude'));
    expect(level).toBe('read-write');
  });

  it('checks each line holding a rule word once, in a block of many such lines, CRLF or LF', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const lines = Array.from({ length: 2000 }, (_, i) => `k${i}: x access y`);
      const text = `---${eol}${lines.join(eol)}${eol}---${eol}Body.${eol}`;
      let level: NoteAccess | null = null;
      expect(plainValueChecks(() => (level = textAccess(text, 'Claude')))).toBe(2000);
      expect(level).toBe('read-write');
    }
  });

  it('still parses a block whose long line of rule words ends in a key (the word before a colon)', () => {
    const text = `---\ndescription:${' grant access'.repeat(2000)}\naccess: private\n---\nBody.\n`;
    expect(textAccess(text, 'Claude')).toBe('private');
    expect(oldTextAccess(text, 'Claude')).toBe('private');
  });
});
