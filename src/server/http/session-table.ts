import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpSessionServer } from '../session/mcp-session';
import type { InFlightIds } from './door/json-rpc-framing';

/** A session unused this long (ms) is closed; its client gets 404 and re-initializes. */
export const SESSION_IDLE_MS = 60 * 60 * 1000;
/** Most open sessions; opening one more closes the least recently used. */
export const MAX_SESSIONS = 64;

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
 * least recently used), each closed after {@link SESSION_IDLE_MS} unused or when its key is revoked.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();

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

  /** Records a session the SDK just opened; closes the least recently used one past {@link MAX_SESSIONS}. */
  add(id: string, session: Session): void {
    this.sessions.set(id, session);
    if (this.sessions.size > MAX_SESSIONS) void this.close(this.leastRecentlyUsed());
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
    for (const [id, session] of this.sessions) if (now - session.lastSeen > SESSION_IDLE_MS) void this.close(id);
  }

  /** Closes the sessions opened with a key not in `liveKeyIds`. */
  async closeUnlessKey(liveKeyIds: ReadonlySet<string>): Promise<void> {
    for (const [id, session] of [...this.sessions]) if (!liveKeyIds.has(session.keyId)) await this.close(id);
  }

  /** Runs `send` for every open session's server (a notification to all), ignoring failures. */
  async broadcast(send: (server: McpSessionServer) => Promise<void>): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => send(s.server).catch(() => undefined)));
  }

  private leastRecentlyUsed(): string {
    let oldest: [string, number] = ['', Infinity];
    for (const [id, session] of this.sessions) if (session.lastSeen < oldest[1]) oldest = [id, session.lastSeen];
    return oldest[0];
  }
}
