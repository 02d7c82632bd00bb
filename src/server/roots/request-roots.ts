import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { parseRoots, type PathRules } from './client-roots';
import { SessionRoots, ROOTS_REQUEST_TIMEOUT_MS, type ClientRootsState } from './session-roots';
import * as z from 'zod';

/** The key under which a 2026-07-28 request's `inputResponses` carry the client's `roots/list` answer. */
export const ROOTS_INPUT_KEY = 'roots';

/** Thrown by {@link ClientRootsSource.forCall} when the request must first ask the client for its roots (an input-required result). */
export class RootsNeeded extends Error {
  constructor() {
    super('The client must answer roots/list before this request runs.');
    this.name = 'RootsNeeded';
  }
}

/** The input-required result (MCP 2026-07-28, "Multi round-trip requests") that asks the client for its roots, to retry the request with. */
export function rootsInputRequired(): InputRequiredResult {
  return inputRequired({ inputRequests: { [ROOTS_INPUT_KEY]: inputRequired.listRoots() } });
}

/**
 * Where one server learns the client's MCP roots (MCP spec "Roots"), by protocol era: a session
 * asks `roots/list` and keeps the answer ({@link SessionRoots}); a 2026-07-28 request carries
 * everything itself (its `_meta` envelope says whether the client has roots; a retried request
 * carries the `roots/list` answer in `inputResponses`).
 */
export interface ClientRootsSource {
  /**
   * The roots one request must use.
   * @param ctx the SDK's context of the request.
   * @param canAsk true where a 2026-07-28 request may be answered input-required to ask (only
   *   tools/call does: resources/read and prompts/get run with the key's own access, so that a
   *   client that declares roots but reads a resource in one exchange is served); without it a
   *   request whose roots are unknown runs as `unanswered` (the key's own access).
   * @throws RootsNeeded when a 2026-07-28 request must ask the client first ({@link rootsInputRequired}).
   */
  forCall(ctx: ServerContext, canAsk: boolean): Promise<ClientRootsState>;
  /** The roots known now, without waiting or asking (vault change events). */
  readonly known: ClientRootsState;
}

/** A `roots/list` result read loosely: each root is judged on its own (client-roots.ts), not the whole answer at once; a missing `roots` is judged by SessionRoots. */
const LooseRootsResult = z.looseObject({ roots: z.unknown().optional() });

/** The roots of a session of the session era: asked on the call's own stream while a round is open (see {@link SessionRoots}). */
export function sessionRootsSource(roots: SessionRoots): ClientRootsSource {
  return {
    forCall: (ctx) =>
      roots.current(() => ctx.mcpReq.send({ method: 'roots/list' }, LooseRootsResult, { timeout: ROOTS_REQUEST_TIMEOUT_MS })),
    get known() {
      return roots.known;
    },
  };
}

/**
 * Asks the session's client for its roots (a new round of {@link SessionRoots}) on the session's
 * standalone stream; for `notifications/initialized` and `notifications/roots/list_changed`.
 */
export function askSessionRoots(roots: SessionRoots, request: (result: typeof LooseRootsResult) => Promise<unknown>): void {
  roots.refresh(() => request(LooseRootsResult) as Promise<{ roots?: unknown }>);
}

/** True when a 2026-07-28 request's envelope declares the client's `roots` capability. */
function declaresRoots(ctx: ServerContext): boolean {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { roots?: unknown } | undefined;
  return typeof capabilities === 'object' && capabilities !== null && capabilities.roots !== undefined;
}

/**
 * The roots of 2026-07-28 requests (no session): a client that declares no `roots` capability
 * has none; one that does is asked with an input-required result on the first round of a call
 * that may ask, and its answer comes back in the retried request's `inputResponses`. Nothing is
 * kept between requests.
 * @param rules how root URIs become paths on this machine.
 */
export function requestRootsSource(rules: PathRules): ClientRootsSource {
  return {
    forCall: async (ctx, canAsk) => {
      if (!declaresRoots(ctx)) return { status: 'unsupported' };
      const answer = inputResponse(ctx.mcpReq.inputResponses, ROOTS_INPUT_KEY);
      if (answer.kind === 'roots') return { status: 'listed', ...parseRoots(answer.roots, rules) };
      if (canAsk) throw new RootsNeeded();
      return { status: 'unanswered', reason: 'in protocol 2026-07-28 only tools/call asks the client for its roots' };
    },
    known: { status: 'unsupported' },
  };
}

/**
 * Wraps a handler of a method that may answer input-required (tools/call): when the request must first ask the client for its roots ({@link RootsNeeded}),
 * the answer is the input-required result that asks (MCP 2026-07-28).
 */
export function askingRoots<A extends unknown[], R>(
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R | ReturnType<typeof rootsInputRequired>> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof RootsNeeded) return rootsInputRequired();
      throw error;
    }
  };
}
