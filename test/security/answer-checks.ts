import { messagesOf, openRawSession, raw, type RawResponse } from '../harness/server/raw-http';
import type { KeyChoice } from './attack-corpus';
import type { SecurityEnv } from './security-env';

/**
 * What the corpus runners share: the outcome of a case, reading a JSON-RPC answer, telling an
 * internal error from a refusal, and masking paths so a hidden thing's answer can be compared
 * with a missing one's.
 */

/** What one case did: whether it behaved as its expectation says, and any leak found. */
export interface CaseOutcome {
  family: string;
  id: string;
  asExpected: boolean;
  /** Why it did not behave as expected, or what leaked. */
  problems: string[];
  leaks: string[];
}

/** A JSON-RPC answer over raw HTTP: status, and the error or the result. */
export interface RpcAnswer {
  status: number;
  error?: { code: number; message: string };
  result?: { isError?: boolean; content?: unknown; structuredContent?: unknown } & Record<string, unknown>;
  text: string;
  headers: RawResponse['headers'];
}

/** The first JSON-RPC message of a raw answer (JSON or SSE), read into an {@link RpcAnswer}. */
export function rpcAnswer(response: RawResponse): RpcAnswer {
  let message: Record<string, any> | undefined;
  try {
    message = messagesOf(response)[0] as Record<string, any> | undefined;
  } catch {
    message = undefined;
  }
  return { status: response.status, error: message?.error, result: message?.result, text: response.body, headers: response.headers };
}

let nextId = 100000;

/** Sends one JSON-RPC request `method` with `params` (JSON text) in `session` and reads its answer. */
export async function sendRequest(env: SecurityEnv, session: Record<string, string>, method: string, params: string): Promise<RpcAnswer> {
  const body = `{"jsonrpc":"2.0","id":${nextId++},"method":${JSON.stringify(method)},"params":${params}}`;
  return rpcAnswer(await raw(env.port, { headers: session, body }));
}

/** A problem when the answer is an internal error (5xx or -32603), else null. */
export function internalError(answer: { status: number; error?: { code: number } }): string | null {
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  if (answer.error?.code === -32603) return 'JSON-RPC -32603 (internal error)';
  return null;
}

/** Masks every spelling of `paths` in an answer, so a hidden note's answer can be compared with a missing one's. */
export function masked(text: string, paths: string[]): string {
  const spellings = new Set<string>();
  for (const path of paths) {
    for (const p of [path, path.replace(/\.md$/, ''), `${path.replace(/\.md$/, '')}.md`]) {
      spellings.add(p);
      spellings.add(p.split('/').map(encodeURIComponent).join('/'));
      spellings.add(p.slice(p.lastIndexOf('/') + 1));
    }
  }
  let out = text;
  for (const s of [...spellings].sort((a, b) => b.length - a.length)) out = out.split(s).join('<PATH>');
  return out.replace(/"id":\d+/g, '"id":<ID>');
}

/** The comparable part of an answer: HTTP status plus the JSON-RPC error or result. */
export function messageText(answer: { status: number; error?: unknown; result?: unknown }): string {
  return JSON.stringify({ status: answer.status, error: answer.error, result: answer.result });
}

/** The session a case runs in: the run key's, or one of another key opened on first use. */
export async function sessionFor(
  env: SecurityEnv,
  key: KeyChoice | undefined,
  sessions: Map<string, Record<string, string>>,
): Promise<Record<string, string>> {
  if (key === undefined || key === 'valid') return env.session;
  let session = sessions.get(key);
  if (!session) {
    session = await openRawSession(env.port, env.tokens[key]);
    sessions.set(key, session);
  }
  return session;
}

/** Replaces `{OUTSIDE}`, `{VAULT}` in every string of a value. */
export function fill(value: unknown, env: SecurityEnv): unknown {
  if (typeof value === 'string') return value.split('{OUTSIDE}').join(env.outside).split('{VAULT}').join(env.vault);
  if (Array.isArray(value)) return value.map((v) => fill(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, env)]));
  return value;
}

/**
 * True for a refusal: isError, a JSON-RPC client-mistake error, or a read_notes answer that
 * read nothing (it reports each path's refusal beside the notes it could read).
 */
export function isRefusal(answer: RpcAnswer): boolean {
  if (answer.result?.isError === true) return true;
  if (answer.error !== undefined && [-32600, -32602, -32601, -32002].includes(answer.error.code)) return true;
  const notes = (answer.result?.structuredContent as { notes?: unknown[] } | undefined)?.notes;
  return Array.isArray(notes) && notes.length === 0 && 'not_found' in (answer.result?.structuredContent as object);
}
