/**
 * The fixtures the official MCP conformance suite (@modelcontextprotocol/conformance, server
 * mode) expects a server under test to offer: test_* tools, test:// resources and test_*
 * prompts, each behaving as the suite's scenario descriptions say. Only the test host
 * registers them (`npm start -- --conformance-fixtures`, used by scripts/conformance.mjs), as a
 * {@link SessionAddOn}; they are never part of main.js.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/core';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequest,
  type InputRequiredResult,
  type Tool,
} from '@modelcontextprotocol/server';
import type { AddOnExtra, AddOnHost, SessionAddOn } from '../src/server/content/session-add-on';

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
  const properties: Record<string, { type: string; description: string }> = Object.fromEntries(
    args.map((arg) => [arg, { type: 'string', description: arg }]),
  );
  return { name, description, inputSchema: args.length ? { type: 'object', properties, required: args } : NO_ARGUMENTS };
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends `elicitation/create` with `requestedSchema` and reports the client's answer as text. */
async function elicit(
  extra: AddOnExtra,
  message: string,
  requestedSchema: Record<string, unknown>,
  prefix: string,
): Promise<CallToolResult> {
  const answer = await extra.mcpReq.send(
    { method: 'elicitation/create', params: { message, requestedSchema } } as never,
    ElicitResultSchema,
  );
  return text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
}

const titled = (prefix: string, titles: string[]): Array<{ const: string; title: string }> =>
  titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));

/** The client capabilities a 2026-07-28 request declares in its `_meta` envelope (empty in the session era). */
function declared(extra: AddOnExtra): Record<string, unknown> {
  const envelope = (extra.mcpReq.envelope ?? {}) as Record<string, unknown>;
  return (envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined) ?? {};
}

/** A form elicitation asking for one string field. */
function ask(message: string, field: string): InputRequest {
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
  });
}

/** The accepted elicitation field `field` of the retried request's answer `key`, or undefined. */
function answered(extra: AddOnExtra, key: string, field: string): string | undefined {
  const view = inputResponse(extra.mcpReq.inputResponses, key);
  const value = view.kind === 'elicit' ? view.content?.[field] : undefined;
  return value === undefined ? undefined : String(value);
}

/** The text of a sampling answer `key`, or undefined. */
function sampled(extra: AddOnExtra, key: string): string | undefined {
  const view = inputResponse(extra.mcpReq.inputResponses, key);
  const content = view.kind === 'sampling' ? (view.result.content as { type?: string; text?: string }) : undefined;
  return content?.type === 'text' ? content.text : undefined;
}

/** How many roots answer `key` lists, or undefined when it is not a roots answer. */
function rootCount(extra: AddOnExtra, key: string): number | undefined {
  const view = inputResponse(extra.mcpReq.inputResponses, key);
  return view.kind === 'roots' ? view.roots.length : undefined;
}

/** The raw requestState the retried request echoes, or undefined. */
function stateOf(extra: AddOnExtra): string | undefined {
  const state = extra.mcpReq.requestState();
  return typeof state === 'string' ? state : undefined;
}

/** Key of this run's requestState signatures (HMAC-SHA256). */
const STATE_KEY = randomBytes(32);

/** `payload` as a signed requestState: base64url JSON, a dot, its HMAC. */
function signState(payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', STATE_KEY).update(body).digest('base64url')}`;
}

