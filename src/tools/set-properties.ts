import { z } from 'zod';
import { expectedHashArg, submitWrite } from './write-gate';
import { defineTool } from './tool';

/** `set_properties`: set or delete frontmatter properties, keeping value types. */
export const setPropertiesTool = defineTool({
  name: 'set_properties',
  title: 'Set properties',
  description:
    'Set (a value) or delete (null) frontmatter properties of a note, tags included; other properties are kept as they are. ' +
    'Types are kept: numbers stay numbers, lists stay lists (a single value given for a list property becomes a one-item list; ' +
    'tags/aliases/cssclasses given as "a, b" become lists, tags without "#"). access and agent_overrides are the user\'s only. ' +
    'Frontmatter that does not parse is never rewritten: the call is refused with the YAML error. ' +
    'Returns {status, path, hash, size_before, size_after, lines} (lines = the frontmatter block).',
  kind: 'write',
  inputSchema: {
    path: z.string().describe('Vault path of the note (".md" optional) or its name as in a [[wikilink]].'),
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
