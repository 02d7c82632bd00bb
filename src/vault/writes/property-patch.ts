import { isDeepStrictEqual } from 'node:util';
import { getFrontMatterInfo, stringifyYaml } from 'obsidian';
import { ToolError } from '../../errors';
import { isProtectedKey, parseFrontmatter } from './frontmatter-guard';
import { splicedYaml } from './frontmatter-lines';
import { lineAt, lineEndingOf } from './text-edits';
import type { PropertyPatch, TextEditResult } from './write-types';

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
 * @throws ToolError('invalid_argument') for an empty patch, an empty key or one holding a control character (NUL, a line break);
 *   ToolError('forbidden') when it names `access` or `agent_overrides` (in any case).
 */
export function validatePropertyPatch(patch: PropertyPatch, notePath: string): void {
  const keys = Object.keys(patch);
  if (keys.length === 0) {
    throw new ToolError('invalid_argument', 'No properties given; pass {"name": value} to set and {"name": null} to delete.');
  }
  for (const key of keys) {
    if (key.trim() === '') throw new ToolError('invalid_argument', 'A property name is empty; give each property a name.');
    const control = /\p{Cc}/u.exec(key);
    if (control) {
      // NUL, line breaks and other controls: Obsidian's Properties view cannot show or edit such a name, and YAML must escape it.
      throw new ToolError(
        'invalid_argument',
        `A property name contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}; give a one-line name of visible text.`,
      );
    }
    if (isProtectedKey(key)) {
      throw new ToolError(
        'forbidden',
        `Only the user may add, change or remove the '${key}' property (note '${notePath}'); leave it out of the patch.`,
      );
    }
  }
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
 * keys are rewritten (frontmatter-lines.ts), so untouched keys keep their exact lines
 * (formatting, comments, order); a block whose key lines cannot be told apart (a flow mapping
 * `{a: 1}`, a complex key) is written out whole with `stringifyYaml`, as `processFrontMatter`
 * does. Values follow {@link applyPropertyPatch}. A note without a block gets one; deleting every property removes
 * it. The body, a BOM and the note's line ending (LF or CRLF) are kept.
 * @param text the whole note. @param patch checked with {@link validatePropertyPatch}.
 * @returns the new text (the same string when nothing changes) and, when the new text has a
 *   frontmatter block, its lines (1 to the closing `---`).
 * @throws ToolError('invalid_argument') when the frontmatter does not parse as YAML or is not
 *   a mapping (nothing is rewritten or wiped).
 */
export function patchFrontmatterText(text: string, patch: PropertyPatch, notePath: string): TextEditResult {
  const parsed = parseFrontmatter(text);
  if (parsed.state === 'invalid') throw unparseableError(notePath, parsed.error);
  const old = parsed.data;
  const data = structuredClone(old);
  applyPropertyPatch(data, patch);
  const changed = Object.keys(patch).filter((key) => key in old !== key in data || !isDeepStrictEqual(old[key], data[key]));
  if (changed.length === 0) return withBlockLines(text);
  const info = getFrontMatterInfo(text);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = info.exists ? text.slice(info.contentStart) : text.slice(bom.length);
  if (Object.keys(data).length === 0) return withBlockLines(bom + body);
  const source = info.exists ? info.frontmatter.replace(/\r\n/g, '\n') : '';
  const yamlText = splicedYaml(source, old, data, changed) ?? stringifyYaml(data);
  return withBlockLines(bom + `---\n${yamlText}---\n`.replace(/\n/g, lineEndingOf(text)) + body);
}

/** The refusal for frontmatter that does not parse: never rewrite or wipe it. */
export function unparseableError(notePath: string, detail: string): ToolError {
  return new ToolError(
    'invalid_argument',
    `The frontmatter of '${notePath}' does not parse as YAML (${detail}); nothing was changed. Fix the YAML first (edit_note with an anchor inside the block) or ask the user.`,
  );
}

/** `text` with the lines of its frontmatter block (none when it has no block). */
function withBlockLines(text: string): TextEditResult {
  const info = getFrontMatterInfo(text);
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
