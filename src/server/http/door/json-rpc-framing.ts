import { isJSONRPCRequest, isSpecType, type RequestId } from '@modelcontextprotocol/server';
import { inputExcerpt } from '../../../errors';

/** A POST body refused before the SDK transport sees it: JSON-RPC -32600 (JSON-RPC 2.0 §5.1). */
export interface FramingRefusal {
  /** The id to answer with: the request's own id when there is exactly one, else null (§5). */
  id: RequestId | null;
  message: string;
}

/** JSON-RPC 2.0's code for "The JSON sent is not a valid Request object". */
export const INVALID_REQUEST = -32600;

const SHAPE =
  'it needs jsonrpc "2.0" and either a method (string), an optional id (string or integer) and params (object) or a result/error with an id';

/** True for what MCP's schema takes as a request id or progress token: a string or a safe integer. */
function isIdValue(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** A value that is no id as an error shows it: a number, boolean or null as written, an object or array by its kind (never serialized: it may nest 100k deep). */
function shownValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value !== null && typeof value === 'object' ? 'an object' : String(value);
}

/**
 * What is wrong with a message the spec's JSONRPCMessage type refuses, naming the field when it
 * is an id or a progress token (a 1.5, a number past 2^53, an object or null), else the shape a
 * message needs ({@link SHAPE}).
 */
function messageProblem(message: unknown): string {
  const m =
    message !== null && typeof message === 'object'
      ? (message as { id?: unknown; params?: { _meta?: { progressToken?: unknown } } })
      : null;
  if (m !== null && 'id' in m && !isIdValue(m.id))
    return `its id ${shownValue(m.id)} is neither a string nor an integer (at most 2^53 - 1)`;
  const meta = m?.params?._meta;
  if (meta !== null && typeof meta === 'object' && 'progressToken' in meta && !isIdValue(meta.progressToken))
    return `its params._meta.progressToken ${shownValue(meta.progressToken)} is neither a string nor an integer`;
  return SHAPE;
}

/**
 * Most messages in one batch. MCP clients send one message per POST (MCP 2025-06-18 dropped
 * batching); a bigger batch only queues work the client cannot pace (a batch bomb).
 */
export const MAX_BATCH_MESSAGES = 100;

/**
 * The id an error about `body` answers with (JSON-RPC 2.0 §5: null only when the id cannot be
 * detected): the id of a single message (not a batch) that is an object whose `id` is a string or
 * a safe integer, however wrong the rest of it is; else null.
 */
export function readableId(body: unknown): RequestId | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('id' in body)) return null;
  const { id } = body;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}

/** A request id as a map key: 1 and "1" are different ids (JSON-RPC 2.0 §4). */
function idKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

/** The ids of the requests (not notifications or responses) in a parsed POST body. */
export function requestIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((message) => isJSONRPCRequest(message)).map((request) => request.id);
}

/**
 * Checks a parsed POST body is one JSON-RPC 2.0 message or a non-empty batch of them
 * (JSON-RPC 2.0 §4 and §6; the message shapes are the MCP SDK's `JSONRPCMessage` spec type),
 * at most {@link MAX_BATCH_MESSAGES} of them, with no request id used twice in a batch (answers are routed by id, so a repeated id
 * would cross them), and no object holding more than {@link MAX_OBJECT_KEYS} keys (checked first, before the SDK's schemas run).
 * @returns a refusal naming the first problem in one sentence, or null when the body is well framed.
 */
