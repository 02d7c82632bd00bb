/**
 * A scaling row's search client in a process of its own, as a user's MCP client (Claude Code,
 * Cursor) is a process apart from Obsidian's: the row's side (RemoteSearchClient forks
 * search-client.ts, bundled as build/search-client.cjs, and asks it for timed passes) and the
 * messages both sides exchange, checked on arrival. Timed from there, a search's time holds
 * none of the client's own work (request building, its first fetch, the SDK's validation of
 * each result, its garbage) on the server's thread and heap.
 */
import { fork, type ChildProcess } from 'node:child_process';

/**
 * Row → client: connect over HTTP (then `tools/list`, as a client does before its first call);
 * time `search` over each list (each query `runs` times, one call after another); close and exit.
 */
export type ClientRequest =
  { type: 'connect'; url: string; token: string } | { type: 'passes'; lists: string[][]; runs: number } | { type: 'close' };

/**
 * Client → row: its code loaded (sent once, unasked), connected (with the number of tools `tools/list`
 * gave), a pass's samples (ms, per list in its order), or why it failed.
 */
export type ClientReply =
  { type: 'started' } | { type: 'ready'; tools: number } | { type: 'samples'; samples: number[][] } | { type: 'error'; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Checks a request the client process received.
 * @returns it, typed
 * @throws Error naming what is wrong (not an object, unknown type, a missing or mistyped field, runs not a positive integer).
 */
export function checkRequest(message: unknown): ClientRequest {
  if (!isObject(message)) throw new Error(`search client: a request must be an object, got ${JSON.stringify(message)}`);
  if (message.type === 'connect' && typeof message.url === 'string' && typeof message.token === 'string')
    return { type: 'connect', url: message.url, token: message.token };
  if (
    message.type === 'passes' &&
    Array.isArray(message.lists) &&
    message.lists.every(isStringList) &&
    Number.isInteger(message.runs) &&
    (message.runs as number) > 0
  )
    return { type: 'passes', lists: message.lists as string[][], runs: message.runs as number };
  if (message.type === 'close') return { type: 'close' };
  throw new Error(`search client: not a request: ${JSON.stringify(message)}`);
}

/**
 * The message a client process sends once started.
 * @throws Error with the client's own message when it failed, or when the message is not `started`.
 */
export function checkStarted(reply: unknown): void {
  if (replyOf(reply).type !== 'started') throw new Error(`search client: expected "started", got ${JSON.stringify(reply)}`);
}

/**
 * The reply to `connect`.
 * @returns the number of tools the client's `tools/list` gave
 * @throws Error with the client's own message when it failed, or naming what is wrong when the reply is not a `ready` with a positive tool count.
 */
export function checkReady(reply: unknown): number {
  const ready = replyOf(reply);
  if (ready.type !== 'ready' || !Number.isInteger(ready.tools) || ready.tools < 1)
    throw new Error(`search client: expected "ready" with the tools listed, got ${JSON.stringify(reply)}`);
  return ready.tools;
}

/**
 * The reply to a `passes` request for `lists` at `runs` runs per query.
 * @returns per list its samples, ms, in the order they were timed
 * @throws Error with the client's own message when it failed, or naming what is wrong: not `samples`, a list missing,
 *   a count other than the list's queries × runs, a sample not a finite number ≥ 0 (never NaN figures in a row).
 */
export function checkSamples(reply: unknown, lists: string[][], runs: number): number[][] {
  const got = replyOf(reply);
  if (got.type !== 'samples' || !Array.isArray(got.samples) || got.samples.length !== lists.length)
    throw new Error(`search client: expected "samples" for ${lists.length} lists, got ${JSON.stringify(reply)}`);
  got.samples.forEach((samples, i) => {
    const want = lists[i].length * runs;
    if (!Array.isArray(samples) || samples.length !== want)
      throw new Error(
        `search client: list ${i} wants ${want} samples (${lists[i].length} queries × ${runs}), got ${JSON.stringify(samples)}`,
      );
    const bad = samples.find((ms) => typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0);
    if (bad !== undefined) throw new Error(`search client: list ${i} holds a sample that is not a time in ms: ${JSON.stringify(bad)}`);
  });
  return got.samples;
}

/** A reply's type and fields as sent; throws the client's own failure, or when the reply is not an object with a known type. */
function replyOf(reply: unknown): ClientReply {
  if (!isObject(reply) || !['started', 'ready', 'samples', 'error'].includes(reply.type as string))
    throw new Error(`search client: not a reply: ${JSON.stringify(reply)}`);
  if (reply.type === 'error') throw new Error(`search client failed: ${String(reply.message)}`);
  return reply as ClientReply;
}

/** How long close() waits for the client process to exit before killing it, ms. */
const CLOSE_WAIT_MS = 10_000;

/**
 * The client process of a row's timed searches: forked from `script` (build/search-client.cjs) with an IPC
 * channel, as a plain Node process (none of the row's flags; a profile script may give its own); its stderr is echoed here. Requests go one at
 * a time, each answered by the process's next message.
 */
export class RemoteSearchClient {
  private readonly child: ChildProcess;
  private readonly inbox: unknown[] = [];
  private waiting: { resolve(message: unknown): void; reject(error: Error): void } | null = null;
  private ended: string | null = null;
  private stderr = '';
  private readonly exited: Promise<void>;

  private constructor(script: string, execArgv: string[]) {
    this.child = fork(script, [], { execArgv, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.child.on('message', (message: unknown) => {
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting) waiting.resolve(message);
      else this.inbox.push(message);
    });
    this.exited = new Promise((resolve) => {
      const end = (how: string): void => {
        this.ended ??= how;
        this.waiting?.reject(this.endedError());
        this.waiting = null;
        resolve();
      };
      this.child.once('error', (error) => end(error.message));
      this.child.once('exit', (code, signal) => end(signal === null ? `code ${code}` : `signal ${signal}`));
    });
  }

  /**
   * Forks the client process from `script` and waits until it has loaded its code (its `started`); it then idles until connect().
   * @param execArgv the process's Node flags: none in a bench row (a profile script may pass `--cpu-prof`)
   * @throws Error when the process exits first (a missing script) or sends something else; the process is then gone.
   */
  static async start(script: string, execArgv: string[] = []): Promise<RemoteSearchClient> {
    const remote = new RemoteSearchClient(script, execArgv);
    try {
      checkStarted(await remote.next());
    } catch (error) {
      await remote.close();
      throw error;
    }
    return remote;
  }

  /**
   * Connects the client to the server at `url` with the bearer `token` and lists the tools.
   * @returns the number of tools listed
   * @throws Error when the client fails, replies out of protocol or exits.
   */
  async connect(url: string, token: string): Promise<number> {
    return checkReady(await this.ask({ type: 'connect', url, token }));
  }

  /**
   * Times `search` over each list in the client process, each query `runs` times in a row (timeRuns at the client).
   * @returns per list its samples, ms (checkSamples)
   * @throws Error when the client fails, replies out of protocol or exits.
   */
  async passes(lists: string[][], runs: number): Promise<number[][]> {
    return checkSamples(await this.ask({ type: 'passes', lists, runs }), lists, runs);
  }

  /** Asks the client to close its connection and exit; kills it when it has not exited after `waitMs` (ms). Never throws. */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    if (this.ended === null && this.child.connected) this.child.send({ type: 'close' } satisfies ClientRequest);
    const timer = setTimeout(() => this.child.kill(), waitMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Sends `request` and resolves with the process's next message. */
  private ask(request: ClientRequest): Promise<unknown> {
    if (this.inbox.length > 0) return Promise.reject(new Error(`search client: unexpected message ${JSON.stringify(this.inbox[0])}`));
    if (this.ended !== null || !this.child.connected) return Promise.reject(this.endedError());
    const reply = this.next();
    this.child.send(request);
    return reply;
  }

  /** The process's next message (the oldest one not yet read); rejects once the process has ended. */
  private next(): Promise<unknown> {
    if (this.inbox.length > 0) return Promise.resolve(this.inbox.shift());
    if (this.ended !== null) return Promise.reject(this.endedError());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  private endedError(): Error {
    const tail = this.stderr.trim().split('\n').at(-1);
    return new Error(`search client process ended (${this.ended ?? 'channel closed'})${tail ? `: ${tail}` : ''}`);
  }
}
