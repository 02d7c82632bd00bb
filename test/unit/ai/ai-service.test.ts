import { AiService, TEST_PROMPT } from '../../../src/ai/ai-service';
import type { AiSettings, ChatUsage } from '../../../src/ai/types';
import { defaultSettings } from '../../../src/settings/settings';
import { startFakeAnthropic, type FakeAnthropic } from '../../fakes/fake-anthropic';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { aiFailure } from '../../harness/ai-failure';

type Fake = FakeOpenAi | FakeAnthropic;
const servers: Fake[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function openAi(options: Parameters<typeof startFakeOpenAi>[0]): Promise<FakeOpenAi> {
  const s = await startFakeOpenAi(options);
  servers.push(s);
  return s;
}

/** A service over mutable settings and key, recording every saveUsage call. */
function harness(ai: Partial<AiSettings>, apiKey: string | null = null) {
  const settings: AiSettings = { ...defaultSettings().ai, enabled: true, ...ai };
  const state = { settings, apiKey, saved: [] as ChatUsage[] };
  const service = new AiService({
    getSettings: () => state.settings,
    getApiKey: () => state.apiKey,
    saveUsage: (usage) => {
      state.saved.push({ inputTokens: usage.inputTokens, outputTokens: usage.outputTokens });
      state.settings.usage = usage;
    },
  });
  return { service, state };
}

const HI = [{ role: 'user' as const, content: 'hi there' }];

describe('AiService gates', () => {
  test('ai.enabled off → aiDisabled before anything else, and nothing is sent', async () => {
    const s = await openAi({ models: { m: {} } });
    const { service } = harness({ enabled: false, baseUrl: s.baseUrl, model: 'm' });
    const err = await aiFailure(service.chat(HI));
    expect(err.code).toBe('aiDisabled');
    expect(err.message).toContain('Enable AI');
    expect((await aiFailure(service.chat('not messages'))).code).toBe('aiDisabled');
    expect(s.requests).toHaveLength(0);
    expect(service.chatAvailability()).toEqual({ ready: false, code: 'aiDisabled', reason: err.message });
  });

  test.each([
    ['Anthropic (always remote)', { provider: 'anthropic' as const, baseUrl: 'http://localhost:9/v1' }],
    ['a LAN server', { baseUrl: 'http://192.168.1.20:11434/v1' }],
    ['a 10.x server', { baseUrl: 'http://10.0.0.5:8000/v1' }],
    ['an fc00:: server', { baseUrl: 'http://[fc00::5]:8000/v1' }],
    ['an mDNS .local host', { baseUrl: 'http://gpu.local:11434/v1' }],
    ['an .internal host', { baseUrl: 'http://llm.internal/v1' }],
    ['a public API', { baseUrl: 'https://api.openai.com/v1' }],
  ])('%s without allowRemote → aiRemoteNotAllowed, even when model and key are missing', async (_label, ai) => {
    const { service } = harness({ allowRemote: false, model: '', ...ai });
    const err = await aiFailure(service.chat(HI));
    expect(err.code).toBe('aiRemoteNotAllowed');
    expect(err.message).toContain('Allow remote providers');
    expect(service.chatAvailability()).toEqual({ ready: false, code: 'aiRemoteNotAllowed', reason: err.message });
  });

  test.each([
    ['the base URL is empty', { baseUrl: '  ' }, /base URL is empty/],
    ['the base URL is not http(s)', { baseUrl: 'localhost:11434/v1' }, /"localhost:11434\/v1" is not an http/],
    ['the base URL carries credentials', { baseUrl: 'http://user:secret@localhost:11434/v1' }, /contains a user name or password/],
    ['the model is empty', { baseUrl: 'http://localhost:11434/v1', model: ' ' }, /No AI model is set/],
  ])('aiNotConfigured when %s', async (_label, ai, message) => {
    const { service } = harness({ allowRemote: false, model: 'm', ...ai });
    const err = await aiFailure(service.chat(HI));
    expect(err.code).toBe('aiNotConfigured');
    expect(err.message).toMatch(message);
    expect(service.chatAvailability()).toEqual({ ready: false, code: 'aiNotConfigured', reason: err.message });
  });

  test('a remote provider needs an API key; a blank key counts as missing', async () => {
    const { service, state } = harness({ allowRemote: true, baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }, '   ');
    const err = await aiFailure(service.chat(HI));
    expect(err.code).toBe('aiNotConfigured');
    expect(err.message).toContain('API key is missing');
    state.apiKey = 'sk-x';
    expect(service.chatAvailability()).toEqual({
      ready: true,
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
      classification: 'remote',
    });
  });

  test('a local provider needs no key, and gets it when one is set', async () => {
    const s = await openAi({ models: { m: {} } });
    const { service, state } = harness({ baseUrl: s.baseUrl, model: 'm' });
    expect(service.chatAvailability()).toEqual({ ready: true, provider: 'openai-compatible', model: 'm', classification: 'local' });
    expect((await service.chat(HI)).text).toBe('OK');
    expect(s.requests[0].headers.authorization).toBeUndefined();
    state.apiKey = ' lm-studio-key ';
    await service.chat(HI);
    expect(s.requests[1].headers.authorization).toBe('Bearer lm-studio-key');
  });

  test('a remote provider goes through once allowed and keyed (Anthropic over HTTP)', async () => {
    const s = await startFakeAnthropic({ apiKey: 'sk-ant', models: { claude: { reply: () => 'Bonjour' } } });
    servers.push(s);
    const { service } = harness({ provider: 'anthropic', allowRemote: true, baseUrl: s.baseUrl, model: 'claude' }, 'sk-ant');
    expect(service.chatAvailability()).toEqual({ ready: true, provider: 'anthropic', model: 'claude', classification: 'remote' });
    const result = await service.chat([{ role: 'system', content: 'French.' }, ...HI]);
    expect(result.text).toBe('Bonjour');
    expect(s.requests[0].json.system).toBe('French.');
  });
});

describe('AiService request validation', () => {
  test.each([
    ['no messages', [], undefined, /non-empty array/],
    ['messages not an array', 'hello', undefined, /non-empty array/],
    ['a message that is not an object', ['hello'], undefined, /messages\[0\] must be an object/],
    ['a bad role', [{ role: 'tool', content: 'x' }], undefined, /messages\[0\]\.role must be/],
    ['non-string content', [{ role: 'user', content: 42 }], undefined, /messages\[0\]\.content must be a string/],
    ['only system messages', [{ role: 'system', content: 'x' }], undefined, /at least one "user"/],
    ['a provider-specific option', HI, { model: 'gpt-4o' }, /option "model" is not supported/],
    ['options not an object', HI, 'hot', /options must be an object/],
    ['temperature out of range', HI, { temperature: 3 }, /temperature must be a number from 0 to 2/],
    ['temperature not a number', HI, { temperature: '0.2' }, /temperature must be a number/],
    ['maxTokens zero', HI, { maxTokens: 0 }, /maxTokens must be a positive integer/],
    ['maxTokens fractional', HI, { maxTokens: 1.5 }, /maxTokens must be a positive integer/],
  ])('%s → aiInvalidRequest', async (_label, messages, options, message) => {
    const s = await openAi({ models: { m: {} } });
    const { service } = harness({ baseUrl: s.baseUrl, model: 'm' });
    const err = await aiFailure(service.chat(messages, options));
    expect(err.code).toBe('aiInvalidRequest');
    expect(err.message).toMatch(message);
    expect(s.requests).toHaveLength(0);
  });

  test('only role and content of each message, and only known options, reach the provider', async () => {
    const s = await openAi({ models: { m: {} } });
    const { service } = harness({ baseUrl: s.baseUrl, model: 'm' });
    await service.chat([{ role: 'user', content: 'hi', name: 'x', extra: true }], { temperature: 0, maxTokens: undefined });
    expect(s.requests[0].json.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(s.requests[0].json.temperature).toBe(0);
    expect(s.requests[0].json).not.toHaveProperty('max_tokens');
  });
});

describe('AiService token usage', () => {
  test('accumulates per call from the persisted value and saves each total', async () => {
    const s = await openAi({ models: { m: { reply: () => 'one two three' } } });
    const { service, state } = harness({ baseUrl: s.baseUrl, model: 'm', usage: { inputTokens: 100, outputTokens: 50 } });
    expect(service.getUsage()).toMatchObject({ inputTokens: 100, outputTokens: 50 });
    const first = await service.chat(HI);
    expect(first.usage).toEqual({ inputTokens: 2, outputTokens: 3 });
    await service.chat([{ role: 'user', content: 'a b c d' }]);
    expect(service.getUsage()).toMatchObject({ inputTokens: 106, outputTokens: 56 });
    expect(state.saved).toEqual([
      { inputTokens: 102, outputTokens: 53 },
      { inputTokens: 106, outputTokens: 56 },
    ]);
    expect(state.settings.usage).toMatchObject({ inputTokens: 106, outputTokens: 56 });
  });

  test('missing usage adds zero; failed calls add nothing', async () => {
    const s = await openAi({ models: { quiet: { omitUsage: true } } });
    const { service, state } = harness({ baseUrl: s.baseUrl, model: 'quiet' });
    await service.chat(HI);
    expect(service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    state.settings.model = 'missing';
    await aiFailure(service.chat(HI));
    expect(state.saved).toEqual([{ inputTokens: 0, outputTokens: 0 }]);
  });

  test('resets when the base URL or provider type changes, not for a trailing slash or a model change', async () => {
    const s = await openAi({ models: { m: {}, n: {} } });
    const { service, state } = harness({ baseUrl: s.baseUrl, model: 'm', usage: { inputTokens: 10, outputTokens: 5 } });
    await service.chat(HI);
    expect(service.getUsage()).toMatchObject({ inputTokens: 12, outputTokens: 6 });
    state.settings.baseUrl = `${s.baseUrl}/`;
    state.settings.model = 'n';
    expect(service.getUsage()).toMatchObject({ inputTokens: 12, outputTokens: 6 });
    state.settings.baseUrl = s.baseUrl.replace('127.0.0.1', 'localhost');
    expect(service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(state.saved.at(-1)).toEqual({ inputTokens: 0, outputTokens: 0 });
    await service.chat(HI);
    expect(service.getUsage()).toMatchObject({ inputTokens: 2, outputTokens: 1 });
    state.settings.provider = 'anthropic';
    await service.settingsChanged();
    expect(state.saved.at(-1)).toEqual({ inputTokens: 0, outputTokens: 0 });
    expect(service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
  });

  test('counters saved for another provider (changed while Obsidian was closed) start again at zero', async () => {
    const s = await openAi({ models: { m: {} } });
    const first = harness({ baseUrl: s.baseUrl, model: 'm' });
    await first.service.chat(HI);
    const saved = first.state.settings.usage;
    expect(saved).toMatchObject({ inputTokens: 2, outputTokens: 1, scope: expect.any(String) });
    // Same provider after a restart: the counters carry on.
    const same = harness({ baseUrl: s.baseUrl, model: 'm', usage: saved });
    expect(same.service.getUsage()).toMatchObject({ inputTokens: 2, outputTokens: 1 });
    // Base URL changed in a synced data.json before the restart: they start again.
    const moved = harness({ baseUrl: 'http://localhost:11434/v1', model: 'm', usage: saved });
    expect(moved.service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    // Counters saved before scopes were recorded are kept.
    const legacy = harness({ baseUrl: 'http://localhost:11434/v1', model: 'm', usage: { inputTokens: 7, outputTokens: 3 } });
    expect(legacy.service.getUsage()).toMatchObject({ inputTokens: 7, outputTokens: 3 });
  });

  test('a call that finishes after the base URL changed is not counted against the new one', async () => {
    const { service, state } = harness({ model: 'm' });
    const s = await openAi({
      models: {
        m: {
          reply: () => {
            state.settings.baseUrl = 'http://localhost:1/v1';
            return 'late answer';
          },
        },
      },
    });
    state.settings.baseUrl = s.baseUrl;
    await service.settingsChanged();
    const result = await service.chat(HI);
    expect(result.text).toBe('late answer');
    expect(state.saved).toEqual([
      { inputTokens: 0, outputTokens: 0 },
      { inputTokens: 0, outputTokens: 0 },
    ]);
    expect(service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
  });

  test('resetUsage zeroes and persists', async () => {
    const { service, state } = harness({ usage: { inputTokens: 9, outputTokens: 4 } });
    await service.resetUsage();
    expect(service.getUsage()).toMatchObject({ inputTokens: 0, outputTokens: 0 });
    expect(state.saved).toEqual([{ inputTokens: 0, outputTokens: 0 }]);
  });

  test('a failing saveUsage is logged and does not fail the call', async () => {
    const s = await openAi({ models: { m: {} } });
    const settings: AiSettings = { ...defaultSettings().ai, enabled: true, baseUrl: s.baseUrl, model: 'm' };
    const service = new AiService({
      getSettings: () => settings,
      getApiKey: () => null,
      saveUsage: () => Promise.reject(new Error('disk full')),
    });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect((await service.chat(HI)).text).toBe('OK');
      expect(logged).toHaveBeenCalledWith('Vault MCP: could not save AI usage', expect.objectContaining({ message: 'disk full' }));
      expect(service.getUsage()).toMatchObject({ inputTokens: 2, outputTokens: 1 });
    } finally {
      logged.mockRestore();
    }
  });
});

describe('AiService provider cache', () => {
  test('reused while (type, base URL, key, model) stay the same; rebuilt when one changes', async () => {
    // The o3 model rejects max_tokens; a provider learns that once. A reused provider sends
    // max_completion_tokens straight away (1 request); a rebuilt one has to learn again (2).
    const s = await openAi({ models: { o3: { rejects: ['max_tokens'] }, o4: { rejects: ['max_tokens'] } } });
    const other = await openAi({ models: { o3: { rejects: ['max_tokens'] } } });
    const { service, state } = harness({ baseUrl: s.baseUrl, model: 'o3' });
    const requestsFor = async (fake: FakeOpenAi) => {
      const before = fake.requests.length;
      await service.chat(HI, { maxTokens: 10 });
      return fake.requests.length - before;
    };
    expect(await requestsFor(s)).toBe(2);
    expect(await requestsFor(s)).toBe(1);
    state.settings.baseUrl = `${s.baseUrl}/`; // same normalized URL: reused
    expect(await requestsFor(s)).toBe(1);
    state.apiKey = 'key-1'; // key changed: rebuilt
    expect(await requestsFor(s)).toBe(2);
    expect(s.requests.at(-1)!.headers.authorization).toBe('Bearer key-1');
    state.settings.model = 'o4'; // model changed: rebuilt
    expect(await requestsFor(s)).toBe(2);
    state.settings.baseUrl = other.baseUrl; // base URL changed: rebuilt, other server
    state.settings.model = 'o3';
    expect(await requestsFor(other)).toBe(2);
    expect(await requestsFor(other)).toBe(1);
    state.settings.provider = 'anthropic'; // type changed: now remote and not allowed
    expect((await aiFailure(service.chat(HI))).code).toBe('aiRemoteNotAllowed');
  });
});

describe('AiService.testConnection', () => {
  test('sends the test prompt through the funnel and returns the answer', async () => {
    const s = await openAi({ models: { m: { reply: (msgs) => (msgs[0].content === TEST_PROMPT ? '<think>easy</think>OK' : 'no') } } });
    const { service } = harness({ baseUrl: s.baseUrl, model: 'm' });
    expect(await service.testConnection()).toEqual({ ok: true, text: 'OK' });
    expect(s.requests[0].json.messages).toEqual([{ role: 'user', content: 'Reply with the single word OK.' }]);
    expect(service.getUsage()).toMatchObject({ inputTokens: 6, outputTokens: 1 });
  });

  test('reports gate and HTTP failures as {ok: false, code, message}', async () => {
    const s = await openAi({ apiKey: 'right', models: { m: {} } });
    const { service, state } = harness({ enabled: false, baseUrl: s.baseUrl, model: 'm' }, 'wrong');
    const disabled = await service.testConnection();
    expect(disabled).toMatchObject({ ok: false, code: 'aiDisabled' });
    state.settings.enabled = true;
    const rejected = await service.testConnection();
    expect(rejected).toMatchObject({ ok: false, code: 'aiHttpError' });
    expect(rejected.ok === false && rejected.message).toMatch(/API key was rejected/);
    state.settings.baseUrl = 'http://192.168.0.9:11434/v1';
    expect(await service.testConnection()).toMatchObject({ ok: false, code: 'aiRemoteNotAllowed' });
  });
});
