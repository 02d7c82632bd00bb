/**
 * The fixtures the official MCP conformance suite (@modelcontextprotocol/conformance, server
 * mode) expects a server under test to offer: test_* tools, test:// resources and test_*
 * prompts, each behaving as the suite's scenario descriptions say. Only the test host
 * registers them (`npm start -- --conformance-fixtures`, used by scripts/conformance.mjs), as a
 * {@link SessionAddOn}; they are never part of main.js.
 */
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/core';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { AddOnExtra, SessionAddOn } from '../src/server/content/session-add-on';

/** A 1×1 red PNG. */
const RED_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A WAV file with one silent 8-bit sample at 8 kHz, base64. */
const SILENT_WAV = ((): string => {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(37, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(1, 40);
  return Buffer.concat([header, Buffer.from([128])]).toString('base64');
})();

const NO_ARGUMENTS: Tool['inputSchema'] = { type: 'object', properties: {} };

/** A tool definition with string arguments (all required). */
function tool(name: string, description: string, args: string[] = []): Tool {
  const properties: Record<string, { type: string; description: string }> = Object.fromEntries(args.map((arg) => [arg, { type: 'string', description: arg }]));
  return { name, description, inputSchema: args.length ? { type: 'object', properties, required: args } : NO_ARGUMENTS };
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `elicitation/create` with `requestedSchema` and reports the client's answer as text. */
async function elicit(extra: AddOnExtra, message: string, requestedSchema: Record<string, unknown>, prefix: string): Promise<CallToolResult> {
  const answer = await extra.mcpReq.send({ method: 'elicitation/create', params: { message, requestedSchema } } as never, ElicitResultSchema);
  return text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
}

const titled = (prefix: string, titles: string[]): Array<{ const: string; title: string }> => titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));

/** The conformance suite's fixtures, as one session add-on. */
export const conformanceFixtures: SessionAddOn = {
  tools: [
    { definition: tool('test_simple_text', 'Returns simple text.'), call: async () => text('This is a simple text response for testing.') },
    { definition: tool('test_image_content', 'Returns an image.'), call: async () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }) },
    { definition: tool('test_audio_content', 'Returns audio.'), call: async () => ({ content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] }) },
    {
      definition: tool('test_embedded_resource', 'Returns an embedded resource.'),
      call: async () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    },
    {
      definition: tool('test_multiple_content_types', 'Returns text, an image and a resource.'),
      call: async () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
        ],
      }),
    },
    {
      definition: tool('test_tool_with_logging', 'Sends three log messages while it runs.'),
      call: async (_args, extra) => {
        for (const [i, data] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
          if (i > 0) await pause(50);
          await extra.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
        }
        return text('Tool with logging executed successfully');
      },
    },
    {
      definition: tool('test_error_handling', 'Always fails.'),
      call: async () => ({ isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] }),
    },
    {
      definition: tool('test_tool_with_progress', 'Reports progress 0, 50, 100 of 100.'),
      call: async (_args, extra) => {
        const progressToken = extra.mcpReq._meta?.progressToken;
        for (const [i, progress] of [0, 50, 100].entries()) {
          if (i > 0) await pause(50);
          if (progressToken !== undefined) await extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
        }
        return text('Tool with progress executed successfully');
      },
    },
    {
      definition: tool('test_sampling', 'Asks the client\'s model through sampling/createMessage.', ['prompt']),
      call: async (args, extra) => {
        const prompt = String(args.prompt ?? '');
        const answer = await extra.mcpReq.send(
          { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 } } as never,
          CreateMessageResultSchema,
        );
        const content = answer.content as { type: string; text?: string };
        return text(`LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`);
      },
    },
    {
      definition: tool('test_elicitation', 'Asks the user through elicitation/create.', ['message']),
      call: (args, extra) =>
        elicit(
          extra,
          String(args.message ?? ''),
          {
            type: 'object',
            properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
            required: ['username', 'email'],
          },
          'User response',
        ),
    },
    {
      definition: tool('test_elicitation_sep1034_defaults', 'Elicitation whose fields carry defaults (SEP-1034).'),
      call: (_args, extra) =>
        elicit(
          extra,
          'Please review and update the form fields with defaults',
          {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
          },
          'Elicitation completed',
        ),
    },
    {
      definition: tool('test_elicitation_sep1330_enums', 'Elicitation with every enum form (SEP-1330).'),
      call: (_args, extra) =>
        elicit(
          extra,
          'Please select options from the enum fields',
          {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', description: 'Untitled single-select', enum: ['option1', 'option2', 'option3'] },
              titledSingle: { type: 'string', description: 'Titled single-select', oneOf: titled('value', ['First Option', 'Second Option', 'Third Option']) },
              legacyEnum: { type: 'string', description: 'Legacy titled enum', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
              untitledMulti: { type: 'array', description: 'Untitled multi-select', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
              titledMulti: { type: 'array', description: 'Titled multi-select', items: { anyOf: titled('value', ['First Choice', 'Second Choice', 'Third Choice']) } },
            },
          },
          'Elicitation completed',
        ),
    },
  ],
  resources: [
    {
      definition: { uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' },
      read: () => ({ contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
    },
    {
      definition: { uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (PNG).', mimeType: 'image/png' },
      read: () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG }] }),
    },
  ],
  templates: [
    {
      definition: { uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data for an id.', mimeType: 'application/json' },
      read: (uri) => {
        const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
        if (id === undefined) return null;
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
      },
    },
  ],
  subscribable: (uri) => uri === 'test://watched-resource',
  prompts: [
    {
      definition: { name: 'test_simple_prompt', description: 'A prompt without arguments.' },
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] }),
    },
    {
      definition: {
        name: 'test_prompt_with_arguments',
        description: 'A prompt with two arguments.',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      get: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }] }),
      complete: (argument, value) => ['paris', 'park', 'party'].filter((word) => argument === 'arg1' && word.startsWith(value)),
    },
    {
      definition: { name: 'test_prompt_with_embedded_resource', description: 'A prompt embedding a resource.', arguments: [{ name: 'resourceUri', description: 'URI to embed', required: true }] },
      get: (args) => ({
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      }),
    },
    {
      definition: { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
      get: () => ({
        messages: [
          { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      }),
    },
  ],
};
