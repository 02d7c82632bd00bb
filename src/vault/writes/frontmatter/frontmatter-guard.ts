import { parseYamlOnce } from '../../content/frontmatter/parsed-yaml';
import { frontMatterInfo } from '../../content/text/line-endings';
import { quoteInput, ToolError, withoutNames, withoutText } from '../../../errors';
import type { AccessScope } from '../../access/access';
import { noteAccess, unparsedBlockAccess, unparsedRules } from '../../access/access-rules';
import { ACCESS_KEY, AGENT_OVERRIDES_KEY, namesLabelRules, ruleKeyOf } from '../../access/rule-keys';
import { MERGE_KEY, withMergeKeys } from '../../content/frontmatter/yaml-merge-keys';

/**
 * The guard that keeps agents away from a note's access rules
 * (docs/architecture.md#trust-model): no route may add, change or remove `access` or `agent_overrides`, and no
 * write may leave frontmatter that does not parse (which would hide those keys from the
 * metadata cache and so loosen them). It compares whole texts before and after a change, so
 * it holds for every route: patches, whole-body writes, anchored edits inside the block,
 * appends and created notes. Frontmatter is found with Obsidian's `getFrontMatterInfo` and
 * read with `parseYaml`, as the app reads it.
 */

/** A note's frontmatter block: absent, parsed to a mapping, or present but not parseable. */
export type ParsedFrontmatter =
  | { state: 'none'; block: ''; data: Record<string, unknown> }
  | { state: 'ok'; block: string; data: Record<string, unknown> }
  | { state: 'invalid'; block: string; error: string };

/**
 * True for property names only the user may touch: every name that carries an access rule
 * (`access`, `agent_overrides`), compared as access rules compare them (access-rules ruleKeyOf:
 * trimmed, any case). The merge key `<<` is no property of its own: what it brings in is judged
 * on the merged reading.
 */
export function isProtectedKey(key: string): boolean {
  const rule = ruleKeyOf(key);
  return rule !== null && rule !== MERGE_KEY;
}

/**
 * Reads the frontmatter of a whole note text.
 * @returns `none` without a block; `ok` with the parsed mapping (`{}` for an empty block);
 *   `invalid` with the parser's first message line when the YAML does not parse or is not a
 *   mapping. Never throws.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const info = frontMatterInfo(text);
  if (!info.exists) return { state: 'none', block: '', data: {} };
  const block = info.frontmatter;
  let data: unknown;
  try {
    data = parseYamlOnce(block.replace(/\r\n/g, '\n')) ?? {};
  } catch (err) {
    return { state: 'invalid', block, error: firstLine(err) };
  }
  if (typeof data !== 'object' || Array.isArray(data) || data === null) {
    return { state: 'invalid', block, error: 'the frontmatter is not a mapping of "key: value" properties' };
  }
  return { state: 'ok', block, data: data as Record<string, unknown> };
}

/**
 * Refuses a change from `before` to `after` (whole note texts) that would add, change or
 * remove a protected key, or leave a frontmatter block that does not parse (unless the block
 * was already unparseable and is left exactly as it was).
 * @throws ToolError('forbidden') naming the protected keys; ToolError('invalid_argument')
 *   with the YAML error when the new frontmatter would not parse (withheld from a key that may not
 *   read notes unless `before` is empty: ToolError.withheld).
 */
export function guardFrontmatter(before: string, after: string, notePath: string): void {
  const a = parseFrontmatter(before);
  const b = parseFrontmatter(after);
  if (b.state === 'invalid' && !(a.state === 'invalid' && a.block === b.block)) {
    throw new ToolError(
      'invalid_argument',
      `This change would leave the frontmatter of '${notePath}' unparseable (${b.error}); keep the YAML between the --- lines valid.`,
      'yaml',
      // The parser's words may quote the note's own lines: only a text that was wholly the caller's (a new note) shows them to every key.
      before === '' ? undefined : withoutText(`This change would leave the frontmatter of '${notePath}' unparseable; keep its YAML valid`),
    );
  }
  const same =
    a.state !== 'invalid' && b.state !== 'invalid'
      ? protectedFingerprint(a.data) === protectedFingerprint(b.data) && mergedFingerprint(a.data) === mergedFingerprint(b.data)
      : protectedLines(a.block) === protectedLines(b.block);
  if (!same) throw protectedKeysError(notePath);
}

/**
 * The protected keys of a block's parsed mapping read with YAML merge keys expanded (`<<: *anchor`,
 * YAML 1.1). Whether the app's own parser expands them is not something we can check here, so a
 * change is judged both ways: a merge key must not smuggle in an `access` rule.
 * @param data the block's mapping as {@link parseFrontmatter} gives it (`{}` for no block or an empty one).
 */
function mergedFingerprint(data: Record<string, unknown>): string {
  return protectedFingerprint(withMergeKeys(data) as Record<string, unknown>);
}

/**
 * Canonical JSON of the protected keys of a frontmatter object (keys sorted at every depth),
 * for before/after comparisons inside `processFrontMatter` callbacks.
 */
export function protectedFingerprint(frontmatter: Record<string, unknown>): string {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(frontmatter).filter(isProtectedKey).sort()) picked[key] = frontmatter[key];
  return canonicalJson(picked);
}

