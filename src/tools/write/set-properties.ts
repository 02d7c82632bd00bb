import * as z from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { NOTE_ARG_DESCRIPTION } from '../args';
import { defineTool } from '../tool';

/** `set_properties`: set or delete frontmatter properties (names ignoring case), keeping value types and every other line. */
export const setPropertiesTool = defineTool({
  name: 'set_properties',
  title: 'Set properties',
  description:
    'Set (value) or delete (null) frontmatter properties, tags included; names match ignoring case. Types are kept (a list ' +
    'stays a list; tags/aliases/cssclasses as "a, b" become lists). Only the changed lines are rewritten. access and ' +
    "agent_overrides are the user's. Invalid YAML is refused.",
  kind: 'write',
  inputSchema: {
    path: z.string().describe(NOTE_ARG_DESCRIPTION),
    properties: z.record(z.string(), z.unknown()).describe('{"status": "done", "tags": ["a", "b"], "draft": null}'),
    expected_hash: expectedHashArg,
  },
  annotations: { title: 'Set properties', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    return submitWrite(ctx, {
      tool: 'set_properties',
      kind: 'properties',
      path: args.path,
      properties: args.properties,
      expectedHash: args.expected_hash,
    });
  },
});
