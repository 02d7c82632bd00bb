import { frontMatterInfo } from '../content/text/line-endings';
import { parseYamlOnce } from '../content/frontmatter/parsed-yaml';
import { noteAccess, unparsedBlockAccess, type NoteAccess } from './access-rules';
import { ACCESS_KEY, AGENT_OVERRIDES_KEY } from './rule-keys';
import { rulesTextOf } from './utf16-rules';

/**
 * Which frontmatter blocks are parsed for their rules (`textAccess` below, called for every note
 * the search index builds and on every served read). A rule needs a key whose text, as every
 * reader compares it (rule-keys ruleKeyOf: trimmed of `\s`, in NFC, `/i` without `u`), is
 * `access`, `agent_overrides` or `<<`, or a key the unparsed reading (access-rules unparsedRules)
 * takes for one. No character but ASCII letters folds or normalizes to a letter of these names
 * (no `/i`-without-`u` fold maps a non-ASCII character to ASCII, and NFC's only singletons to
 * ASCII letters give `K`: test/unit/vault/access/vault-text-prefilter.test.ts checks every code point), and
 * YAML makes no letter but from the text or an escape; so such a key is written as the name
 * itself, in any case (a "rule word"), with nothing but white space, quotes or YAML indicators
 * next to it, or spelled with escapes (`"acc\x65ss"`: a backslash), a merge key (`<<`), an alias
 * of a value holding the word (`*a`), or a tag that makes a value of other text (`!!binary`).
 */

/** A block that may name a rule: a rule word, a merge key or a backslash, in any case. A block without any names none. */
const MAY_NAME_RULE = new RegExp(`${ACCESS_KEY}|${AGENT_OVERRIDES_KEY}|<<|\\\\`, 'i');

/** What sends any block holding a rule word to the parser: a merge key, a backslash (escapes), an alias `*` or a tag `!`. */
const ALWAYS_PARSED = /<<|\\|\*|!/;

/** A line break of a frontmatter block (`\n`, `\r\n` or `\r`). */
const LINE_BREAK = /\r\n?|\n/;

/** Each rule word in a line, in any case (global: reset `lastIndex` before a scan). */
const RULE_WORD = new RegExp(`${ACCESS_KEY}|${AGENT_OVERRIDES_KEY}`, 'gi');

/**
 * A block line that is one plain `key: value` entry and nothing else: the key from an ASCII letter
 * or digit on, of word characters, spaces, `.` and `-`; then `:` and spaces; then a value from an
 * ASCII letter or digit on, of word characters, spaces and `,.;()/=+-` only (no `:`, `#`, quote,
 * bracket, brace, `?`, `&`, `*`, `!`, `|`, `>`, `%`, `@`, backtick, backslash or tab). Group 1 is
 * the value.
 */
const PLAIN_VALUE_LINE = /^ *[A-Za-z0-9][\w .-]*: +([A-Za-z0-9][\w ,.;()/=+-]*)$/;

/** True for an ASCII letter or digit's code (NaN, past either end of a text, is none). */
function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/**
 * True when a frontmatter block may name an access rule for some reader, so it must be parsed
 * (the parsed reading, access-rules noteAccess, or the unparsed one, unparsedBlockAccess); false
 * only for a block where no reader can find one, whose level is `read-write` for every label. A
 * block is sent to the parser when it holds a rule word (`access`, `agent_overrides`, any case;
 * `agent` alone is none, though session 31's prefilter parsed for it) or a backslash or a merge
 * key `<<` ({@link MAY_NAME_RULE}), unless it holds neither a backslash
 * nor a `<<`, no alias `*` nor tag `!`, and each rule word in it is either
 * - inside a longer word: an ASCII letter or digit right before or after it
 *   (`title: Get-CAAuthorityInformationAccess`, `…/add-caauthorityinformationaccess?view=…&…`,
 *   `accessible:`). A letter or digit is never a YAML indicator nor white space, so it is text of
 *   the same scalar (or of the same anchor, tag or comment): the key or value holding the word
 *   holds more than the name, in every parser's reading and in unparsedRules' (whose key
 *   candidates end at white space, quotes, `{}[],:`); or
 * - in the value of a plain `key: value` line ({@link PLAIN_VALUE_LINE}) that holds other text
 *   beside the word, in a block with no `{` or `[` (`description: Disables access for users`).
 *   With no flow collection open, no `:`, `#`, quote or indicator in the value, the whole value
 *   is one plain scalar (or, where the line lies inside an earlier quoted or block scalar, text
 *   of that one), so it is no rule name; and unparsedRules takes a word after the line's key and
 *   with no `:` after it for no key.
 * Everything else (a word at a line's start, after `- `, `? `, `{`, `,`, a quote, an anchor or a
 * tag; a value that is the word alone; a word before a `:`; a word in a comment) is parsed, as
 * every block was before. Linear in the block's length.
 * @param block the raw YAML between the `---` lines (line breaks `\n`, `\r\n` or `\r`).
 * @returns true when the block must be parsed to know its rules.
 */
