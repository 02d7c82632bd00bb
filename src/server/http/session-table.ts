import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpSessionServer } from '../session/mcp-session';
import type { InFlightIds } from './door/json-rpc-framing';

/** A session unused this long (ms) is closed; its client gets 404 and re-initializes. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/**
 * Most open sessions, all keys together; opening one more closes the least recently used session
 * of the key that holds the most ({@link SessionTable.add}).
 */
export const MAX_SESSIONS = 64;

/** Most closed sessions whose reason is remembered ({@link SessionTable.closedReason}). */
const REMEMBERED_CLOSES = 256;

/** Why the table closed a session: to make room for a newer one of its key, or after {@link SESSION_IDLE_MS} unused. */
export type SessionCloseReason = 'room' | 'idle';

/** One open session of the session era (protocol 2024-11-05 … 2025-11-25): its SDK transport and server, and who opened it. */
export interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpSessionServer;
  keyId: string;
  /** The protocol revision `initialize` negotiated (later requests must name it, if they name one). */
  protocolVersion: string;
  lastSeen: number;
  /** Request ids of this session whose answers are still owed. */
  inFlight: InFlightIds;
}

/**
 * The open sessions by `Mcp-Session-Id`: at most {@link MAX_SESSIONS} (opening one more closes the
 * least recently used session of the key holding the most, so a key opening many sessions closes
 * its own and never another key's client), each closed after {@link SESSION_IDLE_MS} unused or
 * when its key is revoked.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** The last {@link REMEMBERED_CLOSES} sessions the table closed itself: id → why, and the key that opened it. */
  private readonly closed = new Map<string, { reason: SessionCloseReason; keyId: string }>();

  /** Number of open sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** The session with this id, marked used now; undefined when none is open. */
  use(id: string, now: number): Session | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeen = now;
    return session;
  }

  /**
   * Records a session the SDK just opened; past {@link MAX_SESSIONS}, closes the least recently used
   * session of the key that holds the most sessions (of several such keys, the least recently used
   * session among theirs): any valid key could otherwise close every other client's session by
   * opening 64 of its own.
   */
  add(id: string, session: Session): void {
    this.sessions.set(id, session);
    if (this.sessions.size > MAX_SESSIONS) void this.closeFor(this.leastRecentlyUsedOfBusiestKey(), 'room');
  }

  /**
   * Why the table closed the session `id` opened with the key `keyId`, when it did so recently
   * (one of the last {@link REMEMBERED_CLOSES}); undefined for any other id or key, or a session
   * the client or a revoke closed. Its client is told (404) rather than "expired or restarted".
   */
  closedReason(id: string, keyId: string): SessionCloseReason | undefined {
    const closed = this.closed.get(id);
    return closed?.keyId === keyId ? closed.reason : undefined;
  }

  /** Forgets a session the SDK closed itself (DELETE). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes the session with this id (transport and server); nothing when none is open. */
  async close(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    for (const id of [...this.sessions.keys()]) await this.close(id);
  }

  /** Closes the sessions unused for more than {@link SESSION_IDLE_MS} at `now` (ms). */
  closeIdle(now: number): void {
    for (const [id, session] of this.sessions) if (now - session.lastSeen > SESSION_IDLE_MS) void this.closeFor(id, 'idle');
  }

  /** {@link close}, remembering why for {@link closedReason}. */
  private closeFor(id: string, reason: SessionCloseReason): Promise<void> {
    const session = this.sessions.get(id);
    if (session) {
      this.closed.set(id, { reason, keyId: session.keyId });
      if (this.closed.size > REMEMBERED_CLOSES) this.closed.delete(this.closed.keys().next().value as string);
    }
    return this.close(id);
  }

  /** Closes the sessions opened with a key not in `liveKeyIds`. */
  async closeUnlessKey(liveKeyIds: ReadonlySet<string>): Promise<void> {
    for (const [id, session] of [...this.sessions]) if (!liveKeyIds.has(session.keyId)) await this.close(id);
  }

  /** Runs `send` for every open session's server (a notification to all), ignoring failures. */
  async broadcast(send: (server: McpSessionServer) => Promise<void>): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => send(s.server).catch(() => undefined)));
  }

  private leastRecentlyUsedOfBusiestKey(): string {
    const counts = new Map<string, number>();
    for (const session of this.sessions.values()) counts.set(session.keyId, (counts.get(session.keyId) ?? 0) + 1);
    const most = Math.max(...counts.values());
    let oldest: [string, number] = ['', Infinity];
    for (const [id, session] of this.sessions)
      if (counts.get(session.keyId) === most && session.lastSeen < oldest[1]) oldest = [id, session.lastSeen];
    return oldest[0];
  }
}
