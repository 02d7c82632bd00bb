/**
 * The runtime probe (runtime-probe.ts) in a Node process of its own, forked by profile-chromium.ts
 * as build/runtime-probe-node.cjs: reads the ProbeInput as JSON from argv[2], prints the
 * ProbeFigures as one line of JSON on stdout; exits 1 with the error on stderr.
 */
import { runProbe, type ProbeInput } from './runtime-probe';

runProbe(JSON.parse(process.argv[2] as string) as ProbeInput).then(
  (figures) => console.log(JSON.stringify(figures)),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
