import { requestUrl } from 'obsidian';
import { AiError } from '../ai-error';
import { clusterPrefix } from '../../vault/content/graphemes';

/** A provider's HTTP answer: status, lower-cased headers, raw body and the body parsed as JSON. */
export interface ProviderResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when the body is empty or not JSON. */
  json: unknown;
}

/** How long a provider may take to answer one request, ms (local models on a CPU are slow). */
export const PROVIDER_TIMEOUT_MS = 120_000;

/**
 * POSTs a JSON body with Obsidian's `requestUrl` (no CORS limits, so Ollama and Anthropic
 * work from the app; Obsidian API `requestUrl`). `throw: false` is always passed so every
 * status comes back for the caller to map.
 * @param url full endpoint URL
 * @param headers extra request headers (auth, version); content type is set here
 * @param body JSON-serializable request body
 * @param timeoutMs how long to wait for the answer; `requestUrl` cannot be cancelled, so a
 *   late answer is dropped rather than the request aborted
 * @returns the response; never throws for an HTTP status
 * @throws AiError `aiHttpError` (no status) when the server cannot be reached at all or does
 *   not answer within `timeoutMs`
 */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs = PROVIDER_TIMEOUT_MS,
): Promise<ProviderResponse> {
  let res;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`)),
      timeoutMs,
    );
  });
  try {
    const request = requestUrl({
      url,
      method: 'POST',
      contentType: 'application/json',
      headers,
      body: JSON.stringify(body),
      throw: false,
    });
    res = await Promise.race([request, timeout]);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new AiError(
      'aiHttpError',
      `Could not reach the AI provider at ${url} (${reason}); check that the server is running and the base URL is right.`,
    );
  } finally {
    clearTimeout(timer);
  }
  const lowered: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers ?? {})) lowered[k.toLowerCase()] = v;
  const text = typeof res.text === 'string' ? res.text : '';
  return { status: res.status, headers: lowered, text, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The provider's own explanation of an error, from its error body. */
export interface ProviderErrorDetail {
  /** Human-readable message (possibly a snippet of a non-JSON body); '' when none. */
  message: string;
  /** The offending request parameter when the provider names it (OpenAI `error.param`). */
  param?: string;
  /** Provider error code or type (OpenAI `error.code`, Anthropic `error.type`). */
  code?: string;
}

/** Longest snippet of a non-JSON error body quoted in a message, in chars. */
const SNIPPET_CHARS = 200;

/**
 * Extracts the provider's error explanation from a response body. Understands OpenAI
 * (`{error: {message, param, code, type}}`), Anthropic (`{type: 'error', error: {type, message}}`)
 * and Ollama / LM Studio (`{error: "text"}`); otherwise quotes the start of the body.
 * @param res a provider response
 */
export function providerErrorDetail(res: ProviderResponse): ProviderErrorDetail {
  const body = res.json;
  if (body && typeof body === 'object') {
    const error = (body as Record<string, unknown>).error;
    if (typeof error === 'string') return { message: error };
    if (error && typeof error === 'object') {
      const e = error as Record<string, unknown>;
      return {
        message: typeof e.message === 'string' ? e.message : '',
        param: typeof e.param === 'string' ? e.param : undefined,
        code: typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : undefined,
      };
    }
    const message = (body as Record<string, unknown>).message;
    if (typeof message === 'string') return { message };
  }
  const text = res.text.trim().replace(/\s+/g, ' ');
  return { message: text.length > SNIPPET_CHARS ? `${clusterPrefix(text, SNIPPET_CHARS)}…` : text };
}

/** What an HTTP error message needs to know about the call. */
export interface HttpErrorContext {
  /** Provider name for messages, e.g. "OpenAI-compatible server". */
  providerLabel: string;
  /** The endpoint that answered. */
  url: string;
  model: string;
  /** Extra advice for a 404 (e.g. "add /v1 to the base URL"), or '' for the default advice. */
  notFoundHint: string;
}

/**
 * Maps a non-2xx provider answer to an `aiHttpError` whose message names the likely fix:
 * 401/403 → API key, 404 → model name or base URL, 429 → rate limit / quota, 5xx → provider
 * server, other 4xx → the provider refused the request.
 * @param res the response (status ≥ 300)
 * @param ctx call context used in the message
 * @returns the error to throw (status set)
 */
export function httpError(res: ProviderResponse, ctx: HttpErrorContext): AiError {
  const { status } = res;
  const detail = providerErrorDetail(res).message;
  const said = detail ? `: ${detail}` : '';
  const where = `${ctx.providerLabel} (HTTP ${status}${said})`;
  let advice: string;
  if (status === 401 || status === 403) {
    advice = `The API key was rejected by the ${where}; check the API key in Settings → Vault MCP → AI provider.`;
  } else if (status === 404) {
    const hint = ctx.notFoundHint || `check the model name '${ctx.model}' and the base URL in Settings → Vault MCP → AI provider`;
    advice = `Not found at ${ctx.url} by the ${where}; ${hint}.`;
  } else if (status === 429) {
    const retry = res.headers['retry-after'];
    const wait = retry ? `wait ${retry} s` : 'wait a moment';
    advice = `Rate limit or quota reached at the ${where}; ${wait} and try again, or check your plan's limits.`;
  } else if (status >= 500) {
    advice = `The ${where} failed on its side; try again later or check the server's logs.`;
  } else {
    advice = `The ${where} refused the request; check the model '${ctx.model}' and the base URL in Settings → Vault MCP → AI provider.`;
  }
  return new AiError('aiHttpError', advice, status);
}

/**
 * Which parameter a 400 answer says the model does not accept, so the caller can retry
 * without it: `temperature` when the error names temperature; `max_tokens` when it names
 * `max_tokens` or says "unsupported parameter" (OpenAI reasoning models: "Unsupported parameter:
 * 'max_tokens' … Use 'max_completion_tokens' instead").
 * @param res the provider's answer
 * @param sent which of the two parameters the request carried
 * @returns the rejected parameter, or null when the answer is something else
 */
export function rejectedParameter(
  res: ProviderResponse,
  sent: { temperature: boolean; maxTokens: boolean },
): 'temperature' | 'max_tokens' | null {
  if (res.status !== 400) return null;
  const d = providerErrorDetail(res);
  const text = `${d.param ?? ''} ${d.code ?? ''} ${d.message}`.toLowerCase();
  if (sent.temperature && /\btemperature\b/.test(text)) return 'temperature';
  if (sent.maxTokens && (/\bmax_tokens\b/.test(text) || /unsupported[ _]parameter/.test(text))) return 'max_tokens';
  return null;
}
