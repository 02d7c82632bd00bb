/**
 * The scaling row's search client in a process of its own (scripts/bench/scaling/remote-client.ts): the
 * messages checked on arrival (a malformed reply fails loudly, never a row of NaN figures) and the
 * row's side of the process, driven against stand-in child scripts (the real one needs the bundled
 * build and a server). No speed is asserted.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { checkReady, checkRequest, checkSamples, checkStarted, RemoteSearchClient } from '../../../scripts/bench/scaling/remote-client';

describe('checkRequest', () => {
  it('takes the three requests with their fields', () => {
    expect(checkRequest({ type: 'connect', url: 'http://127.0.0.1:1/mcp', token: 't' })).toEqual({
      type: 'connect',
      url: 'http://127.0.0.1:1/mcp',
      token: 't',
    });
    expect(checkRequest({ type: 'passes', lists: [['a', 'b'], []], runs: 5 })).toEqual({
      type: 'passes',
      lists: [['a', 'b'], []],
      runs: 5,
    });
    expect(checkRequest({ type: 'close' })).toEqual({ type: 'close' });
  });
  it.each([
    ['not an object', 'connect'],
    ['null', null],
    ['an unknown type', { type: 'quit' }],
    ['connect without a token', { type: 'connect', url: 'http://x/mcp' }],
    ['a list that is not of strings', { type: 'passes', lists: [['a', 1]], runs: 5 }],
    ['lists that are not lists', { type: 'passes', lists: 'a', runs: 5 }],
    ['zero runs', { type: 'passes', lists: [['a']], runs: 0 }],
    ['fractional runs', { type: 'passes', lists: [['a']], runs: 2.5 }],
  ])('refuses %s', (_, message) => {
    expect(() => checkRequest(message)).toThrow(/^search client: /);
  });
});

describe('replies', () => {
  const lists = [['a', 'b'], ['c']];
  it('reads the samples per list', () => {
    const samples = [
      [1, 2, 3, 4],
      [0, 5.5],
    ];
    expect(checkSamples({ type: 'samples', samples }, lists, 2)).toEqual(samples);
    expect(checkReady({ type: 'ready', tools: 14 })).toBe(14);
    expect(() => checkStarted({ type: 'started' })).not.toThrow();
  });
  it.each([
    [
      'a sample of NaN (null once serialized)',
      {
        type: 'samples',
        samples: [
          [1, 2, null, 4],
          [1, 2],
        ],
      },
      /list 0 holds a sample that is not a time in ms: null/,
    ],
    [
      'a sample that is a string',
      {
        type: 'samples',
        samples: [
          [1, 2, 3, 4],
          ['2', 1],
        ],
      },
      /list 1 holds a sample .*"2"/,
    ],
    [
      'an infinite sample',
      {
        type: 'samples',
        samples: [
          [1, 2, 3, Infinity],
          [1, 2],
        ],
      },
      /list 0 holds a sample/,
    ],
    [
      'a negative sample',
      {
        type: 'samples',
        samples: [
          [1, 2, 3, 4],
          [-1, 2],
        ],
      },
      /list 1 holds a sample .*-1/,
    ],
    [
      'a sample short',
      {
        type: 'samples',
        samples: [
          [1, 2, 3],
          [1, 2],
        ],
      },
      /list 0 wants 4 samples \(2 queries × 2\)/,
    ],
    ['a list missing', { type: 'samples', samples: [[1, 2, 3, 4]] }, /expected "samples" for 2 lists/],
    ['no samples at all', { type: 'samples' }, /expected "samples" for 2 lists/],
    ['another reply', { type: 'ready', tools: 14 }, /expected "samples"/],
    ['something else', 42, /not a reply: 42/],
  ])('fails loudly on %s', (_, reply, message) => {
    expect(() => checkSamples(reply, lists, 2)).toThrow(message);
  });
  it("throws the client's own failure as it said it", () => {
    expect(() => checkSamples({ type: 'error', message: 'fetch failed' }, lists, 2)).toThrow('search client failed: fetch failed');
    expect(() => checkReady({ type: 'error', message: 'HTTP 401' })).toThrow('search client failed: HTTP 401');
  });
  it('wants a positive tool count from tools/list, and "started" first', () => {
    expect(() => checkReady({ type: 'ready', tools: 0 })).toThrow(/expected "ready"/);
    expect(() => checkReady({ type: 'ready' })).toThrow(/expected "ready"/);
    expect(() => checkStarted({ type: 'ready', tools: 3 })).toThrow(/expected "started"/);
  });
});

describe('RemoteSearchClient', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-remote-client-'));
  });
  afterAll(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });
  /** A stand-in client script: `onMessage` is the body of its handler of `m`, the request; `reply(x)` sends x. */
  async function script(name: string, onMessage: string, start = "reply({ type: 'started' });"): Promise<string> {
    const file = nodePath.join(dir, `${name}.js`);
    await fsp.writeFile(
      file,
      `const reply = (m) => process.send(m);
       process.on('message', (m) => { ${onMessage} });
       process.on('disconnect', () => process.exit(0));
       ${start}`,
    );
    return file;
  }
  /** Runs `fn` with the stderr the stand-ins print (echoed by the client) kept out of the test's output. */
  async function quietly<T>(fn: () => Promise<T>): Promise<T> {
    const errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      return await fn();
    } finally {
      errors.mockRestore();
    }
  }

  it('connects, gets one list of samples per list asked (in the process it forked), and closes', async () => {
    const file = await script(
      'good',
      `if (m.type === 'connect') reply({ type: 'ready', tools: m.url === 'http://u/mcp' && m.token === 'tk' ? 14 : 1 });
       else if (m.type === 'passes') reply({ type: 'samples', samples: m.lists.map((l) => Array(l.length * m.runs).fill(process.pid)) });
       else process.exit(0);`,
    );
    const remote = await RemoteSearchClient.start(file);
    try {
      expect(await remote.connect('http://u/mcp', 'tk')).toBe(14);
      const samples = await remote.passes([['a', 'b'], ['c']], 3);
      expect(samples.map((s) => s.length)).toEqual([6, 3]);
      expect(samples[0][0]).not.toBe(process.pid);
    } finally {
      await remote.close();
    }
  });

  it('fails loudly when the process sends NaN samples (null once serialized), never returning them', async () => {
    const file = await script(
      'nan',
      `if (m.type === 'connect') reply({ type: 'ready', tools: 14 });
       else if (m.type === 'passes') reply({ type: 'samples', samples: m.lists.map((l) => Array(l.length * m.runs).fill(NaN)) });
       else process.exit(0);`,
    );
    const remote = await RemoteSearchClient.start(file);
    try {
      await remote.connect('http://u/mcp', 'tk');
      await expect(remote.passes([['a']], 5)).rejects.toThrow(/list 0 holds a sample that is not a time in ms: null/);
    } finally {
      await remote.close();
    }
  });

  it('passes on the failure the process sends', async () => {
    const file = await script(
      'fails',
      `reply({ type: 'error', message: 'fetch failed: ECONNREFUSED' }); setTimeout(() => process.exit(1), 10);`,
    );
    const remote = await RemoteSearchClient.start(file);
    await expect(remote.connect('http://u/mcp', 'tk')).rejects.toThrow('search client failed: fetch failed: ECONNREFUSED');
    await remote.close();
  });

  it('says how the process ended, with its last stderr line, when it dies mid-request', async () => {
    const file = await script('dies', `process.stderr.write('Error: out of sockets\\n'); process.exit(3);`);
    const remote = await RemoteSearchClient.start(file);
    await quietly(async () => {
      await expect(remote.connect('http://u/mcp', 'tk')).rejects.toThrow('search client process ended (code 3): Error: out of sockets');
      // Once ended, every request fails the same way at once.
      await expect(remote.passes([['a']], 5)).rejects.toThrow(/search client process ended \(code 3\)/);
      await remote.close();
    });
  });

  it('fails to start when the script is missing or the process sends something else first', async () => {
    await quietly(() =>
      expect(RemoteSearchClient.start(nodePath.join(dir, 'absent.js'))).rejects.toThrow(
        /process ended \(code 1\).*Cannot find module|process ended \(code 1\)/,
      ),
    );
    const early = await script('early', '', "reply({ type: 'ready', tools: 14 });");
    await expect(RemoteSearchClient.start(early)).rejects.toThrow(/expected "started"/);
  });

  it('kills a process that does not exit when asked to close', async () => {
    const file = await script('stubborn', `/* ignores close */`, "reply({ type: 'started' }); setInterval(() => {}, 1000);");
    const remote = await RemoteSearchClient.start(file);
    const started = Date.now();
    await remote.close(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await expect(remote.connect('http://u/mcp', 'tk')).rejects.toThrow('search client process ended (signal SIGTERM)');
  });
});
