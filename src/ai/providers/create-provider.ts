import type { ChatProvider, ProviderConfig } from '../types';
import { AnthropicProvider } from './anthropic';
import { OpenAiCompatibleProvider } from './openai-compatible';

/**
 * Builds the adapter for a gated provider config.
 * @param config output of `resolveProviderConfig` (gates.ts)
 * @returns a fresh provider; it holds per-model quirks it learns, so callers cache it
 */
export function createProvider(config: ProviderConfig): ChatProvider {
  return config.type === 'anthropic' ? new AnthropicProvider(config) : new OpenAiCompatibleProvider(config);
}
