import { realpathSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { endsInV1, normalizeBaseUrl, parseHttpUrl } from '../../src/ai/providers/base-url';
import type { KeyMode } from '../../src/settings/key-record';
import { checkKeyRoot, splitRootList, untrimmedRoot } from '../../src/settings/key-roots';
import { MAX_PORT, MIN_PORT } from '../../src/settings/settings';

/** The environment variable a run reads the AI provider's API key from (a flag would land in shell history). */
export const API_KEY_ENV = 'VAULT_MCP_AI_API_KEY';

/**
 * Options of `npm start`. `--vault`, `--port`, `--token`, `--mode`, `--allow-writes` and
 * `--roots` are the contract outside checks rely on: keep them stable.
 */
export interface RunOptions {
  vault?: string;
  /** Absent: the settings' `server.port` (27200 unless a settings file says otherwise). */
  port?: number;
  token?: string;
  mode: KeyMode;
  allowWrites: boolean;
  roots: string[];
  /**
   * Beside `roots`, index for index: the root an entry of `--roots` names with its outer spaces
   * kept (` Sp ` beside `Sp`), or null; absent when no entry has a second spelling. The run
   * decides on disk which one the entry names (run-vault.ts resolveRoots, key-roots.ts pickListedRoot).
   */
  exactRoots?: Array<string | null>;
  /** Beside `roots`, index for index: the entry of `--roots` as typed between its commas, outer spaces kept (how a refusal about them quotes it). */
  typedRoots?: string[];
  help: boolean;
  /** Serve the MCP conformance suite's fixture tools, prompts and resources too (test/conformance-fixtures.ts). */
  conformanceFixtures?: true;
  /** `--settings FILE`: settings in the plugin's data.json format, as typed (resolved against the working directory). */
  settings?: string;
  /** The vault's config folder (Obsidian's `vault.configDir`), where its own data.json is looked for. */
  configDir: string;
  /** OpenAI-compatible base URL (normalized, ending in /v1) whose `/embeddings` the semantic index uses. */
  embedUrl?: string;
  /** Embedding model name at that endpoint. */
  embedModel?: string;
  /** Allow an AI endpoint that is not on this computer (the plugin's "Allow remote providers"). */
  allowRemote: boolean;
}

/** Usage text printed by `--help` and after a bad flag. */
export const USAGE = `Usage: npm start -- [options]
  --vault DIR            serve this folder in place (default: a temporary copy of the demo vault);
                         the whole disk and your home folder are refused unless they hold a .obsidian folder
  --port N               port on 127.0.0.1 (default the settings' server.port, 27200; 0 = any free port)
  --token T              bearer token, at least 16 printable ASCII characters (default: a new random one, printed once)
  --mode propose|force   write mode of the run's key (default propose)
  --allow-writes         turn on "Allow writes" and every write tool
  --roots a,b            confine the run's key to these folders, relative to the vault (existing, not quarantined)
  --settings FILE        settings in the plugin's data.json format (default: the vault's own
                         <config-dir>/plugins/vault-mcp/data.json when it has one); flags win over it
  --config-dir NAME      the vault's config folder, if Obsidian is set to another than .obsidian
  --embed-url URL        turn on AI and the semantic index with this OpenAI-compatible base URL
                         ending in /v1 (Ollama: http://127.0.0.1:11434/v1)
  --embed-model NAME     the embedding model there (Ollama: nomic-embed-text)
  --allow-remote         allow an AI endpoint that is not on this computer (notes are sent to it);
                         its API key is read from the environment variable ${API_KEY_ENV}
  --conformance-fixtures for the MCP conformance suite only: also serve its test tools, prompts and resources
  --help                 show this text`;

/**
 * Parses `npm start` arguments (`--flag value` or `--flag=value`), each flag at most once.
 * @param cwd the folder a relative `--vault` is resolved from ({@link runCwd}), to check `--roots` against.
 * @throws Error naming the flag and what it accepts, for unknown flags, bad values and a flag
 *   given twice (which one wins would be a guess); for a
 *   bare word (what `npm start --port 27310` leaves once npm took `--port`), one that says to
 *   put `--` before the run's flags.
 */
export function parseRunOptions(argv: string[], cwd = process.cwd()): RunOptions {
  const options: RunOptions = {
    mode: 'propose',
    allowWrites: false,
    roots: [],
    help: false,
    configDir: DEFAULT_CONFIG_DIR,
    allowRemote: false,
  };
  let rootsText: string | undefined;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    // A repeated flag would silently take its last value (newcomer report s29, L1); --help says the same each time.
    if (flag.startsWith('--') && flag !== '--help' && given.has(flag))
      throw new Error(
        `${flag} is given twice; give each flag once${flag === '--roots' ? ' (several roots go in one, with commas: --roots Projects,Journal)' : ''}.`,
      );
    given.add(flag);
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
          throw new Error(`--port ${shownValue(raw)}: use a number from ${MIN_PORT} to ${MAX_PORT}, or 0 for any free port.`);
        }
        options.port = port;
        break;
      }
      case '--token': {
        const token = value();
        // An HTTP header carries printable ASCII only: curl and the SDK clients cannot send any other token (RFC 9110 §5.5, RFC 6750 §2.1).
        if (token.length < 16 || !/^[\x21-\x7e]+$/.test(token))
          throw new Error(
            '--token: use at least 16 printable ASCII characters (letters, digits, punctuation), no spaces or accented letters.',
          );
        options.token = token;
        break;
      }
      case '--mode': {
        const mode = value();
        if (mode !== 'propose' && mode !== 'force') throw new Error(`--mode ${shownValue(mode)}: use "propose" or "force".`);
        options.mode = mode;
        break;
      }
      case '--allow-writes':
        if (eq !== -1) throw new Error('--allow-writes takes no value.');
        options.allowWrites = true;
        break;
      case '--roots':
        rootsText = value();
        break;
      case '--settings':
        options.settings = value();
        break;
      case '--config-dir':
        options.configDir = parseConfigDir(value());
        break;
      case '--embed-url':
        options.embedUrl = parseEmbedUrl(value());
        break;
      case '--embed-model': {
        const raw = value();
        const model = raw.trim();
        if (model === '' || /\s/.test(model))
          throw new Error(`--embed-model ${JSON.stringify(raw)}: give the model's name without spaces, such as nomic-embed-text.`);
        options.embedModel = model;
        break;
      }
      case '--allow-remote':
        if (eq !== -1) throw new Error('--allow-remote takes no value.');
        options.allowRemote = true;
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
        if (!arg.startsWith('-'))
          throw new Error(
            `Unknown option ${arg}: the run takes --flags only; through npm, put -- before them (npm start -- --port 27310).`,
          );
        throw new Error(`Unknown option ${arg}; npm start -- --help lists the options.`);
    }
  }
  // After the loop: --vault may come after --roots, and an absolute root is checked against it.
  if (rootsText !== undefined) {
    const listed = parseRootsFlag(rootsText, options.vault === undefined ? undefined : nodePath.resolve(cwd, options.vault));
    options.roots = listed.roots;
    options.typedRoots = listed.typed;
    if (listed.exact.some((root) => root !== null)) options.exactRoots = listed.exact;
  }
  return options;
}

