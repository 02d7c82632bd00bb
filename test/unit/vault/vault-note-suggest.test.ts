import fc from 'fast-check';
import type { TFile } from 'obsidian';
import { substringEditDistance, unmatchedInAscii, unmatchedUnits } from '../../../src/vault/content/text/approximate-match';
import { similarNotePaths, MAX_SUGGESTIONS } from '../../../src/vault/content/note-suggest';
import { NoteStore } from '../../../src/vault/note-store';
import type { AccessScope } from '../../../src/vault/access/access';
import { errorOf } from '../../harness/server/tool-errors';
import { openDemoVault, type DemoVault } from '../../harness/vault-fixture';

/** A stand-in TFile with just what the matcher reads. */
function file(path: string): TFile {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return { path, name, basename: name.replace(/\.md$/, ''), extension: 'md' } as TFile;
}

/** Sellers' table in full, no cut-off: the reference the fast version must agree with. */
function referenceDistance(pattern: string, text: string): number {
  let column = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  let best = column[pattern.length];
  for (const unit of text) {
    const next = [0];
    for (let i = 1; i <= pattern.length; i++) {
      next[i] = Math.min(column[i - 1] + (pattern[i - 1] === unit ? 0 : 1), column[i] + 1, next[i - 1] + 1);
    }
    column = next;
    best = Math.min(best, column[pattern.length]);
  }
  return best;
}

