/** `npm run test:load` command-line flags: --quick, --duration s, --memory-calls n, --only parts. */

/** The parts: the demo vault table, the 14k-vault table, the memory run, and (only when asked for with --only) the generated 100k-note vault table. */
export const LOAD_PARTS = ['demo', 'large', 'memory', 'scale'] as const;
export type LoadPart = (typeof LOAD_PARTS)[number];

/** What a load run does. */
export interface LoadOptions {
  /** Seconds each (tool, sessions) cell is driven. */
  durationS: number;
  /** Calls of the memory run. */
  memoryCalls: number;
  parts: LoadPart[];
}

/** The normal run: 10 s per cell, 100,000 calls for memory. --quick: 2 s per cell, 20,000 calls. */
export const NORMAL_LOAD: LoadOptions = { durationS: 10, memoryCalls: 100_000, parts: ['demo', 'large', 'memory'] };
const QUICK_LOAD: LoadOptions = { durationS: 2, memoryCalls: 20_000, parts: ['demo', 'large', 'memory'] };

/**
 * Reads the flags from `argv` (process.argv without node and the script); later flags win
 * over --quick's values.
 * @throws Error naming the flag and what it wants, for an unknown flag or a bad value.
 */
export function parseLoadArgs(argv: string[]): LoadOptions {
  const options: LoadOptions = argv.includes('--quick') ? { ...QUICK_LOAD } : { ...NORMAL_LOAD };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const positive = (): number => {
      const raw = argv[++i] ?? '';
      const n = Number(raw.replace(/_/g, ''));
      if (!Number.isFinite(n) || n <= 0) throw new Error(`${arg} wants a positive number; got "${raw}"`);
      return n;
    };
    if (arg === '--quick') continue;
    else if (arg === '--duration') options.durationS = positive();
    else if (arg === '--memory-calls') options.memoryCalls = Math.round(positive());
    else if (arg === '--only') {
      const list = (argv[++i] ?? '').split(',').map((p) => p.trim());
      const unknown = list.filter((p) => !(LOAD_PARTS as readonly string[]).includes(p));
      if (unknown.length > 0 || list.length === 0)
        throw new Error(`--only wants parts among ${LOAD_PARTS.join(', ')} (comma-separated); got "${unknown.join(',')}"`);
      options.parts = list as LoadPart[];
    } else throw new Error(`Unknown load flag "${arg}"; use --quick, --duration s, --memory-calls n or --only demo,large,memory,scale`);
  }
  return options;
}
