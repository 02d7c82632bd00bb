import type { IncomingMessage } from 'node:http';
import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type RequestId,
} from '@modelcontextprotocol/server';
import { quoteInput } from '../../../errors';
import { checkDoorHeaders } from './door';
import { MCP_PATH } from '../endpoint';
import { checkFraming, INVALID_REQUEST } from './json-rpc-framing';
import { BodyNotUtf8Error, BodyTooLargeError, declaredBodyTooLarge, readBody } from './request-body';
import type { Refusal } from './refusal';
import type { Session } from '../session-table';

/**
 * The checks made from the request line and headers alone, before the key is looked at
 * (docs/architecture.md#request-path, in its order): the path, a stop under way (503), Host and
 * Origin, the method, and a declared body over the limit (413).
 * @param stopping true while the server drains for a stop.
 * @param maxBodyBytes the body limit from settings.
 * @returns the first refusal, or null when the request may go on to authentication.
 */
export function checkBeforeAuth(req: IncomingMessage, url: URL, stopping: boolean, maxBodyBytes: number): Refusal | null {
  if (url.pathname !== MCP_PATH) return { status: 404, code: -32000, message: `Not found: the MCP endpoint is ${MCP_PATH}.` };
  if (stopping) {
    return {
      status: 503,
      code: -32000,
      message: 'Vault MCP is stopping (the plugin was disabled or its port changed); reconnect once it is enabled again.',
      headers: { Connection: 'close' },
    };
  }
  const door = checkDoorHeaders(req);
  if (door) return door;
  if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
    return {
      status: 405,
      code: -32000,
      message: 'Method not allowed: use POST, GET or DELETE on /mcp.',
      headers: { Allow: 'GET, POST, DELETE' },
    };
  }
  const tooLarge = req.method === 'POST' ? declaredBodyTooLarge(req, maxBodyBytes) : null;
  return tooLarge ? { status: 413, code: -32000, message: tooLarge.message } : null;
}

/** A POST whose Content-Type is not JSON (MCP "Streamable HTTP": the body is a JSON-RPC message): 415, as the SDK's transport answers it in a session. */
const NOT_JSON: Refusal = {
  status: 415,
  code: -32000,
  message: 'Unsupported Media Type: Content-Type must be application/json; send the JSON-RPC message with Content-Type: application/json.',
};

/** True when a Content-Type header names JSON (`application/json`, parameters such as charset allowed). */
function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && header.split(';')[0].trim().toLowerCase() === 'application/json';
}

/**
 * Reads a POST's body (up to `maxBodyBytes`) and checks it is JSON framed as JSON-RPC 2.0
 * (json-rpc-framing.ts); GET and DELETE have none. A POST whose Content-Type is not JSON is
 * refused before its body is read, on every route, with or without a session (the stateless
 * route read the body first and answered 400 for one that was no JSON-RPC message: newcomer finding).
 * @returns the parsed body (undefined without one), or the refusal: 415, 413, 400 -32700 (not
 *   UTF-8, or not JSON), 400 -32600.
 * @throws the socket's error when reading fails for another reason.
 */
export async function readJsonRpcBody(req: IncomingMessage, maxBodyBytes: number): Promise<{ body: unknown } | { refusal: Refusal }> {
  if (req.method !== 'POST') return { body: undefined };
  if (!isJsonContentType(req.headers['content-type'])) return { refusal: NOT_JSON };
  let text: string;
  try {
    text = await readBody(req, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { refusal: { status: 413, code: -32000, message: error.message } };
    if (error instanceof BodyNotUtf8Error) return { refusal: { status: 400, code: -32700, message: error.message } };
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // RFC 8259 §8.1: a sender must not add a byte order mark; JSON.parse refuses one, so the answer names it.
    const why = text.startsWith('\uFEFF') ? ': it starts with a byte order mark (U+FEFF); send the JSON without it' : '';
    return { refusal: { status: 400, code: -32700, message: `Parse error: the request body is not valid JSON${why}.` } };
  }
  const framing = checkFraming(body);
  return framing ? { refusal: { status: 400, code: INVALID_REQUEST, message: framing.message, id: framing.id } } : { body };
}

/**
 * The checks of a request in an open session: it must come with the key that opened it (403),
 * and an `MCP-Protocol-Version` header must name the revision the session negotiated (400; MCP
 * spec 2025-06-18, "Transports" → Protocol Version Header).
 * @returns the refusal, or null when the session may serve it.
 */
export function checkSessionRequest(session: Session, keyId: string, req: IncomingMessage): Refusal | null {
  if (session.keyId !== keyId)
    return { status: 403, code: -32000, message: 'This session was opened with another key; initialize a new session.' };
  const negotiated = session.protocolVersion;
  const named = req.headers['mcp-protocol-version'];
  if (negotiated !== undefined && typeof named === 'string' && named !== negotiated) {
    return {
      status: 400,
      code: -32000,
      message: `Bad request: this session negotiated protocol ${negotiated}; send MCP-Protocol-Version: ${negotiated} (or initialize a new session for another revision).`,
    };
  }
  return null;
}

/**
 * The protocol revision an `initialize` in `body` opens its session at (MCP spec "Lifecycle" →
 * Version Negotiation): the client's own when the SDK supports it, else the SDK's latest, as the
 * SDK answers it.
 */
export function negotiatedVersionOf(body: unknown): string {
  const messages = Array.isArray(body) ? body : [body];
  const requested = (messages.find((m) => isInitializeRequest(m)) as { params?: { protocolVersion?: unknown } } | undefined)?.params
    ?.protocolVersion;
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * The revisions the SDK's stateless handler (createMcpHandler) serves. The SDK keeps this list to
 * itself (its SUPPORTED_MODERN_PROTOCOL_VERSIONS is not exported); a test compares it with the
 * `supported` list of the SDK's own -32022 answer, so an SDK that speaks another revision fails it.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/**
 * The refusal of a request without a session whose `MCP-Protocol-Version` header names a revision
 * this server does not speak (MCP 2025-06-18 "Transports" → Protocol Version Header: 400 for an
 * unsupported revision; code -32022, UnsupportedProtocolVersion, as the SDK answers it). Without it
 * such a request reached the stateless handler, which answered that a `_meta` envelope was missing.
 * Its `data` is `{supported, requested}` as SEP-2575 asks, `supported` the revisions server/discover lists.
 * @param named the header's value as sent; `id` the request's own id (readableId).
 * @returns the refusal, or null when the header names a revision this server speaks.
 */
export function unknownRevisionRefusal(named: string, id: RequestId | null): Refusal | null {
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(named) || MODERN_PROTOCOL_VERSIONS.includes(named)) return null;
  return {
    status: 400,
    code: ProtocolErrorCode.UnsupportedProtocolVersion,
    message:
      `Unsupported protocol version: MCP-Protocol-Version names ${quoteInput(named)}, a revision this server does not speak. ` +
      `It speaks ${MODERN_PROTOCOL_VERSIONS.join(', ')} (each request carries its _meta envelope) and ` +
      `${SUPPORTED_PROTOCOL_VERSIONS.join(', ')} (send initialize first to open a session).`,
    id,
    // As the SDK's own -32022 names them: the stateless revisions, which server/discover lists (SEP-2575).
    data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested: named },
  };
}
