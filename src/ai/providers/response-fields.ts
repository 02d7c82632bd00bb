/** Readers for fields of provider responses that differ between wire formats. */
import type { ChatFinishReason } from '../types';

/**
 * Maps a provider's stop reason to the stable `ChatFinishReason`.
 * OpenAI chat completions `finish_reason`: stop | length | content_filter | tool_calls.
 * Anthropic Messages `stop_reason`: end_turn | stop_sequence | max_tokens | refusal | tool_use | pause_turn.
 * @param raw the provider's value
 * @returns the mapped reason, or undefined when the provider gave none
 */
export function mapFinishReason(raw: unknown): ChatFinishReason | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  switch (raw) {
    case 'stop':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'length':
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'content_filter':
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}

/**
 * Reads a token count the provider may omit or garble.
 * @param value the raw field
 * @returns a non-negative integer; missing or invalid counts are 0
 */
export function tokenCount(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