/** The refusal every route gives when a protected key would change. */
export function protectedKeysError(notePath: string): ToolError {
  return new ToolError(
    'forbidden',
    `Only the user may add, change or remove the '${ACCESS_KEY}' and '${AGENT_OVERRIDES_KEY}' properties (note '${notePath}'); leave them out of your change.`,
    'protected',
  );
}

/**
 * Checks, on the exact text about to be changed, that `scope` may write the note: its own
 * `access` and `agent_overrides[scope.label]` (docs/architecture.md#trust-model), keys in any case; in a block that
 * does not parse, an access rule counts at its strictest (access-rules unparsedBlockAccess). Used inside atomic writes so a rule
 * added since the tool resolved the note still holds.
 * @throws ToolError('not_found') when the note is private to this key (it behaves as
 *   missing); ToolError('forbidden') naming the property that makes it read-only.
 */
export function assertWritableText(text: string, scope: AccessScope, notePath: string): void {
  const fm = parseFrontmatter(text);
  if (fm.state !== 'invalid') return assertWritableFrontmatter(fm.data, scope, notePath);
  const level = unparsedBlockAccess(fm.block, scope.label) ?? 'read-write';
  if (level === 'private') throw noteNotFound(notePath);
  if (level === 'read-only') throw readOnlyError(notePath, undefined, scope.label);
}

/**
 * {@link assertWritableText} for an already parsed frontmatter object (undefined = none).
 * @throws as {@link assertWritableText}.
 */
export function assertWritableFrontmatter(frontmatter: Record<string, unknown> | undefined, scope: AccessScope, notePath: string): void {
  const level = noteAccess(frontmatter, scope.label);
  if (level === 'private') throw noteNotFound(notePath);
  if (level === 'read-only') throw readOnlyError(notePath, frontmatter, scope.label);
}

/**
 * The refusal for a read-only note, naming the property that makes it so: `access: read-only`,
 * `agent_overrides` for this key's label, or (frontmatter that does not parse, passed as
 * undefined) the access rule its block names.
 */
export function readOnlyError(notePath: string, frontmatter: Record<string, unknown> | undefined, label: string): ToolError {
  if (noteAccess(frontmatter, '') !== 'read-write') {
    return new ToolError(
      'forbidden',
      `Note '${notePath}' is read-only for agents (frontmatter '${ACCESS_KEY}: read-only'); leave it unchanged or ask the user to edit it.`,
      'read-only',
    );
  }
  if (!namesLabelRules(frontmatter)) {
    return new ToolError(
      'forbidden',
      `Note '${notePath}' is read-only for agents (its frontmatter, which does not parse, names an '${ACCESS_KEY}' rule); leave it unchanged or ask the user to edit it.`,
      'read-only',
    );
  }
  return new ToolError(
    'forbidden',
    `Note '${notePath}' is read-only for this key (frontmatter '${AGENT_OVERRIDES_KEY}' gives '${label}' read-only); leave it unchanged or ask the user to edit it.`,
    'read-only',
  );
}

/**
 * The not-found error every tool gives for a note the key cannot see (missing, private or
 * no-access): one wording everywhere. A key whose tool set lists no notes gets it without the
 * candidates and without the advice to call tools it lacks (`withheld`, docs/security.md#keys).
 * @param input what the agent asked for
 * @param candidates readable notes with a similar name ("did you mean"), closest first; only
 *   ever notes the caller may read
 * @param movedTo the path of the readable note that was renamed or moved away from `input`'s path
 *   while the plugin ran (MovedNotes), named in place of candidates
 */
export function noteNotFound(input: string, candidates: readonly string[] = [], movedTo?: string): ToolError {
  const guess = candidates.length > 0 ? `. Did you mean ${candidates.map((c) => `'${c}'`).join(', ')}? Otherwise call` : '; call';
  if (movedTo !== undefined)
    return new ToolError(
      'not_found',
      `Note ${quoteInput(input)} not found: it was renamed or moved to '${movedTo}'; give that path.`,
      undefined,
      withoutNames(`Note ${quoteInput(input)} not found; check the path`),
    );
  return new ToolError(
    'not_found',
    `Note ${quoteInput(input)} not found${guess} search or list_notes to find its path.`,
    undefined,
    withoutNames(`Note ${quoteInput(input)} not found; check the path`),
  );
}

/**
 * The protected keys of a block compared as raw text, for a change where either side does not
 * parse: each place the block names `access` or `agent_overrides` as a key, in any position
 * (access-rules unparsedRules: indented, in a flow mapping, quoted, explicit, any case), with
 * the text that may hold its value (the rest of its line and the lines under it), trimmed.
 */
function protectedLines(block: string): string {
  return unparsedRules(block)
    .map((rule) => [rule.name, ...rule.value].join('\n'))
    .join('\n\n');
}

/** JSON with object keys sorted at every depth. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** The first line of an error's message, without the colon that introduces the quoted lines after it. */
function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // The `yaml` package ends its first line with ':' before the excerpt it quotes on the next lines.
  return message.split('\n')[0].trim().replace(/:$/, '');
}
