import { AI_PROVIDER_SETTINGS, AiError } from './ai-error';
import { normalizeBaseUrl, parseHttpUrl } from './providers/base-url';
import { classifyBaseUrl } from './providers/classify';
import { examplePreset } from './providers/presets';
import type { AiSettings, ProviderConfig } from './types';

/**
 * The privacy and completeness gates every AI call passes, in order:
 * 1. `ai.enabled` off → `aiDisabled`;
 * 2. a remote provider (Anthropic always; OpenAI-compatible unless its base URL is loopback,
 *    see classify.ts) while `ai.allowRemote` is off → `aiRemoteNotAllowed`;
 * 3. incomplete settings → `aiNotConfigured` naming the field: base URL (empty, not http(s), or
 *    carrying credentials that belong in the key field), model, or API key (required for remote providers; a local one is sent if set).
 * @param settings the `ai` settings block
 * @param apiKey the key from SecretStorage (`vault-mcp-ai-api-key`), or null
 * @returns the config to build the provider from (base URL normalized, key trimmed or null)
 * @throws AiError with the first failing gate's code and a message naming the fix
 */
export function resolveProviderConfig(settings: AiSettings, apiKey: string | null): ProviderConfig {
  if (!settings.enabled) {
    throw new AiError('aiDisabled', `AI is turned off in Vault MCP; turn on "Enable AI" in ${AI_PROVIDER_SETTINGS}.`);
  }
  const rawUrl = (settings.baseUrl ?? '').trim();
  const url = parseHttpUrl(rawUrl);
  const isAnthropic = settings.provider === 'anthropic';
  const classification = isAnthropic ? 'remote' : url ? classifyBaseUrl(rawUrl) : null;
  if (classification === 'remote' && !settings.allowRemote) {
    const what = isAnthropic ? 'Anthropic' : `the server at ${url!.host}`;
    throw new AiError(
      'aiRemoteNotAllowed',
      `The AI provider (${what}) is not on this computer and remote providers are not allowed; turn on "Allow remote providers" in ${AI_PROVIDER_SETTINGS} or use a server on this computer such as Ollama (http://localhost:11434/v1).`,
    );
  }
  if (rawUrl === '') {
    throw new AiError(
      'aiNotConfigured',
      `The AI provider's base URL is empty; enter it in ${AI_PROVIDER_SETTINGS} (for example ${exampleUrl(settings)}).`,
    );
  }
  if (!url) {
    throw new AiError(
      'aiNotConfigured',
      `The AI provider's base URL "${rawUrl}" is not an http:// or https:// URL; enter one in ${AI_PROVIDER_SETTINGS} (for example ${exampleUrl(settings)}).`,
    );
  }
  if (url.username || url.password) {
    throw new AiError(
      'aiNotConfigured',
      `The AI provider's base URL contains a user name or password; remove it and put the key in the API key field in ${AI_PROVIDER_SETTINGS}.`,
    );
  }
  const model = (settings.model ?? '').trim();
  if (model === '') {
    throw new AiError(
      'aiNotConfigured',
      `No AI model is set; enter the model name in ${AI_PROVIDER_SETTINGS} (for example ${exampleModel(settings)}).`,
    );
  }
  const key = apiKey?.trim() || null;
  if (classification === 'remote' && key === null) {
    throw new AiError(
      'aiNotConfigured',
      `The API key is missing; remote AI providers need one, so add it in ${AI_PROVIDER_SETTINGS} (a server on your own network that needs none accepts any placeholder).`,
    );
  }
  return { type: settings.provider, baseUrl: normalizeBaseUrl(rawUrl), model, apiKey: key, classification: classification! };
}

function exampleUrl(settings: AiSettings): string {
  return examplePreset(settings.provider).baseUrl;
}

function exampleModel(settings: AiSettings): string {
  return examplePreset(settings.provider).exampleModel;
}
