import * as http from 'node:http';
import fc from 'fast-check';
import { openRawSession, raw, type RawResponse } from '../harness/server/raw-http';
import { contentRequest, modernRequest, rpcBody, toolCall } from './fuzz-arbitraries';
import { bootSecurityEnv, HIDDEN_NAMES, HIDDEN_VAULT_FILES, SECRET_MARK, type SecurityEnv } from './security-env';

/**
 * Fuzzing the real server over HTTP with fast-check: random JSON-RPC messages and batches,
 * tools/call with schema-aware hostile arguments, and resources, prompts and completion
 * requests with hostile URIs, names, cursors and prefixes (these must also never show hidden
 * text or name a hidden path). Properties: every request is answered,
 * never with a 5xx or -32603 (a client's mistake is never our internal error), nothing
 * outside the vault changes (symbolic links in the vault point into the sentinel folder),
 * no hidden or read-only note changes, Object.prototype stays clean, no promise rejection goes
 * unhandled, and the server still answers afterwards.
 *
 * Seed-fixed in CI. A long run: `FUZZ_RUNS=20000 FUZZ_SEED=random npm run test:security`
 * (the seed is printed, so a failure can be replayed with FUZZ_SEED=<seed>).
 */

const RUNS = Number(process.env.FUZZ_RUNS) || 0;
const SEED = process.env.FUZZ_SEED === 'random' ? (Date.now() ^ (Math.random() * 2 ** 31)) | 0 : Number(process.env.FUZZ_SEED) || 20261130;
/** Default runs per property: modest, so CI stays fast; FUZZ_RUNS overrides both. */
const DEFAULT_RUNS = { rpc: 1000, tools: 1500, proposeTools: 1000, content: 1500, modern: 1000 };
/** A request unanswered this long counts as a hang, ms (not a speed limit: answers take milliseconds). */
const ANSWER_LIMIT_MS = 20000;

