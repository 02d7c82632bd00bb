/**
 * `npm run bench` command-line flags: --quick, --full, --scale a,b,..., --no-peer.
 */

/** What a bench run does. */
export interface BenchOptions {
  /** obsidian-help-en only, few passes, no peer (CI). */
  quick: boolean;
  /** Run the peer @bitbonsai/mcpvault side by side (false with --quick or --no-peer). */
  peer: boolean;
  /** Note counts of the generated-vault scaling table (empty with --quick). */
  scale: number[];
}

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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--full') full = true;
    else if (arg === '--no-peer') peer = false;
    else if (arg === '--scale') {
      const list = argv[++i] ?? '';
      const sizes = list.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
      if (list === '' || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
        throw new Error(`--scale wants comma-separated positive note counts, e.g. --scale 1000,10000,100000; got "${list}"`);
      }
      scale = sizes;
    } else throw new Error(`Unknown bench flag "${arg}"; use --quick, --full, --scale a,b,... or --no-peer`);
  }
  if (quick) return { quick, peer: false, scale: [] };
  return { quick, peer, scale: scale ?? (full ? FULL_SCALE : DEFAULT_SCALE) };
}
