import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema, type ListRootsResult } from '@modelcontextprotocol/sdk/types.js';
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
import { runForwardCase, runForeignCase } from './forward-runner';
import { HIDDEN_NAMES, SECRET_MARK, type SecurityEnv } from './security-env';
import type { RootsCase, RpcCase, RpcProbeCase, SurfaceCase } from './surface-corpus';

/**
 * Runs the surface corpus's cases (surface-corpus.ts): JSON-RPC requests and probes over raw
 * HTTP, client roots through an SDK client that answers roots/list, and (forward-runner.ts)
 * forwarded assertions and foreign registry entries.
 */

/** Problems with the secret mark or a hidden name in `text` (strings the request itself carried are not counted). */
function shownHidden(text: string, request: string, forbid: readonly string[]): string[] {
  const leaks: string[] = [];
  const lower = text.toLowerCase();
  if (lower.includes(SECRET_MARK) && !request.toLowerCase().includes(SECRET_MARK))
    leaks.push(`answer shows hidden text: ${text.slice(0, 300)}`);
  for (const name of forbid) {
    if (text.includes(name) && !request.includes(name)) leaks.push(`answer names hidden ${JSON.stringify(name)}: ${text.slice(0, 300)}`);
  }
  return leaks;
}

/** True when an answer lists nothing: no completion values, resources, prompts or notes. */
function isEmptyListing(answer: RpcAnswer): boolean {
  const result = answer.result as Record<string, unknown> | undefined;
  if (!result) return false;
  const completion = result.completion as { values?: unknown[] } | undefined;
  const lists = [completion?.values, result.resources, result.prompts];
  return (
    lists.some((list) => Array.isArray(list)) && lists.every((list) => list === undefined || (Array.isArray(list) && list.length === 0))
  );
}

async function runRpcCase(c: RpcCase, env: SecurityEnv, sessions: Map<string, Record<string, string>>): Promise<CaseOutcome> {
  const params = JSON.stringify(fill(c.params, env));
  const answer = await sendRequest(env, await sessionFor(env, c.key, sessions), c.method, params);
  const problems: string[] = [];
  const internal = internalError(answer);
  if (internal) problems.push(internal);
  else if (c.expect === 'refused' && !isRefusal(answer)) problems.push(`not refused: ${answer.text.slice(0, 300)}`);
  else if (c.expect === 'empty' && !isEmptyListing(answer)) problems.push(`not empty: ${answer.text.slice(0, 300)}`);
  else if (!answer.result && !answer.error) problems.push(`no JSON-RPC answer (HTTP ${answer.status}): ${answer.text.slice(0, 200)}`);
  const leaks = shownHidden(answer.text, params, c.forbid ?? HIDDEN_NAMES);
  if (c.expect === 'empty' && !isEmptyListing(answer) && answer.result) leaks.push('a traversal or hidden prefix completed to something');
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}

async function runRpcProbe(c: RpcProbeCase, env: SecurityEnv, sessions: Map<string, Record<string, string>>): Promise<CaseOutcome> {
  const session = await sessionFor(env, c.key, sessions);
  const hidden = await sendRequest(env, session, c.method, JSON.stringify(c.params(c.hidden)));
  const missing = await sendRequest(env, session, c.method, JSON.stringify(c.params(c.missing)));
  const problems: string[] = [];
  const leaks: string[] = [];
  for (const answer of [hidden, missing]) {
    const internal = internalError(answer);
    if (internal) problems.push(internal);
  }
  // Unsubscribing from anything succeeds alike; completion of an unknown prompt is empty alike: only sameness counts there.
  const mustRefuse = c.method !== 'resources/unsubscribe' && c.method !== 'completion/complete';
  if (mustRefuse && !isRefusal(hidden)) leaks.push(`the hidden one was not refused: ${hidden.text.slice(0, 300)}`);
  const a = masked(messageText(hidden), [c.hidden, c.missing]);
  const b = masked(messageText(missing), [c.hidden, c.missing]);
  if (a !== b) leaks.push(`answers differ: hidden ${a.slice(0, 240)} | missing ${b.slice(0, 240)}`);
  if (hidden.text.toLowerCase().includes(SECRET_MARK)) leaks.push('answer shows hidden text');
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}

