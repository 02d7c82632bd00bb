import { endsInV1, joinEndpoint, normalizeBaseUrl, parseHttpUrl } from '../../../src/ai/providers/base-url';
import { classifyBaseUrl, isLocalhostName } from '../../../src/ai/providers/classify';
import { AI_PROVIDER_PRESETS, examplePreset } from '../../../src/ai/providers/presets';

describe('classifyBaseUrl', () => {
  const local = [
    'http://localhost:11434/v1',
    'http://LOCALHOST:1234/v1',
    'http://ollama.localhost/v1',
    'http://a.b.localhost:8000/v1',
    'http://127.0.0.1:1234/v1',
    'http://127.1.2.3/v1',
    'http://127.255.255.255/v1',
    'http://127.1/v1', // WHATWG shorthand for 127.0.0.1
    'http://0x7f.0.0.1/v1',
    'http://2130706433/v1',
    'http://[::1]:11434/v1',
    'http://[0:0:0:0:0:0:0:1]/v1',
    'http://[::ffff:127.0.0.1]:8080/v1',
    'http://[::ffff:7f00:1]/v1',
    'http://[::FFFF:7F00:0001]/v1',
    'http://[::ffff:127.255.255.255]/v1',
    'https://localhost/v1',
  ];
  const remote = [
    'http://192.168.1.20:11434/v1',
    'http://10.0.0.5:8000/v1',
    'http://172.16.0.1/v1',
    'http://[fc00::1]/v1',
    'http://[fd12:3456::1]/v1',
    'http://[fe80::1]/v1',
    'http://gpu-box.local:11434/v1',
    'http://llm.internal/v1',
    'http://localhost.example.com/v1',
    'http://mylocalhost/v1',
    'http://127.0.0.1.nip.io/v1',
    // A trailing dot makes a fully qualified DNS name: resolvers ask DNS for it (ENOTFOUND where
    // localhost answers), so it could resolve to another machine.
    'http://localhost./v1',
    'http://LOCALHOST.:11434/v1',
    'http://ollama.localhost./v1',
    'http://.localhost/v1',
    'https://api.openai.com/v1',
    'https://openrouter.ai/api/v1',
    'https://api.anthropic.com/v1',
    'http://0.0.0.0:11434/v1',
    'http://[::]/v1',
    'http://[::ffff:192.168.1.1]/v1',
    'http://[::ffff:10.0.0.1]/v1',
    'http://128.0.0.1/v1',
    '',
    'not a url',
    'ftp://localhost/v1',
    'localhost:11434/v1',
  ];
  test.each(local)('%s is local', (url) => expect(classifyBaseUrl(url)).toBe('local'));
  test.each(remote)('%j is remote', (url) => expect(classifyBaseUrl(url)).toBe('remote'));

  test('only localhost and *.localhost are the names the transport pins to loopback', () => {
    expect(['localhost', 'ollama.localhost', 'a.b.localhost'].map(isLocalhostName)).toEqual([true, true, true]);
    expect(['localhost.', 'ollama.localhost.', '.localhost', 'mylocalhost', 'localhost.example.com'].map(isLocalhostName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('base URL normalization', () => {
  test.each([
    ['http://localhost:11434/v1', 'http://localhost:11434/v1'],
    ['http://localhost:11434/v1/', 'http://localhost:11434/v1'],
    ['  http://localhost:11434/v1///  ', 'http://localhost:11434/v1'],
    ['http://localhost:11434/v1/chat/completions', 'http://localhost:11434/v1'],
    ['https://api.anthropic.com/v1/messages', 'https://api.anthropic.com/v1'],
    ['http://localhost:11434', 'http://localhost:11434'],
    ['http://localhost:11434/', 'http://localhost:11434'],
    ['HTTP://LocalHost:1234/v1', 'http://localhost:1234/v1'],
    ['https://gw.example.com/openai/v1/?api-version=2024', 'https://gw.example.com/openai/v1?api-version=2024'],
    ['not a url ', 'not a url'],
  ])('%j → %j', (raw, normalized) => expect(normalizeBaseUrl(raw)).toBe(normalized));

  test('endsInV1 looks at the path only', () => {
    expect(endsInV1('http://localhost:1234/v1')).toBe(true);
    expect(endsInV1('https://openrouter.ai/api/v1')).toBe(true);
    expect(endsInV1('http://localhost:1234')).toBe(false);
    expect(endsInV1('http://v1.example.com')).toBe(false);
    expect(endsInV1('http://localhost:1234/v1beta')).toBe(false);
  });

  test('joinEndpoint keeps the query string after the path', () => {
    expect(joinEndpoint('https://gw.example.com/v1?api-version=2024', '/chat/completions')).toBe(
      'https://gw.example.com/v1/chat/completions?api-version=2024',
    );
  });

  test('parseHttpUrl accepts only absolute http(s) URLs', () => {
    expect(parseHttpUrl('https://x.test/v1')?.hostname).toBe('x.test');
    expect(parseHttpUrl('file:///etc/passwd')).toBeNull();
    expect(parseHttpUrl('/v1')).toBeNull();
  });
});

describe('provider presets', () => {
  test('servers on this computer are local, hosted APIs remote, and OpenAI-compatible ones end in /v1', () => {
    const byLabel = Object.fromEntries(AI_PROVIDER_PRESETS.map((p) => [p.label, p]));
    for (const label of ['Ollama (this computer)', 'LM Studio (this computer)', 'vLLM (this computer)']) {
      expect(classifyBaseUrl(byLabel[label].baseUrl)).toBe('local');
    }
    for (const label of ['OpenAI', 'OpenRouter', 'Anthropic']) expect(classifyBaseUrl(byLabel[label].baseUrl)).toBe('remote');
    for (const p of AI_PROVIDER_PRESETS) {
      if (p.provider === 'openai-compatible') expect(endsInV1(p.baseUrl)).toBe(true);
      expect(normalizeBaseUrl(p.baseUrl)).toBe(p.baseUrl);
    }
  });

  test('examplePreset picks one per provider type', () => {
    expect(examplePreset('openai-compatible').baseUrl).toBe('http://localhost:11434/v1');
    expect(examplePreset('anthropic').baseUrl).toBe('https://api.anthropic.com/v1');
  });
});
