import { normalizeBaseUrl } from '../../../src/ai/providers/base-url';
import { ANTHROPIC_DEFAULT_MAX_TOKENS, AnthropicProvider } from '../../../src/ai/providers/anthropic';
import type { ProviderConfig } from '../../../src/ai/types';
import { anthropicError, startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { aiFailure } from '../../harness/ai-failure';

const KEY = 'sk-ant-test';
const servers: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(models: Parameters<typeof startFakeAnthropic>[0]['models']): Promise<FakeAnthropic> {
  const server = await startFakeAnthropic({ apiKey: KEY, models });
  servers.push(server);
  return server;
}

function provider(baseUrl: string, model: string, apiKey: string | null = KEY): AnthropicProvider {
  const config: ProviderConfig = { type: 'anthropic', baseUrl: normalizeBaseUrl(baseUrl), model, apiKey, classification: 'remote' };
  return new AnthropicProvider(config);
}

const MODEL = 'claude-sonnet-4-5';

describe('Anthropic Messages adapter over HTTP', () => {
  test('sends x-api-key and anthropic-version, and system messages go to the top-level system field', async () => {
    const s = await fake({ [MODEL]: { reply: (system) => `system was: ${system}` } });
    const p = provider(s.baseUrl, MODEL);
    expect(p.classification).toBe('remote');
    const result = await p.chat(
      [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'system', content: 'Answer in English.' },
        { role: 'user', content: 'Summarize my note' },
      ],
      { temperature: 0.4, maxTokens: 300 },
    );
    expect(result.text).toBe('system was: You are terse.\n\nAnswer in English.');
    const req = s.requests[0];
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.json).toEqual({
      model: MODEL,
      max_tokens: 300,
      system: 'You are terse.\n\nAnswer in English.',
      temperature: 0.4,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Summarize my note' },
      ],
    });
    expect(result.finishReason).toBe('stop');
    expect(result.model).toBe(MODEL);
  });

  test('no system message → no system field; max_tokens defaults since the API requires it', async () => {
    const s = await fake({ [MODEL]: {} });
    await provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Hi' }], {});
    expect(s.requests[0].json).not.toHaveProperty('system');
    expect(s.requests[0].json).not.toHaveProperty('temperature');
    expect(s.requests[0].json.max_tokens).toBe(ANTHROPIC_DEFAULT_MAX_TOKENS);
  });

  test('a base URL without /v1, or with /v1/messages pasted, reaches /v1/messages', async () => {
    const s = await fake({ [MODEL]: {} });
    await provider(s.origin, MODEL).chat([{ role: 'user', content: 'a' }], {});
    await provider(`${s.origin}/`, MODEL).chat([{ role: 'user', content: 'b' }], {});
    await provider(`${s.origin}/v1/messages`, MODEL).chat([{ role: 'user', content: 'c' }], {});
    expect(s.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages', '/v1/messages']);
  });

  test('thinking blocks are not part of the answer', async () => {
    const s = await fake({ [MODEL]: { thinking: 'Let me consider the note first.', reply: () => 'The answer.' } });
    const result = await provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Q' }], {});
    expect(result.text).toBe('The answer.');
  });

  test('usage: input includes cached prompt tokens; missing usage counts as zero', async () => {
    const s = await fake({ cached: { cacheReadTokens: 10, reply: () => 'a b c' }, bare: { omitUsage: true } });
    const cached = await provider(s.baseUrl, 'cached').chat([{ role: 'user', content: 'one two' }], {});
    expect(cached.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
    const bare = await provider(s.baseUrl, 'bare').chat([{ role: 'user', content: 'one two' }], {});
    expect(bare.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
  });

  test('hitting max_tokens → finishReason length', async () => {
    const s = await fake({ [MODEL]: { reply: () => 'one two three four' } });
    const result = await provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Q' }], { maxTokens: 3 });
    expect(result).toMatchObject({ text: 'one two three', finishReason: 'length' });
  });

  test('a model rejecting temperature is retried once without it, and remembered', async () => {
    const s = await fake({ [MODEL]: { rejectsTemperature: true } });
    const p = provider(s.baseUrl, MODEL);
    expect((await p.chat([{ role: 'user', content: 'Q' }], { temperature: 0.2 })).text).toBe('OK');
    expect(s.requests.map((r) => r.json.temperature)).toEqual([0.2, undefined]);
    await p.chat([{ role: 'user', content: 'Q' }], { temperature: 0.2 });
    expect(s.requests).toHaveLength(3);
    expect(s.requests[2].json).not.toHaveProperty('temperature');
  });

  describe('errors', () => {
    test('wrong key → 401 about the API key', async () => {
      const s = await fake({ [MODEL]: {} });
      const err = await aiFailure(provider(s.baseUrl, MODEL, 'sk-ant-wrong').chat([{ role: 'user', content: 'Q' }], {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 401 });
      expect(err.message).toMatch(/API key was rejected by the Anthropic API/);
      expect(err.message).toContain('invalid x-api-key');
    });

    test('unknown model → 404 naming the model', async () => {
      const s = await fake({ [MODEL]: {} });
      const err = await aiFailure(provider(s.baseUrl, 'claude-nope').chat([{ role: 'user', content: 'Q' }], {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 404 });
      expect(err.message).toContain("model name 'claude-nope'");
      expect(err.message).toContain('model: claude-nope');
    });

    test('429 rate_limit_error → rate limit', async () => {
      const s = await fake({ [MODEL]: {} });
      s.failNext({
        ...anthropicError(429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
        headers: { 'retry-after': '7' },
      });
      const err = await aiFailure(provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Q' }], {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 429 });
      expect(err.message).toContain('wait 7 s');
    });

    test('529 overloaded_error → server side', async () => {
      const s = await fake({ [MODEL]: {} });
      s.failNext(anthropicError(529, 'overloaded_error', 'Overloaded'));
      const err = await aiFailure(provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Q' }], {}));
      expect(err).toMatchObject({ code: 'aiHttpError', status: 529 });
      expect(err.message).toMatch(/failed on its side.*Overloaded|Overloaded.*failed on its side/);
    });

    test('a 2xx without content → aiBadResponse', async () => {
      const s = await fake({ [MODEL]: {} });
      s.failNext({ status: 200, body: { choices: [] } });
      const err = await aiFailure(provider(s.baseUrl, MODEL).chat([{ role: 'user', content: 'Q' }], {}));
      expect(err.code).toBe('aiBadResponse');
      expect(err.message).toContain('https://api.anthropic.com/v1');
    });
  });
});
