import * as z from 'zod';
import { ToolError } from '../../errors';
import { stagedResult } from '../../proposals/proposal-summary';
import { normalizeKeyMode } from '../../settings/key-record';
import { MAX_WIDGET_CHARS, parseWidgetManifest } from '../../vault/widgets/widget-manifest';
import { WIDGET_WRITE_TOOL } from '../../vault/widgets/widget-store';
import { defineTool } from '../tool';
import { hashArg } from './write-gate';
import { widgetQueryError } from '../widget-query';

/**
 * `widget_write`: adds or replaces one widget. Like every write it goes through the key's
 * mode (docs/architecture.md#keys): a `propose` key can only stage a new widget, which the user
 * reviews like a new note; a `force` key creates it at once, and only a force key can replace
 * an existing widget, with `expected_hash`, the old text archived first as `<id>.html.bak`,
 * or `<id>.html.bak.1`, `.bak.2`, ... when taken (backups are never overwritten).
 */
export const widgetWriteTool = defineTool({
  name: WIDGET_WRITE_TOOL,
  title: 'Write widget',
  description:
    'Add a widget Widgets/<id>.html: self-contained HTML with <script type="application/json" id="vault-mcp-widget">' +
    '{"name","description","query"}</script>. Runs sandboxed without requests; gets {type:"vault-mcp-widget-data",result} (the ' +
    'query_notes result) by postMessage, over the notes your key may read; may post {type:"vault-mcp-widget-height",height}. Replacing needs a force key and ' +
    'expected_hash; the old file is kept as <id>.html.bak (or .bak.1, .bak.2...).',
  kind: 'write',
  inputSchema: {
    id: z.string().describe('E.g. "reading-list" (letters, digits, - _).'),
    html: z.string().max(MAX_WIDGET_CHARS).describe('Whole document; inline scripts and styles only.'),
    expected_hash: hashArg('widget_list').optional().describe('To replace: its hash from widget_list.'),
  },
  annotations: { title: 'Write widget', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const parsed = parseWidgetManifest(args.html);
    const queryError = parsed.ok ? widgetQueryError(parsed.manifest.query) : null;
    if (queryError) throw new ToolError('invalid_argument', `${queryError} Nothing was written.`);
    const { widgets } = ctx.notes;
    if (normalizeKeyMode(ctx.caller.mode) !== 'force') {
      const prepared = widgets.prepareCreate(args.id, args.html, ctx.scope);
      const proposal = await ctx.proposals.stage(prepared, {
        id: ctx.caller.id,
        label: ctx.caller.label,
        roots: ctx.caller.roots ?? [],
        session: ctx.scope.actor?.session,
      });
      return { ...stagedResult(proposal, []), id: args.id };
    }
    if (args.expected_hash !== undefined) return { ...(await widgets.replace(args.id, args.html, args.expected_hash, ctx.scope)) };
    if (widgets.existing(args.id, ctx.scope) === null) return { ...(await widgets.create(args.id, args.html, ctx.scope)) };
    throw new ToolError(
      'invalid_argument',
      `Widget '${args.id}' already exists; to replace it pass expected_hash (its hash from widget_list), or choose a new id.`,
    );
  },
});
