import type { TFile } from 'obsidian';
import { unwrapWikilink } from '../paths/note-ref';
import { substringEditDistance } from './text/approximate-match';

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

/** Words shorter than this are not checked one by one (`C#`, `of`): too short to tell a typo from another word. */
const MIN_CHECKED_WORD = 3;

/** A field's weight in a candidate's score: the file name counts most, then aliases, then the path. */
const WEIGHTS = { name: 2, alias: 1.5, stem: 1 } as const;
const WEIGHT_SUM = WEIGHTS.name + WEIGHTS.alias + WEIGHTS.stem;

/**
 * How much a field of `tokens` words counts: 1/√tokens rounded to 3 decimals, so that a match in a
 * short name weighs more than the same match in a long one.
 */
function fieldNorm(value: string): number {
  const tokens = Math.max(1, value.split(/[\t-\r \u00a0]+/).filter((token) => token !== '').length);
  return Math.round(1000 / Math.sqrt(tokens)) / 1000;
}

/**
 * The score of one field against `wanted` (both lower-cased): 0 when equal, else the edit share
 * (at least 0.001), or null when over {@link THRESHOLD}.
 */
function fieldScore(wanted: string, value: string): number | null {
  if (value === wanted) return 0;
  const errors = substringEditDistance(wanted, value, Math.floor(THRESHOLD * wanted.length));
  const share = errors / wanted.length;
  return share <= THRESHOLD ? Math.max(0.001, share) : null;
}

/**
 * Notes whose name, path or alias is close to what an agent asked for, for the "did you mean"
 * of a not-found error. Each field is matched case-insensitively as an approximate substring
 * (see {@link substringEditDistance}); a note's score multiplies, over its matching fields,
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
 * @param name when `wanted` is a path, its last segment, which the note's file name or an alias must be close to:
 *   a folder shared with the path (`Projects/Home` and `Projects/Plan.md`) is no reason to suggest a note.
 */
function closeNotes(wanted: string, notes: readonly TFile[], aliasesOf: (file: TFile) => string[], name = ''): string[] {
  if (wanted === '') return [];
  const words = wanted.split(/[\s/]+/).filter((word) => word.length >= MIN_CHECKED_WORD);
  const scored: Array<{ path: string; score: number }> = [];
  for (const file of notes) {
    const fields: Field[] = [
      field(file.basename, WEIGHTS.name),
      ...aliasesOf(file).map((alias) => field(alias, WEIGHTS.alias)),
      field(file.path.replace(/\.md$/i, ''), WEIGHTS.stem),
    ];
    let score = 1;
    let matched = false;
    for (const { value, lower, weight } of fields) {
      const share = fieldScore(wanted, lower);
      if (share === null) continue;
      matched = true;
      score *= Math.pow(share === 0 ? Number.EPSILON : share, (weight / WEIGHT_SUM) * fieldNorm(value));
    }
    if (matched && everyWordFound(words, fields) && (name === '' || namedBy(name, fields))) scored.push({ path: file.path, score });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => entry.path);
}

/** One matched field of a note: its text in NFC, that text lower-cased, and its weight ({@link WEIGHTS}). */
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

/** Whether `name` is within {@link THRESHOLD} of the file name or an alias among a note's `fields` (its path is not asked). */
function namedBy(name: string, fields: readonly Field[]): boolean {
  return fields.some(({ lower, weight }) => weight !== WEIGHTS.stem && fieldScore(name, lower) !== null);
}

/** Whether each of `words` (lower-cased) is within {@link WORD_THRESHOLD} of a substring of one of a note's `fields`. */
function everyWordFound(words: readonly string[], fields: readonly Field[]): boolean {
  return words.every((word) => {
    const allowed = Math.ceil(WORD_THRESHOLD * word.length);
    return fields.some(({ lower }) => substringEditDistance(word, lower, allowed) <= allowed);
  });
}
