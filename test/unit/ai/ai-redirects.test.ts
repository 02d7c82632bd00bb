/**
 * The privacy gate judges the base URL the user set; no AI request may then reach another host
 * through the provider's redirect, nor through a name that only looks local (`localhost.`,
 * which DNS resolves). Each route that sends note text or the API key is driven through the
 * AiService funnel (and the public plugin API) against a real loopback server that redirects
 * every request to a second real loopback server, which would answer correctly if reached.
 */
import { AiService } from '../../../src/ai/ai-service';
import { createPublicApi } from '../../../src/ai/public-api';
import type { AiSettings } from '../../../src/ai/types';
import { defaultSettings } from '../../../src/settings/settings';
import { startFakeAnthropic } from '../../fakes/fake-anthropic';
import { startFakeOpenAi } from '../../fakes/fake-openai';
import { startRecordingServer, type RecordingServer } from '../../fakes/recording-server';
import { aiFailure } from '../../harness/ai-failure';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that answers every request with `307 Location: <target origin><same path>`. */
async function redirectingTo(target: RecordingServer): Promise<RecordingServer> {
  const s = await startRecordingServer((req) => ({ status: 307, body: '', headers: { location: `${target.origin}${req.path}` } }));
  servers.push(s);
  return s;
}

function service(ai: Partial<AiSettings>, apiKey: string | null): AiService {
  const settings: AiSettings = { ...defaultSettings().ai, enabled: true, ...ai };
  return new AiService({
    getSettings: () => settings,
    getApiKey: () => apiKey,
    saveUsage: () => undefined,
    embedOptions: { backoffMs: 1, sleep: async () => undefined },
  });
}

/** How a call failed (`ok: false`, code, message), or `ok: true` when it succeeded. */
function failureOf(call: Promise<unknown>): Promise<{ ok: boolean; code?: string; message?: string }> {
  return call.then(
    () => ({ ok: true }),
    (err: { code?: string; message: string }) => ({ ok: false, code: err.code, message: err.message }),
  );
}

const HI = [{ role: 'user' as const, content: 'the text of a private note' }];

describe('a provider that redirects is not followed, on every route', () => {
  test.each([
    ['embeddings (semantic index)', 'openai', (s: AiService) => failureOf(s.embed(['the text of a private note'])), '/embeddings'],
    ['chat, OpenAI-compatible', 'openai', (s: AiService) => failureOf(s.chat(HI)), '/chat/completions'],
    ['the Test button (connection test)', 'openai', (s: AiService) => s.testConnection(), '/chat/completions'],
    ['chat through the public plugin API', 'openai', (s: AiService) => failureOf(createPublicApi(s).chat(HI)), '/chat/completions'],
    ['chat, Anthropic', 'anthropic', (s: AiService) => failureOf(s.chat(HI)), '/messages'],
  ] as const)('%s', async (_route, kind, call, endpoint) => {
    const target =
      kind === 'anthropic'
        ? await startFakeAnthropic({ apiKey: 'sk-SECRET', models: { m: {} } })
        : await startFakeOpenAi({ models: { m: {} }, embeddingModels: { e: { dimensions: 4 } } });
    servers.push(target);
    const redirector = await redirectingTo(target);
    const ai = service(
      kind === 'anthropic'
        ? { provider: 'anthropic', allowRemote: true, baseUrl: `${redirector.origin}/v1`, model: 'm' }
        : { baseUrl: `${redirector.origin}/v1`, model: 'm', embeddingModel: 'e' },
      'sk-SECRET',
    );
    const failure: { ok: boolean; code?: string; message?: string } = await call(ai);
    expect(failure.ok).toBe(false);
    expect(failure.code).toBe('aiHttpError');
    expect(redirector.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    expect(failure.message).toContain(`answered HTTP 307, a redirect to ${target.origin}/v1${endpoint};`);
    expect(failure.message).toContain(`set the base URL to ${target.origin}/v1 in Settings → Vault MCP → AI provider.`);
  });

  test('the embedding retries (429 / 5xx) do not turn a redirect into several requests', async () => {
    const target = await startFakeOpenAi({ models: {}, embeddingModels: { e: { dimensions: 4 } } });
    servers.push(target);
    const redirector = await startRecordingServer(() => ({
      status: 308,
      body: '',
      headers: { location: `${target.origin}/v1/embeddings` },
    }));
    servers.push(redirector);
    const err = await aiFailure(service({ baseUrl: `${redirector.origin}/v1`, embeddingModel: 'e' }, null).embed(['a', 'b']));
    expect(err.status).toBe(308);
    expect(redirector.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });
});

describe('localhost. (a DNS name, not the loopback name) is remote', () => {
  let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let dotted: string;
  beforeEach(async () => {
    fake = await startFakeOpenAi({ models: { m: {} }, embeddingModels: { e: { dimensions: 4 } } });
    servers.push(fake);
    dotted = `http://localhost.:${new URL(fake.origin).port}/v1`;
  });

  test.each([
    ['chat', (s: AiService) => s.chat(HI)],
    ['embeddings', (s: AiService) => s.embed(['x'])],
    ['the public plugin API', (s: AiService) => createPublicApi(s).chat(HI)],
  ])('%s without "Allow remote providers" is refused before anything is sent', async (_route, call) => {
    const ai = service({ baseUrl: dotted, model: 'm', embeddingModel: 'e' }, 'sk-SECRET');
    const err = await aiFailure(call(ai));
    expect(err.code).toBe('aiRemoteNotAllowed');
    expect(err.message).toBe(
      `The AI provider (the server at localhost.:${new URL(fake.origin).port}) is not on this computer and remote providers are not allowed; turn on "Allow remote providers" in Settings → Vault MCP → AI provider or use a server on this computer such as Ollama (http://localhost:11434/v1).`,
    );
    expect(createPublicApi(ai).chatAvailability()).toEqual({
      ready: false,
      code: 'aiRemoteNotAllowed',
      reason: expect.stringContaining('localhost.'),
    });
    expect(fake.requests).toHaveLength(0);
  });

  test('with "Allow remote providers" it is treated as remote: it needs an API key', async () => {
    const err = await aiFailure(service({ baseUrl: dotted, model: 'm', allowRemote: true }, null).chat(HI));
    expect(err.code).toBe('aiNotConfigured');
    expect(err.message).toContain('API key is missing');
  });
});
