// Fuse.js's basic build: plain fuzzy matching is all this needs (no extended search or logical queries), 7 KB less in main.js.
import Fuse from 'fuse.js/basic';
import type { TFile } from 'obsidian';
import { unwrapWikilink } from '../paths/note-ref';

/** Most "did you mean" candidates given with a not-found note. */
export const MAX_SUGGESTIONS = 5;

/**
 * How close a name must be to be suggested: Fuse.js's threshold (0 = exact, 1 = anything).
 * 0.4 lets a typo or two and a missing word through, not unrelated names.
 */
const THRESHOLD = 0.4;

/** One note as the fuzzy matcher sees it. */
interface Candidate {
  path: string;
  /** File name without `.md`. */
  name: string;
  /** Path without `.md`, for inputs that include folders. */
  stem: string;
  /** Frontmatter aliases. */
  aliases: string[];
}

/**
 * Notes whose name, path or alias is close to what an agent asked for, for the "did you
 * mean" of a not-found error (fuzzy matching with Fuse.js, Bitap over the whole string).
 * @param input the path, name or wikilink the agent gave (`.md` and `[[…]]` ignored)
 * @param notes the notes the caller may read (never pass unreadable ones: a suggestion would
 *   reveal them)
 * @param aliasesOf the note's frontmatter aliases
 * @returns up to {@link MAX_SUGGESTIONS} vault paths, closest first; empty when nothing is close
 */
export function similarNotePaths(input: string, notes: readonly TFile[], aliasesOf: (file: TFile) => string[]): string[] {
  const wanted = unwrapWikilink(input).trim().replace(/\.md$/i, '').normalize('NFC');
  if (wanted === '' || notes.length === 0) return [];
  const candidates: Candidate[] = notes.map((file) => ({
    path: file.path,
    name: file.basename.normalize('NFC'),
    stem: file.path.replace(/\.md$/i, '').normalize('NFC'),
    aliases: aliasesOf(file),
  }));
  const fuse = new Fuse(candidates, {
    keys: [
      { name: 'name', weight: 2 },
      { name: 'aliases', weight: 1.5 },
      { name: 'stem', weight: 1 },
    ],
    threshold: THRESHOLD,
    ignoreLocation: true,
  });
  return fuse.search(wanted, { limit: MAX_SUGGESTIONS }).map((r) => r.item.path);
}
