import { defineTool } from '../../tool';
import { widgetQueryError } from '../../widget-query';

/**
 * `widget_list`: the widgets of the widgets folder with their manifests (metadata only, never
 * the HTML). A widget whose name, manifest or query is broken is listed with `error`.
 */
export const widgetListTool = defineTool({
  name: 'widget_list',
  title: 'List widgets',
  description:
    'Widgets (Widgets/<id>.html, shown in a note by a vault-mcp-widget code block holding the id): {id, name, description, query, path, hash, error?}; no HTML.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'List widgets', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const widgets = await ctx.notes.widgets.list(ctx.scope);
    return {
      widgets: widgets.map((w) => {
        const queryError = w.error === undefined && w.query !== null ? widgetQueryError(w.query) : null;
        return queryError ? { ...w, error: queryError } : w;
      }),
    };
  },
});
