import { isDeepStrictEqual } from 'node:util';
import { diffArrays } from 'diff';
import { frontMatterInfo } from '../../content/text/line-endings';
import { inputExcerpt, quoteInput, ToolError, withoutText } from '../../../errors';
import { isProtectedKey, parseFrontmatter } from './frontmatter-guard';
import { splicedYaml } from './frontmatter-lines';
import { assertTagsShape, malformedTagRemark } from './tag-validity';
import { unreadValueRemark } from './value-remarks';
import { lineAt, lineEndingOf } from '../edits/text-edits';
import { MERGE_KEY, shownProperties } from '../../content/frontmatter/yaml-merge-keys';
import { propertyNameKey, propertySpellingsOf } from '../../content/frontmatter/property-names';
import type { PropertyPatch, TextEditResult } from '../write-types';

/**
 * Frontmatter property patches for `set_properties` and `write_note`'s `frontmatter_patch`
 * (docs/architecture.md#tool-contract): a value sets, null deletes, other keys are kept, and value types
 * are kept (a list stays a list). {@link patchFrontmatterText} applies a patch to a whole note
 * text, so the write runs inside one `vault.process` together with its hash check (and, for
 * `write_note`, the new body).
 */

/** Obsidian's built-in list properties (https://help.obsidian.md/properties#Default+properties). */
const LIST_PROPERTIES = new Set(['tags', 'aliases', 'cssclasses']);

/**
 * Checks a patch before anything is read or written.
 * @throws ToolError('invalid_argument') for an empty patch, an empty key or one holding a control character (NUL, a line break),
 *   the key `<<` (YAML's merge key, not a property: Obsidian shows what it brings in), or two keys that differ only in case or Unicode form (content/frontmatter/property-names.ts: one property, so which one wins would be a guess);
 *   a number that YAML would not keep as given (see {@link assertKeepableNumbers});
 *   ToolError('forbidden') when it names `access` or `agent_overrides` (in any case).
 */
export function validatePropertyPatch(patch: PropertyPatch, notePath: string): void {
  const keys = Object.keys(patch);
  if (keys.length === 0) {
    throw new ToolError('invalid_argument', 'No properties given; pass {"name": value} to set and {"name": null} to delete.');
  }
  const seen = new Map<string, string>();
  for (const key of keys) {
    const twin = seen.get(propertyNameKey(key));
    if (twin !== undefined) {
      const how = twin.toLowerCase() === key.toLowerCase() ? 'case' : 'case or Unicode form';
      throw new ToolError(
        'invalid_argument',
        `Properties ${quoteInput(twin)} and ${quoteInput(key)} differ only in ${how} (one property in Obsidian); give it once.`,
      );
    }
    seen.set(propertyNameKey(key), key);
    if (key.trim() === '') throw new ToolError('invalid_argument', 'A property name is empty; give each property a name.');
    const control = /\p{Cc}/u.exec(key);
    if (control) {
      // NUL, line breaks and other controls: Obsidian's Properties view cannot show or edit such a name, and YAML must escape it.
      throw new ToolError(
        'invalid_argument',
        `A property name contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}; give a one-line name of visible text.`,
      );
    }
    if (key === MERGE_KEY) {
      // Obsidian reads `<<` as YAML's merge key, not a property: it shows what the key brings in.
      throw new ToolError('invalid_argument', "'<<' is YAML's merge key, not a property: name the properties it gives, or use edit_note.");
    }
    if (isProtectedKey(key)) {
      throw new ToolError(
        'forbidden',
        `Only the user may add, change or remove the '${key}' property (note '${notePath}'); leave it out of the patch.`,
      );
    }
  }
  for (const key of keys) assertKeepableNumbers(key, patch[key]);
  for (const key of keys) assertTagsShape(key, patch[key]);
}

/**
 * Refuses a number in a property value (nested in lists and objects too) that would not be
 * written as given: not finite (JSON cannot hold `1e400`, so it arrives as Infinity, and then
 * turned into `null`, which deletes) or an integer past 2^53 (`12345678901234567890` arrives
 * rounded; IEEE 754 doubles hold integers exactly only up to Number.MAX_SAFE_INTEGER).
 * @param key the property, for the message. @param value its value as the patch gives it.
 * @throws ToolError('invalid_argument') naming the property and suggesting a string.
 */
