/**
 * What the server's process does over a pass of calls timed in another process (profile-first.ts's
 * `--client-process`): each HTTP request's span on the server (node:diagnostics_channel's
 * `http.server.*` messages), and a CPU profile's samples sorted into kinds of work by the module
 * whose code ran (esbuild's `// path` comment at each module's first line of the bundle names it).
 * Prints; asserts nothing.
 */
import * as dc from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ms } from '../bench/measure';
import type { Profile } from './profile-summary';

/** One HTTP request as the server saw it: from its `request` event to its response's `finish`, ms (performance.now). */
export interface RequestSpan {
  method: string;
  start: number;
  end: number;
}

/**
 * Records the span of every HTTP request this process's servers receive from now on.
 * @returns the growing list (a span's `end` NaN until its response finishes) and `stop`
 */
export function watchRequests(): { spans: RequestSpan[]; stop(): void } {
  const spans: RequestSpan[] = [];
  const open = new WeakMap<object, RequestSpan>();
  const onStart = (message: unknown): void => {
    const { request, response } = message as { request: { method?: string }; response: object };
    const span = { method: request.method ?? '?', start: performance.now(), end: NaN };
    open.set(response, span);
    spans.push(span);
  };
  const onFinish = (message: unknown): void => {
    const span = open.get((message as { response: object }).response);
    if (span !== undefined) span.end = performance.now();
  };
  dc.subscribe('http.server.request.start', onStart);
  dc.subscribe('http.server.response.finish', onFinish);
  return {
    spans,
    stop: () => {
      dc.unsubscribe('http.server.request.start', onStart);
      dc.unsubscribe('http.server.response.finish', onFinish);
    },
  };
}

/**
 * The module of each line of an esbuild bundle (not minified), from the `// path` comment that opens each module.
 * @param file the bundle's path
 * @returns a lookup from a 0-based line number to the module's path ("?" before the first module)
 */
export function bundleModules(file: string): (line: number) => string {
  const starts: number[] = [];
  const paths: string[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, line) => {
      const m = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(text);
      if (m !== null) {
        starts.push(line);
        // A package's path from its node_modules folder on (the worktree's node_modules may be a link elsewhere).
        paths.push(m[1].replace(/^.*?(?=node_modules\/)/, ''));
      }
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= line) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? '?' : paths[found];
  };
}

