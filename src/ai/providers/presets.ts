import type { AiProviderType } from '../types';

/** A well-known provider the settings tab offers to fill in (base URL and provider type). */
export interface AiProviderPreset {
  /** Shown in the dropdown. */
  label: string;
  provider: AiProviderType;
  /** Base URL to put in `ai.baseUrl` (OpenAI-compatible ones end in /v1). */
  baseUrl: string;
  /** A model name to show as placeholder, not a default the plugin sends. */
  exampleModel: string;
  /** An embedding model that provider serves on `/embeddings`; '' when it has no embeddings endpoint. */
  exampleEmbeddingModel: string;
}

/**
 * Base URLs of the providers named in the design (docs/architecture.md#ai-provider): default ports of
 * Ollama (11434), LM Studio (1234) and vLLM (8000) on this computer, and the public endpoints
 * of OpenAI, OpenRouter and Anthropic.
 */
export const AI_PROVIDER_PRESETS: readonly AiProviderPreset[] = Object.freeze([
  {
    label: 'Ollama (this computer)',
    provider: 'openai-compatible',
    baseUrl: 'http://localhost:11434/v1',
    exampleModel: 'llama3.2',
    exampleEmbeddingModel: 'nomic-embed-text',
  },
  {
    label: 'LM Studio (this computer)',
    provider: 'openai-compatible',
    baseUrl: 'http://localhost:1234/v1',
    exampleModel: 'qwen2.5-7b-instruct',
    exampleEmbeddingModel: 'text-embedding-nomic-embed-text-v1.5',
  },
  {
    label: 'vLLM (this computer)',
    provider: 'openai-compatible',
    baseUrl: 'http://localhost:8000/v1',
    exampleModel: 'Qwen/Qwen2.5-7B-Instruct',
    exampleEmbeddingModel: 'BAAI/bge-small-en-v1.5',
  },
  {
    label: 'OpenAI',
    provider: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    exampleModel: 'gpt-4o-mini',
    exampleEmbeddingModel: 'text-embedding-3-small',
  },
  {
    label: 'OpenRouter',
    provider: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    exampleModel: 'openai/gpt-4o-mini',
    exampleEmbeddingModel: 'openai/text-embedding-3-small',
  },
  {
    label: 'Anthropic',
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    exampleModel: 'claude-sonnet-4-5',
    exampleEmbeddingModel: '',
  },
] satisfies AiProviderPreset[]);

/**
 * The preset used for examples in messages and placeholders for a provider type.
 * @param provider the provider type
 * @returns Ollama's preset for `openai-compatible`, Anthropic's for `anthropic`
 */
export function examplePreset(provider: AiProviderType): AiProviderPreset {
  return AI_PROVIDER_PRESETS.find((p) => p.provider === provider)!;
}
