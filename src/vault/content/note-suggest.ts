import type { TFile } from 'obsidian';
import { unwrapWikilink } from '../paths/note-ref';
import { substringEditDistance, unmatchedInAscii } from './text/approximate-match';

/** Most "did you mean" candidates given with a not-found note. */
export const MAX_SUGGESTIONS = 5;

/**
 * How close a name must be to be suggested: the edits it takes to find what was asked for in a
 * name, alias or path, as a share of its length (0 = found as it is, 1 = anything). 0.4 lets a
 * typo or two and a missing word through, not unrelated names.
 */
const THRESHOLD = 0.4;

/**
 * How close each word of what was asked for must be, somewhere in a suggested note's name, aliases
 * or path: the edits it takes to find the word, as a share of its length, rounded up (so a swap of
 * two letters in a four-letter word passes). Without it, a name that shares a common word and a
 * few letters passed as a whole (`Therapy notes` → `Bread notes`, `Test/Mover` → `Test/notes/other`).
 */
const WORD_THRESHOLD = 0.4;

/**
 * Names this short (in UTF-16 units) are matched with an edit only against a field of about their
 * length (within the edits allowed): one edit finds a four-letter name inside most longer names by
 * chance (`Nope` in `Meeting notes`, `Project note`). Found as they are, they match anywhere.
 */
const SHORT_NAME = 4;

/** Words shorter than this are not checked one by one (`C#`, `of`): too short to tell a typo from another word. */
const MIN_CHECKED_WORD = 3;

/** A field's weight in a candidate's score: the file name counts most, then aliases, then the path. */
const WEIGHTS = { name: 2, alias: 1.5, stem: 1 } as const;
const WEIGHT_SUM = WEIGHTS.name + WEIGHTS.alias + WEIGHTS.stem;

/** `/`, which ends a note's folder in its path. */
const SLASH = 0x2f;

/**
 * How much a field of `tokens` words counts: 1/√tokens rounded to 3 decimals, so that a match in a
 * short name weighs more than the same match in a long one.
 */
function fieldNorm(value: string): number {
  const tokens = Math.max(1, value.split(/[\t-\r \u00a0]+/).filter((token) => token !== '').length);
  return Math.round(1000 / Math.sqrt(tokens)) / 1000;
}

/** What is looked for in a note's fields: its lower-cased NFC text and the edits it may take. */
interface Pattern {
  text: string;
  maxErrors: number;
}

/** A {@link Pattern} for `text`, allowed `maxErrors` edits. */
function pattern(text: string, maxErrors: number): Pattern {
  return { text, maxErrors };
}

/**
 * The score of one field against `wanted`: 0 when equal, else the edit share (at least 0.001), or
 * null when over {@link THRESHOLD} (`wanted.maxErrors` edits).
 */
function fieldScore(wanted: Pattern, field: Field): number | null {
  if (field.lower === wanted.text) return 0;
  const errors = substringEditDistance(wanted.text, field.lower, wanted.maxErrors);
  if (errors > 0 && wanted.text.length <= SHORT_NAME && Math.abs(field.lower.length - wanted.text.length) > wanted.maxErrors) return null;
  const share = errors / wanted.text.length;
  return share <= THRESHOLD ? Math.max(0.001, share) : null;
}

/**
 * Notes whose name, path or alias is close to what an agent asked for, for the "did you mean"
 * of a not-found error. Each field is matched case-insensitively as an approximate substring
 * (see {@link substringEditDistance}; a name of {@link SHORT_NAME} units or fewer needing an edit
 * only against a field of about its length); a note's score multiplies, over its matching fields,
 * `share ^ (weight × fieldNorm)` (weights normalized to sum to 1; an exact field counts as
 * `Number.EPSILON`), lowest first, ties in vault order. This is Fuse.js's scoring with
 * `ignoreLocation` and threshold 0.4, which this replaced to keep main.js within its budget, plus
 * one rule of its own: each word of the input (split at spaces and `/`, {@link MIN_CHECKED_WORD}
 * letters or more) must be found, within {@link WORD_THRESHOLD}, in one of the note's fields.
 * A name written as a wikilink's inside without its brackets (`Home#Intro`, `Home^block`,
 * `Home|shown text`: Obsidian's link syntax, help.obsidian.md/links) is also matched by the part
 * before its `#`, `^` or `|`, and those notes come first: the agent named a heading, block or
 * display text of that note. A path's last segment must be close to the note's file name or an alias
 * (within {@link THRESHOLD}): a folder shared with the path is no reason to suggest a note.
 * @param input the path, name or wikilink the agent gave (`.md` and `[[…]]` ignored)
 * @param notes the notes the caller may read (never pass unreadable ones: a suggestion would
 *   reveal them)
 * @param aliasesOf the note's frontmatter aliases
 * @returns up to {@link MAX_SUGGESTIONS} vault paths, closest first; empty when nothing is close
 */