/** Kinds of work by module path, the first match wins. */
const GROUPS: [RegExp, string][] = [
  [/^src\/search\/(index-persistence\.ts|engine\/(index-file|record-lines)\.ts)/, 'index save'],
  [/^src\/search\/(engine|query)\//, 'engine'],
  [/^src\/search\/results\//, 'result page, snippets'],
  [/^src\/search\//, 'search (other)'],
  [/^src\/tools\//, 'tools'],
  [/^src\/server\//, 'server (ours)'],
  [/^src\//, 'plugin (other)'],
  [/^node_modules\/@modelcontextprotocol\//, 'MCP SDK'],
  [/^node_modules\/zod/, 'zod'],
  [/^node_modules\//, 'other packages'],
  [/^test\//, 'test host'],
  [/^scripts\//, 'probe'],
];

/** A profile's samples, each with its time (performance.now ms), length (ms), kind of work and module. */
export interface Sampled {
  at: number;
  ms: number;
  kind: string;
  module: string;
  fn: string;
}

/**
 * Sorts each sample of `profile` into a kind of work: V8's own nodes ((idle), (garbage collector),
 * (program): compiles, inline-cache misses, runtime calls outside JS), JSON.parse / JSON.stringify,
 * else the group ({@link GROUPS}) of the innermost frame with a script (a builtin counts for its caller).
 * @param moduleOf the bundle's line → module lookup (bundleModules)
 */
export function sortSamples(profile: Profile, moduleOf: (line: number) => string): Sampled[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  let at = profile.startTime / 1000 - offset;
  const memo = new Map<number, { kind: string; module: string; fn: string }>();
  const classify = (id: number): { kind: string; module: string; fn: string } => {
    const leaf = byId.get(id)!.callFrame;
    const name = leaf.functionName;
    if (name === '(idle)' || name === '(garbage collector)' || name === '(program)' || name === '(root)')
      return { kind: name, module: '', fn: name };
    if (leaf.url === '' && (name === 'parse' || name === 'stringify')) return { kind: `JSON.${name}`, module: '', fn: name };
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const f = byId.get(node)!.callFrame;
      if (f.url === '') continue;
      const module = f.url.startsWith('node:') ? f.url : moduleOf(f.lineNumber);
      const group = f.url.startsWith('node:') ? 'node internals' : (GROUPS.find(([re]) => re.test(module))?.[1] ?? 'other');
      return { kind: group, module, fn: `${name || '(anonymous)'}${f === leaf ? '' : ` in ${f.functionName || '(anonymous)'}`}` };
    }
    return { kind: 'native', module: '', fn: name };
  };
  return profile.samples.map((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    at += dt;
    let c = memo.get(id);
    if (c === undefined) memo.set(id, (c = classify(id)));
    return { at, ms: dt, ...c };
  });
}

/** ms by key over `samples`. */
function sumBy(samples: Sampled[], key: (s: Sampled) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) out.set(key(s), (out.get(key(s)) ?? 0) + s.ms);
  return out;
}

/** "kind ms, kind ms, …" of the kinds over 0.5 ms, most first. */
function kinds(samples: Sampled[]): string {
  return [...sumBy(samples, (s) => s.kind)]
    .filter(([kind, t]) => t >= 0.5 && kind !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .map(([kind, t]) => `${kind} ${ms(t)}`)
    .join(', ');
}

/**
 * Prints, for one pass of calls timed at a client in another process: the server's time split by kind
 * of work, within the requests' spans and between them (where the client, not the server, holds the
 * call, unless the server is busy with other work), the modules and functions with the most self time,
 * and call by call the client's wall against the server's span and what the server ran in it.
 * @param title the pass's name
 * @param samples the pass's profile samples (sortSamples)
 * @param calls the calls' server spans, in order (one POST per call)
 * @param walls the calls' walls at the client, ms, in the same order
 * @param labels each call's label (query #run)
 */
export function printPass(title: string, samples: Sampled[], calls: RequestSpan[], walls: number[], labels: string[]): void {
  const from = calls[0].start;
  const to = calls[calls.length - 1].end;
  const window = samples.filter((s) => s.at >= from && s.at <= to);
  const inCall = (s: Sampled): boolean => calls.some((c) => s.at >= c.start && s.at <= c.end);
  const inside = window.filter(inCall);
  const outside = window.filter((s) => !inCall(s));
  const total = (list: Sampled[]): number => list.reduce((a, s) => a + s.ms, 0);
  const spanMs = calls.reduce((a, c) => a + (c.end - c.start), 0);
  const wallMs = walls.reduce((a, b) => a + b, 0);
  const sorted = [...walls].sort((a, b) => a - b);
  const p50 = sorted[Math.floor((sorted.length - 1) / 2)];
  console.log(
    `\n${title}: ${calls.length} calls in ${ms(to - from)} ms from the first request to the last response; ` +
      `client walls ${ms(wallMs)} ms in all (median ${ms(p50)}), server spans ${ms(spanMs)} ms (median ${ms(median(calls.map((c) => c.end - c.start)))})`,
  );
  console.log(
    `  in the requests' spans (${ms(total(inside))} ms sampled): ${kinds(inside)}; idle ${ms(total(inside.filter((s) => s.kind === '(idle)')))}`,
  );
  console.log(
    `  between them (${ms(total(outside))} ms sampled): ${kinds(outside) || 'nothing'}; idle ${ms(total(outside.filter((s) => s.kind === '(idle)')))}`,
  );
  const busy = window.filter((s) => s.kind !== '(idle)');
  console.log('  modules by self time over the pass:');
  for (const [module, t] of [...sumBy(busy, (s) => s.module || s.kind)].sort((a, b) => b[1] - a[1]).slice(0, 14))
    console.log(`    ${ms(t).padStart(7)} ms  ${module}`);
  console.log('  functions by self time over the pass:');
  for (const [fn, t] of [...sumBy(busy, (s) => `${s.fn} [${s.kind}]`)].sort((a, b) => b[1] - a[1]).slice(0, 16))
    console.log(`    ${ms(t).padStart(7)} ms  ${fn}`);
  console.log(
    '  call by call: client wall, server span (its share), what the server ran in the span; then busy time in the gap before the next call',
  );
  calls.forEach((c, i) => {
    const mine = window.filter((s) => s.at >= c.start && s.at <= c.end);
    const next = calls[i + 1]?.start ?? to;
    const gap = window.filter((s) => s.at > c.end && s.at < next && s.kind !== '(idle)');
    console.log(
      `    ${labels[i].padEnd(30)} ${ms(walls[i]).padStart(6)} ${ms(c.end - c.start).padStart(6)} (${((100 * (c.end - c.start)) / walls[i]).toFixed(0).padStart(3)} %)  ${kinds(mine)}${gap.length > 0 ? `  | gap: ${kinds(gap)}` : ''}`,
    );
  });
}

/** The median (the lower middle one) of `values`. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
