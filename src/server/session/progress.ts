import type { ServerContext } from '@modelcontextprotocol/server';
import type { ToolContext } from '../../tools/tool';

/**
 * The progress reporter of one request (MCP spec "Progress" → `notifications/progress`), or
 * undefined when the client sent no `progressToken`: each report carries the client's own token
 * (same value and type), and a value not above the last one sent is dropped, so the
 * notifications the client sees only grow. A notification that cannot be sent (the client went
 * away) is dropped too: progress never fails a call.
 * @param ctx the SDK's context of the request.
 */
export function progressReporter(ctx: ServerContext): ToolContext['progress'] {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  let last = -Infinity;
  return (progress, total, message) => {
    if (!(progress > last)) return;
    last = progress;
    const params = {
      progressToken: token,
      progress,
      ...(total === undefined ? {} : { total }),
      ...(message === undefined ? {} : { message }),
    };
    ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}
