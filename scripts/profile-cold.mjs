// `node scripts/profile-cold.mjs [notes | x7 | large] [--cpu] [--alloc] [--gc]`: see scripts/profile/profile-cold.ts. Runs it with the bench row's heap limit (8 GB), as a row's process has.
// With --gc the run has V8's --trace-gc and --trace-incremental-marking, and this wrapper adds what of them fell in each long slice.
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runBundled } from './run-bundled.mjs';

/** A V8 trace line: `[pid:isolate]   1234 ms: what` (ms since the isolate's start, integer). */
const TRACE = /^\[(\d+):(0x[0-9a-f]+)\]\s+(\d+) ms: (.*)$/;

/**
 * The collector's main-thread work of a trace line: a scavenge, a major collection's finalization
 * (its pause) or an incremental marking step, and its ms; null for other lines.
 * @param {string} what the line after its time
 * @returns {{ kind: string, ms: number } | null}
 */
function gcWork(what) {
  const step = /^\[IncrementalMarking\] Step in .* in ([\d.]+)$/.exec(what);
  if (step !== null) return { kind: 'marking step', ms: Number(step[1]) };
  const pause = /^(Scavenge|Mark-Compact(?: \(reduce\))?|Minor Mark-Sweep) .*?MB, ([\d.]+) \/ [\d.]+ ms/.exec(what);
  if (pause === null) return null;
  const via = /finalize incremental marking via (task|stack guard)/.exec(what);
  return { kind: pause[1] === 'Scavenge' ? 'scavenge' : via !== null ? `mark-compact (${via[1]})` : 'mark-compact', ms: Number(pause[2]) };
}

/**
 * Prints, for each long slice of the profile's `#gc-join` line, the collector's work the trace puts in
 * it. The trace's clock (ms since the isolate began) is set against performance.now() by the major
 * collections both list (the trace prints a collection at its end).
 * @param {{ t0: number, slices: { start: number, end: number, owner: string, steps: string }[], majors: number[] }} join
 * @param {{ t: number, what: string }[]} trace the child's isolate's lines
 */
function printJoin(join, trace) {
  const majors = trace.filter((l) => l.what.startsWith('Mark-Compact')).map((l) => l.t);
  // The offset that puts the most of the profile's major collections within 2 ms of one in the trace.
  let offset = NaN;
  let matched = 0;
  for (const t of majors)
    for (const end of join.majors) {
      const n = join.majors.filter((e) => majors.some((m) => Math.abs(m - (t - end) - e) <= 2)).length;
      if (n > matched) [offset, matched] = [t - end, n];
    }
  if (matched === 0) return console.log('\n--gc: no major collection to set the clocks by');
  console.log(`\ncollector work in the long slices (V8 trace; clocks set by ${matched} of ${join.majors.length} major collections):`);
  const works = trace.map((l) => ({ t: l.t - offset, work: gcWork(l.what) })).filter((w) => w.work !== null);
  for (const s of [...join.slices].sort((a, b) => b.end - b.start - (a.end - a.start))) {
    // A trace line's time is whole ms at the work's end: a margin of 1 ms either side.
    const inside = works.filter((w) => w.t >= s.start - 1 && w.t <= s.end + 1);
    const byKind = new Map();
    for (const w of inside) {
      const k = byKind.get(w.work.kind) ?? { n: 0, ms: 0 };
      byKind.set(w.work.kind, { n: k.n + 1, ms: k.ms + w.work.ms });
    }
    const total = inside.reduce((a, w) => a + w.work.ms, 0);
    const kinds = [...byKind].map(([kind, k]) => `${kind} ${k.n}× ${k.ms.toFixed(1)}`).join(', ') || 'none';
    console.log(
      `  ${(s.end - s.start).toFixed(0).padStart(5)} ms at ${((s.start - join.t0) / 1000).toFixed(1)} s (trace ${(s.start + offset).toFixed(0)}) ${s.owner} (${s.steps}): collector ${total.toFixed(1)} ms: ${kinds}`,
    );
  }
}

if (process.execArgv.some((flag) => flag.startsWith('--max-old-space-size'))) await runBundled('profile/profile-cold.ts');
else {
  const gc = process.argv.includes('--gc');
  const flags = ['--max-old-space-size=8192', ...(gc ? ['--trace-gc', '--trace-incremental-marking'] : [])];
  const child = spawn(process.execPath, [...process.execArgv, ...flags, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: ['inherit', gc ? 'pipe' : 'inherit', 'inherit'],
  });
  if (gc) {
    /** @type {{ isolate: string, t: number, what: string }[]} */
    const trace = [];
    let join = null;
    for await (const line of createInterface({ input: child.stdout })) {
      const m = TRACE.exec(line);
      if (m !== null && Number(m[1]) === child.pid) trace.push({ isolate: m[2], t: Number(m[3]), what: m[4] });
      else if (line.startsWith('#gc-join ')) join = JSON.parse(line.slice('#gc-join '.length));
      else if (m === null) console.log(line);
    }
    // The main thread's isolate is the one with the most lines (workers have their own).
    const count = new Map();
    for (const l of trace) count.set(l.isolate, (count.get(l.isolate) ?? 0) + 1);
    const main = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
    const mine = trace.filter((l) => l.isolate === main);
    if (join !== null) printJoin(join, mine);
    const file = path.join(os.tmpdir(), 'profile-cold-gc-trace.txt');
    await fsp.writeFile(file, mine.map((l) => `${l.t} ms: ${l.what}`).join('\n'));
    console.log(`(the trace's lines: ${file})`);
  }
  process.exitCode = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}
