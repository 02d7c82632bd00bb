import { MERGE_KEY } from '../content/frontmatter/yaml-merge-keys';

/**
 * The frontmatter property names that carry access rules (docs/architecture.md#trust-model), and
 * the one comparison every reader of them uses: the parsed reading (access-rules `noteAccess`),
 * the reading of a block that does not parse (access-rules `unparsedRules`), the checks of
 * whether a note names a rule at all (here, and unparsed-frontmatter), and the write guard's
 * protected keys (frontmatter-guard `isProtectedKey`).
 */

/** Frontmatter key holding the note's own access level. */
export const ACCESS_KEY = 'access';
/** Frontmatter key holding per-key overrides: `{ <key label>: read-only | no-access }`. */
export const AGENT_OVERRIDES_KEY = 'agent_overrides';

/**
 * The property names that carry access rules, in the one spelling every reader compares them
 * in (trimmed, lower case): the note's `access`, its `agent_overrides`, and a YAML merge key
 * `<<`, which may bring either in. A new rule name is added here.
 */
const RULE_KEYS: readonly RuleKey[] = [ACCESS_KEY, AGENT_OVERRIDES_KEY, MERGE_KEY];

/** A property name that carries access rules ({@link ruleKeyOf}). */
export type RuleKey = typeof ACCESS_KEY | typeof AGENT_OVERRIDES_KEY | typeof MERGE_KEY;

/**
 * {@link RULE_KEYS} as a test that allocates nothing (most property names are none of them): a
 * name that, trimmed (`\s` is the white space `trim` removes), is one of them in any case. `/i`
 * without `u` folds no other character to an ASCII letter, nor does `toLowerCase` to a letter of
 * these names, so it matches exactly the names that trim and lower-case to one. (The names hold
 * no regular-expression syntax.)
 */
const RULE_KEY_PATTERN = new RegExp(`^\\s*(?:${RULE_KEYS.join('|')})\\s*$`, 'i');

/** The first characters (both cases) of {@link RULE_KEYS}: a name starting with another ASCII character that is no white space is none of them. */
const RULE_KEY_STARTS: ReadonlySet<number> = new Set(RULE_KEYS.flatMap((key) => [key.charCodeAt(0), key.toUpperCase().charCodeAt(0)]));

/**
 * The access rule a property name carries, compared as every access reader compares it:
 * trimmed, without case and in NFC (`Access:`, ` AGENT_OVERRIDES `, a quoted `" << "`), so a rule
 * counts however it is spelled. (NFC is the form every property name compares in:
 * content/frontmatter/property-names.ts. These names are ASCII, and no other spelling of them is canonically
 * equivalent, so NFC changes nothing here today; it keeps the rule one with the other names.)
 * @param name a frontmatter property name (a parsed key, or the text of one in a block that
 *   does not parse). @returns `access`, `agent_overrides` or `<<`; null for any other name.
 */
export function ruleKeyOf(name: string): RuleKey | null {
  const first = name.charCodeAt(0);
  // Most property names: an ASCII first character that is no space and starts no rule name.
  if (first > 0x20 && first < 0x80 && !RULE_KEY_STARTS.has(first)) return null;
  const nfc = /[\u0080-\uffff]/.test(name) ? name.normalize('NFC') : name;
  return RULE_KEY_PATTERN.test(nfc) ? (nfc.trim().toLowerCase() as RuleKey) : null;
}

/**
 * True when parsed frontmatter has a property that carries an access rule ({@link ruleKeyOf}:
 * `access`, `agent_overrides`, or a merge key `<<` that may bring one in).
 * @param frontmatter parsed frontmatter, or undefined/null when there is none.
 */
export function namesAccessRules(frontmatter: Record<string, unknown> | null | undefined): boolean {
  return !!frontmatter && Object.keys(frontmatter).some((key) => ruleKeyOf(key) !== null);
}

/**
 * True when the note's access may differ from one key label to another: its frontmatter has an
 * `agent_overrides` property (name compared by {@link ruleKeyOf}, as access-rules noteAccess
 * compares it), the only rule noteAccess reads per label, or a merge key `<<` that may bring one
 * in. A note without one has the same level for every label, its `access` alone.
 * @param frontmatter the note's frontmatter (metadata cache), or undefined when it has none.
 */
export function namesLabelRules(frontmatter: Record<string, unknown> | null | undefined): boolean {
  return (
    !!frontmatter &&
    Object.keys(frontmatter).some((key) => {
      const rule = ruleKeyOf(key);
      return rule !== null && rule !== ACCESS_KEY;
    })
  );
}