describe('substringEditDistance (pattern against its closest substring)', () => {
  it('counts substitutions, insertions, deletions and a swap as two', () => {
    expect(substringEditDistance('overview', 'Alpha overview', 3)).toBe(0);
    expect(substringEditDistance('alfa', 'alpha overview', 3)).toBe(2);
    expect(substringEditDistance('handbok', 'sourdough handbook', 3)).toBe(1);
    expect(substringEditDistance('overveiw', 'beta overview', 3)).toBe(2);
    expect(substringEditDistance('meeting', 'meeting 11', 0)).toBe(0);
  });

  it('edge cases: empty pattern matches anywhere, empty text costs the whole pattern', () => {
    expect(substringEditDistance('', 'anything', 0)).toBe(0);
    expect(substringEditDistance('abc', '', 5)).toBe(3);
    expect(substringEditDistance('abc', 'xyz', 5)).toBe(3);
  });

  it('above maxErrors it only says "more than that"', () => {
    expect(substringEditDistance('quantum', 'alpha overview', 2)).toBeGreaterThan(2);
    expect(substringEditDistance('abcdefgh', 'abcdxxxx', 1)).toBeGreaterThan(1);
  });

  it('is exact at any distance for patterns of one 32-unit block and of several, non-ASCII units included', () => {
    const unit = fc.constantFrom('a', 'b', 'é', '日', '-', ' ');
    fc.assert(
      fc.property(
        fc.string({ unit, minLength: 1, maxLength: 100 }),
        fc.array(fc.string({ unit, maxLength: 80 }), { minLength: 1, maxLength: 4 }),
        (pattern, texts) => {
          // Several texts with one pattern (its masks are kept between calls), then another pattern.
          for (const text of texts) expect(substringEditDistance(pattern, text, 100)).toBe(referenceDistance(pattern, text));
          const other = `${pattern.slice(1)}b`;
          expect(substringEditDistance(other, texts[0], 100)).toBe(referenceDistance(other, texts[0]));
        },
      ),
      { numRuns: 500 },
    );
    const full = 'abcdefghijklmnopqrstuvwxyz012345';
    const long = `${full}${full.toUpperCase()}!`;
    expect(substringEditDistance(long, `~${long}~`, 0)).toBe(0);
    expect(substringEditDistance(long, long.replace('C', 'c').replace('!', ''), 65)).toBe(2);
    expect(substringEditDistance(full, `xx${full}yy`, 0)).toBe(0);
    expect(substringEditDistance(full, full.replace('m', 'M'), 32)).toBe(1);
    expect(substringEditDistance(full, 'zzz', 32)).toBe(referenceDistance(full, 'zzz'));
  });

  it('unmatchedUnits: the pattern units no text unit matches (each used once), never above the distance', () => {
    expect(unmatchedUnits('handbok', 'sourdough handbook')).toBe(0);
    expect(unmatchedUnits('aab', 'ab')).toBe(1);
    expect(unmatchedUnits('xyz', 'abc')).toBe(3);
    expect(unmatchedUnits('é日本', '日本語')).toBe(1);
    // The scratch table is left zeroed: a call after another answers alone.
    expect(unmatchedUnits('zzz', 'z')).toBe(2);
    expect(unmatchedUnits('z', 'a')).toBe(1);
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', 'é'), maxLength: 40 });
    fc.assert(
      fc.property(text, text, (pattern, haystack) => {
        expect(unmatchedUnits(pattern, haystack)).toBeLessThanOrEqual(
          haystack === '' ? pattern.length : referenceDistance(pattern, haystack),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("unmatchedInAscii: unmatchedUnits in a stretch's lower-cased NFC form read from the stretch as it is, never above the distance", () => {
    expect(unmatchedInAscii('budgett', 'Projects/Alpha overview')).toBe(unmatchedUnits('budgett', 'projects/alpha overview'));
    expect(unmatchedInAscii('alfa', 'ALPHA')).toBe(1);
    // Only a stretch of the text: here its name, after the folder.
    expect(unmatchedInAscii('zoo', 'Zoo/Bar.md', 4, 7)).toBe(3);
    // A unit outside ASCII may lower-case or compose into any unit: the stretch is not bounded.
    expect(unmatchedInAscii('k', '\u212a')).toBe(0);
    expect(unmatchedInAscii('zz', 'Café')).toBe(0);
    const unit = fc.constantFrom('a', 'B', 'k', 'Z', 'z', ' ', '1', '/', 'é', 'É', '\u212a', 'Σ', 'e\u0301', 'İ');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), fc.string({ unit, maxLength: 30 }), (rawPattern, rawText) => {
        const pattern = rawPattern.normalize('NFC').toLowerCase();
        const text = rawText.normalize('NFC').toLowerCase();
        const distance = text === '' ? pattern.length : referenceDistance(pattern, text);
        expect(unmatchedInAscii(pattern, rawText)).toBeLessThanOrEqual(distance);
        if ([...rawText].every((u) => u.charCodeAt(0) < 128))
          expect(unmatchedInAscii(pattern, rawText)).toBe(unmatchedUnits(pattern, text));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a negative or fractional maxErrors', () => {
    expect(() => substringEditDistance('a', 'b', -1)).toThrow(/maxErrors must be a whole number/);
    expect(() => substringEditDistance('a', 'b', 1.5)).toThrow(RangeError);
  });

  it('agrees with the full table whenever the distance is within maxErrors (longer than 32 units too)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' '), maxLength: 60 });
    fc.assert(
      fc.property(text, text, fc.nat(40), (pattern, haystack, maxErrors) => {
        const exact = referenceDistance(pattern, haystack);
        const fast = substringEditDistance(pattern, haystack, maxErrors);
        if (exact <= maxErrors) expect(fast).toBe(exact);
        else expect(fast).toBeGreaterThan(maxErrors);
      }),
      { numRuns: 500 },
    );
  });
});

describe('similarNotePaths (fuzzy "did you mean")', () => {
  const notes = ['Projects/Alpha/Alpha overview.md', 'Projects/Beta/Beta overview.md', 'Reference/Sourdough handbook.md', 'Inbox.md'].map(
    file,
  );
  const none = (): string[] => [];

  it('finds names with typos, with or without folders, .md or [[ ]], closest first', () => {
    expect(similarNotePaths('Alfa overview', notes, none)[0]).toBe('Projects/Alpha/Alpha overview.md');
    expect(similarNotePaths('[[Sourdough handbok]]', notes, none)).toEqual(['Reference/Sourdough handbook.md']);
    expect(similarNotePaths('Projects/Beta/Beta overveiw.md', notes, none)[0]).toBe('Projects/Beta/Beta overview.md');
  });

  it('matches aliases, returns nothing for unrelated names or empty input, and at most 5', () => {
    expect(similarNotePaths('Northwind dashbord', notes, (f) => (f.path.includes('Alpha') ? ['Northwind dashboard'] : []))).toEqual([
      'Projects/Alpha/Alpha overview.md',
    ]);
    expect(similarNotePaths('quantum chromodynamics', notes, none)).toEqual([]);
    expect(similarNotePaths('  ', notes, none)).toEqual([]);
    const many = Array.from({ length: 12 }, (_, k) => file(`Daily/Meeting ${k}.md`));
    expect(similarNotePaths('Meeting', many, none)).toHaveLength(MAX_SUGGESTIONS);
  });

  it("every word asked for must be near one of the note's fields: a shared word or folder is not enough", () => {
    const vault = [
      'Personal/Therapy notes.md',
      'Reference/Sourdough handbook.md',
      'Reference/Café notes.md',
      'Test/notes/other.md',
      'Test/x.md',
    ].map(file);
    const aliases = (f: TFile): string[] => (f.path.includes('Sourdough') ? ['Bread notes'] : []);
    const mine = vault.filter((f) => !f.path.startsWith('Personal/'));
    // Before, "notes" and a few letters carried the alias "Bread notes" and "Café notes" (5 edits of 13).
    expect(similarNotePaths('Therapy notes', mine, aliases)).toEqual([]);
    expect(similarNotePaths('Therapy notse', vault, aliases)).toEqual(['Personal/Therapy notes.md']);
    // Before, the shared "test/" carried "Test/notes/other" (3 edits of 10).
    expect(similarNotePaths('Test/Mover', vault, aliases)).toEqual([]);
    expect(similarNotePaths('Test/Othr', vault, aliases)).toEqual(['Test/notes/other.md']);
    // A path's name must be close to the note's name or an alias: a shared folder alone suggested every note in it.
    const projects = ['Projects/Dup1.md', 'Projects/Plan.md', 'Journal/Roadmapp.md', 'Home.md'].map(file);
    // A note of exactly the path's name elsewhere is named first (moved, or its folder misremembered).
    expect(similarNotePaths('Projects/Home', projects, none)).toEqual(['Home.md']);
    expect(similarNotePaths('Daily/2026-03-03', ['Daily/2026-03-02.md', 'Journal/2026-03-03.md'].map(file), none)[0]).toBe(
      'Journal/2026-03-03.md',
    );
    // A bare name is a note's name: a folder it resembles is no reason (`Secrt` was close to `projects`).
    expect(similarNotePaths('Secrt', ['Projects/Alpha/Alpha plan.md'].map(file), none)).toEqual([]);
    expect(similarNotePaths('Secrt', ['Secret.md'].map(file), none)).toEqual(['Secret.md']);
    expect(similarNotePaths('Journal/Hme', projects, none)).toEqual([]);
    expect(similarNotePaths('Projects/Pln', projects, none)).toEqual(['Projects/Plan.md']);
    expect(similarNotePaths('Projets/Plan', projects, none)).toEqual(['Projects/Plan.md']);
    // A swap in a short word, a word from the folder, and a missing word still pass.
    expect(similarNotePaths('Garden plna', [file('Areas/Home/Garden plan.md')], none)).toEqual(['Areas/Home/Garden plan.md']);
    expect(similarNotePaths('Alpha project overview', [file('Projects/Alpha/Alpha overview.md')], none)).toEqual([
      'Projects/Alpha/Alpha overview.md',
    ]);
    expect(similarNotePaths('Alpha overview', [file('Projects/Alpha/Alpha project overview.md')], none)).toEqual([
      'Projects/Alpha/Alpha project overview.md',
    ]);
  });

  it("a wikilink's inside without brackets (Note#Heading, Note^block, Note|text) suggests the note it names first", () => {
    expect(similarNotePaths('Inbox#Inbox', notes, none)[0]).toBe('Inbox.md');
    expect(similarNotePaths('Inbox.md#Tasks for today', notes, none)[0]).toBe('Inbox.md');
    expect(similarNotePaths('Inbox|my inbox', notes, none)[0]).toBe('Inbox.md');
    expect(similarNotePaths('Reference/Sourdough handbook^ab12cd', notes, none)[0]).toBe('Reference/Sourdough handbook.md');
    // The whole input still counts: a name that holds '#' on disk is found as it is.
    expect(similarNotePaths('C# notes', [...notes, file('Dev/C# notes.md')], none)).toContain('Dev/C# notes.md');
    expect(similarNotePaths('#Inbox', notes, none)).toEqual(['Inbox.md']);
    expect(similarNotePaths('Nothing#Inbox', notes, none)).toEqual([]);
  });

  it('ignores case, ranks an exact name over a longer one, and ties in vault order', () => {
    const names = ['Archive/Inbox old.md', 'Inbox.md', 'Work/Inbox.md'].map(file);
    expect(similarNotePaths('INBOX', names, none)).toEqual(['Inbox.md', 'Work/Inbox.md', 'Archive/Inbox old.md']);
  });

  it('a short name needing an edit suggests names of about its length, not every longer name holding a near spelling (session 43)', () => {
    const vault = ['Meeting notes.md', 'Project note.md', 'Note.md', 'Nope list.md', 'Notes/Hme.md', 'Home.md'].map(file);
    // 'Nope' is one edit from 'note' inside the first two: chance. 'Note' is the name of about its length; 'Nope list' holds it as it is.
    expect(similarNotePaths('Nope', vault, none)).toEqual(['Nope list.md', 'Note.md']);
    expect(similarNotePaths('Hom', vault, none)).toEqual(['Home.md', 'Notes/Hme.md']);
  });

  it('a long input (over 32 characters) is matched whole: a typo in it still finds the note, a stranger does not', () => {
    const long = ['Licenses/Introduction to licenses and payment.md', 'Sync/Introduction to Obsidian Sync.md'].map(file);
    expect(similarNotePaths('Introduction to licenses agd payment', long, none)).toEqual([
      'Licenses/Introduction to licenses and payment.md',
    ]);
  });
});

/**
 * similarNotePaths as it was before its letter bounds and skips (session 41): every field of every
 * note made and compared by the full table. The fast version must suggest exactly what this does.
 */
function referenceSuggestions(input: string, notes: readonly TFile[], aliasesOf: (file: TFile) => string[]): string[] {
  const weights = { name: 2, alias: 1.5, stem: 1 };
  const sum = weights.name + weights.alias + weights.stem;
  const share = (wanted: string, value: string, allowed: number): number | null => {
    if (value === wanted) return 0;
    const errors = referenceDistance(wanted, value);
    // A name of four units or fewer found only with an edit counts in a field of about its length only.
    if (errors > 0 && wanted.length <= 4 && Math.abs(value.length - wanted.length) > allowed) return null;
    return errors <= allowed ? Math.max(0.001, errors / wanted.length) : null;
  };
  const norm = (value: string): number => {
    const tokens = Math.max(1, value.split(/[\t-\r \u00a0]+/).filter((token) => token !== '').length);
    return Math.round(1000 / Math.sqrt(tokens)) / 1000;
  };
  const close = (wanted: string, name = ''): string[] => {
    if (wanted === '') return [];
    const words = (name === '' ? wanted : name).split(/[\s/]+/).filter((word) => word.length >= 3);
    const scored: Array<{ path: string; score: number }> = [];
    for (const note of notes) {
      const fields = [
        { raw: note.basename, weight: weights.name },
        ...aliasesOf(note).map((raw) => ({ raw, weight: weights.alias })),
        { raw: note.path.replace(/\.md$/i, ''), weight: weights.stem },
      ].map(({ raw, weight }) => ({ value: raw.normalize('NFC'), lower: raw.normalize('NFC').toLowerCase(), weight }));
      let score = 1;
      let matched = false;
      for (const { value, lower, weight } of fields) {
        const s = share(wanted, lower, Math.floor(0.4 * wanted.length));
        if (s === null) continue;
        matched = true;
        score *= Math.pow(s === 0 ? Number.EPSILON : s, (weight / sum) * norm(value));
      }
      const wordsFound = words.every((word) => fields.some(({ lower }) => referenceDistance(word, lower) <= Math.ceil(0.4 * word.length)));
      const [called, allowed] = name === '' ? [wanted, Math.floor(0.4 * wanted.length)] : [name, Math.floor(0.4 * name.length)];
      const namedBy = fields.some(({ lower, weight }) => weight !== weights.stem && share(called, lower, allowed) !== null);
      const exact = name !== '' && fields[0].lower === name;
      if (exact) scored.push({ path: note.path, score: -1 });
      else if (matched && wordsFound && namedBy) scored.push({ path: note.path, score });
    }
    return scored
      .sort((a, b) => a.score - b.score)
      .slice(0, MAX_SUGGESTIONS)
      .map((entry) => entry.path);
  };
  const whole = input
    .replace(/^\[\[(.*)\]\]$/, '$1')
    .trim()
    .replace(/\.md$/i, '')
    .normalize('NFC')
    .toLowerCase();
  const cut = whole.search(/[#^|]/);
  const head = cut > 0 ? whole.slice(0, cut).trim().replace(/\.md$/i, '') : '';
  const slash = whole.lastIndexOf('/');
  const found = [...(head === '' ? [] : close(head)), ...close(whole, slash >= 0 ? whole.slice(slash + 1).trim() : '')];
  return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
}

describe('similarNotePaths against the direct reference', () => {
  it('suggests what comparing every field of every note suggests (letter bounds and the skipped name change nothing)', () => {
    const unit = fc.constantFrom('a', 'b', 'o', 'T', 'k', ' ', '/', '1', 'é', 'É', '\u212a', 'Σ', 'e\u0301');
    const segment = fc.string({
      unit: fc.constantFrom('a', 'b', 'o', 'T', 'k', ' ', '1', 'é', 'É', '\u212a', 'Σ', 'e\u0301'),
      minLength: 1,
      maxLength: 8,
    });
    const note = fc.record({
      path: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('/')}.md`),
      aliases: fc.array(fc.string({ unit, maxLength: 8 }), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(note, { minLength: 1, maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'o', 'T', 'k', ' ', '/', 'é', 'Σ', '#'), maxLength: 12 }),
        fc.nat(),
        (vault, typed, pick) => {
          const files = vault.map((n) => file(n.path));
          const aliases = new Map(files.map((f, k) => [f, vault[k].aliases]));
          const aliasesOf = (f: TFile): string[] => aliases.get(f) ?? [];
          // Half the inputs are a note's own path with a few units changed, so that some are close.
          const own = vault[pick % vault.length].path.replace(/\.md$/, '');
          const input =
            pick % 2 === 0
              ? typed
              : `${own.slice(0, pick % (own.length + 1))}${typed.slice(0, 2)}${own.slice((pick % (own.length + 1)) + 1)}`;
          expect(similarNotePaths(input, files, aliasesOf)).toEqual(referenceSuggestions(input, files, aliasesOf));
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe('read_note not_found says "did you mean", never naming notes the key may not see', () => {
  let vault: DemoVault;
  let notes: NoteStore;
  const everyone: AccessScope = { label: 'Test agent', roots: [] };
  beforeAll(async () => {
    vault = await openDemoVault();
    notes = new NoteStore(vault.app, { quarantine: () => ['Archive'] });
  });
  afterAll(async () => vault?.close());

  const messageFor = (path: string, scope: AccessScope = everyone): string => {
    const err = errorOf(() => notes.policy.resolveNote({ path }, scope));
    expect(err.code).toBe('not_found');
    return err.message;
  };

  it('a misspelled name gets the close readable notes', () => {
    expect(messageFor('Alpha overveiw')).toMatch(
      /^Note 'Alpha overveiw' not found\. Did you mean 'Projects\/Alpha\/Alpha overview\.md'.*\? Otherwise call search or list_notes/,
    );
    expect(messageFor('Sourdough handbok')).toContain("'Reference/Sourdough handbook.md'");
  });

  it('nothing close: the plain message', () => {
    expect(messageFor('zzzz qqqq xxxx')).toBe("Note 'zzzz qqqq xxxx' not found; call search or list_notes to find its path.");
  });

  it('private, quarantined, no-access and out-of-roots notes are never candidates', () => {
    expect(messageFor('Therapy note')).not.toMatch(/Therapy notes\.md/);
    expect(messageFor('Therapy notes')).not.toMatch(/Therapy notes\.md/);
    expect(messageFor('Passwords hin')).not.toMatch(/_private/);
    const archived = vault.app.vault.getMarkdownFiles().find((f) => f.path.startsWith('Archive/'));
    expect(archived).toBeDefined();
    expect(messageFor(`${archived!.basename}x`)).not.toContain('Archive/');
    expect(messageFor('Retrospectiv', { label: 'Claude Code', roots: [] })).not.toContain('Retrospective');
    expect(messageFor('Retrospectiv')).toContain("'Projects/Beta/Retrospective.md'");
    expect(messageFor('Alpha overveiw', { label: 'Test agent', roots: ['Projects/Beta'] })).not.toContain('Alpha overview');
  });
});
