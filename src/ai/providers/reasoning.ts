/**
 * Removes reasoning ("thinking") text that some models put inline in the answer: DeepSeek-R1,
 * Qwen3 and similar models served by Ollama, LM Studio or vLLM wrap it in `<think>…</think>`.
 * Handles every complete block, a leading answer whose opening tag was part of the chat
 * template (only `…</think>` present), and an unterminated `<think>` (answer cut off while
 * still thinking, which leaves no answer).
 * @param text the raw assistant content
 * @returns the answer without reasoning, trimmed
 */
export function stripThinkBlocks(text: string): string {
  let out = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const strayClose = out.search(/<\/think>/i);
  if (strayClose !== -1 && !/<think>/i.test(out.slice(0, strayClose))) {
    out = out.slice(strayClose + '</think>'.length);
  }
  const open = out.search(/<think>/i);
  if (open !== -1) out = out.slice(0, open);
  return out.trim();
}