function assertKeepableNumbers(key: string, value: unknown): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new ToolError(
        'invalid_argument',
        `Property ${quoteInput(key)} holds a number JSON cannot represent (too large, so it arrived as ${value}); send it as a string, e.g. "1e400", or a smaller number.`,
      );
    }
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new ToolError(
        'invalid_argument',
        `Property ${quoteInput(key)} holds an integer past 2^53 (${value} as received), which would be stored rounded; send it as a string (an ID or account number), or as a number up to ${Number.MAX_SAFE_INTEGER}.`,
      );
    }
    return;
  }
  if (Array.isArray(value)) for (const item of value) assertKeepableNumbers(key, item);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) assertKeepableNumbers(key, item);
}

/**
 * Applies `patch` to a frontmatter object in place (the object `processFrontMatter` hands
 * its callback). null deletes; otherwise the value is stored as given, except:
 * - `tags`, `aliases`, `cssclasses` given as a string become a list (split on commas; tags
 *   also lose a leading `#`, which YAML would read as a comment); tags in a list lose it too;
 * - a property that is a list now and gets a single string, number or boolean becomes a
 *   one-item list, so a list stays a list.
 */
export function applyPropertyPatch(frontmatter: Record<string, unknown>, patch: PropertyPatch): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete frontmatter[key];
      continue;
    }
    frontmatter[key] = coerce(key, value, frontmatter[key]);
  }
}

/**
 * Applies `patch` to the frontmatter of a whole note text (the `processFrontMatter` semantics,
 * on text): the block is read with the app's `parseYaml` and only the lines of the patched
 * keys are rewritten (frontmatter-lines.ts, which keeps a comment ending a rewritten key's
 * line), so untouched keys keep their exact lines (formatting, comments, order, values). It
 * never writes the whole block out again: when the patched lines cannot be changed alone (a
 * flow mapping `{a: 1}`, a complex key, an anchor other lines repeat through an alias, ...) it
 * refuses and nothing changes. The patch is judged against the properties the note shows, YAML
 * merge keys `<<` expanded whether or not the app's parser expands them (content/frontmatter/yaml-merge-keys.ts):
 * setting a property only a merge key gives adds the note's own line (to the value it shows,
 * nothing changes); deleting one a merge key gives is refused, as the note would still show
 * it. Property names
 * match ignoring case, as in Obsidian: a patch key that the note spells differently
 * (`Priority` for `priority`) sets or deletes the note's property under its own spelling, and
 * the result's `note` says so. Values follow {@link applyPropertyPatch}. A note without a
 * block gets one (in the note's line ending, LF or CRLF); deleting every property removes it. The
 * body, a BOM, the `---` fences and every line the splice leaves keep their bytes, line endings
 * included ({@link withOwnLineEndings}).
 * @param text the whole note. @param patch checked with {@link validatePropertyPatch}.
 * @returns the new text (the same string when nothing changes), when the new text has a
 *   frontmatter block its lines (1 to the closing `---`), and a `note` naming the names matched
 *   to another spelling.
 * @throws ToolError('invalid_argument') when the frontmatter does not parse as YAML or is not
 *   a mapping (nothing is rewritten or wiped), or when the patched lines cannot be changed
 *   without changing others, or a deleted property would still show through a merge key (the
 *   message says why and what to do instead);
 *   ToolError('ambiguous') when a patch key matches several spellings in the note but none exactly.
 */
