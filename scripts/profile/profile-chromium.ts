/**
 * `node scripts/profile-chromium.mjs [notes] [--only node|chromium] [--trace-gc]`: the same warm start and first
 * searches (runtime-probe.ts) in a Node process and in a headless Chromium page, side by side: the
 * engine's work on the V8 of the Node running this against the V8 of a Chromium renderer, which is
 * what runs the plugin inside Obsidian (its heap settings, its collector's scheduling, MessageChannel
 * yields). Uses the generated vault of `notes` notes (default 100k, from the bench's cache) and the
 * index profile-warm.mjs saved for it (run `node scripts/profile-warm.mjs <notes>` once first). A
 * loopback server hands both runtimes the same notes and index parts. Measures the engine only:
 * no host, no MCP, no result page (the bench's rows time those over HTTP). Lists each runtime's
 * longest warm-start slices with the garbage collections inside them: Node's always (perf_hooks),
 * Chromium's with --trace-gc (a DevTools trace of the page, which costs time of its own). Needs Debian's Chromium
 * at /usr/bin/chromium and the playwright-core devDependency. The page's bundle is
 * build/runtime-probe-page.js, which scripts/profile-chromium.mjs builds before running this. Prints figures; asserts nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { promisify } from 'node:util';
import { generatedQueries, heavyQueries } from '../bench/generate-vault';
import { INDEX_FILE, INDEX_FORMAT } from '../../src/search/engine/index-file';
import { CHROMIUM, launchChromium } from '../../test/browser/chromium';
import { vaultNotes } from './profile-vaults';
import type { GcPause, PassFigures, ProbeFigures, ProbeInput, TimedSlice } from './runtime-probe';

/** Notes per chunk the server hands out (about 2 MB of JSON at the generator's note size). */
const NOTES_PER_CHUNK = 1000;

/**
 * A loopback server of the probe's files: `/` (the page), `/probe.js`, `/notes` (the chunk count),
 * `/notes/<i>`, `/index/head`, `/index/part/<file>`. Chunks are kept as Buffers, outside the heap.
 */
async function serve(notes: [string, string][], indexDir: string, script: string): Promise<{ base: string; close: () => void }> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < notes.length; i += NOTES_PER_CHUNK) chunks.push(Buffer.from(JSON.stringify(notes.slice(i, i + NOTES_PER_CHUNK))));
  const page = Buffer.from('<!doctype html><meta charset="utf-8"><title>runtime probe</title><script src="/probe.js"></script>');
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const send = (body: Buffer | string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    const part = /^\/index\/part\/([\w.-]+)$/.exec(url);
    const chunk = /^\/notes\/(\d+)$/.exec(url);
    if (url === '/') send(page, 'text/html; charset=utf-8');
    else if (url === '/probe.js') send(script, 'text/javascript; charset=utf-8');
    else if (url === '/notes') send(String(chunks.length));
    else if (chunk !== null && Number(chunk[1]) < chunks.length) send(chunks[Number(chunk[1])], 'application/json');
    else if (url === '/index/head')
      void fsp.readFile(nodePath.join(indexDir, INDEX_FILE)).then(
        (b) => send(b),
        () => res.writeHead(404).end(),
      );
    else if (part !== null)
      void fsp.readFile(nodePath.join(indexDir, 'search-index.parts', part[1])).then(
        (b) => send(b, 'application/octet-stream'),
        () => res.writeHead(404).end(),
      );
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** A runtime's figures and its main thread's collections (none when they were not traced). */
interface Measured {
  figures: ProbeFigures;
  gc: GcPause[] | null;
}

/** Runs the probe in a Node process of its own (this Node's binary; the bundle beside this one in build/). */
async function inNode(input: ProbeInput): Promise<Measured> {
  const child = nodePath.join(__dirname, 'runtime-probe-node.cjs');
  const { stdout } = await promisify(execFile)(process.execPath, [child, JSON.stringify(input)], { maxBuffer: 16 << 20 });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as Measured;
}

/** A Chrome trace event, as much of it as is read here (ts and dur in µs). */
interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { data?: { message?: string } };
}

/**
 * The main thread's collections in a Chromium trace (its MinorGC and MajorGC events, as DevTools'
 * performance panel shows them), on the probe's performance.now() clock: the probe's
 * console.timeStamp('runtime-probe') names the thread and ties the two clocks at `clockMarkMs`.
 */
function tracedPauses(trace: Buffer, clockMarkMs: number): GcPause[] {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'runtime-probe');
  if (mark === undefined) return [];
  return events
    .filter((e) => e.pid === mark.pid && e.tid === mark.tid && (e.name === 'MinorGC' || e.name === 'MajorGC') && e.dur !== undefined)
    .map((e) => ({
      at: (e.ts - mark.ts) / 1000 + clockMarkMs,
      ms: (e.dur as number) / 1000,
      kind: e.name === 'MinorGC' ? 'minor' : 'major',
    }));
}

/**
 * Runs the probe in a fresh headless Chromium page, with `traceGc` under a trace of its main
 * thread's collections (the tracing costs time of its own).
 * @returns the figures, the collections (null when not traced) and Chromium's version
 */
