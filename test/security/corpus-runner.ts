// The module object itself (not an ES namespace copy), so the timing case can watch timingSafeEqual on it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
import nodeCrypto = require('node:crypto');
import * as net from 'node:net';
import { raw, type RawResponse } from '../harness/server/raw-http';
import {
  fill,
  internalError,
  isRefusal,
  masked,
  messageText,
  sendRequest,
  sessionFor,
  type CaseOutcome,
  type RpcAnswer,
} from './answer-checks';
import type { AttackCase, CaseArgs, HttpCase, ProbeCase, SocketCase, TimingCase, ToolCase } from './attack-corpus';
import { SECRET_MARK, type SecurityEnv } from './security-env';
import { runSurfaceCase } from './surface-runner';
import type { SurfaceCase } from './surface-corpus';

/** A tool call's answer over raw HTTP: status, and the JSON-RPC error or the tool result. */
type ToolAnswer = RpcAnswer;

/** The JSON text of a case's arguments (JSON texts are kept as written so `__proto__` stays an own key). */
function argsJson(args: CaseArgs, env: SecurityEnv): string {
  if ('json' in args && typeof args.json === 'string') return String(fill(args.json, env));
  return JSON.stringify(fill(args, env));
}

/** Sends one tools/call in `session` and reads its answer. */
function callTool(env: SecurityEnv, session: Record<string, string>, tool: string, args: string): Promise<ToolAnswer> {
  return sendRequest(env, session, 'tools/call', `{"name":${JSON.stringify(tool)},"arguments":${args}}`);
}

/** The case's own strings (an answer may echo them), lower-cased. */
function echoes(args: string): string {
  return args.toLowerCase();
}

async function runToolCase(
  c: ToolCase,
  env: SecurityEnv,
  sessions: Map<string, Record<string, string>>,
): Promise<Omit<CaseOutcome, 'leaks'> & { leaks: string[] }> {
  const args = argsJson(c.args, env);
  const answer = await callTool(env, await sessionFor(env, c.key, sessions), c.tool, args);
  const problems: string[] = [];
  const leaks: string[] = [];
  const internal = internalError(answer);
  if (internal) problems.push(internal);
  else if (c.expect === 'refused' && !isRefusal(answer)) problems.push(`not refused: ${answer.text.slice(0, 300)}`);
  else if (!answer.result && !answer.error) problems.push(`no JSON-RPC answer (HTTP ${answer.status}): ${answer.text.slice(0, 200)}`);
  if (answer.text.toLowerCase().includes(SECRET_MARK) && !echoes(args).includes(SECRET_MARK))
    leaks.push(`answer shows hidden text: ${answer.text.slice(0, 300)}`);
  if (c.after === 'proto-readable') {
    const check = await callTool(env, env.session, 'read_note', '{"path":"Proto.md"}');
    if (check.result?.isError !== false && !check.result?.structuredContent)
      leaks.push('Proto.md became unreadable (an access rule got in through a prototype key)');
  }
  return { family: c.family, id: c.id, asExpected: problems.length === 0, problems, leaks };
}

async function runProbeCase(c: ProbeCase, env: SecurityEnv, sessions: Map<string, Record<string, string>>): Promise<CaseOutcome> {
  const session = await sessionFor(env, c.key, sessions);
  const hidden = await callTool(env, session, c.tool, JSON.stringify(c.args(c.hidden)));
  const missing = await callTool(env, session, c.tool, JSON.stringify(c.args(c.missing)));
  const problems: string[] = [];
  const leaks: string[] = [];
  for (const answer of [hidden, missing]) {
    const internal = internalError(answer);
    if (internal) problems.push(internal);
  }
  if (!isRefusal(hidden)) leaks.push(`the hidden note was not refused: ${hidden.text.slice(0, 300)}`);
  const a = masked(messageText(hidden), [c.hidden, c.missing]);
  const b = masked(messageText(missing), [c.hidden, c.missing]);
  if (a !== b) leaks.push(`answers differ: hidden ${a.slice(0, 240)} | missing ${b.slice(0, 240)}`);
  if (hidden.text.toLowerCase().includes(SECRET_MARK)) leaks.push('answer shows hidden text');
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}

function tokenFor(env: SecurityEnv, auth: HttpCase['auth']): string | null {
  switch (auth) {
    case 'valid':
      return env.tokens.valid;
    case 'revoked':
      return env.tokens.revoked;
    case 'cloud':
      return env.tokens.cloud;
    case 'rooted':
      return env.tokens.rooted;
    case 'wrong':
      return 'vmcp_wrong-token-aaaaaaaaaaaaaaaaaaaa';
    case 'prefix':
      return env.tokens.valid.slice(0, -1);
    case 'suffix':
      return `${env.tokens.valid}x`;
    default:
      return null;
  }
}

