import { hashText } from '../../vault/hash';
import type { NoteSection } from '../../vault/content/sections';
import { clusterEnd, clusterStart } from '../../vault/content/text/graphemes';

/**
 * Largest chunk sent to the embedding model, in tokens. Tokens are approximated as chars / 4
 * (English prose with BPE tokenizers averages about 4 chars per token; other scripts use more
 * tokens per char, so their chunks are smaller in chars than the model's limit allows).
 * 256 tokens stays well inside the 512-token window of small models such as nomic-embed-text
 * and bge-small.
 */
export const MAX_CHUNK_TOKENS = 256;
/** Chars per token of the approximation above. */
export const CHARS_PER_TOKEN = 4;

/** One piece of a note to embed. Offsets are UTF-16 code units in the full note text. */
export interface NoteChunk {
  /** Outline path of the section the chunk lies in (`0` = preamble); null for a title-only chunk. */
  section: string | null;
  /** Heading text of that section; null with `section`. */
  heading: string | null;
  /** What is embedded: title and heading path, a blank line, then the chunk's text. */
  input: string;
  /** Start of the chunk's own text (after its prefix) in the note. */
  start: number;
  /** SHA-256 of `input`: identical text is never embedded twice. */
  hash: string;
}

/** What the chunker needs of a note. */
export interface ChunkSource {
  title: string;
  /** The full note text (frontmatter included; the outline's offsets refer to it). */
  text: string;
  /** The outline with the preamble listed (`withPreamble(outline, text)`), in document order. */
  sections: readonly NoteSection[];
}

/**
 * Cuts a note into chunks by section: each section's own text (up to the next heading of any
 * level) is one chunk, or several when it is longer than `maxTokens` (split at blank lines, then
 * at line ends, then at spaces, never inside a word when avoidable). Each chunk's input starts
 * with the note title and the heading path (`Title\nTop > Sub`) so a chunk is understood alone.
 * Empty sections give no chunk; a note with no body text gives one title-only chunk.
 * Returns null when the outline does not fit the text (the metadata cache has not yet
 * re-parsed a note that just changed): the caller tries again after the cache's change event.
 * @param note title, text and outline
 * @param maxTokens bound per chunk in approximate tokens (chars / {@link CHARS_PER_TOKEN})
 * @returns chunks in document order, or null for an outline that does not fit the text
 */
export function chunkNote(note: ChunkSource, maxTokens = MAX_CHUNK_TOKENS): NoteChunk[] | null {
  if (!note.sections.every((s) => s.level === 0 || headingAt(note.text, s.start, s.heading))) return null;
  const byPath = new Map(note.sections.map((s) => [s.path, s.heading]));
  const chunks: NoteChunk[] = [];
  const sections = note.sections;
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i];
    const ownEnd = Math.min(s.end, i + 1 < sections.length ? sections[i + 1].start : note.text.length);
    const headingPath =
      s.level === 0
        ? []
        : ancestorPaths(s.path)
            .map((p) => byPath.get(p) ?? '')
            .filter((h) => h !== '');
    // A top heading that repeats the title (the usual `# Title`) is said once.
    if (headingPath[0] === note.title) headingPath.shift();
    const prefix = headingPath.length > 0 ? `${note.title}\n${headingPath.join(' > ')}\n\n` : `${note.title}\n\n`;
    const maxChars = Math.max(200, maxTokens * CHARS_PER_TOKEN - prefix.length);
    for (const piece of splitText(note.text, s.start, ownEnd, maxChars)) {
      const input = prefix + note.text.slice(piece.start, piece.end).trim();
      chunks.push({ section: s.path, heading: s.heading, input, start: piece.start, hash: hashText(input) });
    }
  }
  if (chunks.length === 0) {
    const input = note.title;
    chunks.push({ section: null, heading: null, input, start: 0, hash: hashText(input) });
  }
  return chunks;
}

/** True when the line at `offset` is an ATX heading or holds the heading's text (setext headings). */
function headingAt(text: string, offset: number, heading: string): boolean {
  if (text[offset] === '#') return true;
  const lineEnd = text.indexOf('\n', offset);
  const line = text
    .slice(offset, lineEnd < 0 ? text.length : lineEnd)
    .replace(/\s+/g, ' ')
    .trim();
  return heading !== '' && line.includes(heading.slice(0, 20));
}

/** `2.1.3` → [`2`, `2.1`, `2.1.3`]. */
function ancestorPaths(path: string): string[] {
  const parts = path.split('.');
  return parts.map((_, i) => parts.slice(0, i + 1).join('.'));
}

/** Splits `text[from, to)` into non-blank pieces of at most `maxChars` (one cluster more when a single grapheme cluster is longer), preferring paragraph, then line, then word boundaries, else a grapheme cluster boundary. */
function splitText(text: string, from: number, to: number, maxChars: number): Array<{ start: number; end: number }> {
  const pieces: Array<{ start: number; end: number }> = [];
  let start = from;
  while (start < to) {
    let end = Math.min(to, start + maxChars);
    if (end < to) {
      const window = text.slice(start, end);
      const cut = [window.lastIndexOf('\n\n'), window.lastIndexOf('\n'), window.lastIndexOf(' ')].find((k) => k > maxChars / 3);
      // No space to cut at (CJK, a run of emoji): between two grapheme clusters, never inside one (a lone surrogate sent to the provider).
      if (cut !== undefined) end = start + cut + 1;
      else end = clusterStart(text, end) > start ? clusterStart(text, end) : clusterEnd(text, end);
    }
    if (text.slice(start, end).trim() !== '') pieces.push({ start, end });
    start = end;
  }
  return pieces;
}
