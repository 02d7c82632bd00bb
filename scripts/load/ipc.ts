/** The messages between `npm run test:load` (parent) and its server child (load-server.ts). */

/** Child → parent: the server listens (port, bearer token, every note path); a memory sample (bytes). */
export type ServerMessage =
  { type: 'ready'; port: number; token: string; paths: string[] } | { type: 'memory'; heapUsed: number; rss: number };

/** Parent → child: sample memory after GC; stop the plugin and exit. */
export type ParentMessage = { type: 'memory' } | { type: 'stop' };