/**
 * The folder a relative path of a flag (`--vault`, `--settings`) is resolved from: the folder the
 * user typed `npm start` in, which npm passes as `INIT_CWD` while it runs the script from the
 * package root (newcomer report s29, M2: `--vault .` served the repository); the working
 * directory when npm did not start the run (`node scripts/start.mjs`) or set no absolute INIT_CWD.
 * @param env the process environment. @param cwd the working directory.
 * @returns an absolute folder.
 */
export function runCwd(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const init = env.INIT_CWD;
  return env.npm_lifecycle_event && init && nodePath.isAbsolute(init) ? init : cwd;
}

/**
 * A flag's value as a message quotes it: as typed when it is one plain word, JSON-quoted when it is
 * empty or holds spaces, quotes, control or format characters, so spaces it is refused for show
 * (`--roots " Sp "`, not `--roots Sp`).
 */
export function shownValue(value: string): string {
  return /^[^\s"'\p{Cc}\p{Cf}]+$/u.test(value) ? value : JSON.stringify(value);
}

/**
 * A path flag's value as a message names it: as typed ({@link shownValue}), followed by the
 * absolute path looked at when that differs (`../../x (/tmp/x)`), so a relative path that
 * resolved somewhere unexpected shows where.
 * @param typed the value as typed. @param absolute the path it was resolved to.
 */
export function shownPath(typed: string, absolute: string): string {
  return typed === absolute ? shownValue(typed) : `${shownValue(typed)} (${shownValue(absolute)})`;
}

/** The run's flags as npm names them in `npm_config_*` environment variables when it keeps them (`allow-writes` → `allow_writes`). */
const RUN_FLAGS = [
  'vault',
  'port',
  'token',
  'mode',
  'allow-writes',
  'roots',
  'settings',
  'config-dir',
  'embed-url',
  'embed-model',
  'allow-remote',
  'conformance-fixtures',
] as const;

/** The run's flags that take no value: npm records them as `true`, and they leave no word behind. */
const SWITCHES: ReadonlySet<string> = new Set(['allow-writes', 'allow-remote', 'conformance-fixtures']);

/**
 * Flags npm kept for itself: `npm start --port 27310` (no `--` before the flag) makes npm read
 * `--port` as its own config, set `npm_config_port=true` and pass only `27310` on; `--port=27310`
 * and `--allow-writes` leave nothing at all, so the run would start without them. Checked only
 * when npm runs the script (`npm_lifecycle_event` is set).
 * @param argv the run's arguments. @param env the process environment.
 * @returns one sentence naming the kept flags and the command to type instead (values npm passed
 *   on as bare words are put back after a single kept flag), or null when npm kept none.
 */
export function npmKeptFlags(argv: readonly string[], env: NodeJS.ProcessEnv): string | null {
  if (!env.npm_lifecycle_event) return null;
  const kept = RUN_FLAGS.filter((flag) => env[npmConfigName(flag)] !== undefined);
  if (kept.length === 0) return null;
  const wordAt = bareWordIndexes(argv);
  const words = wordAt.map((i) => argv[i]);
  const bare = kept.filter((flag) => !SWITCHES.has(flag) && ['true', ''].includes(env[npmConfigName(flag)] ?? ''));
  const exact = bare.length === 1 && words.length === 1;
  const typed = kept.map((flag) => {
    if (SWITCHES.has(flag)) return `--${flag}`;
    if (!bare.includes(flag)) return `--${flag} ${env[npmConfigName(flag)]}`;
    return `--${flag} ${exact ? words[0] : '...'}`;
  });
  const rest = argv.filter((_, i) => !wordAt.includes(i));
  const values =
    !exact && words.length ? ` (putting ${words.join(' ')} back after ${words.length === 1 ? 'its flag' : 'their flags'})` : '';
  const them = kept.length === 1 ? 'it' : 'them';
  return `npm kept ${kept.map((flag) => `--${flag}`).join(', ')} for itself (flags after "npm start" need -- before them), so this run would go without ${them}; run: ${['npm start --', ...typed, ...rest].join(' ')}${values}`;
}

/** The environment variable npm sets for a config it read from the command line (`allow-writes` → `npm_config_allow_writes`). */
function npmConfigName(flag: string): string {
  return `npm_config_${flag.replace(/-/g, '_')}`;
}

/** Where `argv` has words that are neither a flag nor the value after a flag that takes one: what npm passed on from flags it kept. */
function bareWordIndexes(argv: readonly string[]): number[] {
  const words: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-')) words.push(i);
    else if (!arg.includes('=') && !SWITCHES.has(arg.slice(2)) && arg !== '--help' && arg !== '-h') i++;
  }
  return words;
}