/** Sends `body` in a session (default the run key's), failing when no answer comes within ANSWER_LIMIT_MS. */
async function post(env: SecurityEnv, body: string, session = env.session): Promise<RawResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_LIMIT_MS} ms to ${body.slice(0, 200)}`)), ANSWER_LIMIT_MS);
  });
  try {
    return await Promise.race([raw(env.port, { headers: session, body }), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a `subscriptions/listen` stream, reads it for a moment and closes it (a stream never ends by itself). */
function listenBriefly(port: number, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        const finish = (): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        res.on('end', finish);
        setTimeout(() => {
          req.destroy();
          finish();
        }, 50);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Throws when an answer is an internal error. */
function assertNotInternal(response: RawResponse, body: string): void {
  if (response.status >= 500 || /"code":\s*-32603/.test(response.body)) {
    throw new Error(`internal error (HTTP ${response.status}) for ${body.slice(0, 300)}: ${response.body.slice(0, 300)}`);
  }
}

function assertPrototypeClean(): void {
  const probe: Record<string, unknown> = {};
  for (const key in probe) throw new Error(`Object.prototype.${key} was set`);
}

describe('fuzzing the server over HTTP', () => {
  let env: SecurityEnv;
  let sentinel: string;
  const figures: string[] = [];

  /** Promise rejections nobody handled while the fuzz ran (a crash waiting to happen inside Obsidian). */
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    env = await bootSecurityEnv();
    sentinel = await env.snapshot(HIDDEN_VAULT_FILES);
  }, 60000);
  afterEach(() => {
    expect(unhandled.map(String)).toEqual([]);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    process.stdout.write(`\nFuzz (seed ${SEED})\n${figures.join('\n')}\n`);
    await env?.done();
  });

  /** After every run: nothing outside the vault, no hidden note changed, prototype clean. */
  async function assertSentinel(what: string): Promise<void> {
    const now = await env.snapshot(HIDDEN_VAULT_FILES);
    if (now !== sentinel) throw new Error(`${what} changed what no call may change`);
    assertPrototypeClean();
  }

  test('JSON-RPC messages of any shape: answered, never an internal error', async () => {
    const runs = RUNS || DEFAULT_RUNS.rpc;
    const started = Date.now();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(rpcBody, async (body) => {
        const response = await post(env, body);
        assertNotInternal(response, body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        await assertSentinel(body.slice(0, 200));
      }),
      { numRuns: runs, seed: SEED, endOnFailure: true },
    );
    const ping = await post(env, '{"jsonrpc":"2.0","id":"alive","method":"ping"}');
    expect(ping.status).toBe(200);
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n}×${status}`)
      .join(', ');
    figures.push(`json-rpc: ${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s (HTTP ${byStatus})`);
  }, 600000);

  test.each([
    ['force', DEFAULT_RUNS.tools],
    ['propose', DEFAULT_RUNS.proposeTools],
  ] as const)(
    'tools/call with hostile schema-aware arguments (%s key): no internal error, nothing outside or hidden written',
    async (mode, defaultRuns) => {
      const runs = RUNS || defaultRuns;
      const session = mode === 'force' ? env.session : await openRawSession(env.port, env.tokens.propose);
      const started = Date.now();
      let id = 0;
      const tally = { results: 0, toolErrors: 0, rpcErrors: 0, done: 0 };
      await fc.assert(
        fc.asyncProperty(toolCall, async (params) => {
          const body = JSON.stringify({ jsonrpc: '2.0', id: `fz${id++}`, method: 'tools/call', params });
          const response = await post(env, body, session);
          assertNotInternal(response, body);
          if (/"isError":true/.test(response.body)) tally.toolErrors++;
          else if (/"result":/.test(response.body)) tally.results++;
          else tally.rpcErrors++;
          if (/\\"status\\":\\"(applied|pending)\\"/.test(response.body)) tally.done++;
          await assertSentinel(body.slice(0, 300));
        }),
        { numRuns: runs, seed: SEED, endOnFailure: true },
      );
      const ping = await post(env, `{"jsonrpc":"2.0","id":"alive-${mode}","method":"ping"}`, session);
      expect(ping.status).toBe(200);
      const done = mode === 'force' ? 'writes applied' : 'proposals staged';
      figures.push(
        `tools/call (${mode}): ${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s (${tally.results} results, ${tally.done} ${done}, ${tally.toolErrors} tool errors, ${tally.rpcErrors} JSON-RPC errors)`,
      );
    },
    600000,
  );

  test('resources, prompts and completion with hostile URIs, names and prefixes: no internal error, nothing hidden shown', async () => {
    const runs = RUNS || DEFAULT_RUNS.content;
    const started = Date.now();
    let id = 0;
    const tally = { results: 0, errors: 0 };
    await fc.assert(
      fc.asyncProperty(contentRequest, async ({ method, params }) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: `ct${id++}`, method, params });
        const response = await post(env, body);
        assertNotInternal(response, body);
        if (/"result":/.test(response.body)) tally.results++;
        else tally.errors++;
        if (response.body.toLowerCase().includes(SECRET_MARK)) throw new Error(`hidden text shown for ${body.slice(0, 300)}`);
        // A hidden path as a whole value or URI (fuzzed writes may create notes whose names merely contain one).
        const named = HIDDEN_NAMES.find(
          (name) => (response.body.includes(`"${name}`) || response.body.includes(`vault-mcp://note/${name}`)) && !body.includes(name),
        );
        if (named) throw new Error(`hidden ${named} named for ${body.slice(0, 300)}: ${response.body.slice(0, 300)}`);
        await assertSentinel(body.slice(0, 300));
      }),
      { numRuns: runs, seed: SEED, endOnFailure: true },
    );
    figures.push(
      `resources/prompts/completion: ${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s (${tally.results} results, ${tally.errors} JSON-RPC errors)`,
    );
  }, 600000);

  test('stateless 2026-07-28 requests with forged _meta, inputResponses and requestState: no internal error, nothing hidden shown or written', async () => {
    const runs = RUNS || DEFAULT_RUNS.modern;
    const started = Date.now();
    let id = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(modernRequest, async ({ method, params, headerVersion }) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: `md${id++}`, method, params });
        const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
        const headers: Record<string, string> = { Authorization: `Bearer ${env.tokens.valid}`, 'Mcp-Method': method };
        if (headerVersion !== null) headers['MCP-Protocol-Version'] = headerVersion;
        if (name !== undefined && /^[\x21-\x7e]*$/.test(name)) headers['Mcp-Name'] = name;
        // A listen stream stays open: read what comes within a moment, then hang up.
        const response = method === 'subscriptions/listen' ? await listenBriefly(env.port, headers, body) : await post(env, body, headers);
        assertNotInternal(response, body);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.body.toLowerCase().includes(SECRET_MARK)) throw new Error(`hidden text shown for ${body.slice(0, 300)}`);
        await assertSentinel(body.slice(0, 300));
      }),
      { numRuns: runs, seed: SEED, endOnFailure: true },
    );
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${n}×${status}`)
      .join(', ');
    figures.push(`2026-07-28 stateless: ${runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s (HTTP ${byStatus})`);
  }, 600000);
});
