import * as http from 'node:http';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { AiService, type AiUsage } from '../../../src/ai/ai-service';
import type { AiSettings } from '../../../src/ai/types';
import { defaultSettings } from '../../../src/settings/settings';
import { fakeEmbedding, startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';
import { aiFailure } from '../../harness/ai-failure';

const servers: FakeOpenAi[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fake(): Promise<FakeOpenAi> {
  const s = await startFakeOpenAi({ models: { chat: {} }, embeddingModels: { 'nomic-embed-text': { dimensions: 16 } } });
  servers.push(s);
  return s;
}

/** A service over mutable settings, with instant backoff; `sleeps` records the waits asked for. */
function harness(ai: Partial<AiSettings>, apiKey: string | null = null) {
  const state = {
    settings: { ...defaultSettings().ai, enabled: true, ...ai } as AiSettings,
    saved: [] as AiUsage[],
    sleeps: [] as number[],
  };
  const service = new AiService({
    getSettings: () => state.settings,
    getApiKey: () => apiKey,
    saveUsage: (usage) => {
      state.saved.push(usage);
      state.settings.usage = usage;
    },
    embedOptions: { batchSize: 3, backoffMs: 5, sleep: async (ms) => void state.sleeps.push(ms) },
    embeddingUsageSaveMs: 20,
  });
  return { service, state };
}

describe('AiService.embed', () => {
  test('embeds in batches through /v1/embeddings, in input order, and counts embedding tokens beside chat usage', async () => {
    const s = await fake();
    const { service, state } = harness({ baseUrl: s.baseUrl, embeddingModel: 'nomic-embed-text' });
    const texts = ['alpha beta', 'gamma', 'delta epsilon zeta', 'eta', 'theta iota', 'kappa', 'lambda'];
    const result = await service.embed(texts);
    expect(s.requests.map((r) => r.path)).toEqual(['/v1/embeddings', '/v1/embeddings', '/v1/embeddings']);
    expect(s.requests.map((r) => r.json.input.length)).toEqual([3, 3, 1]);
    expect(s.requests[0].json.model).toBe('nomic-embed-text');
    expect(result.vectors).toHaveLength(7);
    expect(Array.from(result.vectors[2])).toEqual(fakeEmbedding('delta epsilon zeta', 16).map((x) => Math.fround(x)));
    expect(result.tokens).toBe(11);
    expect(service.getUsage()).toEqual({ inputTokens: 0, outputTokens: 0, embeddingTokens: 11 });
    // Saved once, shortly after (an index build does not rewrite data.json after every batch).
    expect(state.saved).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(state.saved).toHaveLength(1);
    expect(state.settings.usage.embeddingTokens).toBe(11);
  });

  test('429 and 5xx are retried with growing backoff (Retry-After honoured); a 400 is not', async () => {
    const s = await fake();
    const { service, state } = harness({ baseUrl: s.baseUrl, embeddingModel: 'nomic-embed-text' });
    s.failNext({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } });
    s.failNext({ status: 503, body: 'busy' });
    const result = await service.embed(['one text']);
    expect(result.vectors).toHaveLength(1);
    expect(s.requests).toHaveLength(3);
    expect(state.sleeps).toEqual([2000, 10]);
    s.failNext({ status: 400, body: { error: { message: 'bad input' } } });
    const err = await aiFailure(service.embed(['x']));
    expect(err.code).toBe('aiHttpError');
    expect(err.status).toBe(400);
    expect(s.requests).toHaveLength(4);
  });

  test("gives up after the tries with the provider's reason", async () => {
    const s = await fake();
    const { service } = harness({ baseUrl: s.baseUrl, embeddingModel: 'nomic-embed-text' });
    for (let i = 0; i < 4; i++) s.failNext({ status: 500, body: { error: { message: 'model crashed' } } });
    const err = await aiFailure(service.embed(['x']));
    expect(err.status).toBe(500);
    expect(err.message).toContain('model crashed');
    expect(s.requests).toHaveLength(4);
  });

  test('an unknown embedding model is a 404 naming the model to pull', async () => {
    const s = await fake();
    const { service } = harness({ baseUrl: s.baseUrl, embeddingModel: 'missing-model' });
    const err = await aiFailure(service.embed(['x']));
    expect(err.message).toMatch(/ollama pull missing-model/);
  });

  test('AI off: no request at all, and availability says why', async () => {
    const s = await fake();
    const { service } = harness({ enabled: false, baseUrl: s.baseUrl, embeddingModel: 'nomic-embed-text' });
    expect((await aiFailure(service.embed(['private text']))).code).toBe('aiDisabled');
    expect(service.embeddingAvailability()).toMatchObject({ ready: false, code: 'aiDisabled' });
    expect(s.requests).toHaveLength(0);
  });

  test('a remote endpoint without "Allow remote providers": no request reaches it', async () => {
    const address = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4')?.address;
    if (!address) {
      console.warn('skipped: this machine has no non-loopback IPv4 address to stand for a remote server');
      return;
    }
    let hits = 0;
    const remote = http.createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => remote.listen(0, address, resolve));
    try {
      const base = `http://${address}:${(remote.address() as AddressInfo).port}/v1`;
      const { service } = harness({ allowRemote: false, baseUrl: base, embeddingModel: 'nomic-embed-text' }, 'sk-test');
      const err = await aiFailure(service.embed(['private text']));
      expect(err.code).toBe('aiRemoteNotAllowed');
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((resolve) => remote.close(() => resolve()));
    }
  });

  test('Anthropic has no embeddings endpoint; a missing embedding model names the setting', async () => {
    const anthropic = harness(
      { provider: 'anthropic', allowRemote: true, baseUrl: 'https://api.anthropic.com/v1', embeddingModel: 'x' },
      'k',
    );
    const err = await aiFailure(anthropic.service.embed(['x']));
    expect(err.code).toBe('aiNotConfigured');
    expect(err.message).toMatch(/Anthropic has no embeddings endpoint/);
    const noModel = harness({ baseUrl: 'http://localhost:11434/v1', embeddingModel: '' });
    expect(noModel.service.embeddingAvailability()).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/Embedding model.*nomic-embed-text/),
    });
  });

  test('a 2xx without data is aiBadResponse', async () => {
    const s = await fake();
    const { service } = harness({ baseUrl: s.baseUrl, embeddingModel: 'nomic-embed-text' });
    s.failNext({ status: 200, body: { error: 'Unexpected endpoint or method.' } });
    expect((await aiFailure(service.embed(['x']))).code).toBe('aiBadResponse');
  });
});
