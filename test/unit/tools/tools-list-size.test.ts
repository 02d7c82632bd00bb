import { describeTool } from '../../../src/server/session/tool-dispatch';
import { ALL_TOOLS } from '../../../src/tools/registry';

/**
 * tools/list is paid for by every agent on every session: with every tool enabled it must
 * stay under 4k tokens (≈ 16k chars at 4 chars a token); a new tool pays for itself by
 * trimming words elsewhere.
 */
describe('tools/list size', () => {
  it('with every tool enabled, the serialized tools/list is at most 16,000 chars', () => {
    const tools = ALL_TOOLS.map(describeTool);
    const chars = JSON.stringify({ tools }).length;
    const perTool = tools.map((t) => `${t.name} ${JSON.stringify(t).length}`).join(', ');
    console.log(`tools/list: ${tools.length} tools, ${chars} chars (${perTool})`);
    expect(chars).toBeLessThanOrEqual(16000);
  });

  it('every tool still describes itself and each of its inputs', () => {
    for (const tool of ALL_TOOLS.map(describeTool)) {
      expect(tool.description?.length).toBeGreaterThan(30);
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(`${tool.name}.${name}: ${schema.description ?? ''}`.length).toBeGreaterThan(`${tool.name}.${name}: `.length);
      }
    }
  });
});
