import type { ServerContext } from '@modelcontextprotocol/server';
import { progressReporter } from '../../../src/server/session/progress';

/** A request context as the SDK hands it to a handler, recording what it notifies. */
function contextWith(meta: Record<string, unknown> | undefined, fail = false): { ctx: ServerContext; sent: unknown[] } {
  const sent: unknown[] = [];
  const notify = async (notification: unknown): Promise<void> => {
    if (fail) throw new Error('the client went away');
    sent.push(notification);
  };
  return { ctx: { mcpReq: { _meta: meta, notify } } as unknown as ServerContext, sent };
}

describe('progressReporter', () => {
  it('is absent without a progressToken', () => {
    expect(progressReporter(contextWith(undefined).ctx)).toBeUndefined();
    expect(progressReporter(contextWith({}).ctx)).toBeUndefined();
  });

  it("sends the client's token unchanged and drops values that do not grow", () => {
    const { ctx, sent } = contextWith({ progressToken: 0 });
    const report = progressReporter(ctx)!;
    report(1, 3);
    report(1, 3);
    report(0.5);
    report(3, 3, 'done');
    expect(sent).toEqual([
      { method: 'notifications/progress', params: { progressToken: 0, progress: 1, total: 3 } },
      { method: 'notifications/progress', params: { progressToken: 0, progress: 3, total: 3, message: 'done' } },
    ]);
  });

  it('never throws when the notification cannot be sent', async () => {
    const report = progressReporter(contextWith({ progressToken: 'x' }, true).ctx)!;
    expect(() => report(1)).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
  });
});
