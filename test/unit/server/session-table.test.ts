import { MAX_SESSIONS, SESSION_IDLE_MS, SessionTable, type Session } from '../../../src/server/http/session-table';

/** A session whose transport and server only count their closes. */
function fakeSession(keyId: string, lastSeen: number): Session & { closes: number } {
  const session = {
    closes: 0,
    keyId,
    lastSeen,
    protocolVersion: '2025-06-18',
    inFlight: {} as Session['inFlight'],
    transport: { close: async () => void session.closes++ } as unknown as Session['transport'],
    server: { close: async () => undefined } as unknown as Session['server'],
  };
  return session;
}

describe('SessionTable: why it closed a session', () => {
  it('remembers sessions it closed for room or idleness, per key, and forgets the oldest past its bound', async () => {
    const table = new SessionTable();
    for (let i = 0; i <= MAX_SESSIONS; i++) table.add(`s${i}`, fakeSession(i === 0 ? 'quiet' : 'busy', i === 1 ? 0 : 10 + i));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(table.size).toBe(MAX_SESSIONS);
    // The busiest key's least recently used session made room: s1 (lastSeen 0), not the other key's s0.
    expect(table.closedReason('s1', 'busy')).toBe('room');
    expect(table.closedReason('s1', 'quiet')).toBeUndefined();
    expect(table.closedReason('s0', 'quiet')).toBeUndefined();
    table.closeIdle(SESSION_IDLE_MS + 13);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(table.closedReason('s0', 'quiet')).toBe('idle');
    expect(table.closedReason('s2', 'busy')).toBe('idle');
    expect(table.closedReason('s3', 'busy')).toBeUndefined();
    // A session the client closed itself (DELETE) has no reason of the table's.
    table.forget('s3');
    expect(table.closedReason('s3', 'busy')).toBeUndefined();
    table.closeIdle(Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < 300; i++) table.add(`n${i}`, fakeSession('busy', 1));
    table.closeIdle(Number.MAX_SAFE_INTEGER);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(table.closedReason('s0', 'quiet')).toBeUndefined();
    expect(table.closedReason('n299', 'busy')).toBe('idle');
  });
});
