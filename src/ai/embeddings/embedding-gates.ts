import { AI_PROVIDER_SETTINGS, AiError } from '../ai-error';
import { resolveProviderConfig } from '../gates';
import { examplePreset } from '../providers/presets';
import type { AiSettings, ProviderConfig } from '../types';

/**
 * The gates of an embeddings call: AI enabled; a provider type with an embeddings endpoint
 * (Anthropic's Messages API has none); the chat gates of gates.ts (remote allowed, base URL,
 * key); an embedding model. The chat model
 * is not required.
 * @param settings the `ai` settings block
 * @param apiKey the key from SecretStorage, or null
 * @returns the provider config with `model` set to the embedding model
 * @throws AiError `aiDisabled` | `aiRemoteNotAllowed` | `aiNotConfigured` (no embeddings endpoint,
 *   no embedding model, or what gates.ts reports for the base URL and key)
 */
export function resolveEmbeddingConfig(settings: AiSettings, apiKey: string | null): ProviderConfig {
  const embeddingModel = (settings.embeddingModel ?? '').trim();
  if (settings.enabled && settings.provider === 'anthropic') {
    throw new AiError(
      'aiNotConfigured',
      `Anthropic has no embeddings endpoint, so semantic search is unavailable with it; choose an OpenAI-compatible provider (e.g. Ollama with nomic-embed-text) in ${AI_PROVIDER_SETTINGS}.`,
    );
  }
  // The chat gates run before the model check so that "remote not allowed" wins over it.
  const config = resolveProviderConfig({ ...settings, model: embeddingModel || 'embedding-model' }, apiKey);
  if (embeddingModel === '') {
    throw new AiError(
      'aiNotConfigured',
      `No embedding model is set; enter one in "Embedding model" in ${AI_PROVIDER_SETTINGS} (for example ${examplePreset(config.type).exampleEmbeddingModel}).`,
    );
  }
  return config;
}