async function runHttpCase(c: HttpCase, env: SecurityEnv): Promise<CaseOutcome> {
  const headers: Record<string, string> = {};
  const token = tokenFor(env, c.auth);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (c.auth === 'basic') headers.Authorization = `Basic ${Buffer.from(`user:${env.tokens.valid}`).toString('base64')}`;
  if (c.auth === 'empty') headers.Authorization = 'Bearer ';
  if (c.session) {
    const session = c.session === 'batching' ? env.batchSession : env.session;
    headers['Mcp-Session-Id'] = session['Mcp-Session-Id'];
    headers['Mcp-Protocol-Version'] = session['Mcp-Protocol-Version'];
  }
  Object.assign(headers, c.headers ?? {});
  const body = typeof c.body === 'function' ? c.body() : c.body;
  let response: RawResponse;
  try {
    response = await raw(env.port, {
      method: c.method ?? 'POST',
      headers,
      body: c.method === 'GET' || c.method === 'DELETE' ? undefined : body,
    });
  } catch (error) {
    response = { status: 0, headers: {}, body: String((error as Error).message) };
  }
  const problems: string[] = [];
  const leaks: string[] = [];
  if (!c.expect.status.includes(response.status))
    problems.push(`HTTP ${response.status}, expected ${c.expect.status.join('/')}: ${response.body.slice(0, 200)}`);
  if (response.status >= 500) problems.push(`HTTP ${response.status}`);
  if (/"code":-32603/.test(response.body)) problems.push('an internal error (-32603) in the answer');
  if (c.expect.code !== undefined && !response.body.includes(`"code":${c.expect.code}`))
    problems.push(`expected JSON-RPC code ${c.expect.code}: ${response.body.slice(0, 200)}`);
  const refusalExpected = c.expect.status.every((s) => s >= 400 || s === 0);
  if (refusalExpected && response.status >= 200 && response.status < 300) leaks.push(`accepted (HTTP ${response.status})`);
  if (response.body.toLowerCase().includes(SECRET_MARK)) leaks.push('answer shows hidden text');
  return { family: c.family, id: c.id, asExpected: problems.length === 0, problems, leaks };
}

/** Writes raw bytes and waits for the server's answer or hang-up (dribbling header lines when asked). */
function runSocket(port: number, data: string, dribble: boolean, limitMs: number): Promise<{ status: number | null; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let timer: ReturnType<typeof setInterval> | null = null;
    const finish = (closed: boolean): void => {
      if (timer) clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve({ status: match ? Number(match[1]) : null, closed });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (!dribble && /\r\n\r\n/.test(received)) finish(true);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(data.split('{PORT}').join(String(port)));
    if (dribble) {
      let n = 0;
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(`X-Slow-${n++}: a\r\n`);
      }, 1000);
    }
  });
}

async function runSocketCase(c: SocketCase, env: SecurityEnv): Promise<CaseOutcome> {
  const outcome = await runSocket(env.port, c.data, c.dribble === true, c.dribble ? 30000 : 10000);
  const problems: string[] = [];
  if (c.expect === 'closed') {
    if (!outcome.closed) problems.push('the server kept the connection open for 30 s');
    else if (outcome.status !== null && outcome.status !== 408) problems.push(`answered HTTP ${outcome.status} instead of timing out`);
  } else if (outcome.status === null || !c.expect.status.includes(outcome.status)) {
    problems.push(`HTTP ${outcome.status ?? 'none'}, expected ${c.expect.status.join('/')}`);
  }
  const leaks = c.expect !== 'closed' && outcome.status !== null && outcome.status < 300 ? [`accepted (HTTP ${outcome.status})`] : [];
  return { family: c.family, id: c.id, asExpected: problems.length === 0, problems, leaks };
}

/**
 * Judges the key comparison by the calls it makes: `crypto.timingSafeEqual` once per key,
 * always on two 32-byte SHA-256 digests, whatever token is presented (also after a match).
 * No clock is read.
 */
function runTimingCase(c: TimingCase, env: SecurityEnv): CaseOutcome {
  const presented = c.presented
    .replace('{VALID_PREFIX}', env.tokens.valid.slice(0, 8))
    .replace('{VALID}', env.tokens.valid)
    .replace('{REVOKED}', env.tokens.revoked);
  const ring = env.booted.plugin.keyRing;
  const calls: Array<[number, number]> = [];
  // The module object itself (not an import wrapper): key-ring.ts reads the property at each call.
  const original = nodeCrypto.timingSafeEqual;
  (nodeCrypto as { timingSafeEqual: typeof original }).timingSafeEqual = (a, b) => {
    calls.push([a.byteLength, b.byteLength]);
    return original(a, b);
  };
  let matched: string | null;
  try {
    matched = ring.authenticate(presented)?.label ?? null;
  } finally {
    (nodeCrypto as { timingSafeEqual: typeof original }).timingSafeEqual = original;
  }
  const keys = ring.list().length;
  const problems: string[] = [];
  if (calls.length !== keys) problems.push(`timingSafeEqual ran ${calls.length} times for ${keys} keys`);
  if (calls.some(([a, b]) => a !== 32 || b !== 32))
    problems.push(`compared buffers of lengths ${JSON.stringify(calls)} (not 32-byte digests)`);
  const expectMatch = presented === env.tokens.valid;
  if ((matched !== null) !== expectMatch) problems.push(`authenticate returned ${matched}`);
  return {
    family: c.family,
    id: c.id,
    asExpected: problems.length === 0,
    problems,
    leaks: problems.length ? ['comparison is not constant-time by construction'] : [],
  };
}

