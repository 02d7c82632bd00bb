import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { App } from 'obsidian';
import { createTempVault, type TempVault } from '../../host/index';
import { AiError } from '../../../src/ai/ai-error';
import { AiService } from '../../../src/ai/ai-service';
import { API_READY_EVENT, createPublicApi, publishApi, type ApiHost } from '../../../src/ai/public-api';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import type { AiSettings } from '../../../src/ai/types';
import { defaultSettings } from '../../../src/settings/settings';
import type { VaultMcpAiError, VaultMcpApi } from '../../../types/vault-mcp-api';
import { startFakeOpenAi, type FakeOpenAi } from '../../fakes/fake-openai';

let server: FakeOpenAi;
beforeEach(async () => {
  server = await startFakeOpenAi({ models: { 'llama3.2': { reply: (m) => `echo: ${m.at(-1)!.content}` } } });
});
afterEach(async () => {
  await server.close();
});

function service(ai: Partial<AiSettings>): AiService {
  const settings: AiSettings = { ...defaultSettings().ai, enabled: true, baseUrl: server.baseUrl, model: 'llama3.2', ...ai };
  return new AiService({ getSettings: () => settings, getApiKey: () => null, saveUsage: () => undefined });
}

describe('public plugin API', () => {
  test('exposes only apiVersion, chat and chatAvailability, frozen', () => {
    const api = createPublicApi(service({}));
    expect(Object.keys(api).sort()).toEqual(['apiVersion', 'chat', 'chatAvailability']);
    expect(api.apiVersion).toBe(1);
    expect(Object.isFrozen(api)).toBe(true);
    expect(() => {
      (api as { apiVersion: number }).apiVersion = 2;
    }).toThrow(TypeError);
  });

  test('chat goes through the funnel to the configured provider', async () => {
    const api: VaultMcpApi = createPublicApi(service({}));
    const result = await api.chat([{ role: 'user', content: 'hello' }], { temperature: 0.1 });
    expect(result).toEqual({ text: 'echo: hello', usage: { inputTokens: 1, outputTokens: 2 }, finishReason: 'stop', model: 'llama3.2' });
    expect(server.requests[0].json.temperature).toBe(0.1);
  });

  test('chat rejects with the published error shape; chatAvailability explains beforehand', async () => {
    const api = createPublicApi(service({ enabled: false }));
    const availability = api.chatAvailability();
    expect(availability).toMatchObject({ ready: false, code: 'aiDisabled' });
    const err = await api.chat([{ role: 'user', content: 'hello' }]).then(
      () => null,
      (e: VaultMcpAiError) => e,
    );
    expect(err).toBeInstanceOf(AiError);
    expect(err).toBeInstanceOf(Error);
    expect(err!.name).toBe('AiError');
    expect(err!.code).toBe('aiDisabled');
    expect(availability.ready === false && availability.reason).toBe(err!.message);
    expect(server.requests).toHaveLength(0);
  });

  test('chatAvailability when ready names provider, model and classification', () => {
    expect(createPublicApi(service({})).chatAvailability()).toEqual({
      ready: true,
      provider: 'openai-compatible',
      model: 'llama3.2',
      classification: 'local',
    });
  });

  test('publishApi sets plugin.api and fires vault-mcp:api-ready on the workspace', async () => {
    const vault: TempVault = await createTempVault({ 'Note.md': '# Note\n' });
    try {
      const app = vault.app as unknown as App;
      const received: VaultMcpApi[] = [];
      app.workspace.on('vault-mcp:api-ready', (api) => received.push(api));
      app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, 'local-key');
      const settings: AiSettings = { ...defaultSettings().ai, enabled: true, baseUrl: server.baseUrl, model: 'llama3.2' };
      const ai = new AiService({
        getSettings: () => settings,
        getApiKey: () => app.secretStorage.getSecret(AI_API_KEY_SECRET_ID),
        saveUsage: () => undefined,
      });
      const plugin: ApiHost = { app };
      const api = createPublicApi(ai);
      publishApi(plugin, api);
      expect(plugin.api).toBe(api);
      expect(received).toEqual([api]);
      expect(API_READY_EVENT).toBe('vault-mcp:api-ready');
      expect((await received[0].chat([{ role: 'user', content: 'ping' }])).text).toBe('echo: ping');
      expect(server.requests[0].headers.authorization).toBe('Bearer local-key');
    } finally {
      await vault.cleanup();
    }
  });

  test('AiError matches the published VaultMcpAiError shape', () => {
    const published: VaultMcpAiError = new AiError('aiHttpError', 'Rate limit reached.', 429);
    expect(published).toMatchObject({ name: 'AiError', code: 'aiHttpError', status: 429, message: 'Rate limit reached.' });
  });

  test('a failure no retry can fix reaches a caller of chat() marked lasting in the published shape; a busy provider is not', async () => {
    // A provider on this computer whose answer Node's HTTP parser refuses (a Location holding ESC): lasting.
    const raw = net.createServer((socket) => {
      socket.once('data', () =>
        socket.end('HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/\x1b[31m\r\nContent-Length: 0\r\n\r\n'),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', () => resolve()));
    const failure = (api: VaultMcpApi): Promise<VaultMcpAiError> =>
      api.chat([{ role: 'user', content: 'hello' }]).then(
        () => Promise.reject(new Error('chat() resolved')),
        (e: VaultMcpAiError) => e,
      );
    try {
      const unreadable = await failure(createPublicApi(service({ baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1` })));
      expect(unreadable).toMatchObject({ name: 'AiError', code: 'aiHttpError', lasting: true });
      expect(unreadable.status).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    }
    const busy = await failure(createPublicApi(service({ model: 'no-such-model' })));
    expect(busy.code).toBe('aiHttpError');
    expect(busy.lasting).toBeUndefined();
  });

  test('the SecretStorage id of the API key is a valid SecretStorage id', () => {
    expect(AI_API_KEY_SECRET_ID).toBe('vault-mcp-ai-api-key');
    expect(AI_API_KEY_SECRET_ID).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
