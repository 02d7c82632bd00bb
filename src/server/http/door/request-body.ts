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
 * against Content-Length first, then while streaming). Reading stops at the first byte past
 * the limit: the rest is never read (the refusal closes the connection).
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