/** The payload of a requestState {@link signState} made, or null when it was altered. */
function verifyState(state: string): Record<string, unknown> | null {
  const [body, mac] = state.split('.');
  if (!body || !mac) return null;
  const expected = Buffer.from(createHmac('sha256', STATE_KEY).update(body).digest('base64url'));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The plain JSON requestState of a round (integrity is not what those scenarios test). */
const plainState = (payload: Record<string, unknown>): string => JSON.stringify({ ...payload, nonce: randomUUID() });
const parseState = (state: string | undefined): Record<string, unknown> => {
  try {
    return state ? (JSON.parse(state) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The server serving the fixtures (set by {@link SessionAddOn.attach}), for the list-change triggers. */
let host: AddOnHost | null = null;

/** The 2026-07-28 multi round-trip fixtures (SEP-2322, SEP-2575), as the suite's reference server serves them. */
const MODERN_TOOLS: NonNullable<SessionAddOn['tools']> = [
  {
    definition: tool('test_missing_capability', "Needs the client's sampling capability."),
    call: async (_args, extra) => {
      if (!declared(extra).sampling) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
      return text('Success');
    },
  },
  {
    definition: tool('test_input_required_result_elicitation', "Asks the user's name (input-required)."),
    call: async (_args, extra) => {
      const name = answered(extra, 'user_name', 'name');
      return name !== undefined
        ? text(`Hello, ${name}!`)
        : inputRequired({ inputRequests: { user_name: ask('What is your name?', 'name') } });
    },
  },
  {
    definition: tool('test_input_required_result_sampling', "Asks the client's model (input-required)."),
    call: async (_args, extra) => {
      const answer = sampled(extra, 'sample_request');
      if (answer !== undefined) return text(`Sampling result: ${answer}`);
      return inputRequired({
        inputRequests: {
          sample_request: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          }),
        },
      });
    },
  },
  {
    definition: tool('test_input_required_result_list_roots', "Asks the client's roots (input-required)."),
    call: async (_args, extra) => {
      const count = rootCount(extra, 'roots_request');
      return count !== undefined
        ? text(`Found ${count} root(s)`)
        : inputRequired({ inputRequests: { roots_request: inputRequired.listRoots() } });
    },
  },
  {
    definition: tool('test_input_required_result_request_state', 'Carries requestState across rounds.'),
    call: async (_args, extra) => {
      const state = parseState(stateOf(extra));
      const view = inputResponse(extra.mcpReq.inputResponses, 'confirm');
      if (state.kind === 'request-state' && view.kind === 'elicit' && view.content?.ok === true)
        return text('state-ok: requestState validated');
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Please confirm',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
        requestState: plainState({ kind: 'request-state' }),
      });
    },
  },
  {
    definition: tool('test_input_required_result_multiple_inputs', 'Asks three things in one round.'),
    call: async (_args, extra) => {
      const name = answered(extra, 'user_name', 'name');
      const greeting = sampled(extra, 'greeting');
      const roots = rootCount(extra, 'client_roots');
      if (parseState(stateOf(extra)).kind === 'multiple-inputs' && name !== undefined && roots !== undefined) {
        return text(`Name: ${name}; Greeting: ${greeting ?? 'Hello there!'}; Roots: ${roots}`);
      }
      return inputRequired({
        inputRequests: {
          user_name: ask('What is your name?', 'name'),
          greeting: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          }),
          client_roots: inputRequired.listRoots(),
        },
        requestState: plainState({ kind: 'multiple-inputs' }),
      });
    },
  },
  {
    definition: tool('test_input_required_result_multi_round', 'Two rounds of questions.'),
    call: async (_args, extra) => {
      const state = parseState(stateOf(extra));
      const name = answered(extra, 'step1', 'name');
      if (state.round === 1 && name !== undefined) {
        return inputRequired({
          inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color') },
          requestState: plainState({ round: 2, name }),
        });
      }
      const color = answered(extra, 'step2', 'color');
      if (state.round === 2 && color !== undefined)
        return text(`Multi-round complete for ${typeof state.name === 'string' ? state.name : 'friend'} who likes ${color}`);
      return inputRequired({ inputRequests: { step1: ask('Step 1: What is your name?', 'name') }, requestState: plainState({ round: 1 }) });
    },
  },
  {
    definition: tool('test_input_required_result_tampered_state', 'Refuses an altered requestState.'),
    call: async (_args, extra) => {
      const state = stateOf(extra);
      if (state !== undefined) {
        const verified = verifyState(state);
        if (!verified) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState integrity check failed');
        if (verified.kind === 'tamper-test' && inputResponse(extra.mcpReq.inputResponses, 'confirm').kind !== 'missing')
          return text('integrity-ok: state verified');
      }
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Please confirm',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          }),
        },
        requestState: signState({ kind: 'tamper-test', nonce: randomUUID() }),
      });
    },
  },
  {
    definition: tool('test_input_required_result_capabilities', 'Asks only what the client declared.'),
    call: async (_args, extra) => {
      const received = Object.keys(extra.mcpReq.inputResponses ?? {});
      if (received.length > 0) return text(`capabilities-ok: received ${received.join(',')}`);
      const capabilities = declared(extra);
      const inputRequests: Record<string, InputRequest> = {};
      if (capabilities.elicitation) inputRequests.elicit_input = ask('Elicitation input', 'value');
      if (capabilities.sampling)
        inputRequests.sample_input = inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
          maxTokens: 50,
        });
      if (Object.keys(inputRequests).length === 0) return text('No supported capabilities declared');
      return inputRequired({ inputRequests, requestState: signState({ kind: 'capabilities-test', nonce: randomUUID() }) });
    },
  },
  {
    definition: tool('test_trigger_tool_change', 'Tells every listener that the tool list changed.'),
    call: async () => {
      await host?.notifyToolListChanged();
      return text('Mutation triggered');
    },
  },
  {
    definition: tool('test_trigger_prompt_change', 'Tells every listener that the prompt list changed.'),
    call: async () => {
      await host?.notifyPromptListChanged();
      return text('Mutation triggered');
    },
  },
  {
    definition: tool('test_streaming_elicitation', "Answers on the request's own stream only."),
    call: async () => text('Streaming complete'),
  },
  {
    definition: tool('test_logging_tool', 'Logs only when the request asks for a log level.'),
    call: async (_args, extra) => {
      await extra.mcpReq.log('info', 'Diagnostic trace logging activated');
      return text('Logging evaluated');
    },
  },
];

