/**
 * The runtime probe (runtime-probe.ts) in a Node process of its own, forked by profile-chromium.ts
 * as build/runtime-probe-node.cjs: reads the ProbeInput as JSON from argv[2], prints one line of
 * JSON on stdout: the ProbeFigures and the garbage collections' pauses meanwhile (perf_hooks' `gc`
 * entries, on the same performance.now() clock as the figures' slices); exits 1 with the error on stderr.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { runProbe, type GcPause, type ProbeInput } from './runtime-probe';

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

const gc: GcPause[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as { detail?: { kind?: number } }).detail?.kind ?? -1;
    gc.push({ at: e.startTime, ms: e.duration, kind: KINDS[kind] ?? `kind ${kind}` });
  }
});
observer.observe({ entryTypes: ['gc'] });

runProbe(JSON.parse(process.argv[2] as string) as ProbeInput).then(
  async (figures) => {
    // gc entries are delivered after the collection; one turn of the loop lets the last ones in.
    await new Promise((resolve) => setTimeout(resolve, 10));
    observer.disconnect();
    console.log(JSON.stringify({ figures, gc }));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
