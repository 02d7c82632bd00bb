import { isScalar, parse, parseDocument, stringify, visit, type Document } from 'yaml';
import { YAML_OUTPUT } from './frontmatter-edit';

/**
 * Obsidian's `parseYaml`: YAML text to a JS value (the `yaml` package, YAML 1.2 core
 * schema). Throws YAMLParseError on invalid YAML, a key written twice in one mapping included.
 *
 * Host: the package checks each mapping key against every earlier key of its mapping (2.4 s for
 * one 20,000-key block, where a parse without that check takes 0.2 s), which Obsidian, parsing a
 * note's frontmatter once per change, does not make quadratic. So the block is parsed without the
 * check, and keys are checked once, through a set per mapping; text with an error, a warning or a
 * key written twice is parsed again by the package's `parse` as it is, so it throws (or warns)
 * exactly as the package does.
 */
export function parseYaml(yaml: string): any {
  const doc = parseDocument(yaml, { uniqueKeys: false });
  if (doc.errors.length > 0 || doc.warnings.length > 0 || hasRepeatedKey(doc)) return parse(yaml);
  return doc.toJS();
}

/**
 * True when a mapping of `doc` holds two scalar keys of the same value: what the `yaml` package's
 * default key check (`uniqueKeys: true`: equal scalar values by `===`) refuses, found in one pass.
 */
function hasRepeatedKey(doc: Document): boolean {
  let repeated = false;
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        // NaN !== NaN: the package's check never finds two `.nan` keys equal.
        if (typeof value === 'number' && Number.isNaN(value)) continue;
        if (seen.has(value)) {
          repeated = true;
          return visit.BREAK;
        }
        seen.add(value);
      }
      return undefined;
    },
  });
  return repeated;
}

/** Obsidian's `stringifyYaml`: a JS value to block-style YAML text ending in a newline, unfolded. */
export function stringifyYaml(obj: any): string {
  return stringify(obj, YAML_OUTPUT);
}
