/**
 * A small OpenAI-compatible embeddings server for the bench: `POST /v1/embeddings` with
 * `{model, input}` (a string or an array of strings) answers `{object: "list", data: [{object:
 * "embedding", index, embedding}], model, usage}` as OpenAI does, errors in OpenAI's
 * `{error: {message, type, param, code}}` shape. It listens on 127.0.0.1 only (port chosen by
 * the OS) and serves one model, whatever encoder it is given.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server: its base URL (ending in /v1) and how to stop it. */
export interface EmbeddingsServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** Largest request body accepted, bytes (a batch of chunks is far smaller). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

type Answer = { status: number; body: unknown };

function error(status: number, message: string, param: string | null = null, code: string | null = null): Answer {
  return { status, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

/**
 * The answer to one request (pure; exported for tests).
 * @param model the one model name served
 * @param encode text → vector
 */
export function answerEmbeddings(
  method: string,
  path: string,
  text: string,
  model: string,
  encode: (text: string) => ArrayLike<number>,
): Answer {
  const route = path.split('?')[0];
  if (method === 'GET' && route === '/v1/models')
    return { status: 200, body: { object: 'list', data: [{ id: model, object: 'model', owned_by: 'vault-mcp-bench' }] } };
  if (method !== 'POST' || route !== '/v1/embeddings')
    return error(404, `Unknown endpoint ${method} ${route}; this server serves POST /v1/embeddings and GET /v1/models.`);
  let body: { model?: unknown; input?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return error(400, 'We could not parse the JSON body of your request.');
  }
  if (body === null || typeof body !== 'object') return error(400, 'The request body must be a JSON object with model and input.');
  if (body.model !== model)
    return error(404, `The model \`${String(body.model)}\` does not exist; this server serves \`${model}\`.`, 'model', 'model_not_found');
  const texts = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
    return error(400, "'input' must be a string or a non-empty array of strings.", 'input');
  }
  let tokens = 0;
  const data = (texts as string[]).map((t, index) => {
    tokens += (t.match(/\S+/g) ?? []).length;
    return { object: 'embedding', index, embedding: Array.from(encode(t), (x) => Math.round(x * 1e6) / 1e6) };
  });
  return { status: 200, body: { object: 'list', data, model, usage: { prompt_tokens: tokens, total_tokens: tokens } } };
}

/**
 * Starts the server on 127.0.0.1.
 * @param model the model name clients must send
 * @param encode text → vector (same dimension for every text)
 */
export async function startEmbeddingsServer(model: string, encode: (text: string) => ArrayLike<number>): Promise<EmbeddingsServer> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      const answer =
        size > MAX_BODY_BYTES
          ? error(413, `The request body is over ${MAX_BODY_BYTES} bytes; send fewer inputs per request.`)
          : answerEmbeddings(req.method ?? '', req.url ?? '', Buffer.concat(chunks).toString('utf8'), model, encode);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
