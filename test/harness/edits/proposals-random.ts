/**
 * Seeded random notes and edits for the proposals tests (seededRandom re-exported), with line-level edits over texts with LF and CRLF
 * line breaks, a missing final newline, empty texts, a BOM, and unicode (emoji, CJK).
 */

export { seededRandom } from '../seeded-random';

const WORDS = ['alpha', 'beta', '# Heading', '- item', '', ' ', '日本語', '😀 emoji', 'ñandú', '[[link]]', 'x', 'x', '\t', 'a\rb'];

/** A random integer in [0, n). */
export function pick(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

/** One random line's content (no line break); short and repetitive so diffs realign. */
export function randomLine(rand: () => number): string {
  const n = pick(rand, 3);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[pick(rand, WORDS.length)]);
  return words.join(' ');
}

/** A random note: 0–12 lines, LF or CRLF (sometimes mixed), final newline or not, maybe a BOM. */
export function randomNote(rand: () => number): string {
  const lines = pick(rand, 13);
  const eol = rand() < 0.3 ? '\r\n' : '\n';
  let text = rand() < 0.1 ? '\uFEFF' : '';
  for (let i = 0; i < lines; i++) {
    const lineEol = rand() < 0.05 ? (eol === '\n' ? '\r\n' : '\n') : eol;
    text += randomLine(rand) + (i < lines - 1 || rand() < 0.7 ? lineEol : '');
  }
  return text;
}

/** Splits a text into lines that keep their line break (the last may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** `text` after 0–3 random line edits: insert, delete, replace, or toggle the final newline. */
export function randomEdit(rand: () => number, text: string): string {
  const lines = splitLines(text);
  const edits = pick(rand, 4);
  for (let e = 0; e < edits; e++) {
    const at = pick(rand, lines.length + 1);
    const kind = pick(rand, 4);
    const eol = rand() < 0.3 ? '\r\n' : '\n';
    if (kind === 0) lines.splice(at, 0, randomLine(rand) + eol);
    else if (kind === 1) lines.splice(at, 1 + pick(rand, 3));
    else if (kind === 2 && at < lines.length) lines[at] = randomLine(rand) + (lines[at].endsWith('\n') ? eol : '');
    else if (lines.length > 0) {
      const last = lines.length - 1;
      lines[last] = lines[last].endsWith('\n') ? lines[last].replace(/\r?\n$/, '') : lines[last] + eol;
    }
  }
  return lines.join('');
}
