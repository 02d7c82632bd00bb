import type { IncomingMessage } from 'node:http';

/** Thrown by {@link readBody} when the body exceeds the limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes; send smaller requests (split large writes).`);
    this.name = 'BodyTooLargeError';
  }
}

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
 * @throws BodyTooLargeError when the body is too large.
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
      resolve(Buffer.concat(chunks).toString('utf8'));
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
