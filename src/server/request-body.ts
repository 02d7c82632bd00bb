import type { IncomingMessage } from 'node:http';

/** Thrown by {@link readBody} when the body exceeds the limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes; send smaller requests (split large writes).`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * Reads a request body as UTF-8 text, refusing more than `limitBytes` bytes (checked
 * against Content-Length first, then while streaming).
 * @throws BodyTooLargeError when the body is too large; the stream is drained, not parsed.
 */
export async function readBody(req: IncomingMessage, limitBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume();
    throw new BodyTooLargeError(limitBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limitBytes) tooLarge = true;
    if (!tooLarge) chunks.push(buffer);
  }
  if (tooLarge) throw new BodyTooLargeError(limitBytes);
  return Buffer.concat(chunks).toString('utf8');
}
