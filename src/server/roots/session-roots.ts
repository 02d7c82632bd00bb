import { ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { parseRoots, type IgnoredRoot, type PathRules } from './client-roots';
import { clusterPrefix } from '../../vault/content/text/graphemes';

/** How long a tool call waits for the client's `roots/list` answer, ms; then it runs with the fallback (see {@link SessionRoots}). */
export const ROOTS_WAIT_MS = 3000;
/**
 * How long one `roots/list` request stays open, ms: far longer than a call waits, so the SDK does
 * not cancel it (notifications/cancelled) after {@link ROOTS_WAIT_MS} and a late answer still arrives.
 */
export const ROOTS_REQUEST_TIMEOUT_MS = 60_000;

/** What the session knows of the client's roots (MCP spec 2025-06-18, "Roots"). */
export type ClientRootsState =
  /** The client did not declare the `roots` capability. */
  | { status: 'unsupported' }
  /** The client declared it but answered an error (-32601 included) or not in time. */
  | { status: 'unanswered'; reason: string }
  /**
   * The client's answer: usable absolute paths and the entries ignored. `previous` is set while a
   * newer round (after `notifications/roots/list_changed`) is unanswered and these are the roots
   * of the last answer, still applied.
   */
  | { status: 'listed'; paths: string[]; ignored: IgnoredRoot[]; previous?: true };

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
 * than the last change unless the client is slow. The first answer of the current round wins;
 * answers of superseded rounds are dropped. -32601, an answer without a `roots` array, or an
 * error of the call's own request (its {@link ROOTS_REQUEST_TIMEOUT_MS} timeout included) settle
 * the round as `unanswered` (the key's access applies). When no answer comes within the wait
 * (`waitMs`), the call runs with the roots the client answered last (marked `previous`) or,
 * before any answer, as `unanswered` (the key's access); the request stays open, and a list or
 * definitive error that comes later for that round applies from the next call on.
 */
export class SessionRoots {
  private state: ClientRootsState;
  private generation = 0;
  private pending: Pending | null = null;
  /** The round whose wait ended unanswered and whose late answer still applies, or null. */
  private late: number | null = null;
  /**
   * Called after the roots the session applies changed (an answer, a late one included, or a wait
   * that ran out), so that what the session was told can be judged again (session-content.ts).
   */
  onChange: (() => void) | null = null;

  /**
   * @param rules how root URIs become paths on this machine.
   * @param initial the state before any round.
   * @param waitMs how long {@link current} waits for an open round, ms.
   */
  constructor(
    private readonly rules: PathRules,
    initial: ClientRootsState = { status: 'unsupported' },
    private readonly waitMs: number = ROOTS_WAIT_MS,
  ) {
    this.state = initial;
  }

  /** Starts a new round, asking with `request` (the standalone stream); the previous round is superseded. */
  refresh(request: RootsRequest): void {
    const previous = this.pending;
    let finish = (): void => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.pending = { generation: ++this.generation, done, finish, askedFromCall: false };
    this.late = null;
    previous?.finish();
    this.ask(request, this.generation, false);
  }

  /**
   * The roots a call must use: waits up to `waitMs` for the open round, if any, asking once with
   * `requestFromCall` (related to the calling request).
   */
  async current(requestFromCall: RootsRequest): Promise<ClientRootsState> {
    while (this.pending) {
      const pending = this.pending;
      if (!pending.askedFromCall) {
        pending.askedFromCall = true;
        this.ask(requestFromCall, pending.generation, true);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.waitMs)));
      await Promise.race([pending.done, waited]);
      clearTimeout(timer);
      if (this.pending === pending) this.endWait(pending);
    }
    return this.state;
  }

  /** The state now, without waiting (for reports). */
  get known(): ClientRootsState {
    return this.state;
  }

  private ask(request: RootsRequest, generation: number, final: boolean): void {
    request().then(
      (result) => {
        const roots = (result as { roots?: unknown } | null | undefined)?.roots;
        if (!Array.isArray(roots))
          this.settle(generation, { status: 'unanswered', reason: 'the client answered roots/list without a roots array' });
        else this.settle(generation, { status: 'listed', ...parseRoots(roots, this.rules) });
      },
      (error: unknown) => {
        const code = (error as { code?: unknown })?.code;
        if (code === ProtocolErrorCode.MethodNotFound)
          this.settle(generation, { status: 'unanswered', reason: 'the client answered roots/list with -32601 (method not found)' });
        else if (final)
          this.settle(generation, { status: 'unanswered', reason: `the client did not answer roots/list (${describe(error)})` });
      },
    );
  }

  /** Ends the wait for round `pending` unanswered: the last listed roots stay (as `previous`), else `unanswered`. */
  private endWait(pending: Pending): void {
    const last = this.state;
    this.state =
      last.status === 'listed'
        ? { ...last, previous: true }
        : { status: 'unanswered', reason: `the client did not answer roots/list within ${this.waitMs} ms` };
    this.pending = null;
    this.late = pending.generation;
    pending.finish();
    this.onChange?.();
  }

  /**
   * Records the answer of round `generation` if it is still the current one: while the round is
   * open, or after it ended without a list (the wait ran out, or an error settled it): then a late
   * list applies to later calls, and nothing after that list widens them again.
   */
  private settle(generation: number, state: ClientRootsState): void {
    if (generation !== this.generation) return;
    const pending = this.pending;
    if (!pending) {
      if (this.late === generation) {
        this.state = state;
        if (state.status === 'listed') this.late = null;
        this.onChange?.();
      }
      return;
    }
    this.state = state;
    this.pending = null;
    this.late = state.status === 'unanswered' ? generation : null;
    pending.finish();
    this.onChange?.();
  }
}

/** A short reason from an error: the SDK's request timeout in words, else its message. */
function describe(error: unknown): string {
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout) return `no answer within ${ROOTS_REQUEST_TIMEOUT_MS} ms`;
  const message = error instanceof Error ? error.message : String(error);
  return clusterPrefix(message, 200);
}
