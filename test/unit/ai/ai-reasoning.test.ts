import { stripThinkBlocks } from '../../../src/ai/providers/reasoning';
import { mapFinishReason, tokenCount } from '../../../src/ai/providers/response-fields';

describe('stripThinkBlocks', () => {
  test.each([
    ['<think>\nThe user wants OK.\n</think>\n\nOK', 'OK'],
    ['<THINK>plan</THINK>Answer', 'Answer'],
    ['First <think>a</think>part, <think>b</think>second part', 'First part, second part'],
    ['reasoning whose opening tag was in the template\n</think>\nOK', 'OK'],
    ['<think>cut off while still thinking', ''],
    ['Answer then <think>trailing unterminated', 'Answer then'],
    ['Plain answer with no tags', 'Plain answer with no tags'],
    ['  padded  ', 'padded'],
    ['', ''],
  ])('%j → %j', (raw, answer) => expect(stripThinkBlocks(raw)).toBe(answer));
});

describe('response fields', () => {
  test.each([
    ['stop', 'stop'],
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['length', 'length'],
    ['max_tokens', 'length'],
    ['content_filter', 'content_filter'],
    ['refusal', 'content_filter'],
    ['tool_calls', 'other'],
    ['tool_use', 'other'],
  ])('finish reason %s → %s', (raw, mapped) => expect(mapFinishReason(raw)).toBe(mapped));

  test('no finish reason stays undefined', () => {
    expect(mapFinishReason(undefined)).toBeUndefined();
    expect(mapFinishReason(null)).toBeUndefined();
    expect(mapFinishReason('')).toBeUndefined();
  });

  test('token counts: missing or invalid are 0', () => {
    expect(tokenCount(12)).toBe(12);
    expect(tokenCount(undefined)).toBe(0);
    expect(tokenCount(null)).toBe(0);
    expect(tokenCount('12')).toBe(0);
    expect(tokenCount(-3)).toBe(0);
    expect(tokenCount(Number.NaN)).toBe(0);
  });
});