/** True when something set properties on Object.prototype (a prototype-pollution leak). */
function prototypePolluted(): string | null {
  const probe = {} as Record<string, unknown>;
  for (const key of ['polluted', 'access', 'path', 'x', 'method', 'regex', 'section', 'max_chars']) if (key in probe) return key;
  return null;
}

/**
 * Runs every case against `env` in order, checking after each that the sentinel (outside
 * folder, root folder, protected notes) is unchanged and Object.prototype is clean.
 * Slow cases (socket dribbling) run alongside the others.
 * @returns one outcome per case, in corpus order.
 */
export async function runCorpus(cases: ReadonlyArray<AttackCase | SurfaceCase>, env: SecurityEnv): Promise<CaseOutcome[]> {
  const sessions = new Map<string, Record<string, string>>();
  const slow = cases.filter((c) => c.kind === 'socket' && c.dribble);
  const slowRuns = slow.map((c) => runSocketCase(c as SocketCase, env));
  const outcomes = new Map<AttackCase | SurfaceCase, CaseOutcome>();
  let before = await env.snapshot();
  for (const c of cases) {
    if (slow.includes(c)) continue;
    let outcome: CaseOutcome;
    try {
      switch (c.kind) {
        case 'tool':
          outcome = await runToolCase(c, env, sessions);
          break;
        case 'probe':
          outcome = await runProbeCase(c, env, sessions);
          break;
        case 'http':
          outcome = await runHttpCase(c, env);
          break;
        case 'socket':
          outcome = await runSocketCase(c, env);
          break;
        case 'timing':
          outcome = runTimingCase(c, env);
          break;
        default:
          outcome = await runSurfaceCase(c, env, sessions);
      }
    } catch (error) {
      outcome = { family: c.family, id: c.id, asExpected: false, problems: [`runner error: ${(error as Error).message}`], leaks: [] };
    }
    const after = await env.snapshot();
    if (after !== before) {
      outcome.leaks.push(`changed what no call may change:\n${diffLines(before, after)}`);
      before = after;
    }
    const polluted = prototypePolluted();
    if (polluted) outcome.leaks.push(`Object.prototype.${polluted} was set`);
    if (outcome.leaks.length) outcome.asExpected = false;
    outcomes.set(c, outcome);
  }
  const slowOutcomes = await Promise.all(slowRuns);
  slow.forEach((c, i) => outcomes.set(c, slowOutcomes[i]));
  return cases.map((c) => outcomes.get(c) as CaseOutcome);
}

function diffLines(a: string, b: string): string {
  const left = new Set(a.split('\n'));
  const right = new Set(b.split('\n'));
  return [
    ...[...left].filter((l) => !right.has(l)).map((l) => `- ${l}`),
    ...[...right].filter((l) => !left.has(l)).map((l) => `+ ${l}`),
  ].join('\n');
}

/** The summary table: one row per family and a total row (tried, refused as expected, leaks). */
export function corpusTable(outcomes: readonly CaseOutcome[]): string {
  const rows = new Map<string, { tried: number; ok: number; leaks: number }>();
  for (const o of outcomes) {
    const row = rows.get(o.family) ?? { tried: 0, ok: 0, leaks: 0 };
    row.tried++;
    if (o.asExpected) row.ok++;
    if (o.leaks.length) row.leaks++;
    rows.set(o.family, row);
  }
  const total = {
    tried: outcomes.length,
    ok: outcomes.filter((o) => o.asExpected).length,
    leaks: outcomes.filter((o) => o.leaks.length).length,
  };
  const line = (name: string, r: { tried: number; ok: number; leaks: number }): string =>
    `${name.padEnd(16)} ${String(r.tried).padStart(6)} ${String(r.ok).padStart(10)} ${String(r.leaks).padStart(6)}`;
  return [
    `${'family'.padEnd(16)} ${'tried'.padStart(6)} ${'as expected'.padStart(10)} ${'leaks'.padStart(6)}`,
    ...[...rows].map(([name, r]) => line(name, r)),
    line('total', total),
  ].join('\n');
}
