import { parse, stringify } from 'yaml';
import { YAML_OUTPUT } from './frontmatter-edit';

/**
 * Obsidian's `parseYaml`: YAML text to a JS value (the `yaml` package, YAML 1.2 core
 * schema). Throws YAMLParseError on invalid YAML.
 */
export function parseYaml(yaml: string): any {
  return parse(yaml);
}

/** Obsidian's `stringifyYaml`: a JS value to block-style YAML text ending in a newline, unfolded. */
export function stringifyYaml(obj: any): string {
  return stringify(obj, YAML_OUTPUT);
}
