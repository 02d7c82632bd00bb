/**
 * Base URL parsing and normalization for AI providers. A base URL is the prefix the user
 * types in settings (e.g. `http://localhost:11434/v1`); adapters append the endpoint path.
 * Normalizing lets the provider cache and the usage counters treat `…/v1`, `…/v1/` and a
 * pasted `…/v1/chat/completions` as the same server.
 */

/**
 * Parses a base URL typed by the user.
 * @param raw the settings value (surrounding whitespace ignored)
 * @returns the WHATWG `URL` when it is an absolute http:// or https:// URL, else null
 */
export function parseHttpUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/**
 * Normalized form of a base URL: path without trailing slashes and without a pasted endpoint
 * suffix (`/chat/completions` for OpenAI-compatible servers, `/messages` for Anthropic);
 * query string kept, fragment dropped.
 * @param raw the settings value
 * @returns the normalized URL string, or the trimmed input unchanged when it is not an http(s) URL
 */
export function normalizeBaseUrl(raw: string): string {
  const url = parseHttpUrl(raw);
  if (!url) return raw.trim();
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/chat\/completions$/i, '').replace(/\/v1\/messages$/i, '/v1');
  path = path.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * Whether the normalized base URL's path ends in `/v1`, as OpenAI-compatible servers
 * (OpenAI, Ollama, LM Studio, OpenRouter `/api/v1`, vLLM) expect.
 * @param baseUrl a normalized base URL
 */
export function endsInV1(baseUrl: string): boolean {
  const url = parseHttpUrl(baseUrl);
  return url !== null && /\/v1$/i.test(url.pathname);
}

/**
 * Appends an endpoint path to a normalized base URL, keeping its query string
 * (some gateways put `?api-version=` there).
 * @param baseUrl a normalized base URL
 * @param endpoint path starting with `/`, e.g. `/chat/completions`
 */
export function joinEndpoint(baseUrl: string, endpoint: string): string {
  const url = parseHttpUrl(baseUrl);
  if (!url) return baseUrl + endpoint;
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}${endpoint}${url.search}`;
}

/**
 * The same base URL with `/v1` appended to its path, for the "add /v1" hint.
 * @param baseUrl a normalized base URL
 */
export function withV1(baseUrl: string): string {
  return joinEndpoint(baseUrl, '/v1');
}
