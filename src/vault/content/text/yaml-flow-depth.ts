/**
 * Deepest nesting of YAML flow collections (`[ ]`, `{ }`) a frontmatter block may have before it is
 * parsed. The `yaml` package's parser spends time on each bracket in proportion to the depth it sits
 * at and then overflows the stack near 800 levels: a 500 KB block of `[` took 3 s to refuse, on
 * Obsidian's main thread. No note's properties nest that deep.
 */
export const MAX_YAML_FLOW_DEPTH = 256;

/** The characters after which a `[`, `{`, `"` or `'` starts a flow collection or a quoted scalar (YAML 1.2 §7: a plain scalar may hold them inside). */
const VALUE_START = new Set([':', '-', ',', '[', '{', '?', '\n']);

/**
 * Whether `yaml` nests flow collections deeper than `limit`, found in one pass over its characters.
 * Brackets inside quoted scalars, plain scalars (`title: a[b`) and comments do not count; a closing
 * bracket with nothing open is ignored. An approximation of YAML's grammar (YAML 1.2 §7: a flow
 * collection or quoted scalar starts only where a value may start) that never counts less than the
 * parser nests well-formed flow collections.
 * @param yaml a frontmatter block's text (no `---` lines)
 * @param limit the deepest nesting allowed (≥ 0)
 * @returns true when some bracket opens at a depth over `limit`
 */
export function nestsFlowDeeperThan(yaml: string, limit: number): boolean {
  let depth = 0;
  let previous = '\n';
  let inPlain = false;
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml[i];
    if (c === ' ' || c === '\t' || c === '\r') continue;
    if (c === '\n') {
      // A plain scalar in a flow collection may go on over lines; in a block it ends with its line.
      if (depth === 0) inPlain = false;
      if (!inPlain) previous = c;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(yaml[i - 1]))) {
      const end = yaml.indexOf('\n', i);
      if (end < 0) return false;
      i = end - 1;
      continue;
    }
    const spaceAfter = i + 1 === yaml.length || /[\s,[\]{}]/.test(yaml[i + 1]);
    if (inPlain) {
      if (c === ':' && spaceAfter) {
        inPlain = false;
        previous = c;
        continue;
      }
      if (depth === 0 || !/[,[\]{}]/.test(c)) continue;
      inPlain = false;
    }
    const startsValue = VALUE_START.has(previous);
    if (startsValue && (c === '"' || c === "'")) {
      i = quotedEnd(yaml, i);
      previous = c;
    } else if (startsValue && (c === '[' || c === '{')) {
      if (++depth > limit) return true;
      previous = c;
    } else if (c === ']' || c === '}') {
      if (depth > 0) depth--;
      previous = c;
    } else if (c === ',' || ((c === ':' || c === '-' || c === '?') && spaceAfter) || (c === ':' && depth > 0)) {
      // In a flow collection a ':' after a quoted key or a collection needs no space (`{"a":[1]}`, YAML 1.2 §7.4).
      previous = c;
    } else {
      inPlain = true;
      previous = c;
    }
  }
  return false;
}

/** The index of the quote closing the quoted scalar opening at `start` (`\` escapes in `"…"`, `''` in `'…'`), or the text's last index. */
function quotedEnd(yaml: string, start: number): number {
  const quote = yaml[start];
  for (let i = start + 1; i < yaml.length; i++) {
    if (quote === '"' && yaml[i] === '\\') i++;
    else if (yaml[i] === quote) {
      if (quote === "'" && yaml[i + 1] === "'") i++;
      else return i;
    }
  }
  return yaml.length - 1;
}