export function checkFraming(body: unknown): FramingRefusal | null {
  const wide = widestObject(body);
  if (wide !== null) {
    return {
      id: readableId(body),
      message: `Invalid Request: an object in the body has ${wide.keys} keys (at ${inputExcerpt(wide.path)}); send at most ${MAX_OBJECT_KEYS} keys in any one object.`,
    };
  }
  if (Array.isArray(body) && body.length === 0) {
    return { id: null, message: 'Invalid Request: the batch is empty; send one JSON-RPC message or a non-empty array of them.' };
  }
  const batch = Array.isArray(body);
  if (batch && body.length > MAX_BATCH_MESSAGES) {
    return { id: null, message: `Invalid Request: the batch has ${body.length} messages; send at most ${MAX_BATCH_MESSAGES} per request.` };
  }
  const messages: unknown[] = batch ? body : [body];
  const seen = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const where = batch ? `message ${index + 1} of the batch` : 'the body';
    if (!isSpecType.JSONRPCMessage(message)) {
      return { id: readableId(body), message: `Invalid Request: ${where} is not a JSON-RPC 2.0 message; ${messageProblem(message)}.` };
    }
    if (!isJSONRPCRequest(message)) continue;
    const key = idKey(message.id);
    if (seen.has(key)) {
      return {
        id: null,
        message: `Invalid Request: the batch uses request id ${JSON.stringify(message.id)} twice; give each request its own id.`,
      };
    }
    seen.add(key);
  }
  return null;
}

/**
 * Most keys of any one object in a POST body. The SDK checks each message against its schemas
 * with zod, several times on the way, and an object of many keys costs each check time in
 * proportion: 200,000 keys in `params._meta` (2.7 MB, under the body cap) held the server for
 * 3 s, every session's requests waiting behind it. MCP's objects (`_meta`, capabilities, a
 * tool's arguments, a note's properties) hold a few keys; arrays are not limited (they cost no
 * such time).
 */
export const MAX_OBJECT_KEYS = 1000;

/**
 * The first object in `body` (itself included) with more than {@link MAX_OBJECT_KEYS} keys, and
 * where it is (`params._meta`, `[2].params.arguments`), walked without recursion (a body may nest
 * deeper than the stack allows).
 * @returns its key count and path; null when every object is within the limit.
 */
function widestObject(body: unknown): { keys: number; path: string } | null {
  const stack: Array<[unknown, string]> = [[body, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        if (value[i] !== null && typeof value[i] === 'object') stack.push([value[i], `${path}[${i}]`]);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > MAX_OBJECT_KEYS) return { keys: keys.length, path: path === '' ? 'the top' : path };
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (value as Record<string, unknown>)[keys[i]];
      if (child !== null && typeof child === 'object') stack.push([child, path === '' ? keys[i] : `${path}.${keys[i]}`]);
    }
  }
  return null;
}

/**
 * The request ids of one session whose answers are still owed. The SDK transport routes an
 * answer by its request id, so a second request reusing an id in flight would receive the
 * first one's answer and leave the first unanswered; such a request is refused instead. Each id
 * keeps how to close the stream its answer was to come on, for `notifications/cancelled`.
 */
export class InFlightIds {
  private readonly ids = new Map<string, () => void>();

  /**
   * Claims `ids` for one POST when none is in flight.
   * @param close closes that POST's answer stream (called by {@link cancel}).
   * @returns the first id already in flight (nothing claimed), or undefined when all were claimed.
   */
  claim(ids: readonly RequestId[], close: () => void = () => undefined): RequestId | undefined {
    const taken = ids.find((id) => this.ids.has(idKey(id)));
    if (taken !== undefined) return taken;
    for (const id of ids) this.ids.set(idKey(id), close);
    return undefined;
  }

  /** Frees `ids` once their POST's answer stream has closed (answered or abandoned by the client). */
  release(ids: readonly RequestId[]): void {
    for (const id of ids) this.ids.delete(idKey(id));
  }

  /**
   * The client cancelled request `id` (MCP spec "Cancellation"): the SDK then never answers it,
   * so its stream is closed here rather than left open until the client disconnects.
   * @returns true when the id was in flight.
   */
  cancel(id: RequestId): boolean {
    const close = this.ids.get(idKey(id));
    if (!close) return false;
    this.ids.delete(idKey(id));
    close();
    return true;
  }
}

/** The request ids a POST body cancels (`notifications/cancelled` with a string or number `requestId`). */
export function cancelledIdsOf(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const m = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown } } | null;
    if (!m || m.method !== 'notifications/cancelled' || m.id !== undefined) return [];
    const id = m.params?.requestId;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}