export function similarNotePaths(input: string, notes: readonly TFile[], aliasesOf: (file: TFile) => string[]): string[] {
  const whole = unwrapWikilink(input).trim().replace(/\.md$/i, '').normalize('NFC').toLowerCase();
  const cut = whole.search(/[#^|]/);
  const head = cut > 0 ? whole.slice(0, cut).trim().replace(/\.md$/i, '') : '';
  // A path's last segment names the note: a note suggested for a path must be close to it by name, not by folder alone.
  const slash = whole.lastIndexOf('/');
  const name = slash >= 0 ? whole.slice(slash + 1).trim() : '';
  const found = [...(head === '' ? [] : closeNotes(head, notes, aliasesOf)), ...closeNotes(whole, notes, aliasesOf, name)];
  return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
}

/**
 * {@link similarNotePaths}' ranking for one lower-cased NFC `wanted` name: up to {@link MAX_SUGGESTIONS} paths, closest first.
 * Each note's name and path are first bounded from the note's path as it is ({@link unmatchedInAscii}):
 * most notes of a large vault lack too many of the units asked for, and are passed over without
 * making their lower-cased NFC fields (a did-you-mean over 100k notes made
 * 300,000 of them: docs/performance.md, session 42). A note's name is the end of its path, so a
 * name is not compared when its path is not close.
 * @param name when `wanted` is a path, its last segment, which the note's file name or an alias must be close to:
 *   a folder shared with the path (`Projects/Home` and `Projects/Plan.md`) is no reason to suggest a note.
 */
function closeNotes(wanted: string, notes: readonly TFile[], aliasesOf: (file: TFile) => string[], name = ''): string[] {
  if (wanted === '') return [];
  const whole = pattern(wanted, Math.floor(THRESHOLD * wanted.length));
  const named = name === '' ? null : pattern(name, Math.floor(THRESHOLD * name.length));
  // A path's folders need not be close (the note may have moved to another folder): its name's words must be found.
  const words = (name === '' ? wanted : name)
    .split(/[\s/]+/)
    .filter((word) => word.length >= MIN_CHECKED_WORD)
    .map((word) => pattern(word, Math.ceil(WORD_THRESHOLD * word.length)));
  const scored: Array<{ path: string; score: number }> = [];
  for (const file of notes) {
    const { path, basename } = file;
    const stemEnd = /\.md$/i.test(path) ? path.length - 3 : path.length;
    const aliases = aliasesOf(file).map((alias) => field(alias, WEIGHTS.alias));
    let made: Field | null = null;
    // Made at the first comparison that needs it: most notes are passed over by their path alone.
    const nameField = (): Field => (made ??= field(basename, WEIGHTS.name));
    if (named !== null) {
      const byName = unmatchedInAscii(named.text, basename) <= named.maxErrors && fieldScore(named, nameField()) !== null;
      if (!byName && !aliases.some((alias) => fieldScore(named, alias) !== null)) continue;
      // A note of exactly the path's name in another folder (moved there, or the folder misremembered) comes first.
      if (byName && nameField().lower === named.text) {
        scored.push({ path, score: -1 });
        continue;
      }
    }
    const stemField =
      unmatchedInAscii(whole.text, path, 0, stemEnd) <= whole.maxErrors ? field(path.slice(0, stemEnd), WEIGHTS.stem) : null;
    const stemShare = stemField === null ? null : fieldScore(whole, stemField);
    // The name is the path's end (after a '/', which neither NFC nor lower-casing joins to what follows): when the path
    // is not close, neither is the name (a short name's rule of length may pass the name alone).
    const nameAt = stemEnd - basename.length;
    const nameEndsPath = path.startsWith(basename, nameAt) && (nameAt === 0 || path.charCodeAt(nameAt - 1) === SLASH);
    const nameShare = stemShare === null && nameEndsPath && whole.text.length > SHORT_NAME ? null : fieldScore(whole, nameField());
    const aliasShares = aliases.map((alias) => fieldScore(whole, alias));
    const byNameOrAlias = nameShare !== null || aliasShares.some((share) => share !== null);
    // A bare name is a note's name: a folder it resembles (`Secrt` in `Projects/`) is no reason to suggest the note.
    if (named === null ? !byNameOrAlias : !byNameOrAlias && stemShare === null) continue;
    const fields = [nameField(), ...aliases, stemField ?? field(path.slice(0, stemEnd), WEIGHTS.stem)];
    if (!everyWordFound(words, fields)) continue;
    let score = 1;
    [nameShare, ...aliasShares, stemShare].forEach((share, k) => {
      if (share !== null)
        score *= Math.pow(share === 0 ? Number.EPSILON : share, (fields[k].weight / WEIGHT_SUM) * fieldNorm(fields[k].value));
    });
    scored.push({ path, score });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.path);
}

/** One field of a note as {@link closeNotes} compares it: its text in NFC, that text lower-cased, and its weight ({@link WEIGHTS}). */
interface Field {
  value: string;
  lower: string;
  weight: number;
}

/** A note's field as {@link closeNotes} compares it, normalized and lower-cased once. */
function field(raw: string, weight: number): Field {
  const value = raw.normalize('NFC');
  return { value, lower: value.toLowerCase(), weight };
}

/** Whether each of `words` is within its edits of a substring of one of a note's `fields`. */
function everyWordFound(words: readonly Pattern[], fields: readonly Field[]): boolean {
  return words.every((word) => fields.some((f) => substringEditDistance(word.text, f.lower, word.maxErrors) <= word.maxErrors));
}