/** Notes a roots case reads: readable ones (when inside the effective folders) and ones never readable. */
const ROOTS_READABLE = ['Public/Open.md', 'Secret/Open.md', 'Rooted/Inside.md', 'Plain.md'];
const ROOTS_NEVER = ['Secret/Kx1.md', 'LinkedDir/secret.md', '_private/Q1.md', 'Public/Deep/note.md'];

/** True when `path` is inside one of `folders` (empty folders: the whole vault). */
function inside(path: string, folders: readonly string[]): boolean {
  return folders.length === 0 || folders.some((f) => path === f || path.startsWith(`${f}/`));
}

async function runRootsCase(c: RootsCase, env: SecurityEnv): Promise<CaseOutcome> {
  const token = c.key === 'rooted' ? env.tokens.rooted : env.tokens.valid;
  const keyFolders = c.key === 'rooted' ? ['Rooted'] : [];
  const client = new Client({ name: 'roots-case', version: '1' }, { capabilities: { roots: {} } });
  const roots = fill(c.roots, env);
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }) as unknown as ListRootsResult);
  const problems: string[] = [];
  const leaks: string[] = [];
  const blocked = c.expect === 'blocked';
  const folders = c.expect === 'key' || c.expect === 'blocked' ? keyFolders : c.expect.folders;
  const see = (what: string, text: string): void => {
    if (text.toLowerCase().includes(SECRET_MARK)) leaks.push(`${what} shows hidden text`);
  };
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(env.booted.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    for (const path of [...ROOTS_READABLE, ...ROOTS_NEVER]) {
      const allowed = !blocked && ROOTS_READABLE.includes(path) && inside(path, folders);
      const tool = await client.callTool({ name: 'read_note', arguments: { path } });
      see(`read_note ${path}`, JSON.stringify(tool));
      if (!allowed && !tool.isError) leaks.push(`read_note ${path} was answered outside the expected roots`);
      if (allowed && tool.isError)
        problems.push(`read_note ${path} refused inside the expected roots: ${JSON.stringify(tool.content).slice(0, 200)}`);
      const resource = await client.readResource({ uri: `vault-mcp://note/${path}` }).then(
        (r) => ({ ok: true, text: JSON.stringify(r) }),
        (error: unknown) => ({ ok: false, text: String((error as Error).message) }),
      );
      see(`resources/read ${path}`, resource.text);
      if (!allowed && resource.ok) leaks.push(`resources/read ${path} was answered outside the expected roots`);
      if (allowed && !resource.ok)
        problems.push(`resources/read ${path} refused inside the expected roots: ${resource.text.slice(0, 200)}`);
      if (/-32603/.test(resource.text)) problems.push(`resources/read ${path}: internal error`);
    }
    const list = await client.callTool({ name: 'list_notes', arguments: {} });
    see('list_notes', JSON.stringify(list));
    if (blocked !== (list.isError === true))
      problems.push(`list_notes ${list.isError ? 'refused' : 'answered'}, expected ${blocked ? 'a refusal' : 'notes'}`);
    const listed = ((list.structuredContent as { notes?: Array<{ path: string }> } | undefined)?.notes ?? []).map((n) => n.path);
    const resources = await client.listResources().then(
      (r) => r.resources.map((x) => x.name),
      () => [] as string[],
    );
    for (const path of [...listed, ...resources])
      if (!inside(path, folders) || HIDDEN_NAMES.some((h) => path.startsWith(h))) leaks.push(`listed ${path} outside the expected roots`);
  } catch (error) {
    problems.push(`client error: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}

/** Runs one surface case against `env` (see {@link SurfaceCase}). */
export async function runSurfaceCase(
  c: SurfaceCase,
  env: SecurityEnv,
  sessions: Map<string, Record<string, string>>,
): Promise<CaseOutcome> {
  switch (c.kind) {
    case 'rpc':
      return runRpcCase(c, env, sessions);
    case 'rpc-probe':
      return runRpcProbe(c, env, sessions);
    case 'roots':
      return runRootsCase(c, env);
    case 'forward':
      return runForwardCase(c, env);
    case 'foreign':
      return runForeignCase(c, env);
  }
}