/** Obsidian's default config folder (`vault.configDir`). */
export const DEFAULT_CONFIG_DIR = '.obsidian';

/**
 * `--config-dir NAME`: one folder name starting with a dot, as Obsidian's "Override config
 * folder" requires (Settings → Files and links).
 * @throws Error naming the flag for a path, an empty name or one without the leading dot.
 */
export function parseConfigDir(text: string): string {
  const name = text.trim().replace(/[\\/]+$/, '');
  if (!/^\.[^\\/]+$/.test(name) || name === '..')
    throw new Error(`--config-dir ${shownValue(text)}: give the name of the vault's config folder, such as .obsidian.`);
  return name;
}

/**
 * `--embed-url URL`: an http(s) URL without user name or password whose path ends in /v1, as
 * OpenAI-compatible servers expect (src/ai/providers/base-url.ts); a pasted `/chat/completions` is dropped.
 * @returns the normalized base URL. @throws Error naming the flag and an example.
 */
export function parseEmbedUrl(text: string): string {
  const url = parseHttpUrl(text);
  if (!url)
    throw new Error(
      `--embed-url ${shownValue(text)}: give an http:// or https:// base URL ending in /v1, such as http://127.0.0.1:11434/v1 for Ollama.`,
    );
  if (url.username || url.password)
    throw new Error(
      `--embed-url: remove the user name and password from the URL; put an API key in the environment variable ${API_KEY_ENV} instead.`,
    );
  const base = normalizeBaseUrl(text);
  if (!endsInV1(base))
    throw new Error(
      `--embed-url ${shownValue(text)}: an OpenAI-compatible base URL ends in /v1 (Vault MCP adds /embeddings), such as ${base}/v1.`,
    );
  return base;
}

/**
 * Where the absolute path `target` lies relative to the vault folder `vaultDir`, either as spelt or
 * with symbolic links resolved on either side (a vault given through a link, a root given as the real
 * path the tools also accept): the first spelling that lies inside, else the plain relative path
 * (starting with `..` when outside).
 */
function vaultRelative(target: string, vaultDir: string): string {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const spellings = [
    nodePath.relative(vaultDir, target),
    nodePath.relative(real(vaultDir), real(target)),
    nodePath.relative(real(vaultDir), target),
  ];
  return (
    spellings.find((rel) => rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel)) ??
    spellings.find((rel) => rel === '') ??
    spellings[0]!
  );
}