function mayNameRule(block: string): boolean {
  if (!MAY_NAME_RULE.test(block)) return false;
  if (ALWAYS_PARSED.test(block)) return true;
  const flow = /[{[]/.test(block);
  // Line by line, each judged once: a scan back to each word's line start made a long line of many words quadratic (seconds a read).
  for (const line of block.split(LINE_BREAK)) {
    RULE_WORD.lastIndex = 0;
    let value: PlainValue | null | undefined;
    for (let word = RULE_WORD.exec(line); word; word = RULE_WORD.exec(line)) {
      const at = word.index;
      const end = at + word[0].length;
      if (isAsciiAlnum(line.charCodeAt(at - 1)) || isAsciiAlnum(line.charCodeAt(end))) continue;
      if (flow) return true;
      value ??= plainValueOf(line);
      if (value === null || at < value.start || value.trimmedLength <= end - at) return true;
    }
  }
  return false;
}

/** Where a {@link PLAIN_VALUE_LINE} line's value starts, and its length once trimmed. */
interface PlainValue {
  start: number;
  trimmedLength: number;
}

/** The value of `line` when it is a {@link PLAIN_VALUE_LINE} line, else null. */
function plainValueOf(line: string): PlainValue | null {
  const value = PLAIN_VALUE_LINE.exec(line)?.[1];
  return value === undefined ? null : { start: line.length - value.length, trimmedLength: value.trim().length };
}

/**
 * The access level `label` has on a note whose whole text is `text`, read from that text's own
 * frontmatter block by the rules every other reader uses: a block that parses to a mapping (the
 * app's `parseYaml`, as the metadata cache parses it) by access-rules noteAccess, any other block
 * at its strictest by unparsedBlockAccess (as UnparsedFrontmatter reads a note the metadata cache
 * has not parsed, and the write guard's assertWritableText reads the text it changes). For read
 * routes that serve a text (NotePolicy.mayServe): the metadata cache their access check read may
 * be older than the text (docs/security.md, "Access rules in frontmatter").
 * Cheap for most notes: a text not starting with `---` (after a byte-order mark) has no block,
 * and a block where no reader can find a rule key ({@link mayNameRule}: none of `access`,
 * `agent_overrides`, `<<` or a backslash, or these words only inside longer words and plain
 * values) names no rule; only the rest is parsed. A note saved as UTF-16 is read through
 * utf16-rules rulesTextOf, so its own rules hold though the app sees no frontmatter in it.
 * @param text a note's whole text. @param label the calling key's label.
 * @returns `read-write` when the text names no rule; never throws.
 */
export function textAccess(text: string, label: string): NoteAccess {
  const rules = rulesTextOf(text);
  if (!rules.startsWith('---') && !rules.startsWith('\uFEFF---')) return 'read-write';
  const info = frontMatterInfo(rules);
  if (!info.exists || !mayNameRule(info.frontmatter)) return 'read-write';
  return blockAccess(info.frontmatter, label);
}

/**
 * The access level `label` has by the rules of one frontmatter block, parsed whatever it holds:
 * {@link textAccess}'s reading once its prefilter has let the block through (a block that parses
 * to a mapping by access-rules noteAccess, any other at its strictest by unparsedBlockAccess).
 * @param block the raw YAML between the `---` lines. @param label the calling key's label.
 * @returns `read-write` when the block names no rule; never throws.
 */
export function blockAccess(block: string, label: string): NoteAccess {
  let data: unknown = null;
  if (block.trim() !== '') {
    try {
      data = parseYamlOnce(block.replace(/\r\n?/g, '\n'));
    } catch {
      data = null;
    }
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) return noteAccess(data as Record<string, unknown>, label);
  return unparsedBlockAccess(block, label) ?? 'read-write';
}
