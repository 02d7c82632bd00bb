import * as z from 'zod';
import { ToolError } from '../../errors';
import { stagedResult } from '../../proposals/proposal-summary';
import { normalizeKeyMode } from '../../settings/key-record';
import { MAX_WIDGET_CHARS, parseWidgetManifest } from '../../vault/widgets/widget-manifest';
import { WIDGET_WRITE_TOOL } from '../../vault/widgets/widget-store';
import type { PreparedWrite } from '../../vault/writes/write-types';
import { defineTool, type ToolContext } from '../tool';
import { hashArg, INSTRUCTIONS_REVIEW_REASON, instructionsHold } from './write-gate';
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
    '{"name","description","query"}</script>. Runs sandboxed; gets {type:"vault-mcp-widget-data",result} (query_notes over ' +
    'the notes your key may read) by postMessage, may post {type:"vault-mcp-widget-height",height}. Replacing needs a force key and ' +
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
    if (normalizeKeyMode(ctx.caller.mode) !== 'force')
      return stageWidget(ctx, widgets.prepareCreate(args.id, args.html, ctx.scope), args.id);
    // A force key's widget is held like a note where agent instructions import it (`@Widgets/<id>.html`).
    const hold = await instructionsHold(ctx);
    if (args.expected_hash !== undefined) return { ...(await widgets.replace(args.id, args.html, args.expected_hash, ctx.scope, hold)) };
    if (widgets.existing(args.id, ctx.scope) === null) {
      const prepared = widgets.prepareCreate(args.id, args.html, ctx.scope);
      if (hold(prepared.path)) return stageWidget(ctx, prepared, args.id, INSTRUCTIONS_REVIEW_REASON);
      return { ...(await widgets.create(args.id, args.html, ctx.scope)) };
    }
    throw new ToolError(
      'invalid_argument',
      `Widget '${args.id}' already exists; to replace it pass expected_hash (its hash from widget_list), or choose a new id.`,
    );
  },
});

/**
 * Stages a new widget as a proposal of the caller (a propose key's widget, or a force key's that
 * agent instructions import): the user accepts it in Obsidian (ProposalReview, then
 * WidgetStore.acceptStaged creates it for the proposing key, recording that key as its writer).
 * @param prepared WidgetStore.prepareCreate's create. @param id the widget id, echoed in the answer.
 * @param reason why a force key's widget is staged (write-gate.ts INSTRUCTIONS_REVIEW_REASON), kept
 *   on the proposal for the review views and echoed in the answer, as for a held note write.
 * @returns stagedResult's `{status: 'pending', proposal_id, ...}` with `id` (and `reason`).
 * @throws ToolError from the proposal store (the key's pending quota).
 */
async function stageWidget(ctx: ToolContext, prepared: PreparedWrite, id: string, reason?: string): Promise<Record<string, unknown>> {
  const proposal = await ctx.proposals.stage(
    prepared,
    { id: ctx.caller.id, label: ctx.caller.label, roots: ctx.caller.roots ?? [], session: ctx.scope.actor?.session },
    reason,
  );
  const staged = { ...stagedResult(proposal, []), id };
  return reason === undefined ? staged : { ...staged, reason };
}
