import { compactAnnotations, compactInputSchema, describeTool } from '../../../src/server/session/tool-dispatch';
import { ALL_TOOLS } from '../../../src/tools/registry';
import { arrayOf, objectOf, STRING } from '../../../src/tools/output-schema';

/** What tools/list leaves out of each entry to stay within its budget, and what it must keep. */
describe('tools/list entries (describeTool)', () => {
  it('drops hints that repeat the spec defaults or do not apply, keeps the rest', () => {
    expect(
      compactAnnotations({ title: 'T', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }),
    ).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(compactAnnotations({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false })).toEqual({
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(compactAnnotations({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })).toEqual({
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(compactAnnotations({})).toEqual({});
  });

  it('drops zod artifacts that say nothing in JSON Schema 2020-12, at any depth', () => {
    const zodOutput = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        m: { type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: 10 },
        patch: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        list: { type: 'array', items: { anyOf: [{ type: 'object', properties: {}, additionalProperties: false }, { type: 'string' }] } },
      },
      additionalProperties: false,
    };
    expect(compactInputSchema(zodOutput)).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0 },
        m: { type: 'integer', maximum: 10 },
        patch: { type: 'object' },
        list: { type: 'array', items: { anyOf: [{ type: 'object', additionalProperties: false }, { type: 'string' }] } },
      },
      additionalProperties: false,
    });
    // Constraints that mean something stay.
    expect(compactInputSchema({ type: 'object', propertyNames: { pattern: '^a' }, additionalProperties: { type: 'string' } })).toEqual({
      type: 'object',
      propertyNames: { pattern: '^a' },
      additionalProperties: { type: 'string' },
    });
  });

  it('every tool still refuses unknown inputs, and a tool without inputs lists none', () => {
    for (const tool of ALL_TOOLS.map(describeTool))
      expect({ name: tool.name, additional: tool.inputSchema.additionalProperties }).toEqual({ name: tool.name, additional: false });
    expect(describeTool(ALL_TOOLS.find((t) => t.name === 'list_tags')!).inputSchema).toEqual({
      type: 'object',
      additionalProperties: false,
    });
  });

  it('lists a declared outputSchema as is, and none for tools without one', () => {
    const search = describeTool(ALL_TOOLS.find((t) => t.name === 'search')!);
    expect(search.outputSchema).toBe(ALL_TOOLS.find((t) => t.name === 'search')!.outputSchema);
    expect(describeTool(ALL_TOOLS.find((t) => t.name === 'list_tags')!)).not.toHaveProperty('outputSchema');
  });

  it('objectOf refuses a required field it does not declare (a schema bug), and builds open objects', () => {
    expect(() => objectOf({ path: STRING }, ['path', 'hash'])).toThrow(/required field\(s\) hash are not declared/);
    expect(objectOf({ paths: arrayOf(STRING) })).toEqual({
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' } } },
    });
  });
});
