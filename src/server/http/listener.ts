import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { answerClientError, refuse } from './door/refusal';

/**
 * How long a client may take to send a request's headers, ms: a loopback client sends them at
 * once, so a connection still sending headers after this is a slow-headers attack (slowloris)
 * and is closed with 408 (Node's `headersTimeout`).
 */
export const HEADERS_TIMEOUT_MS = 5000;
/** How long a client may take to send a whole request, body included, ms (Node's `requestTimeout`; 4 MiB on loopback takes milliseconds). */
export const REQUEST_TIMEOUT_MS = 30000;
/** Largest request head accepted, bytes (Node's `maxHeaderSize`); more gets 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The `node:http` listener on 127.0.0.1 and its lifetime: the slow-client and head-size limits
 * above, JSON answers to what Node's parser refuses, a 500 for a handler that throws (its stack
 * to the console), and a stop that frees the port at once and lets tracked answers finish.
 */
export class LoopbackListener {
  private http: HttpServer | null = null;
  /** Answers not finished yet; {@link close} waits for them. */
  private readonly answering = new Set<ServerResponse>();

  /** @param handle serves one request (its rejections become 500). */
  constructor(private readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {}

  /** True while listening. */
  get listening(): boolean {
    return this.http !== null;
  }

  /**
   * Listens on 127.0.0.1:`port` (0 = any free port).
   * @returns the bound port.
   * @throws Error naming the port when it is taken (EADDRINUSE) or cannot be bound.
   */
  async listen(port: number): Promise<number> {
    const limits = {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
      connectionsCheckingInterval: 1000,
      // A request without Host is refused by the door (door.ts) with a JSON body saying what to send; Node's own refusal has none.
      requireHostHeader: false,
    };
    const http = createServer(limits, (req, res) => {
      this.handle(req, res).catch((error) => {
        console.error('[vault-mcp] request failed', error);
        refuse(res, { status: 500, code: -32603, message: 'Internal server error; the details are in the Obsidian developer console.' });
      });
    });
    http.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, MAX_HEADER_BYTES));
    try {
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, '127.0.0.1', () => {
          http.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        code === 'EADDRINUSE'
          ? `Port ${port} is already in use; pick another port in Vault MCP settings.`
          : `Could not listen on 127.0.0.1:${port}: ${(error as Error).message}`,
      );
    }
    this.http = http;
    return (http.address() as { port: number }).port;
  }

  /** Counts `res` among the answers {@link close} waits for, until it is finished or its connection closes. */
  track(res: ServerResponse): void {
    this.answering.add(res);
    res.once('close', () => this.answering.delete(res));
  }

  /**
   * Stops listening at once (the port is free when this returns), closing idle connections.
   * @returns `drained` (resolves when no tracked answer is left, or after `graceMs`) and
   *   `closed` (call to cut every connection left; resolves when the server is closed).
   */
  close(graceMs: number): { drained: Promise<void>; closed: () => Promise<void> } {
    const http = this.http;
    this.http = null;
    if (!http) return { drained: Promise.resolve(), closed: async () => undefined };
    const done = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeIdleConnections();
    return {
      drained: this.drained(graceMs),
      closed: async () => {
        http.closeAllConnections();
        await done;
      },
    };
  }

  /** Resolves when no tracked answer is left, or after `limitMs`. */
  private async drained(limitMs: number): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (this.answering.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
