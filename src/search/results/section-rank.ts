import { sectionAt, type NoteSection } from '../../vault/content/sections';
import type { Span } from './match-spans';
import { normalizeTerm } from '../engine/text/tokenizer';

/**
 * Which section of a note a search hit points to: the one where the query's matches
 * concentrate, so `read_note({path, section})` returns the part that answers the query.
 * Each section's own text (its heading line up to the next heading of any level; the
 * preamble up to the first heading) is scored like a small document with BM25 (Robertson
 * and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009), where the
 * "collection" is the note's sections: a term found in every section says little about
 * which one to read, a term found in one says much. A match in the heading line counts
 * twice, and a section holding more of the query's distinct terms wins over one that
 * repeats a single term.
 */

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalization. */
const B = 0.75;
/** Extra weight of a match inside the section's heading line. */
const HEADING_BONUS = 1;
/** Lean towards the preamble: a note's opening text usually says what the whole note is about. */
const PREAMBLE_PRIOR = 1.5;
/**
 * Chars of a section's whole span (subsections included: what `read_note {section}` returns)
 * that halve its score: among near-equals the cheaper read wins.
 */
const READ_COST_CHARS = 8000;
/** Weight of a match that only extends a query word (prefix or typo match: `syncthing` for `sync`), as MiniSearch weighs them lower too. */
const EXPANSION_WEIGHT = 0.4;

/** The best section and the matches inside its own text. */
export interface RankedSection {
  section: NoteSection;
  /** Matches in the section's own text, as offsets into the full note text, in order. */
  spans: Span[];
}

/**
 * The section of `text` where the matches concentrate.
 * @param text the full note text
 * @param sections the note's outline with the preamble (see `withPreamble`), in document order
 * @param spans every match, as offsets into the full text, sorted and not overlapping
 * @param words the query's positive words as index terms (normalized): a match that extends
 *   one (prefix) counts as that word, at {@link EXPANSION_WEIGHT}
 * @returns the best-scoring section and its matches; ties go to the earlier section; null
 *   when no match lies in any section (no spans, or a note without sections)
 */
export function bestSection(
  text: string,
  sections: readonly NoteSection[],
  spans: readonly Span[],
  words: readonly string[] = [],
): RankedSection | null {
  const bySection = new Map<NoteSection, Span[]>();
  for (const span of spans) {
    const section = sectionAt(sections, span.start);
    if (section === null) continue;
    const list = bySection.get(section) ?? [];
    list.push(span);
    bySection.set(section, list);
  }
  if (bySection.size === 0) return null;
  const ownLength = (k: number): number => Math.max(1, (sections[k + 1]?.start ?? text.length) - sections[k].start);
  const avgLength = sections.reduce((sum, _, k) => sum + ownLength(k), 0) / sections.length;
  const termsOf = new Map<NoteSection, Map<string, number>>();
  const sectionsWith = new Map<string, number>();
  for (const [section, list] of bySection) {
    const headingEnd = section.level === 0 ? section.start : lineEnd(text, section.start);
    const tf = new Map<string, number>();
    for (const span of list) {
      const { key, weight } = termOf(normalizeTerm(text.slice(span.start, span.end)), words);
      tf.set(key, (tf.get(key) ?? 0) + weight * (1 + (span.start < headingEnd ? HEADING_BONUS : 0)));
    }
    termsOf.set(section, tf);
    for (const key of tf.keys()) sectionsWith.set(key, (sectionsWith.get(key) ?? 0) + 1);
  }
  const distinct = sectionsWith.size;
  let best: RankedSection | null = null;
  let bestScore = -Infinity;
  sections.forEach((section, k) => {
    const tf = termsOf.get(section);
    if (tf === undefined) return;
    const norm = K1 * (1 - B + (B * ownLength(k)) / avgLength);
    let score = 0;
    for (const [key, f] of tf) {
      const n = sectionsWith.get(key) ?? 1;
      const idf = Math.log(1 + (sections.length - n + 0.5) / (n + 0.5));
      score += (idf * f * (K1 + 1)) / (f + norm);
    }
    score *= 1 + tf.size / distinct;
    score *= (section.level === 0 ? PREAMBLE_PRIOR : 1) / (1 + (section.end - section.start) / READ_COST_CHARS);
    if (score > bestScore) {
      bestScore = score;
      best = { section, spans: bySection.get(section) ?? [] };
    }
  });
  return best;
}

/**
 * The match to centre a snippet on: the one that starts the stretch of `window` chars
 * holding the most distinct query words matched (the earliest among equals). A matched text
 * counts as the query word it extends, as in {@link bestSection} (`lines` for `line`), so a
 * window of `line` and `lines` does not outweigh one of `line` and the rarer `4999`.
 * @param text the full note text; @param spans matches in one section, sorted
 * @param words the query's words, normalized (queryTerms); without them each matched text counts as itself
 * @returns one of `spans`; undefined when `spans` is empty
 */
export function densestSpan(text: string, spans: readonly Span[], window: number, words: readonly string[] = []): Span | undefined {
  let best: Span | undefined;
  let bestCount = 0;
  // Each match's term once (a note may repeat the query's words hundreds of times in a window's reach).
  const terms = spans.map((span) => termOf(normalizeTerm(text.slice(span.start, span.end)), words).key);
  const keys = new Set<string>();
  for (let i = 0; i < spans.length; i++) {
    keys.clear();
    for (let j = i; j < spans.length && spans[j].start < spans[i].start + window; j++) keys.add(terms[j]);
    if (keys.size > bestCount) {
      bestCount = keys.size;
      best = spans[i];
    }
  }
  return best;
}

/** The query word a matched text counts as, and how much: itself at 1, else the longest word it extends at {@link EXPANSION_WEIGHT}. */
function termOf(matched: string, words: readonly string[]): { key: string; weight: number } {
  if (words.includes(matched)) return { key: matched, weight: 1 };
  let longest = '';
  for (const w of words) if (w.length > longest.length && matched.startsWith(w)) longest = w;
  return longest === '' ? { key: matched, weight: 1 } : { key: longest, weight: EXPANSION_WEIGHT };
}

/** Offset of the line break ending the line that holds `at` (or the text length). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}
