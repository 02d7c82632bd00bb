/**
 * Lone UTF-16 surrogates: a high half (U+D800–U+DBFF) not followed by a low half
 * (U+DC00–U+DFFF), or a low half not preceded by a high one. Such a string is not
 * well-formed Unicode (ECMAScript `String.prototype.isWellFormed`, ES2024, which this
 * project's ES2022 lib does not declare): encoding it as UTF-8 for a file name or a note's
 * bytes turns the half into U+FFFD, so what was asked is not what is written.
 */

/**
 * Where the first lone surrogate of `text` is.
 * @returns its char (UTF-16 code unit) offset, or -1 when `text` is well-formed.
 */
export function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** True when `text` holds no lone surrogate (what `String.prototype.isWellFormed` answers). */
export function isWellFormedText(text: string): boolean {
  return loneSurrogateAt(text) < 0;
}
