/**
 * `node scripts/profile-first-answer.mjs [main.js] [--json]`: the 14k bench's first answer (issue
 * 20: "first answer 0.38 s"), taken apart. Boots the built main.js (default: this tree's; give
 * another tree's to compare) cold on the 14k PowerShell vault the bench unpacks, as the bench's
 * cold round does, and from the server listening times: each client message as sent and answered
 * (the SDK client's transport), each request at the server (`McpHttpServer.handle`, arrival and
 * end), the index's `search`, every build slice (Slicer.pause), and the process CPU over the
 * window. Then waits for the build and prints its time and longest slice. `--json` prints one
 * line of JSON instead (to sum many runs). Run it under `flock /tmp/bench100k.lock`; prints
 * figures, asserts nothing. Not part of `npm run bench`.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { benchConfigDir, type PluginClass } from '../bench/plugin-class';
import { unpackLargeVault } from '../bench/large-vault';

const LARGE_ARCHIVE = nodePath.resolve(__dirname, '../../shared/vaults/windows-powershell-docs.tar.zst');

/** What the window saw, ms since the server listened. */
interface Timeline {
  /** Client messages: method, sent, its send resolved (the answer, for a request). */
  sends: Array<[string, number, number]>;
  /** Server requests: HTTP method (`+s`: with a session id), arrival, end. */
  handles: Array<[string, number, number]>;
  /** SearchIndex.search calls: start, end, notes indexed at the start. */
  searches: Array<[number, number, number]>;
  /** Build slices: start, end (all of them, the window's filtered later). */
  slices: Array<[number, number]>;
}

const timeline: Timeline = { sends: [], handles: [], searches: [], slices: [] };
let origin = 0;
const now = (): number => performance.now() - origin;

/** A method as this probe wraps it. */
type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/** Wraps `owner[name]` (an async method) with `around(original, self, args)`. */
function wrap<T extends object>(
  owner: T,
  name: string,
  around: (original: Method, self: unknown, args: unknown[]) => Promise<unknown>,
): void {
  const methods = owner as Record<string, Method>;
  const original = methods[name];
  methods[name] = async function (this: unknown, ...args: unknown[]) {
    return around(original, this, args);
  };
}

/** Times the SDK client's messages (before boot: the client is made after it). */
function timeClient(): void {
  wrap(StreamableHTTPClientTransport.prototype, 'send', async (send, self, args) => {
    const message = args[0] as { method?: string };
    const entry: [string, number, number] = [message.method ?? 'response', now(), NaN];
    timeline.sends.push(entry);
    try {
      return await send.apply(self, args);
    } finally {
      entry[2] = now();
    }
  });
}

/** Times the server's requests, the index's searches and the build's slices, on the running plugin's own classes (main.js's). */
function timePlugin(plugin: unknown): void {
  const { server, search } = plugin as { server: object; search: { lifecycle: { slicer(): object } } };
  wrap(Object.getPrototypeOf(server) as object, 'handle', async (handle, self, args) => {
    const req = args[0] as { method?: string; headers: Record<string, unknown> };
    const entry: [string, number, number] = [`${req.method ?? '?'}${req.headers['mcp-session-id'] === undefined ? '' : '+s'}`, now(), NaN];
    timeline.handles.push(entry);
    try {
      return await handle.apply(self, args);
    } finally {
      entry[2] = now();
    }
  });
  wrap(Object.getPrototypeOf(search) as object, 'search', async (run, self, args) => {
    const entry: [number, number, number] = [now(), NaN, (self as { stats: { indexed: number } }).stats.indexed];
    timeline.searches.push(entry);
    try {
      return await run.apply(self, args);
    } finally {
      entry[1] = now();
    }
  });
  // A slice ends where pause yields: the slicer's start moved across the await.
  wrap(Object.getPrototypeOf(search.lifecycle.slicer()) as object, 'pause', async (pause, self, args) => {
    const slicer = self as { sliceStart: number; running: boolean };
    const [start, running, called] = [slicer.sliceStart, slicer.running, now()];
    await pause.apply(self, args);
    if (running && slicer.sliceStart !== start) timeline.slices.push([start - origin, called]);
  });
}

const round = (x: number): number => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  provideObsidianModule();
  timeClient();
  const json = process.argv.includes('--json');
  const mainJs = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? nodePath.resolve(__dirname, '../main.js');
  const Plugin = (require(nodePath.resolve(mainJs)) as { default: PluginClass }).default;
  const vault = await unpackLargeVault(LARGE_ARCHIVE, console.log);
  if (vault === null) return;
  const configDir = benchConfigDir();
  await fsp.rm(nodePath.join(vault, configDir), { recursive: true, force: true });
  const load = os.loadavg()[0];
  try {
    const booted = await bootPlugin(Plugin, { vaultPath: vault, waitForIndex: false, persistIndex: true, configDir });
    origin = performance.now();
    timePlugin(booted.plugin);
    const cpu0 = process.cpuUsage();
    const client = await connectClient(booted.url, booted.token);
    const first = (await client.callTool({ name: 'search', arguments: { query: 'Get-Process', limit: 10 } })) as {
      structuredContent?: { index?: { indexed: number } };
    };
    const answered = now();
    const cpu = process.cpuUsage(cpu0);
    const index = (
      booted.plugin as unknown as { search: { whenBuilt(): Promise<void>; stats: { buildMs: number | null; longestSliceMs: number } } }
    ).search;
    await index.whenBuilt();
    const slices = timeline.slices
      .filter(([s, e]) => e > 0 && s < answered)
      .map(([s, e]): [number, number] => [round(Math.max(s, 0)), round(e - s)]);
    const figures = {
      load: round(load),
      firstMs: round(answered),
      indexed: first.structuredContent?.index?.indexed ?? null,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      sends: timeline.sends.map(([m, s, e]) => [m, round(s), round(e)]),
      handles: timeline.handles.map(([m, s, e]) => [m, round(s), round(e)]),
      searches: timeline.searches.map(([s, e, n]) => [round(s), round(e), n]),
      slices,
      sliceSum: round(slices.reduce((sum, [, length]) => sum + length, 0)),
      buildMs: Math.round(index.stats.buildMs ?? NaN),
      longestSliceMs: round(index.stats.longestSliceMs),
    };
    if (json) console.log(JSON.stringify(figures));
    else {
      console.log(
        `first search answered ${figures.firstMs} ms after listening (${figures.indexed} notes indexed), ${figures.cpuMs} ms of CPU, load ${figures.load}`,
      );
      for (const [m, s, e] of figures.sends) console.log(`  client ${String(m).padEnd(26)} sent ${s}, done ${e}`);
      for (const [m, s, e] of figures.handles) console.log(`  server ${String(m).padEnd(26)} in ${s}, out ${e}`);
      for (const [s, e, n] of figures.searches) console.log(`  index search ${s}-${e} (${n} indexed)`);
      console.log(
        `  ${slices.length} build slices in the window, ${figures.sliceSum} ms: ${slices.map(([s, l]) => `${s}+${l}`).join(' ')}`,
      );
      console.log(`  cold build ${figures.buildMs} ms, longest slice ${figures.longestSliceMs} ms`);
    }
    await client.close();
    await booted.stop();
  } finally {
    await fsp.rm(nodePath.join(vault, configDir), { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
