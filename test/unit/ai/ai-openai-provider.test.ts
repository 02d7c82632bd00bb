import { normalizeBaseUrl } from '../../../src/ai/providers/base-url';
import { OpenAiCompatibleProvider } from '../../../src/ai/providers/openai-compatible';
import type { ProviderConfig } from '../../../src/ai/types';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { aiFailure } from '../../harness/ai-failure';

const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(options: Parameters<typeof startFakeOpenAi>[0]): Promise<FakeOpenAi> {
  const server = await startFakeOpenAi(options);
  servers.push(server);
  return server;
}

function provider(baseUrl: string, model: string, apiKey: string | null = null): OpenAiCompatibleProvider {
  const config: ProviderConfig = { type: 'openai-compatible', baseUrl: normalizeBaseUrl(baseUrl), model, apiKey, classification: 'local' };
  return new OpenAiCompatibleProvider(config);
}

const USER = [{ role: 'user' as const, content: 'Say hello to the vault' }];

describe('OpenAI-compatible adapter over HTTP', () => {
  test('posts a chat completion and returns text, usage, finish reason and model', async () => {
    const s = await fake({ models: { 'llama3.2': { reply: () => 'Hello vault' } } });
    const result = await provider(s.baseUrl, 'llama3.2').chat([{ role: 'system', content: 'Be brief.' }, ...USER], {
      temperature: 0.2,
      maxTokens: 50,
    });
    expect(result).toEqual({ text: 'Hello vault', usage: { inputTokens: 7, outputTokens: 2 }, finishReason: 'stop', model: 'llama3.2' });
    expect(s.requests).toHaveLength(1);
    const req = s.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json).toEqual({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello to the vault' },
      ],
      stream: false,
      temperature: 0.2,
      max_tokens: 50,
    });
  });

  test('sends the bearer key when one is set', async () => {
    const s = await fake({ apiKey: 'sk-test-1', models: { m: {} } });
    await provider(s.baseUrl, 'm', 'sk-test-1').chat(USER, {});
    expect(s.requests[0].headers.authorization).toBe('Bearer sk-test-1');
    expect(s.requests[0].json).not.toHaveProperty('temperature');
    expect(s.requests[0].json).not.toHaveProperty('max_tokens');
  });

  test('trailing slashes and a pasted /chat/completions hit the same endpoint', async () => {
    const s = await fake({ models: { m: {} } });
    await provider(`${s.baseUrl}///`, 'm').chat(USER, {});
    await provider(`${s.baseUrl}/chat/completions`, 'm').chat(USER, {});
    expect(s.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });

  test('an OpenRouter-style /api/v1 prefix works', async () => {
    const s = await fake({ prefix: '/api/v1', models: { 'openai/gpt-4o-mini': {} } });
    const result = await provider(s.baseUrl, 'openai/gpt-4o-mini').chat(USER, {});
    expect(result.text).toBe('OK');
    expect(s.requests[0].path).toBe('/api/v1/chat/completions');
  });

  test('missing usage counts as zero', async () => {
    const s = await fake({ models: { m: { omitUsage: true, reply: () => 'three word answer' } } });
    const result = await provider(s.baseUrl, 'm').chat(USER, {});
    expect(result.text).toBe('three word answer');
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test('<think> blocks and reasoning_content are not part of the answer', async () => {
    const s = await fake({
      models: {
        r1: {
          reply: () => '<think>\nThe user wants a greeting. I will say hi.\n</think>\n\nHi there',
          reasoningContent: 'separate reasoning',
        },
      },
    });
    const result = await provider(s.baseUrl, 'r1').chat(USER, {});
    expect(result.text).toBe('Hi there');
  });

  test('an answer cut off by maxTokens reports finishReason length', async () => {
    const s = await fake({ models: { m: { reply: () => 'one two three four five' } } });
    const result = await provider(s.baseUrl, 'm').chat(USER, { maxTokens: 2 });
    expect(result).toMatchObject({ text: 'one two', finishReason: 'length', usage: { outputTokens: 2 } });
  });

  describe('parameter retries', () => {
    test('a model rejecting max_tokens is retried once with max_completion_tokens, and remembered', async () => {
      const s = await fake({ models: { o3: { rejects: ['max_tokens'], reply: () => 'done' } } });
      const p = provider(s.baseUrl, 'o3');
      const result = await p.chat(USER, { maxTokens: 100 });
      expect(result.text).toBe('done');
      expect(s.requests.map((r) => [r.json.max_tokens, r.json.max_completion_tokens])).toEqual([
        [100, undefined],
        [undefined, 100],
      ]);
      await p.chat(USER, { maxTokens: 7 });
      expect(s.requests).toHaveLength(3);
      expect(s.requests[2].json).toMatchObject({ max_completion_tokens: 7 });
      expect(s.requests[2].json).not.toHaveProperty('max_tokens');
    });

    test('a model rejecting temperature is retried once without it', async () => {
      const s = await fake({ models: { o1: { rejects: ['temperature'] } } });
      const p = provider(s.baseUrl, 'o1');
      await p.chat(USER, { temperature: 0.2 });
      expect(s.requests.map((r) => r.json.temperature)).toEqual([0.2, undefined]);
      expect(s.requests[1].json).not.toHaveProperty('temperature');
      await p.chat(USER, { temperature: 0.5 });
      expect(s.requests).toHaveLength(3);
      expect(s.requests[2].json).not.toHaveProperty('temperature');
    });

    test('a model rejecting both is retried once for each', async () => {
      const s = await fake({ models: { o1: { rejects: ['max_tokens', 'temperature'] } } });
      const result = await provider(s.baseUrl, 'o1').chat(USER, { temperature: 0.3, maxTokens: 20 });
      expect(result.text).toBe('OK');
      expect(
        s.requests.map((r) =>
          Object.keys(r.json)
            .filter((k) => /temp|tokens/.test(k))
            .sort(),
        ),
      ).toEqual([['max_tokens', 'temperature'], ['max_completion_tokens', 'temperature'], ['max_completion_tokens']]);
    });

    test('a 400 about something else is not retried', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({
        status: 400,
        body: { error: { message: "Invalid 'messages[0].role'", type: 'invalid_request_error', param: 'messages', code: null } },
      });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, { maxTokens: 5, temperature: 1 }));
      expect(err.code).toBe('aiHttpError');
      expect(err.status).toBe(400);
      expect(err.message).toContain("Invalid 'messages[0].role'");
      expect(s.requests).toHaveLength(1);
    });

    test('a 400 naming max_tokens is not retried when max_tokens was not sent', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({ status: 400, body: { error: { message: 'max_tokens is too large', param: 'max_tokens' } } });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}));
      expect(err.status).toBe(400);
      expect(s.requests).toHaveLength(1);
    });
  });

  describe('a base URL without /v1', () => {
    test('LM Studio answering 200 without choices → aiBadResponse telling to add /v1', async () => {
      const s = await fake({ unknownPath: 'lmstudio', models: { m: {} } });
      const err = await aiFailure(provider(s.origin, 'm').chat(USER, {}));
      expect(err.code).toBe('aiBadResponse');
      expect(err.status).toBeUndefined();
      expect(err.message).toContain('add /v1');
      expect(err.message).toContain(`${s.origin}/v1`);
      expect(err.message).toContain('Unexpected endpoint or method');
      expect(s.requests[0].path).toBe('/chat/completions');
    });

    test('Ollama answering 404 → aiHttpError telling to add /v1', async () => {
      const s = await fake({ unknownPath: 'ollama', models: { m: {} } });
      const err = await aiFailure(provider(`${s.origin}/`, 'm').chat(USER, {}));
      expect(err.code).toBe('aiHttpError');
      expect(err.status).toBe(404);
      expect(err.message).toContain('add /v1');
      expect(err.message).toContain('404 page not found');
    });

    test('a 2xx that is not JSON → aiBadResponse', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({ status: 200, body: '<html>Welcome to nginx</html>' });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}));
      expect(err.code).toBe('aiBadResponse');
      expect(err.message).toContain('Welcome to nginx');
      expect(err.message).toContain('OpenAI-compatible');
    });

    test('a 2xx with empty choices → aiBadResponse', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({ status: 200, body: { choices: [] } });
      expect((await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}))).code).toBe('aiBadResponse');
    });
  });

  describe('HTTP errors map to clear messages with the status', () => {
    test('401 → the API key', async () => {
      const s = await fake({ apiKey: 'sk-right', models: { m: {} } });
      const err = await aiFailure(provider(s.baseUrl, 'm', 'sk-wrong').chat(USER, {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 401 });
      expect(err.message).toMatch(/API key was rejected/);
      expect(err.message).toContain('Incorrect API key provided');
      expect(err.message).not.toContain('sk-wrong');
    });

    test('403 → the API key', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({ status: 403, body: { error: { message: 'Project does not have access', type: 'permission_error' } } });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 403 });
      expect(err.message).toMatch(/API key/);
    });

    test('404 → the model name or base URL', async () => {
      const s = await fake({ models: { 'llama3.2': {} } });
      const err = await aiFailure(provider(s.baseUrl, 'llama9').chat(USER, {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 404 });
      expect(err.message).toContain("model name 'llama9'");
      expect(err.message).toContain('does not exist');
    });

    test('429 → rate limit, with Retry-After', async () => {
      const s = await fake({ models: { m: {} } });
      s.failNext({
        status: 429,
        headers: { 'retry-after': '20' },
        body: { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
      });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 429 });
      expect(err.message).toMatch(/Rate limit/);
      expect(err.message).toContain('wait 20 s');
    });

    test.each([500, 502, 503])('%i → the provider server', async (status) => {
      const s = await fake({ models: { m: {} } });
      s.failNext({ status, body: { error: 'model runner crashed' } });
      const err = await aiFailure(provider(s.baseUrl, 'm').chat(USER, {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status });
      expect(err.message).toMatch(/failed on its side/);
      expect(err.message).toContain('model runner crashed');
    });

    test('an unreachable server → aiHttpError without status', async () => {
      const s = await fake({ models: { m: {} } });
      const url = s.baseUrl;
      await s.close();
      servers.splice(servers.indexOf(s), 1);
      const err = await aiFailure(provider(url, 'm').chat(USER, {}));
      expect(err.code).toBe('aiHttpError');
      expect(err.status).toBeUndefined();
      expect(err.message).toContain('Could not reach');
      expect(err.message).toContain(url);
    });
  });
});
