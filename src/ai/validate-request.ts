import { AiError } from './ai-error';
import type { ChatMessage, ChatOptions } from './types';

const ROLES = new Set(['system', 'user', 'assistant']);
const OPTION_KEYS = new Set(['temperature', 'maxTokens']);

/**
 * Checks what a caller (often another plugin, in plain JavaScript) passed to `chat()` and
 * returns clean copies: only `role` and `content` of each message, only the known options.
 * @param messages non-empty array of `{role: 'system'|'user'|'assistant', content: string}` with
 *   at least one user or assistant message
 * @param options undefined, or an object with only `temperature` (0–2) and `maxTokens` (positive integer)
 * @returns the validated copies
 * @throws AiError `aiInvalidRequest` naming the first bad item
 */
export function validateChatRequest(messages: unknown, options: unknown): { messages: ChatMessage[]; options: ChatOptions } {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalid('messages must be a non-empty array of {role, content} objects');
  }
  const clean: ChatMessage[] = messages.map((m: unknown, i) => {
    if (!m || typeof m !== 'object') throw invalid(`messages[${i}] must be an object {role, content}`);
    const { role, content } = m as Record<string, unknown>;
    if (typeof role !== 'string' || !ROLES.has(role)) {
      throw invalid(`messages[${i}].role must be "system", "user" or "assistant", not ${JSON.stringify(role)}`);
    }
    if (typeof content !== 'string') throw invalid(`messages[${i}].content must be a string`);
    return { role: role as ChatMessage['role'], content };
  });
  if (!clean.some((m) => m.role !== 'system')) {
    throw invalid('messages must contain at least one "user" message, not only "system" ones');
  }
  return { messages: clean, options: validateOptions(options) };
}

function validateOptions(options: unknown): ChatOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw invalid('options must be an object {temperature?, maxTokens?}');
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!OPTION_KEYS.has(key)) {
      throw invalid(`option "${key}" is not supported; only temperature and maxTokens are (the user chooses provider and model)`);
    }
  }
  const out: ChatOptions = {};
  if (o.temperature !== undefined) {
    if (typeof o.temperature !== 'number' || !Number.isFinite(o.temperature) || o.temperature < 0 || o.temperature > 2) {
      throw invalid('options.temperature must be a number from 0 to 2');
    }
    out.temperature = o.temperature;
  }
  if (o.maxTokens !== undefined) {
    if (typeof o.maxTokens !== 'number' || !Number.isInteger(o.maxTokens) || o.maxTokens < 1) {
      throw invalid('options.maxTokens must be a positive integer');
    }
    out.maxTokens = o.maxTokens;
  }
  return out;
}

function invalid(what: string): AiError {
  return new AiError('aiInvalidRequest', `Invalid chat() request: ${what}.`);
}