async function inChromium(input: ProbeInput, traceGc: boolean): Promise<Measured & { version: string }> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error: Error) => errors.push(error.message));
    await page.goto(`${input.base}/`);
    if (errors.length > 0) throw new Error(`the probe page failed to load: ${errors.join('; ')}`);
    if (traceGc) await browser.startTracing(page, { categories: ['devtools.timeline'] });
    const figures = (await page.evaluate(
      (i: ProbeInput) =>
        (globalThis as unknown as { runtimeProbe: { runProbe: (x: ProbeInput) => Promise<ProbeFigures> } }).runtimeProbe.runProbe(i),
      input,
    )) as ProbeFigures;
    const gc = traceGc ? tracedPauses((await browser.stopTracing()) as Buffer, figures.clockMarkMs) : null;
    return { figures, gc, version: browser.version() as string };
  } finally {
    await browser.close();
  }
}

/** A slice's collections: the pauses that began inside it, e.g. "minor 12.1 + major 30.2". */
function pausesIn(slice: TimedSlice, gc: GcPause[]): string {
  const inside = gc.filter((p) => p.at >= slice.at && p.at < slice.at + slice.ms);
  return inside.length === 0 ? 'no collection' : inside.map((p) => `${p.kind} ${p.ms.toFixed(1)}`).join(' + ');
}

/** The runtime's longest warm-start slices, each with the collections inside it when they were measured. */
function slicesLine(name: string, { figures, gc }: Measured): string {
  const { longSlices, clockMarkMs } = figures;
  if (longSlices.length === 0) return `  ${name}: no warm-start slice of 30 ms or more`;
  const shown = longSlices.slice(0, 4).map((s) => {
    const at = `${((s.at - clockMarkMs) / 1000).toFixed(2)} s`;
    const inside = gc === null ? '' : `${pausesIn(s, gc)}; `;
    return `\n    ${s.ms.toFixed(1)} ms at ${at} (${inside}ended at ${s.endedAt})`;
  });
  const during = gc?.filter((p) => p.at >= clockMarkMs) ?? null;
  const total =
    during === null
      ? ''
      : `; collections in the warm start ${during.length}, longest ${Math.max(0, ...during.map((p) => p.ms)).toFixed(1)} ms`;
  return `  ${name}: longest slices${total}${shown.join('')}`;
}

function row(name: string, f: ProbeFigures): string {
  const n = (x: number, w = 8): string => x.toFixed(1).padStart(w);
  return (
    `  ${name.padEnd(34)}${n(f.loadMs / 1000, 7)}${n(f.loadSliceMs)}${n(f.afterSliceMs)}   ` +
    `${n(f.first.p50, 6)} /${n(f.first.p95, 6)}${n(f.first.heavyP50, 8)} /${n(f.first.heavyP95, 6)}${n(f.first.firstMs, 8)}   ` +
    `${n(f.again.p50, 6)} /${n(f.again.p95, 6)}${n(f.again.heavyP50, 8)} /${n(f.again.heavyP95, 6)}`
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
  const traceGc = args.includes('--trace-gc');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  if (only !== undefined && only !== 'node' && only !== 'chromium') throw new Error(`--only takes node or chromium, got ${only}`);
  const vault = nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated', `generated-${count}-s1`);
  const indexDir = nodePath.join(vault, `.obsidian-profile-warm-${INDEX_FORMAT}`, 'plugins', 'vault-mcp');
  if (!existsSync(nodePath.join(indexDir, INDEX_FILE))) {
    console.log(
      `No saved index of format ${INDEX_FORMAT} for ${count} generated notes: run \`node scripts/profile-warm.mjs ${count}\` first.`,
    );
    return;
  }
  if (only !== 'node' && !existsSync(CHROMIUM)) console.log(`Skipping Chromium: ${CHROMIUM} is absent (Debian's chromium package).`);
  const notes = await vaultNotes(vault);
  const server = await serve(notes, indexDir, await fsp.readFile(nodePath.join(__dirname, 'runtime-probe-page.js'), 'utf8'));
  notes.length = 0;
  const input: ProbeInput = { base: server.base, queries: generatedQueries(), heavy: heavyQueries(), passes: 5, limit: 20 };
  try {
    const results: [string, Measured][] = [];
    if (only !== 'chromium') results.push([`Node ${process.version}, V8 ${process.versions.v8.split('-')[0]}`, await inNode(input)]);
    if (only !== 'node' && existsSync(CHROMIUM)) {
      const { version, ...measured } = await inChromium(input, traceGc);
      results.push([`Chromium ${version}`, measured]);
    }
    const held = results[0]?.[1].figures;
    if (held === undefined) return;
    console.log(
      `${held.notesHeld} notes held with their metadata (${held.textMB.toFixed(0)} MB of text as UTF-16; heap then ${results.map(([name, m]) => `${m.figures.heldHeapMB.toFixed(0)} MB in ${name.split(' ')[0]}`).join(', ')}), index from ${indexDir.replace(os.tmpdir(), '<tmp>')}; ` +
        `engine times only (no MCP), ms; slices: longest wall stretch between yields (12 ms budget)`,
    );
    console.log(
      `  ${'runtime'.padEnd(34)}${'warm s'.padStart(7)}${'slice'.padStart(8)}${'after'.padStart(8)}   ` +
        `${'first pass p50 / p95, heavy p50 / p95, first call'.padEnd(50)}   again p50 / p95, heavy p50 / p95`,
    );
    for (const [name, m] of results) console.log(row(name, m.figures));
    for (const [name, m] of results) console.log(slicesLine(name, m));
    for (const [name, { figures }] of results) {
      const calls = (f: PassFigures): string => f.slowest.map((c) => `"${c.query}" run ${c.run} ${c.ms.toFixed(1)}`).join(', ');
      console.log(`  ${name}: slowest calls, first pass ${calls(figures.first)}; again ${calls(figures.again)}`);
    }
  } finally {
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
