import { ToolError } from '../errors';
import { isProtectedKey } from './frontmatter-guard';
import type { PropertyPatch } from './write-types';

/**
 * Frontmatter property patches for `set_properties` and `write_note`'s `frontmatter_patch`
 * (DESIGN.md tool table): a value sets, null deletes, other keys are kept, and value types
 * are kept (a list stays a list). Applied inside `fileManager.processFrontMatter`, which
 * writes back only the keys that changed.
 */

/** Obsidian's built-in list properties (https://help.obsidian.md/properties#Default+properties). */
const LIST_PROPERTIES = new Set(['tags', 'aliases', 'cssclasses']);

/**
 * Checks a patch before anything is read or written.
 * @throws ToolError('invalid_argument') for an empty patch or an empty key;
 *   ToolError('forbidden') when it names `access` or `agent_overrides` (in any case).
 */
export function validatePropertyPatch(patch: PropertyPatch, notePath: string): void {
  const keys = Object.keys(patch);
  if (keys.length === 0) {
    throw new ToolError('invalid_argument', 'No properties given; pass {"name": value} to set and {"name": null} to delete.');
  }
  for (const key of keys) {
    if (key.trim() === '') throw new ToolError('invalid_argument', 'A property name is empty; give each property a name.');
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

/** The value to store for `key`, given its current value (see {@link applyPropertyPatch}). */
function coerce(key: string, value: unknown, current: unknown): unknown {
  const name = key.toLowerCase();
  const isTags = name === 'tags';
  if (LIST_PROPERTIES.has(name)) {
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
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