/**
 * The folders of `--roots a,b`, vault-relative as a key's `roots` are in the settings
 * (docs/architecture.md#keys), each checked by the one roots rule (src/settings/key-roots.ts):
 * trimmed, a backslash read as `/`, empty and `.` segments dropped (`Projects/` is `Projects`),
 * empty entries between commas skipped. An absolute path is refused, not converted, so the flag
 * and the settings spell a root one way; when it (or the `file://` URI of it) lies inside
 * `vaultDir` the message gives the vault-relative spelling to type. An entry typed with outer
 * spaces also gets its untrimmed root (key-roots.ts untrimmedRoot), which the run weighs against
 * the trimmed one on disk (run-vault.ts resolveRoots), as the settings tab does in the vault.
 * @param text the flag's value. @param vaultDir the absolute `--vault` folder, when one was given.
 * @returns `roots`, the trimmed roots in order, `exact`, index for index the untrimmed root
 *   or null (an entry repeated in both spellings is kept once), and `typed`, index for index the
 *   entry as typed between its commas, outer spaces kept (for a refusal about those spaces:
 *   {@link shownValue}).
 * Messages quote an entry with {@link shownValue} (`--roots "My notes/.."`).
 * @throws Error with one sentence per entry that breaks the rule: absolute, climbing out with
 *   `..` (`--roots /etc` must not quietly become `etc`), or naming the vault itself (`.`), which
 *   would be the whole vault; and one when blanks and commas alone name no folder at all.
 */
export function parseRootsFlag(text: string, vaultDir?: string): { roots: string[]; exact: Array<string | null>; typed: string[] } {
  const roots: string[] = [];
  const exact: Array<string | null> = [];
  const typed: string[] = [];
  const problems: string[] = [];
  for (const listed of splitRootList(text)) {
    const entry = listed.trimmed;
    const shown = shownValue(entry);
    const onDisk = diskPathOf(entry);
    const inside = vaultDir === undefined || !nodePath.isAbsolute(onDisk) ? null : vaultRelative(nodePath.resolve(onDisk), vaultDir);
    const verdict = checkKeyRoot(entry);
    if (inside === '' || (!verdict.ok && verdict.fault === 'vault')) {
      problems.push(`--roots ${shown}: that is the whole vault; leave --roots out to let the key see all of it.`);
    } else if (inside !== null && !inside.startsWith('..') && !nodePath.isAbsolute(inside)) {
      problems.push(`--roots ${shown}: roots are folders relative to the vault; use --roots ${inside.split(nodePath.sep).join('/')}.`);
    } else if (!verdict.ok && (verdict.fault === 'absolute' || verdict.fault === 'escapes')) {
      problems.push(
        `--roots ${shown}: give a folder inside the vault, relative to it (as a key's roots in the settings are), such as Projects.`,
      );
    } else if (!verdict.ok && verdict.fault === 'wildcard' && wildcardParent(entry) !== '') {
      problems.push(`--roots ${shown}: that root ${verdict.reason}; use --roots ${shownValue(wildcardParent(entry))}.`);
    } else if (!verdict.ok) {
      problems.push(`--roots ${shown}: that root ${verdict.reason}; give a folder inside the vault, relative to it, such as Projects.`);
    } else {
      const spaced = untrimmedRoot(listed, verdict.root);
      if (!roots.some((root, i) => root === verdict.root && exact[i] === spaced)) {
        roots.push(verdict.root);
        exact.push(spaced);
        typed.push(listed.typed);
      }
    }
  }
  // Blanks and commas alone would leave the key with no roots: the whole vault, which --roots exists to narrow.
  if (problems.length === 0 && roots.length === 0)
    problems.push(
      `--roots ${JSON.stringify(text)} names no folder; give folders relative to the vault, such as Projects, or leave --roots out to let the key see all of it.`,
    );
  if (problems.length) throw new Error(problems.join('\n'));
  return { roots, exact, typed };
}

/**
 * The trimmed roots of `--roots a,b` ({@link parseRootsFlag} without the untrimmed spellings).
 * @throws as parseRootsFlag.
 */
export function parseRoots(text: string, vaultDir?: string): string[] {
  return parseRootsFlag(text, vaultDir).roots;
}

/** The file-system path a `file://` URI names (`fileURLToPath`), else `entry` as it is (a URI that does not parse too). */
function diskPathOf(entry: string): string {
  if (!/^file:/i.test(entry)) return entry;
  try {
    return fileURLToPath(entry);
  } catch {
    return entry;
  }
}

/** The folders of a wildcard root before its first segment with `*` or `?` (`Skills/*` → `Skills`, `*` → ''). */
function wildcardParent(entry: string): string {
  const segments = entry.replace(/\\/g, '/').split('/');
  return segments
    .slice(
      0,
      segments.findIndex((segment) => /[*?]/.test(segment)),
    )
    .filter((s) => s !== '')
    .join('/');
}
