import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseRoots, type IgnoredRoot, type PathRules } from './client-roots';

/** How long a tool call waits for the client's `roots/list` answer, ms; then the key's access applies. */
export const ROOTS_TIMEOUT_MS = 3000;

/** What the session knows of the client's roots (MCP spec 2025-06-18, "Roots"). */
export type ClientRootsState =
  /** The client did not declare the `roots` capability. */
  | { status: 'unsupported' }
  /** The client declared it but answered an error (-32601 included) or not in time. */
  | { status: 'unanswered'; reason: string }
  /** The client's answer: usable absolute paths and the entries ignored. */
  | { status: 'listed'; paths: string[]; ignored: IgnoredRoot[] };

/** Sends one `roots/list` request and resolves with the raw result (`{roots}`), or rejects. */
export type RootsRequest = () => Promise<{ roots?: unknown }>;

interface Pending {
  generation: number;
  done: Promise<void>;
  finish: () => void;
  askedFromCall: boolean;
}

/**
 * The client roots of one session. {@link refresh} starts a new round (after
 * `notifications/initialized` and on each `notifications/roots/list_changed`) by asking on the
 * session's standalone stream; {@link current} is what a tool call awaits: while a round is
 * open it also asks on the call's own response stream (the standalone stream may not be open
 * yet, and the SDK transport then drops the request), so a call never runs with roots older
 * than the last change, and never with broader access than the answer will give. The first
 * answer of the current round wins; answers of superseded rounds are dropped. -32601, an error,
 * or no answer within {@link ROOTS_TIMEOUT_MS} on the call's own request settle the round as
 * `unanswered` (the key's access applies); a list that still comes for that round afterwards
 * applies from the next call on.
 */
export class SessionRoots {
  private state: ClientRootsState;
  private generation = 0;
  private pending: Pending | null = null;

  /** @param rules how root URIs become paths on this machine. @param initial the state before any round. */
  constructor(
    private readonly rules: PathRules,
    initial: ClientRootsState = { status: 'unsupported' },
  ) {
    this.state = initial;
  }

  /** Starts a new round, asking with `request` (the standalone stream); the previous round is superseded. */
  refresh(request: RootsRequest): void {
    const previous = this.pending;
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending = { generation: ++this.generation, done, finish, askedFromCall: false };
    previous?.finish();
    this.ask(request, this.generation, false);
  }

  /**
   * The roots a call must use: waits for the open round, if any, asking once with
   * `requestFromCall` (related to the calling request).
   */
  async current(requestFromCall: RootsRequest): Promise<ClientRootsState> {
    while (this.pending) {
      const pending = this.pending;
      if (!pending.askedFromCall) {
        pending.askedFromCall = true;
        this.ask(requestFromCall, pending.generation, true);
      }
      await pending.done;
    }
    return this.state;
  }

  /** The state now, without waiting (for reports). */
  get known(): ClientRootsState {
    return this.state;
  }

  private ask(request: RootsRequest, generation: number, final: boolean): void {
    request().then(
      (result) => this.settle(generation, { status: 'listed', ...parseRoots(result?.roots, this.rules) }),
      (error: unknown) => {
        const code = (error as { code?: unknown })?.code;
        if (code === ErrorCode.MethodNotFound) this.settle(generation, { status: 'unanswered', reason: 'the client answered roots/list with -32601 (method not found)' });
        else if (final) this.settle(generation, { status: 'unanswered', reason: `the client did not answer roots/list (${describe(error)})` });
      },
    );
  }

  /**
   * Records the answer of round `generation` if it is still the current one. After the round
   * settled as `unanswered` (the wait ended), a late list still applies to later calls.
   */
  private settle(generation: number, state: ClientRootsState): void {
    if (generation !== this.generation) return;
    const pending = this.pending;
    if (!pending) {
      if (state.status === 'listed' && this.state.status === 'unanswered') this.state = state;
      return;
    }
    this.state = state;
    this.pending = null;
    pending.finish();
  }
}

/** A short reason from an error: its code when it has one (timeouts are -32001), else its message. */
function describe(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (code === ErrorCode.RequestTimeout) return `no answer within ${ROOTS_TIMEOUT_MS} ms`;
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 200);
}
