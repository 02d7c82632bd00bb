import { frontMatterInfo } from '../content/line-endings';
import { parseYamlOnce } from '../content/parsed-yaml';
import { noteAccess, unparsedBlockAccess, type NoteAccess } from './access-rules';

/**
 * A text that may name an access rule: a frontmatter block holding `access`, `agent`, a merge
 * key `<<` or a backslash (a double-quoted key with YAML escapes, `"acc\x65ss"`), in any case.
 * Every spelling the rule readers count (access-rules noteAccess via rule-keys ruleKeyOf:
 * trimmed, any case, NFC, whose only singleton mappings to ASCII give no letter of these names;
 * unparsedRules: quoted, escaped, explicit, flow keys) holds one of them, so a block without any
 * names no rule.
 */
const MAY_NAME_RULE = /access|agent|<<|\\/i;

/**
 * The access level `label` has on a note whose whole text is `text`, read from that text's own
 * frontmatter block by the rules every other reader uses: a block that parses to a mapping (the
 * app's `parseYaml`, as the metadata cache parses it) by access-rules noteAccess, any other block
 * at its strictest by unparsedBlockAccess (as UnparsedFrontmatter reads a note the metadata cache
 * has not parsed, and the write guard's assertWritableText reads the text it changes). For read
 * routes that serve a text (NotePolicy.mayServe): the metadata cache their access check read may
 * be older than the text (docs/security.md, "Access rules in frontmatter").
 * Cheap for most notes: a text not starting with `---` (after a byte-order mark) has no block,
 * and a block naming none of `access`, `agent`, `<<` or a backslash names no rule; only the rest
 * is parsed.
 * @param text a note's whole text. @param label the calling key's label.
 * @returns `read-write` when the text names no rule; never throws.
 */
export function textAccess(text: string, label: string): NoteAccess {
  if (!text.startsWith('---') && !text.startsWith('\uFEFF---')) return 'read-write';
  const info = frontMatterInfo(text);
  if (!info.exists || !MAY_NAME_RULE.test(info.frontmatter)) return 'read-write';
  const block = info.frontmatter;
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