/** The prompt that asks the user for context before it answers (input-required). */
function contextPrompt(
  extra: AddOnExtra,
): InputRequiredResult | { messages: Array<{ role: 'user'; content: { type: 'text'; text: string } }> } {
  const context = answered(extra, 'user_context', 'context');
  if (context !== undefined) return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } }] };
  return inputRequired({ inputRequests: { user_context: ask('What context should the prompt use?', 'context') } });
}

/** The input schema of `json_schema_2020_12_tool`: 2020-12 keywords a server must list unchanged (SEP-1613, SEP-2106). */
const JSON_SCHEMA_2020_12: Tool['inputSchema'] = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** The conformance suite's fixtures, as one session add-on. */
export const conformanceFixtures: SessionAddOn = {
  attach: (server) => {
    host = server;
  },
  tools: [
    { definition: tool('test_simple_text', 'Returns simple text.'), call: async () => text('This is a simple text response for testing.') },
    {
      definition: tool('test_image_content', 'Returns an image.'),
      call: async () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }] }),
    },
    {
      definition: tool('test_audio_content', 'Returns audio.'),
      call: async () => ({ content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] }),
    },
    {
      definition: tool('test_embedded_resource', 'Returns an embedded resource.'),
      call: async () => ({
        content: [
          {
            type: 'resource',
            resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
          },
        ],
      }),
    },
    {
      definition: tool('test_multiple_content_types', 'Returns text, an image and a resource.'),
      call: async () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
          },
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
          if (progressToken !== undefined)
            await extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
        }
        return text('Tool with progress executed successfully');
      },
    },
    {
      definition: tool('test_sampling', "Asks the client's model through sampling/createMessage.", ['prompt']),
      call: async (args, extra) => {
        const prompt = String(args.prompt ?? '');
        const answer = await extra.mcpReq.send(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
          } as never,
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
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
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
              titledSingle: {
                type: 'string',
                description: 'Titled single-select',
                oneOf: titled('value', ['First Option', 'Second Option', 'Third Option']),
              },
              legacyEnum: {
                type: 'string',
                description: 'Legacy titled enum',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                description: 'Untitled multi-select',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                description: 'Titled multi-select',
                items: { anyOf: titled('value', ['First Choice', 'Second Choice', 'Third Choice']) },
              },
            },
          },
          'Elicitation completed',
        ),
    },
    {
      definition: {
        name: 'json_schema_2020_12_tool',
        description: 'Tool with JSON Schema 2020-12 features',
        inputSchema: JSON_SCHEMA_2020_12,
      },
      call: async () => text('ok'),
    },
    ...MODERN_TOOLS,
  ],
  resources: [
    {
      definition: { uri: 'test://static-text', name: 'static-text', description: 'A static text resource.', mimeType: 'text/plain' },
      read: () => ({
        contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      }),
    },
    {
      definition: {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static binary resource (PNG).',
        mimeType: 'image/png',
      },
      read: () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG }] }),
    },
  ],
  templates: [
    {
      definition: {
        uriTemplate: 'test://template/{id}/data',
        name: 'template-data',
        description: 'Data for an id.',
        mimeType: 'application/json',
      },
      read: (uri) => {
        const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
        if (id === undefined) return null;
        return {
          contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
        };
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
      get: (args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
      }),
      complete: (argument, value) => ['paris', 'park', 'party'].filter((word) => argument === 'arg1' && word.startsWith(value)),
    },
    {
      definition: {
        name: 'test_prompt_with_embedded_resource',
        description: 'A prompt embedding a resource.',
        arguments: [{ name: 'resourceUri', description: 'URI to embed', required: true }],
      },
      get: (args) => ({
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      }),
    },
    {
      definition: { name: 'test_input_required_result_prompt', description: 'Asks for context first (input-required).' },
      get: (_args, extra) => contextPrompt(extra),
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
