import { INITIALIZE, raw, type RawResponse } from '../harness/server/raw-http';
import { isRefusal, rpcAnswer, sendRequest, type CaseOutcome } from './answer-checks';
import { SECRET_MARK, type SecurityEnv } from './security-env';
import type { ForeignCase, ForwardCase, ForwardRecipe } from './surface-corpus';

/**
 * Runs the several-vaults cases of the surface corpus: HTTP requests carrying forged, replayed,
 * expired or mis-addressed `vmcpfwd.` assertions, and tool calls forwarded to registry entries
 * that are no Vault MCP server (see peer-env.ts), checking what those listeners received.
 */

/** The key a forwarded assertion names by default: the run key's label. */
const RUN_LABEL = 'Test client';

/** A `vmcpfwd.` token made as `recipe` says. */
export function forge(recipe: ForwardRecipe, env: SecurityEnv): string {
  const p = env.peers;
  const signer = recipe.signer === 'peer' ? p.peer.identity : p.stranger.identity;
  const iss = { peer: p.peer.id, stranger: p.stranger.id, self: p.selfId }[recipe.iss ?? 'peer'];
  const aud = { self: p.selfId, peer: p.peer.id, other: '0123456789abcdef' }[recipe.aud ?? 'self'];
  const label = recipe.tamper === 'label' ? 'Rooted client' : (recipe.label ?? RUN_LABEL);
  const token = signer.token(
    { iss, aud, label, mode: 'force', roots: (recipe.roots ?? null) as string[] | null },
    Date.now() + (recipe.shiftMs ?? 0),
  );
  const [prefix, payload, signature] = token.split('.');
  const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
  switch (recipe.tamper) {
    case 'label': {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      return `${prefix}.${b64(JSON.stringify({ ...claims, label: RUN_LABEL }))}.${signature}`;
    }
    case 'signature':
      return `${prefix}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    case 'extra-part':
      return `${token}.x`;
    case 'not-json':
      return `${prefix}.${b64('not json')}.${signature}`;
    case 'proto-keys':
      return `${prefix}.${b64(`{"__proto__":{"iss":"${iss}","aud":"${aud}","label":"${RUN_LABEL}","roots":null,"exp":${Date.now() + 10000},"jti":"x"}}`)}.${signature}`;
    case 'huge':
      return `${prefix}.${'a'.repeat(64 * 1024)}.${signature}`;
    default:
      return token;
  }
}

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

/** Leaks in a forwarded-call answer: hidden text, or a 2xx where a refusal was expected. */
function answerLeaks(response: RawResponse, expected: number[]): string[] {
  const leaks: string[] = [];
  if (response.body.toLowerCase().includes(SECRET_MARK)) leaks.push('answer shows hidden text');
  if (expected.every((s) => s >= 400) && response.status < 300) leaks.push(`accepted (HTTP ${response.status})`);
  return leaks;
}

/** Runs one {@link ForwardCase}. */
export async function runForwardCase(c: ForwardCase, env: SecurityEnv): Promise<CaseOutcome> {
  const problems: string[] = [];
  const leaks: string[] = [];
  const then = c.then;
  let response: RawResponse;
  if (then && 'sessionOfKey' in then) {
    const headers = { ...env.session, ...bearer(forge(c.recipe, env)) };
    response = await raw(env.port, { headers, body: '{"jsonrpc":"2.0","id":"fw","method":"ping"}' });
  } else {
    const token = forge(c.recipe, env);
    response = await raw(env.port, { headers: bearer(token), body: INITIALIZE });
    if (c.replay) {
      if (response.status !== 200) problems.push(`the first use was refused (HTTP ${response.status})`);
      response = await raw(env.port, { headers: bearer(token), body: INITIALIZE });
    }
  }
  if (!c.expect.status.includes(response.status))
    problems.push(`HTTP ${response.status}, expected ${c.expect.status.join('/')}: ${response.body.slice(0, 200)}`);
  if (response.status >= 500 || /"code":-32603/.test(response.body)) problems.push('internal error');
  leaks.push(...answerLeaks(response, c.expect.status));
  if (then && 'tool' in then && response.status === 200) {
    const sessionId = response.headers['mcp-session-id'] as string;
    const session = () => ({ ...bearer(forge(c.recipe, env)), 'Mcp-Session-Id': sessionId, 'Mcp-Protocol-Version': '2025-06-18' });
    await raw(env.port, { headers: session(), body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    const answer = await sendRequest(env, session(), 'tools/call', JSON.stringify({ name: then.tool, arguments: then.args }));
    if (answer.status >= 500 || answer.error?.code === -32603) problems.push('internal error in the forwarded session');
    if (answer.text.toLowerCase().includes(SECRET_MARK)) leaks.push('forwarded session shows hidden text');
    if (then.expect === 'refused' && !isRefusal(answer)) leaks.push(`forwarded ${then.tool} was not refused: ${answer.text.slice(0, 300)}`);
  }
  if (!(then && 'sessionOfKey' in then)) await runModernForwardCase(c, env, problems, leaks);
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}

/** The `_meta` envelope of a stateless 2026-07-28 request (SEP-2575). */
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'forwarder', version: '1' },
};

/**
 * The same case in the 2026-07-28 era: the forged assertion on one stateless tools/call (the
 * case's own tool, else list_notes), which must get the status the session era gets at
 * initialize; a replayed assertion is refused on its second use, and a forwarded call that must
 * be refused is. Problems and leaks are added to the case's lists.
 */
async function runModernForwardCase(c: ForwardCase, env: SecurityEnv, problems: string[], leaks: string[]): Promise<void> {
  const then = c.then && 'tool' in c.then ? c.then : null;
  const tool = then?.tool ?? 'list_notes';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'fw-modern',
    method: 'tools/call',
    params: { name: tool, arguments: then?.args ?? {}, _meta: MODERN_META },
  });
  const headers = (token: string): Record<string, string> => ({
    ...bearer(token),
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': tool,
  });
  const token = forge(c.recipe, env);
  let response = await raw(env.port, { headers: headers(token), body });
  if (c.replay) {
    if (response.status !== 200) problems.push(`2026-07-28: the first use was refused (HTTP ${response.status})`);
    response = await raw(env.port, { headers: headers(token), body });
  }
  if (!c.expect.status.includes(response.status))
    problems.push(`2026-07-28: HTTP ${response.status}, expected ${c.expect.status.join('/')}: ${response.body.slice(0, 200)}`);
  if (response.status >= 500 || /"code":-32603/.test(response.body)) problems.push('2026-07-28: internal error');
  leaks.push(...answerLeaks(response, c.expect.status).map((leak) => `2026-07-28: ${leak}`));
  if (then?.expect === 'refused' && response.status === 200 && !isRefusal(rpcAnswer(response)))
    leaks.push(`2026-07-28: forwarded ${tool} was not refused: ${response.body.slice(0, 300)}`);
}

/** Runs one {@link ForeignCase}: the call is refused, and the listener got no key token and no tool arguments. */
export async function runForeignCase(c: ForeignCase, env: SecurityEnv): Promise<CaseOutcome> {
  const before = env.peers.received.length;
  const body = JSON.stringify({ jsonrpc: '2.0', id: `fg-${c.id}`, method: 'tools/call', params: { name: c.tool, arguments: c.args } });
  const answer = rpcAnswer(await raw(env.port, { headers: env.session, body }));
  const problems: string[] = [];
  const leaks: string[] = [];
  if (answer.status >= 500 || answer.error?.code === -32603) problems.push('internal error');
  if (!isRefusal(answer)) problems.push(`not refused: ${answer.text.slice(0, 300)}`);
  if (answer.text.toLowerCase().includes(SECRET_MARK)) leaks.push('answer shows hidden text');
  const tokens = Object.values(env.tokens);
  for (const request of env.peers.received.slice(before)) {
    const seen = `${JSON.stringify(request.headers)}\n${request.body}`;
    for (const token of tokens) if (seen.includes(token)) leaks.push(`${request.handle} received a key token of this vault`);
    const authorization = request.headers.authorization;
    if (authorization !== undefined && !authorization.startsWith('Bearer vmcpfwd.'))
      leaks.push(`${request.handle} received Authorization ${authorization.slice(0, 40)}`);
    if (/"tools\/call"/.test(request.body) || request.body.includes('pwned') || request.body.includes('Plain.md'))
      leaks.push(`${request.handle} received the tool call's arguments (${request.body.slice(0, 120)})`);
  }
  return { family: c.family, id: c.id, asExpected: problems.length === 0 && leaks.length === 0, problems, leaks };
}
