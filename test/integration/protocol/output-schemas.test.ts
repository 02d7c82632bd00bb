import Ajv2020 from 'ajv/dist/2020';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import VaultMcpPlugin from '../../../src/main';
import { ALL_TOOLS } from '../../../src/tools/registry';
import { compactHit, searchTool } from '../../../src/tools/read/search';
import type { SearchIndex } from '../../../src/search/search-index';
import type { SearchPage } from '../../../src/search/types';
import type { ToolContext } from '../../../src/tools/tool';
import { bootPlugin, connectClient, type BootedPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

/**
 * Every declared `outputSchema` (JSON Schema 2020-12, compiled by Ajv in strict mode) accepts
 * the `structuredContent` of every success path of its tool, called as clients call it: the
 * v2 client in the 2026-07-28 era (which checks results against the schemas it listed) and
 * the 1.x client in a 2025-11-25 session. Failures stay `isError` results, whose content the
 * schema does not describe.
 */
describe('output schemas', () => {
  let copy: { dir: string; cleanup(): Promise<void> };
  let booted: BootedPlugin<VaultMcpPlugin>;
  const ajv = new Ajv2020({ strict: true, allErrors: true });

  /** tools/call arguments of every success path of each tool that declares an outputSchema. */
  const SUCCESS_PATHS: Record<string, Array<Record<string, unknown>>> = {
    search: [
      { query: 'sourdough', mode: 'lexical' },
      { query: 'sourdough starter' },
      { query: 'plan budget', limit: 1 },
      { query: 'tag:#project', fields: 'metadata' },
      { query: '"library card"' },
      { query: 'starter|levain', regex: true },
      { query: 'zzzz-nothing-matches' },
      { query: 'how do I bake', mode: 'lexical' },
    ],
    read_note: [
      { path: 'Home.md' },
      { path: 'Home' },
      { path: 'Reference/Sourdough handbook.md', max_chars: 200 },
      { path: 'Reference/Sourdough handbook.md', offset: 100, max_chars: 0 },
      { path: 'Home.md', outline: true },
      { path: 'Inbox.md', outline: true },
      { path: 'Home.md', section: '1.1' },
      { path: 'Projects/Alpha/Budget.md' },
    ],
    read_notes: [
      { paths: ['Home.md', 'Inbox.md'] },
      { paths: ['Home.md', 'No such note.md', 'Meeting notes'] },
      { paths: ['Reference/Sourdough handbook.md', 'Projects/Alpha/Budget.md', 'Projects/Beta/Retrospective.md'] },
    ],
    proposal_status: [{}, { activity: true }],
  };

  beforeAll(async () => {
    copy = await copyToTemp(DEMO_VAULT);
    booted = await bootPlugin(VaultMcpPlugin, {
      vaultPath: copy.dir,
      mode: 'propose',
      allowWrites: true,
      label: 'Schemas',
      token: 'output-schemas-token-0123456789ab',
    });
  });
  afterAll(async () => {
    await booted.stop();
    await copy.cleanup();
  });

  /** The schemas a client lists, compiled strictly (a schema Ajv 2020 refuses fails here). */
  async function listedValidators(client: {
    listTools(): Promise<{ tools: Array<{ name: string; outputSchema?: unknown }> }>;
  }): Promise<Map<string, ReturnType<Ajv2020['compile']>>> {
    const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
    for (const tool of (await client.listTools()).tools) {
      if (tool.outputSchema) validators.set(tool.name, ajv.compile(tool.outputSchema as object));
    }
    return validators;
  }

  type Caller = { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> };

  /** Runs every success path of every schema'd tool through `client` and validates each result. */
  async function validateAll(client: Caller, validators: Map<string, ReturnType<Ajv2020['compile']>>): Promise<number> {
    // A staged proposal first, so proposal_status lists one and answers one by id.
    const staged = (await client.callTool({ name: 'append_note', arguments: { path: 'Inbox.md', content: '- schema check' } })) as {
      structuredContent: { proposal_id: string };
    };
    const paths = { ...SUCCESS_PATHS, proposal_status: [...SUCCESS_PATHS.proposal_status, { id: staged.structuredContent.proposal_id }] };
    let checked = 0;
    for (const [name, validate] of validators) {
      expect({ name, hasSuccessPaths: name in paths }).toEqual({ name, hasSuccessPaths: true });
      for (const args of paths[name as keyof typeof paths]) {
        const result = (await client.callTool({ name, arguments: args })) as {
          isError?: boolean;
          structuredContent?: unknown;
          content?: Array<{ text?: string }>;
        };
        expect({ name, args, isError: result.isError ?? false, text: result.isError ? result.content?.[0]?.text : undefined }).toEqual({
          name,
          args,
          isError: false,
          text: undefined,
        });
        const valid = validate(result.structuredContent);
        expect({ name, args, errors: valid ? null : validate.errors }).toEqual({ name, args, errors: null });
        checked++;
      }
    }
    return checked;
  }

  it('the tools that declare one are search, read_note, read_notes and proposal_status', () => {
    expect(
      ALL_TOOLS.filter((t) => t.outputSchema)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['proposal_status', 'read_note', 'read_notes', 'search']);
  });

  it('every declared schema compiles under Ajv 2020 strict mode and is an object schema (MCP requires type "object")', () => {
    for (const tool of ALL_TOOLS.filter((t) => t.outputSchema)) {
      expect({ name: tool.name, type: tool.outputSchema?.type }).toEqual({ name: tool.name, type: 'object' });
      expect(() => ajv.compile(tool.outputSchema as object)).not.toThrow();
    }
  });

  it('a 2026-07-28 v2 client gets results matching every schema on every success path', async () => {
    const client = new ModernClient({ name: 'schemas-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new ModernTransport(new URL(booted.url), { requestInit: { headers: { Authorization: `Bearer ${booted.token}` } } }),
    );
    expect(client.getProtocolEra()).toBe('modern');
    const checked = await validateAll(client, await listedValidators(client));
    expect(checked).toBeGreaterThanOrEqual(20);
    await client.close();
  });

  it('a 2025-11-25 session gets the same: every success path matches', async () => {
    const client = await connectClient(booted.url, booted.token);
    const checked = await validateAll(client, await listedValidators(client));
    expect(checked).toBeGreaterThanOrEqual(20);
    await client.close();
  });

  it('a failed call stays an isError result without structuredContent (the schema does not describe errors)', async () => {
    const client = await connectClient(booted.url, booted.token);
    await client.listTools();
    for (const [name, args] of [
      ['read_note', { path: 'No such note.md' }],
      ['read_note', { path: 'Home.md', outline: true, section: '1' }],
      ['proposal_status', { id: 'p-unknown' }],
      ['search', { query: '(unclosed', regex: true }],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown };
      expect({ name, isError: result.isError, structured: result.structuredContent }).toEqual({
        name,
        isError: true,
        structured: undefined,
      });
    }
    await client.close();
  });

  it('a schema that is not strict 2020-12 is refused by the same check (the check can fail)', () => {
    expect(() => ajv.compile({ type: 'object', properties: { path: { type: 'string', format2: 'x' } } })).toThrow(/unknown keyword/);
    const validate = ajv.compile(ALL_TOOLS.find((t) => t.name === 'search')?.outputSchema as object);
    expect(validate({ results: [{ path: 'A.md', score: '1', section: null }], total: 1 })).toBe(false);
    expect(validate({ results: [], total: 0 })).toBe(true);
  });
});

describe('search output schema on pages the demo vault does not produce', () => {
  const ajv = new Ajv2020({ strict: true });
  it('accepts a hybrid page with ids, titles, sources and an index still building', async () => {
    const validate = ajv.compile(searchTool.outputSchema as object);
    const page: SearchPage = {
      results: [
        { path: 'A.md', id: 'a-1', title: 'Alpha', score: 0.9, snippet: 'x', section: '1', section_heading: 'One', source: 'both' },
        { path: 'B.md', id: 'path:B.md', title: 'B', score: 0.1, section: null, section_heading: null, source: 'semantic' },
      ],
      total: 2,
      note: 'Still indexing.',
      index: { complete: false, indexed: 10, total: 20 },
    };
    const search = { search: async (): Promise<SearchPage> => page } as unknown as SearchIndex;
    const out = await searchTool.handler({ query: 'alpha', mode: 'lexical' }, {
      search,
      scope: { label: 'x', roots: [] },
    } as unknown as ToolContext);
    expect(validate(out)).toBe(true);
    expect(validate(compactHit(page.results[0], true))).toBe(false);
  });
});