export function patchFrontmatterText(text: string, patch: PropertyPatch, notePath: string): TextEditResult {
  const parsed = parseFrontmatter(text);
  if (parsed.state === 'invalid') throw unparseableError(notePath, parsed.error);
  // The properties the note shows (merge keys expanded, as Obsidian reads them) are what the
  // patch is judged against, whether or not this app's parser expands merge keys itself.
  const shown = shownProperties(parsed.data);
  const { resolved, note } = withNoteSpelling(patch, shown, notePath);
  const wanted = structuredClone(shown);
  applyPropertyPatch(wanted, resolved);
  const named = Object.keys(resolved);
  const changed = named.filter(
    (key) => Object.hasOwn(shown, key) !== Object.hasOwn(wanted, key) || !isDeepStrictEqual(shown[key], wanted[key]),
  );
  const valueRemarks = Object.keys(resolved).flatMap((key) =>
    resolved[key] === null ? [] : [malformedTagRemark(key, wanted[key]), unreadValueRemark(key, wanted[key])],
  );
  // A deletion of a property the note lacks changes nothing: said, since it is most often a misspelt name (`nope: null`).
  const absent = Object.keys(resolved).filter((key) => resolved[key] === null && !Object.hasOwn(shown, key));
  const absentRemark =
    absent.length === 0
      ? undefined
      : `The note has no ${absent.length === 1 ? 'property' : 'properties'} ${absent.map((key) => `'${key}'`).join(', ')} to delete ` +
        '(names are matched ignoring case); read_note lists its frontmatter.';
  const remarks = [note, ...storedOtherwise(resolved, shown, wanted), ...valueRemarks, absentRemark].filter(
    (r): r is string => r !== undefined,
  );
  const withNote = (result: TextEditResult): TextEditResult => (remarks.length === 0 ? result : { ...result, note: remarks.join(' ') });
  if (changed.length === 0) return withNote(withBlockLines(text));
  const info = frontMatterInfo(text);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = info.exists ? text.slice(info.contentStart) : text.slice(bom.length);
  const source = info.exists ? info.frontmatter.replace(/\r\n/g, '\n') : '';
  // No property left: the block goes, unless a merge key line would go with it (refused below).
  if (Object.keys(wanted).length === 0 && !/^<<[ \t]*:/m.test(source)) return withNote(withBlockLines(bom + body));
  // The wanted properties as the parser reads them: a `<<` key it does not expand stays.
  const data = structuredClone(parsed.data);
  for (const key of changed) {
    if (Object.hasOwn(wanted, key)) data[key] = wanted[key];
    else delete data[key];
  }
  const spliced = splicedYaml(source, data, changed, named);
  if ('refusal' in spliced) {
    // A refusal that already says what to do with edit_note needs no general advice after it.
    const advice = spliced.refusal.includes('edit_note')
      ? ''
      : " Only the changed properties' lines are rewritten, never the whole block (that would reformat others); else use edit_note.";
    throw new ToolError(
      'invalid_argument',
      `Nothing was changed in '${notePath}': ${spliced.refusal}.${advice}`,
      undefined,
      withoutText(`Nothing was changed in '${notePath}': its frontmatter lines for this change cannot be changed alone`),
    );
  }
  if (!info.exists) return withNote(withBlockLines(bom + `---\n${spliced.yaml}---\n`.replace(/\n/g, lineEndingOf(text)) + body));
  // The fences, and every line the splice left, stay as the note has them (trailing spaces, mixed line endings).
  const yaml = withOwnLineEndings(text.slice(info.from, info.to), spliced.yaml, lineEndingOf(text));
  return withNote(withBlockLines(text.slice(0, info.from) + yaml + text.slice(info.to)));
}

/**
 * A spliced block written back with the note's own line endings: a line the splice left as it
 * was keeps the ending it had in `block` (a note mixing `\n` and `\r\n` keeps its mix), a
 * rewritten or added line takes `eol`. Lines are matched with jsdiff's `diffArrays`.
 * @param block the block's YAML as the note holds it (the text between the fences, each line
 *   ending in `\n` or `\r\n`). @param spliced the new YAML, `\n` line endings ({@link splicedYaml}).
 * @param eol the line ending of the note's new lines ({@link lineEndingOf}).
 * @returns the new YAML, ending in a line break.
 */
function withOwnLineEndings(block: string, spliced: string, eol: string): string {
  const oldLines = block === '' ? [] : block.split(/(?<=\n)/);
  const lineText = (line: string): string => line.replace(/\r?\n$/, '');
  const newLines = spliced === '' ? [] : spliced.replace(/\n$/, '').split('\n');
  let at = 0;
  let out = '';
  for (const part of diffArrays(oldLines.map(lineText), newLines)) {
    if (part.added) out += part.value.map((line) => line + eol).join('');
    else if (part.removed) at += part.count;
    else {
      out += oldLines.slice(at, at + part.count).join('');
      at += part.count;
    }
  }
  return out;
}

/**
 * `patch` with each key spelled as the note spells it when they differ only in case (Obsidian's
 * property names ignore case) or Unicode form (`café` in NFD: content/frontmatter/property-names.ts), and a
 * note naming those it matched so; a key the note spells exactly, or lacks, stays as given.
 * @throws ToolError('ambiguous') when the note has several spellings of a key and none is the
 *   patch's (`Priority` and `PRIORITY` for `priority`; `Café` in NFD and `CAFÉ` for `café`).
 */
