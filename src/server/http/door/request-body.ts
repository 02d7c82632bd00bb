import type { IncomingMessage } from 'node:http';

/** Thrown by {@link readBody} when the body exceeds the limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes; send smaller requests (split large writes).`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Thrown by {@link readBody} when the body's bytes are not UTF-8: JSON exchanged between systems
 * must be UTF-8 (RFC 8259 §8.1), and decoding them anyway would put U+FFFD into a note's text or name.
 */
export class BodyNotUtf8Error extends Error {
  constructor() {
    super('Parse error: the request body is not UTF-8 text; send JSON encoded as UTF-8 (RFC 8259 §8.1).');
    this.name = 'BodyNotUtf8Error';
  }
}

/** Decodes a body: bytes that are not UTF-8 throw; a leading BOM is kept (JSON.parse then refuses it, as before). */
const bodyDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Judges a request's body size from its headers alone (nothing is read).
 * @returns a BodyTooLargeError when `Content-Length` declares more than `limitBytes` bytes, else null.
 */
export function declaredBodyTooLarge(req: IncomingMessage, limitBytes: number): BodyTooLargeError | null {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limitBytes ? new BodyTooLargeError(limitBytes) : null;
}

/**
 * Reads a request body as UTF-8 text, refusing more than `limitBytes` bytes (checked
 * against Content-Length first, then while streaming). Reading stops at the first chunk past
 * the limit; the server discards the rest, up to a bound, before it answers ({@link discardRestOfBody}).
 * @throws BodyTooLargeError when the body is too large; BodyNotUtf8Error when its bytes are not
 *   UTF-8 (whatever charset the Content-Type names: MCP's JSON is UTF-8).
 */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = declaredBodyTooLarge(req, limitBytes);
  if (declared) return Promise.reject(declared);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limitBytes) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(new BodyTooLargeError(limitBytes));
    };
    const onEnd = (): void => {
      stop();
      try {
        resolve(bodyDecoder.decode(Buffer.concat(chunks)));
      } catch {
        reject(new BodyNotUtf8Error());
      }
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Reads and discards what is left of a refused request's body, so its answer reaches the client:
 * a server that answers and closes while the client is still sending makes the client's write fail
 * (EPIPE, a reset), and an HTTP client such as fetch then reports "fetch failed", never the answer
 * (a newcomer's 4.5 MB create_note got the 413's advice in half the tries, session 43). Bounded:
 * it gives up after `maxBytes` more bytes or `maxMs`, leaving the answer to close the connection.
 * @param maxBytes bytes discarded at most. @param maxMs ms waited at most.
 * @returns once the body has ended, or a bound was reached, or the request failed.
 */
export function discardRestOfBody(req: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let size = 0;
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('error', done);
      req.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        done();
      }
    };
    const timer = setTimeout(() => {
      req.pause();
      done();
    }, maxMs);
    req.on('data', onData);
    req.on('end', done);
    req.on('error', done);
    req.on('close', done);
    req.resume();
  });
}
