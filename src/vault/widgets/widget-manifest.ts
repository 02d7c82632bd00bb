import { ToolError } from '../../errors';

/**
 * What a widget file says about itself: the manifest, a
 * `<script type="application/json" id="vault-mcp-widget">{"name", "description", "query"}</script>`
 * element inside the widget's HTML. Read with a bounded scan of the text (no DOM on the
 * server side); the widget's own scripts never run here.
 */

/** The manifest element's `id` attribute. */
export const MANIFEST_ELEMENT_ID = 'vault-mcp-widget';

/** Largest widget accepted, in characters of HTML (inline images as data: URIs fit). */
export const MAX_WIDGET_CHARS = 512 * 1024;

/** A widget id: the file's name without `.html`; ASCII letters, digits, `-` and `_`, at most 64 characters. */
const WIDGET_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Longest manifest `name` and `description`, characters; `query` follows query_notes' 2000-char cap. */
const MAX_NAME_CHARS = 120;
const MAX_DESCRIPTION_CHARS = 1000;
export const MAX_WIDGET_QUERY_CHARS = 2000;

/** A script start tag, its attributes bounded so a text full of `<script` without `>` stays linear. */
const SCRIPT_START = /<script\b([^>]{0,2000})>/gi;
/** `id=...` and `type=...` inside a start tag (quoted either way, or bare). */
const ID_ATTR = /(?:^|\s)id\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const TYPE_ATTR = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/** A widget's manifest: its name and description for people and agents, and the query_notes query whose result it receives. */
export interface WidgetManifest {
  name: string;
  description: string;
  query: string;
}

/** The outcome of {@link parseWidgetManifest}: the manifest, or one sentence on what is wrong with it. */
export type ManifestResult = { ok: true; manifest: WidgetManifest } | { ok: false; error: string };

/**
 * True when `id` is a valid widget id: 1–64 ASCII letters, digits, `-` or `_`, starting with a
 * letter or digit (a safe file name on every disk, no path separators, no dots).
 */
export function isWidgetId(id: string): boolean {
  return WIDGET_ID.test(id);
}

/**
 * Checks an agent-supplied widget id.
 * @throws ToolError('invalid_argument') naming the rule when {@link isWidgetId} is false.
 */
export function assertWidgetId(id: string): void {
  if (!isWidgetId(id)) {
    const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
    throw new ToolError(
      'invalid_argument',
      `Widget id '${shown}' is not valid: use 1-64 ASCII letters, digits, '-' or '_', starting with a letter or digit (e.g. 'reading-list'); it becomes the file name <id>.html.`,
    );
  }
}

/**
 * Finds and parses the manifest of a widget's HTML. There must be exactly one
 * `<script id="vault-mcp-widget">` element, its `type` must be `application/json` (so the
 * browser never runs it), and its text must be a JSON object with a non-empty string `name`
 * (≤ 120 chars), a string `query` (≤ 2000 chars; `""` lists the newest notes) and, optionally,
 * a string `description` (≤ 1000 chars). Whether `query` parses as query_notes is checked by
 * the tools (search/ is above vault/).
 * @param html the widget's whole text, at most {@link MAX_WIDGET_CHARS} characters.
 * @returns the manifest, or `{ok: false, error}` with one sentence saying what to fix.
 */
export function parseWidgetManifest(html: string): ManifestResult {
  if (html.length > MAX_WIDGET_CHARS) return fail(`the widget is ${html.length} characters; at most ${MAX_WIDGET_CHARS} are allowed`);
  const found: Array<{ type: string; body: string }> = [];
  for (const match of html.matchAll(SCRIPT_START)) {
    const attrs = match[1];
    if (attrValue(ID_ATTR, attrs) !== MANIFEST_ELEMENT_ID) continue;
    const start = (match.index ?? 0) + match[0].length;
    const end = indexOfIgnoreCase(html, '</script', start);
    if (end < 0) return fail('the manifest <script> element is not closed with </script>');
    found.push({ type: (attrValue(TYPE_ATTR, attrs) ?? '').trim().toLowerCase(), body: html.slice(start, end) });
    // A second one is already an error: stop, so many start tags before one far </script> cost one scan each at most twice.
    if (found.length > 1) return fail(`more than one element has id "${MANIFEST_ELEMENT_ID}"; keep exactly one manifest`);
  }
  if (found.length === 0)
    return fail(
      `no manifest: add <script type="application/json" id="${MANIFEST_ELEMENT_ID}">{"name": "...", "description": "...", "query": "..."}</script>`,
    );
  const [{ type, body }] = found;
  if (type !== 'application/json')
    return fail(
      `the manifest <script> must have type="application/json" (it has ${type ? `"${type}"` : 'none'}), so it is data and never runs`,
    );
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (err) {
    return fail(`the manifest is not valid JSON (${(err as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return fail('the manifest must be a JSON object with "name", "description" and "query"');
  const { name, description, query } = data as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return fail('the manifest needs a non-empty string "name"');
  if (name.length > MAX_NAME_CHARS) return fail(`the manifest "name" is longer than ${MAX_NAME_CHARS} characters`);
  if (description !== undefined && typeof description !== 'string') return fail('the manifest "description" must be a string');
  if ((description ?? '').length > MAX_DESCRIPTION_CHARS)
    return fail(`the manifest "description" is longer than ${MAX_DESCRIPTION_CHARS} characters`);
  if (typeof query !== 'string')
    return fail('the manifest needs a string "query" (a query_notes query, e.g. "WHERE status is \\"reading\\" LIMIT 20")');
  if (query.length > MAX_WIDGET_QUERY_CHARS) return fail(`the manifest "query" is longer than ${MAX_WIDGET_QUERY_CHARS} characters`);
  return { ok: true, manifest: { name: name.trim(), description: description ?? '', query } };
}

function fail(error: string): ManifestResult {
  return { ok: false, error: `Invalid widget manifest: ${error}.` };
}

/** The value of the attribute `pattern` matches in a start tag's attribute text, or null. */
function attrValue(pattern: RegExp, attrs: string): string | null {
  const m = pattern.exec(attrs);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
}

/** `text.indexOf(needle, from)` ignoring ASCII case (needle given in lower case), without copying `text`. */
function indexOfIgnoreCase(text: string, needle: string, from: number): number {
  const pattern = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
  pattern.lastIndex = from;
  const m = pattern.exec(text);
  return m ? m.index : -1;
}
