import { isDeepStrictEqual } from 'node:util';
import { parseDocument, stringify } from 'yaml';
import { getFrontMatterInfo } from './frontmatter';

/** Deep copy of YAML data (arrays and plain objects copied, other values shared). */
function cloneData<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneData) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneData(v)])) as T;
  }
  return value;
}

/** YAML output options: no line folding, so long values stay on one line as Obsidian writes them. */
export const YAML_OUTPUT = { lineWidth: 0 } as const;

/**
 * Applies Obsidian's `processFrontMatter` semantics to a note's text: parses the frontmatter
 * (`{}` when there is none), lets `fn` mutate the object, and writes back only the keys that
 * changed (keeping the other lines, comments and order of the YAML as they were). The body,
 * the BOM and the line-ending style (`\n`, `\r\n`, or `\r` alone) are preserved. Removing every property removes the block;
 * when nothing changed the text is returned unchanged.
 * Throws the `YAMLParseError` of invalid frontmatter (before `fn` runs), an Error when the
 * frontmatter is valid YAML but not a mapping, and whatever `fn` throws.
 */
export function editFrontmatter(text: string, fn: (frontmatter: any) => void): string {
  const info = getFrontMatterInfo(text);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const eol = text.includes('\r\n') ? '\r\n' : text.includes('\r') && !text.includes('\n') ? '\r' : '\n';
  const doc = parseDocument(info.exists ? info.frontmatter.replace(/\r\n?/g, '\n') : '');
  if (doc.errors.length) throw doc.errors[0];
  const parsed: unknown = doc.toJS() ?? {};
  if (typeof parsed !== 'object' || Array.isArray(parsed) || parsed === null) {
    throw new Error('The frontmatter is not a YAML mapping of properties; fix it to "key: value" lines first.');
  }
  const data = parsed as Record<string, unknown>;
  const before = cloneData(data);
  fn(data);
  if (isDeepStrictEqual(before, data)) return text;
  const body = info.exists ? text.slice(info.contentStart) : text.slice(bom.length);
  if (Object.keys(data).length === 0) return bom + body;
  let yamlText: string;
  if (doc.contents === null) {
    yamlText = stringify(data, YAML_OUTPUT);
  } else {
    for (const key of Object.keys(before)) if (!(key in data)) doc.delete(key);
    for (const [key, value] of Object.entries(data)) {
      if (!(key in before) || !isDeepStrictEqual(before[key], value)) doc.set(key, value);
    }
    yamlText = doc.toString(YAML_OUTPUT);
  }
  const block = `---\n${yamlText}---\n`.replace(/\n/g, eol);
  return bom + block + body;
}
