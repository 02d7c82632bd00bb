import type { KeyMode } from '../src/settings/key-record';
import { MAX_PORT, MIN_PORT } from '../src/settings/settings';

/** Options of `npm start` (the contract outside checks rely on; keep stable). */
export interface RunOptions {
  vault?: string;
  port: number;
  token?: string;
  mode: KeyMode;
  allowWrites: boolean;
  roots: string[];
  help: boolean;
  /** Serve the MCP conformance suite's fixture tools, prompts and resources too (test/conformance-fixtures.ts). */
  conformanceFixtures?: true;
}

/** Usage text printed by `--help` and after a bad flag. */
export const USAGE = `Usage: npm start -- [options]
  --vault DIR            serve this folder (default: a temporary copy of the demo vault)
  --port N               port on 127.0.0.1 (default 27200; 0 = any free port)
  --token T              bearer token, at least 16 characters (default: a new random one, printed once)
  --mode propose|force   write mode of the run's key (default propose)
  --allow-writes         turn on "Allow writes" and every write tool
  --roots a,b            confine the run's key to these vault folders (existing, not quarantined)
  --conformance-fixtures for the MCP conformance suite only: also serve its test tools, prompts and resources
  --help                 show this text`;

/**
 * Parses `npm start` arguments (`--flag value` or `--flag=value`).
 * @throws Error naming the flag and what it accepts, for unknown flags and bad values.
 */
export function parseRunOptions(argv: string[]): RunOptions {
  const options: RunOptions = { port: 27200, mode: 'propose', allowWrites: false, roots: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined || v === '' || (eq === -1 && v.startsWith('--'))) throw new Error(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--vault':
        options.vault = value();
        break;
      case '--port': {
        const raw = value();
        const port = Number(raw);
        if (!/^\d+$/.test(raw) || port > MAX_PORT || (port !== 0 && port < MIN_PORT)) {
          throw new Error(`--port ${raw}: use a number from ${MIN_PORT} to ${MAX_PORT}, or 0 for any free port.`);
        }
        options.port = port;
        break;
      }
      case '--token': {
        const token = value();
        if (token.length < 16 || /\s/.test(token)) throw new Error('--token: use at least 16 characters and no spaces.');
        options.token = token;
        break;
      }
      case '--mode': {
        const mode = value();
        if (mode !== 'propose' && mode !== 'force') throw new Error(`--mode ${mode}: use "propose" or "force".`);
        options.mode = mode;
        break;
      }
      case '--allow-writes':
        if (eq !== -1) throw new Error('--allow-writes takes no value.');
        options.allowWrites = true;
        break;
      case '--roots':
        options.roots = parseRoots(value());
        break;
      case '--conformance-fixtures':
        if (eq !== -1) throw new Error('--conformance-fixtures takes no value.');
        options.conformanceFixtures = true;
        break;
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw new Error(`Unknown option ${arg}.`);
    }
  }
  return options;
}

/**
 * The folders of `--roots a,b`, vault-relative: trimmed, a backslash read as `/`, empty and `.`
 * segments dropped (`Projects/` is `Projects`), empty entries skipped.
 * @throws Error with one sentence per entry that is absolute or climbs out with `..`
 *   (`--roots /etc` must not quietly become `etc`).
 */
export function parseRoots(text: string): string[] {
  const roots: string[] = [];
  const problems: string[] = [];
  for (const entry of text.split(',').map((r) => r.trim())) {
    if (entry === '') continue;
    const segments = entry.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
    if (/^([\\/]|[A-Za-z]:)/.test(entry) || segments.includes('..')) {
      problems.push(`--roots ${entry}: give a folder inside the vault, such as Projects.`);
    } else if (segments.length) {
      roots.push(segments.join('/'));
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
  return roots;
}