function withNoteSpelling(
  patch: PropertyPatch,
  old: Record<string, unknown>,
  notePath: string,
): { resolved: PropertyPatch; note?: string } {
  const resolved: PropertyPatch = {};
  const matched: string[] = [];
  let byForm = false;
  const spellingsOf = propertySpellingsOf(old);
  for (const [key, value] of Object.entries(patch)) {
    const spellings = spellingsOf(key);
    if (spellings.length > 1) {
      throw new ToolError(
        'ambiguous',
        `Note '${notePath}' has properties ${spellings.map(quoteInput).join(', ')} (one in Obsidian), none spelled ${quoteInput(key)}; name one exactly as written.`,
        undefined,
        withoutText(`Note '${notePath}' has several spellings of ${quoteInput(key)}, none exact; name one as written`),
      );
    }
    const name = spellings[0] ?? key;
    if (name !== key) matched.push(`${quoteInput(key)} as the note's ${quoteInput(name)}`);
    if (name.toLowerCase() !== key.toLowerCase()) byForm = true;
    resolved[name] = value;
  }
  if (matched.length === 0) return { resolved };
  return {
    resolved,
    note: `Property names ignore case, as in Obsidian${byForm ? ', and Unicode form (NFC or NFD)' : ''}: applied ${matched.join(', ')}.`,
  };
}

/**
 * What the result says of each value stored otherwise than given ({@link coerce}): text given for
 * `tags`, `aliases` or `cssclasses` stored as a list, a tag's `#` dropped, a single value set on a
 * list property stored as a one-item list, and what a list held that one value given for it
 * replaced. An agent that reads only its own call would not know.
 * @returns one sentence per such property, in patch order.
 */
function storedOtherwise(resolved: PropertyPatch, before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, given] of Object.entries(resolved)) {
    if (given === null || !Array.isArray(after[key]) || isDeepStrictEqual(given, after[key])) continue;
    // Values quoted cut, as every echoed input is (a list of a thousand aliases would be sent back whole).
    const stored = inputExcerpt(JSON.stringify(after[key]));
    const sent = inputExcerpt(JSON.stringify(given));
    const hashes =
      key.toLowerCase() === 'tags' && JSON.stringify(given).includes('#') ? " (a tag in properties is written without '#')" : '';
    if (Array.isArray(given)) {
      out.push(`${quoteInput(key)} is stored as ${stored}${hashes}.`);
      continue;
    }
    // One value given for a list reads like "add this": say what the list held, which it no longer does.
    const was = before[key];
    const now = after[key] as unknown[];
    const gone = Array.isArray(was) && was.some((item) => !now.some((kept) => isDeepStrictEqual(kept, item)));
    const replaced = gone ? ` It replaced ${inputExcerpt(JSON.stringify(was))}; to add to a list, send the whole list.` : '';
    if (LIST_PROPERTIES.has(key.toLowerCase()))
      out.push(`${quoteInput(key)} is a list in Obsidian, so ${sent} is stored as ${stored}${hashes}.${replaced}`);
    else if (Array.isArray(was)) out.push(`${quoteInput(key)} is a list in this note, so ${sent} is stored as ${stored}.${replaced}`);
  }
  return out;
}

/** The refusal for frontmatter that does not parse: never rewrite or wipe it. */
export function unparseableError(notePath: string, detail: string): ToolError {
  return new ToolError(
    'invalid_argument',
    `The frontmatter of '${notePath}' does not parse as YAML (${detail}); nothing was changed. Fix the YAML first (read_note shows it as frontmatter_block; replace the whole block with edit_note in one edit) or ask the user.`,
    undefined,
    withoutText(`The frontmatter of '${notePath}' does not parse as YAML; nothing was changed`),
  );
}

/** `text` with the lines of its frontmatter block (none when it has no block). */
function withBlockLines(text: string): TextEditResult {
  const info = frontMatterInfo(text);
  return info.exists ? { text, lines: { start: 1, end: lineAt(text, info.to) } } : { text };
}

/** The value to store for `key`, given its current value (see {@link applyPropertyPatch}). */
function coerce(key: string, value: unknown, current: unknown): unknown {
  const name = key.toLowerCase();
  const isTags = name === 'tags';
  if (LIST_PROPERTIES.has(name)) {
    const items: unknown[] | null = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
    if (items) {
      return items
        .map((item) => (typeof item === 'string' ? (isTags ? item.trim().replace(/^#+/, '') : item.trim()) : item))
        .filter((item) => item !== '');
    }
  }
  const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (Array.isArray(current) && scalar) return [value];
  return value;
}
