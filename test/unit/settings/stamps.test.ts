import { laterTime, nextStamp, readableStamp, stampMs } from '../../../src/settings/stamps';

const T = '2026-12-06T10:00:00.000Z';
const T_MS = Date.parse(T);

describe("stampMs: one reading of a stamp, with the caller's fallback", () => {
  it('reads text times and gives the fallback for anything else', () => {
    expect(stampMs(T, 0)).toBe(T_MS);
    for (const bad of [undefined, null, 0, 1e15, {}, [], true, '', 'yesterday', '2026-13-45T99:00:00Z']) {
      expect(stampMs(bad, 0)).toBe(0);
      expect(stampMs(bad, -Infinity)).toBe(-Infinity);
      expect(stampMs(bad, NaN)).toBeNaN();
    }
  });

  it('readableStamp keeps only text that reads as a time', () => {
    expect(readableStamp(T)).toBe(T);
    expect(readableStamp('yesterday')).toBeUndefined();
    expect(readableStamp(T_MS)).toBeUndefined();
  });
});

describe('nextStamp: a change made here beats the stamp it replaces', () => {
  it('is now when the stamp replaced is older, missing or unreadable', () => {
    expect(nextStamp('2026-01-01T00:00:00.000Z', T_MS)).toBe(T);
    for (const none of [undefined, null, 'yesterday', 0, {}]) expect(nextStamp(none, T_MS)).toBe(T);
  });

  it('is 1 ms after a stamp dated later than now (a device whose clock runs ahead) or the same millisecond', () => {
    const ahead = new Date(T_MS + 86_400_000).toISOString();
    expect(nextStamp(ahead, T_MS)).toBe(new Date(T_MS + 86_400_001).toISOString());
    expect(nextStamp(T, T_MS)).toBe(new Date(T_MS + 1).toISOString());
  });
});

describe('laterTime', () => {
  it('keeps the later of two stamps; a missing or unreadable one is the oldest; the first on a tie', () => {
    const later = new Date(T_MS + 1).toISOString();
    expect(laterTime(T, later)).toBe(later);
    expect(laterTime(later, T)).toBe(later);
    expect(laterTime(undefined, T)).toBe(T);
    expect(laterTime(T, undefined)).toBe(T);
    expect(laterTime('yesterday', T)).toBe(T);
    expect(laterTime(T, 'yesterday')).toBe(T);
    expect(laterTime(T, new Date(T_MS).toISOString())).toBe(T);
  });
});
