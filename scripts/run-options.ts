import { endsInV1, normalizeBaseUrl, parseHttpUrl } from '../src/ai/base-url';
import type { KeyMode } from '../src/settings/key-record';
import { MAX_PORT, MIN_PORT } from '../src/settings/settings';

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
  --vault DIR            serve this folder (default: a temporary copy of the demo vault)
  --port N               port on 127.0.0.1 (default the settings' server.port, 27200; 0 = any free port)
  --token T              bearer token, at least 16 characters (default: a new random one, printed once)
  --mode propose|force   write mode of the run's key (default propose)
  --allow-writes         turn on "Allow writes" and every write tool
  --roots a,b            confine the run's key to these vault folders (existing, not quarantined)
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
 * Parses `npm start` arguments (`--flag value` or `--flag=value`).
 * @throws Error naming the flag and what it accepts, for unknown flags and bad values.
 */
export function parseRunOptions(argv: string[]): RunOptions {
  const options: RunOptions = { mode: 'propose', allowWrites: false, roots: [], help: false, configDir: DEFAULT_CONFIG_DIR, allowRemote: false };
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
        if (model === '' || /\s/.test(model)) throw new Error(`--embed-model "${raw}": give the model's name without spaces, such as nomic-embed-text.`);
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
        throw new Error(`Unknown option ${arg}.`);
    }
  }
  return options;
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
  if (!/^\.[^\\/]+$/.test(name) || name === '..') throw new Error(`--config-dir ${text}: give the name of the vault's config folder, such as .obsidian.`);
  return name;
}

/**
 * `--embed-url URL`: an http(s) URL without user name or password whose path ends in /v1, as
 * OpenAI-compatible servers expect (src/ai/base-url.ts); a pasted `/chat/completions` is dropped.
 * @returns the normalized base URL. @throws Error naming the flag and an example.
 */
export function parseEmbedUrl(text: string): string {
  const url = parseHttpUrl(text);
  if (!url) throw new Error(`--embed-url ${text}: give an http:// or https:// base URL ending in /v1, such as http://127.0.0.1:11434/v1 for Ollama.`);
  if (url.username || url.password) throw new Error(`--embed-url: remove the user name and password from the URL; put an API key in the environment variable ${API_KEY_ENV} instead.`);
  const base = normalizeBaseUrl(text);
  if (!endsInV1(base)) throw new Error(`--embed-url ${text}: an OpenAI-compatible base URL ends in /v1 (Vault MCP adds /embeddings), such as ${base}/v1.`);
  return base;
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
