import { parseYaml } from 'obsidian';
import { MAX_YAML_FLOW_DEPTH, nestsFlowDeeperThan } from '../text/yaml-flow-depth';

/**
 * The app's `parseYaml`, remembered for the last few large texts. One write reads the same
 * frontmatter block several times: the property patch, the write guard (protected keys, read
 * plainly and with merge keys expanded, before and after), the access check on the text about to
 * change, the check that the spliced block reads back as wanted. Each is a parse of the whole
 * block, and a parse costs at least its size (the `yaml` package, the test host's parser, checks
 * each mapping key against every earlier one: 2.4 s for one 20,000-key block). Parsing each
 * distinct text once keeps a write's cost a small multiple of one parse (docs/performance.md,
 * "Large frontmatter writes"). Values are handed out as structured clones, so a caller that
 * changes what it gets changes no other caller's copy, and objects that aliases share stay shared.
 */

/** Texts shorter than this are parsed each time: cheap, and a run of them would push the large ones out. */
export const REMEMBERED_MIN_CHARS = 4096;

/** How many distinct large texts are remembered (least recently used goes first): a write reads two, before and after. */
const REMEMBERED_TEXTS = 4;

/** The outcome of one parse: its value, or what it threw. */
type Outcome = { value: unknown } | { error: unknown };

const remembered = new Map<string, Outcome>();

/**
 * `parseYaml(text)` as the app gives it, parsed once per distinct large text (see the module's note).
 * @param text YAML text (a frontmatter block without its `---` lines).
 * @returns the parsed value: for a text of {@link REMEMBERED_MIN_CHARS} or more, a structured
 *   clone of the remembered one (a fresh copy on each call).
 * @throws what `parseYaml` throws for the text (the same error object again for a remembered text);
 *   an Error, without parsing, for a text whose flow collections nest deeper than
 *   {@link MAX_YAML_FLOW_DEPTH} (the parse would hold the main thread for seconds, then overflow the stack).
 */
export function parseYamlOnce(text: string): unknown {
  if (text.length < REMEMBERED_MIN_CHARS) return boundedParse(text);
  let outcome = remembered.get(text);
  if (outcome === undefined) {
    try {
      outcome = { value: boundedParse(text) };
    } catch (error) {
      outcome = { error };
    }
    if (remembered.size >= REMEMBERED_TEXTS) remembered.delete(remembered.keys().next().value as string);
  } else {
    remembered.delete(text);
  }
  remembered.set(text, outcome);
  if ('error' in outcome) throw outcome.error;
  return structuredClone(outcome.value);
}

/** `parseYaml(text)`, refused without parsing when its flow collections nest deeper than {@link MAX_YAML_FLOW_DEPTH}. */
function boundedParse(text: string): unknown {
  if (text.length > MAX_YAML_FLOW_DEPTH && nestsFlowDeeperThan(text, MAX_YAML_FLOW_DEPTH)) {
    throw new Error(`the YAML nests [ ] or { } more than ${MAX_YAML_FLOW_DEPTH} deep`);
  }
  return parseYaml(text) as unknown;
}

/** Forgets every remembered text (for tests that count parses). */
export function forgetParsedYaml(): void {
  remembered.clear();
}
