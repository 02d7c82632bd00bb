/**
 * The settings of an `npm start` run: read from `--settings FILE` or the vault's own data.json
 * (checked strictly by src/settings/check-settings.ts), then the run's flags on top, plus the
 * secrets Obsidian would keep in its secret storage (one new token per key, the AI API key
 * from the environment).
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { visit } from 'jsonc-parser';
import { parseHttpUrl } from '../../src/ai/providers/base-url';
import { classifyBaseUrl } from '../../src/ai/providers/classify';
import { resolveEmbeddingConfig } from '../../src/ai/embeddings/embedding-gates';
import { AI_API_KEY_SECRET_ID } from '../../src/ai/secret-id';
import { checkSettingsData, shownKeyName } from '../../src/settings/check-settings';
import { secretIdForKey, type KeyRecord } from '../../src/settings/key-record';
import { defaultSettings, type VaultMcpSettings } from '../../src/settings/settings';
import { ALL_TOOLS } from '../../src/tools/registry';
import { BOOT_KEY_ID } from '../../test/harness/boot-plugin';
import { API_KEY_ENV, shownPath, type RunOptions } from './run-options';

/** The label of the run's own key (the one `--token`, `--mode` and `--roots` describe). */
export const RUN_KEY_LABEL = 'npm start';

/** Bad input to a run (a flag or a settings file): `npm start` prints the message and exits with code 2, starting nothing. */
export class RunInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunInputError';
  }
}

/** Where a run's settings came from: `--settings FILE`, or the vault's own data.json. */
export interface SettingsSource {
  kind: 'file' | 'vault';
  /** Absolute path of the file. */
  path: string;
}

/** The settings a run starts from, before its flags. */
export interface RunSettings {
  settings: VaultMcpSettings;
  /** null: no file, the plugin's defaults. */
  source: SettingsSource | null;
  /** The vault's own data.json when `--settings` was given instead (so it was not read). */
  ignored?: string;
}

/** `<vault>/<configDir>/plugins/vault-mcp/data.json`, where Obsidian keeps the plugin's settings. */
export function pluginDataPath(vaultDir: string, configDir: string): string {
  return nodePath.join(vaultDir, configDir, 'plugins', 'vault-mcp', 'data.json');
}

/**
 * The run's settings: `--settings FILE` when given (resolved against `cwd`, run-options.ts runCwd:
 * where the user typed `npm start`),
 * else the vault's own data.json when it has one (read as Obsidian reads it; never written),
 * else the plugin's defaults.
 * @param options `settings` and `configDir` of the parsed options. @param vaultDir the absolute vault folder.
 * @param cwd the folder a relative `--settings` is resolved from (default the working directory).
 * @throws RunInputError with one sentence naming the file (and the key) and what to do, from {@link readSettingsFile}.
 */
export async function readRunSettings(
  options: Pick<RunOptions, 'settings' | 'configDir'>,
  vaultDir: string,
  cwd = process.cwd(),
): Promise<RunSettings> {
  const own = pluginDataPath(vaultDir, options.configDir);
  // lstat: a data.json that is a link to nothing is read (and refused as missing), not taken for no file and the defaults.
  const ownExists = (await fsp.lstat(own).catch(() => null)) !== null;
  if (options.settings !== undefined) {
    const path = nodePath.resolve(cwd, options.settings);
    const settings = await readSettingsFile(path, options.settings);
    return ownExists && path !== own
      ? { settings, source: { kind: 'file', path }, ignored: own }
      : { settings, source: { kind: 'file', path } };
  }
  if (ownExists) return { settings: await readSettingsFile(own, own, true), source: { kind: 'vault', path: own } };
  return { settings: defaultSettings(), source: null };
}

/**
 * Reads one settings file: UTF-8 JSON (a leading BOM ignored) in the plugin's data.json format,
 * checked by checkSettingsData with the plugin's tool names; a key labelled "npm start" or with
 * the id "runkey" is refused (those are the run's own key's).
 * @param path the file. @param shown how to name it in messages (as the user typed it).
 * @param vaultOwn true for the vault's own data.json (read without `--settings`): a file that is no
 *   settings file is then told to be moved aside or replaced, not to be passed as another path.
 * @returns the settings, every missing key at its default.
 * @throws RunInputError for a missing, unreadable or non-JSON file (the first three naming the
 *   absolute `path` too when it differs from `shown`) and for the first wrong key.
 */
export async function readSettingsFile(path: string, shown: string, vaultOwn = false): Promise<VaultMcpSettings> {
  const pass = vaultOwn
    ? "move it aside to start from the defaults, or pass --settings with a JSON file in the plugin's data.json format"
    : "pass the path of a JSON file in the plugin's data.json format";
  let text: string;
  try {
    // A pipe would wait for a writer (and hold the run past Ctrl-C), a device never ends: only a regular file is read.
    const stat = await fsp.stat(path);
    const named = shownPath(shown, path);
    if (stat.isFile() && stat.size > MAX_SETTINGS_BYTES)
      throw new RunInputError(
        `${named} is ${(stat.size / 1e6).toFixed(0)} MB, too large for a settings file (at most ${MAX_SETTINGS_BYTES / 1e6} MB); ${pass}.`,
      );
    if (!stat.isFile() && !stat.isDirectory())
      throw new RunInputError(`${named} is not a regular file (a pipe, socket or device); ${pass}.`);
    text = await fsp.readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof RunInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // The path looked at too, when a relative one resolved elsewhere than the user thought.
    const named = shownPath(shown, path);
    const link = code === 'ENOENT' ? await fsp.readlink(path).catch(() => null) : null;
    if (link !== null)
      throw new RunInputError(
        `${named} is a symbolic link to ${link}, which does not exist; point it at the settings file, or remove it to start from the defaults.`,
      );
    if (code === 'ENOENT') throw new RunInputError(`${named}: no such file; ${pass}.`);
    if (code === 'EISDIR') throw new RunInputError(`${named} is a folder, not a settings file; ${pass}.`);
    throw new RunInputError(`${named} cannot be read (${code ?? (error as Error).message}); check its permissions, or pass another file.`);
  }
  // A leading byte order mark is not part of the JSON (RFC 8259 §8.1); JSON.parse would refuse it.
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '')
    throw new RunInputError(
      `${shown} is empty; write a settings object in braces, such as {"access": {"quarantine": ["Private"]}}, or pass another file.`,
    );
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(shown);
    throw new RunInputError(`${shown} is not JSON (${jsonProblem(error as Error, text)}); fix the file so it parses, or pass another one.`);
  }
  let verdict: ReturnType<typeof checkSettingsData>;
  try {
    // JSON.parse keeps the last of two equal keys: a second "access" would drop the first one's quarantine unseen.
    const twice = repeatedKey(json);
    if (twice)
      throw new RunInputError(
        `${shown}: ${twice.path} is given twice (line ${twice.line}, column ${twice.column}); a JSON reader keeps only the last, so merge them into one.`,
      );
    verdict = checkSettingsData(data, { toolNames: ALL_TOOLS.map((tool) => tool.name) });
  } catch (error) {
    // Lists or objects nested some thousands deep outrun the stack of the checks that walk them.
    if (error instanceof RangeError) throw tooDeep(shown);
    throw error;
  }
  if (!verdict.ok)
    throw new RunInputError(
      `${shown}: ${verdict.key === '' ? verdict.message.charAt(0).toLowerCase() + verdict.message.slice(1) : verdict.message}`,
    );
  const clash = verdict.settings.keys.findIndex((key) => key.label === RUN_KEY_LABEL);
  if (clash !== -1)
    throw new RunInputError(
      `${shown}: keys[${clash}].label "${RUN_KEY_LABEL}" is the label of the run's own key; give that key another label.`,
    );
  const idClash = verdict.settings.keys.findIndex((key) => key.id === BOOT_KEY_ID);
  if (idClash !== -1)
    throw new RunInputError(
      `${shown}: keys[${idClash}].id "${BOOT_KEY_ID}" is the id of the run's own key; give that key another id, or leave the id out.`,
    );
  return verdict.settings;
}

/** Largest settings file a run reads, bytes: a data.json of many keys and widget records is a few hundred kB. */
const MAX_SETTINGS_BYTES = 64_000_000;

/** The refusal of a settings file whose lists or objects nest too deep to be checked (settings nest a few levels). */
function tooDeep(shown: string): RunInputError {
  return new RunInputError(
    `${shown} nests lists or objects thousands of levels deep, which no settings do; pass the plugin's data.json or a file in its format.`,
  );
}

/**
 * The first key given twice in one object of a JSON text (RFC 8259 §4: names "SHOULD be unique", and
 * readers differ on which one they keep), found with jsonc-parser's `visit`.
 * @param text JSON that JSON.parse accepts.
 * @returns its path as the settings checks name keys (`access`, `keys[0].label`) and the 1-based line
 *   and column of the second one, or null when every object's keys differ.
 */
export function repeatedKey(text: string): { path: string; line: number; column: number } | null {
  const seen: Array<Set<string>> = [];
  let found: { path: string; line: number; column: number } | null = null;
  visit(text, {
    onObjectBegin: () => void seen.push(new Set()),
    onObjectEnd: () => void seen.pop(),
    onObjectProperty: (name, _offset, _length, line, column, pathSupplier) => {
      const keys = seen[seen.length - 1]!;
      if (found === null && keys.has(name)) found = { path: keyPath([...pathSupplier(), name]), line: line + 1, column: column + 1 };
      keys.add(name);
    },
  });
  return found;
}

/** A JSON path as the settings checks write it: `keys[0].label`. */
function keyPath(path: ReadonlyArray<string | number>): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${shownKeyName(part)}`)).join('');
}

/** Characters V8 quotes on each side of an unexpected token in JSON.parse's message. */
const V8_JSON_CONTEXT_CHARS = 10;

/**
 * JSON.parse's complaint as a reason and a line and column. V8 gives either a character
 * position (`... in JSON at position 14`) or, for an unexpected token, the text around it
 * (`Unexpected token ']', ..."ne": ["a",]..." is not valid JSON`), which is found in the file.
 */
function jsonProblem(error: Error, text: string): string {
  const source = text.replace(/^\uFEFF/, '');
  let reason = error.message;
  let position: number | null = null;
  const numbered = /\s*(?:in JSON )?at position (\d+)[\s\S]*$/.exec(reason);
  const quoted = /^(Unexpected token '([\s\S])'), (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(reason);
  if (numbered) {
    reason = reason.slice(0, numbered.index);
    position = Number(numbered[1]);
  } else if (quoted) {
    reason = quoted[1];
    const at = source.indexOf(quoted[4]);
    if (at !== -1) position = at + (quoted[3] ? V8_JSON_CONTEXT_CHARS : quoted[4].indexOf(quoted[2]));
  }
  reason = reason.split('\n')[0];
  if (position === null) return reason.length > 120 ? `${reason.slice(0, 117)}...` : reason;
  const before = source.slice(0, position);
  return `${reason} at line ${before.split('\n').length}, column ${before.length - before.lastIndexOf('\n')}`;
}

/**
 * The run's flags over its settings: `--allow-writes` turns on "Allow writes" and every write
 * tool; `--allow-remote` sets `ai.allowRemote`; `--embed-url` / `--embed-model` turn on AI and
 * the semantic index with an OpenAI-compatible provider at that URL and model (a value not given
 * comes from the settings: the default base URL is Ollama's). `--mode`, `--roots` and `--token`
 * describe the run's own key and `--port` the listener; they are applied where the key and
 * server are made (scripts/headless.ts).
 * @param base the settings from {@link readRunSettings}. @param options the parsed options.
 * @param apiKey the AI API key from the environment (API_KEY_ENV), or null.
 * @param source where `base` came from, to name it in messages.
 * @returns new settings (`base` is not changed).
 * @throws RunInputError when the embedding endpoint the flags ask for cannot be used: no model,
 *   a remote URL without --allow-remote or without an API key, or what the plugin's gates refuse.
 */
export function applyRunFlags(
  base: VaultMcpSettings,
  options: RunOptions,
  apiKey: string | null,
  source: SettingsSource | null,
): VaultMcpSettings {
  const settings = structuredClone(base);
  if (options.allowWrites) {
    settings.tools.allowWrites = true;
    for (const tool of ALL_TOOLS) if (tool.kind === 'write') settings.tools.enabled[tool.name] = true;
  }
  if (options.allowRemote) settings.ai.allowRemote = true;
  if (options.embedUrl !== undefined || options.embedModel !== undefined) {
    settings.ai = {
      ...settings.ai,
      enabled: true,
      provider: 'openai-compatible',
      semanticIndex: true,
      baseUrl: options.embedUrl ?? settings.ai.baseUrl,
      embeddingModel: options.embedModel ?? settings.ai.embeddingModel,
    };
    const problem = embeddingProblem(settings.ai, apiKey, options, source);
    if (problem) throw new RunInputError(problem);
  }
  return settings;
}

/** Why the embedding endpoint the flags turned on cannot be used, in terminal terms; null when it can. */
function embeddingProblem(
  ai: VaultMcpSettings['ai'],
  apiKey: string | null,
  options: RunOptions,
  source: SettingsSource | null,
): string | null {
  const url = ai.baseUrl.trim();
  const where =
    options.embedUrl !== undefined
      ? `--embed-url ${url}`
      : `the base URL ${url} (ai.baseUrl ${source ? `in ${source.path}` : 'by default'})`;
  if (ai.embeddingModel.trim() === '')
    return `${where} needs --embed-model NAME, the embedding model that server serves (such as nomic-embed-text for Ollama).`;
  if (!parseHttpUrl(url))
    return `${where} is not an http:// or https:// base URL; pass --embed-url with one ending in /v1, such as http://127.0.0.1:11434/v1.`;
  if (classifyBaseUrl(url) === 'remote') {
    if (!ai.allowRemote)
      return `${where} is not on this computer, so your notes would be sent to it to be embedded; add --allow-remote to allow that, or use a server on this computer such as Ollama (http://127.0.0.1:11434/v1).`;
    if (!apiKey)
      return `${where} is not on this computer and needs an API key; put it in the environment variable ${API_KEY_ENV} (not a flag, which would land in your shell history).`;
  }
  try {
    resolveEmbeddingConfig(ai, apiKey);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A new bearer token in the plugin's own format (`vmcp_` + 32 random bytes, base64url), as KeyRing.mint makes. */
export function newToken(): string {
  return `vmcp_${randomBytes(32).toString('base64url')}`;
}

/**
 * What the run puts in the host's secret storage, which Obsidian would hold in the system
 * keychain and a run cannot read: a new token for each key of the settings (printed once at
 * start; the next run makes new ones), and the AI API key when one is given.
 * @param keys the settings' key records (not the run's own key). @param apiKey from API_KEY_ENV, or null.
 * @returns the secrets by SecretStorage id, and each key's token by key id.
 */
export function runSecrets(
  keys: readonly KeyRecord[],
  apiKey: string | null,
): { secrets: Record<string, string>; tokens: Map<string, string> } {
  const tokens = new Map(keys.map((key) => [key.id, newToken()]));
  const secrets: Record<string, string> = Object.fromEntries([...tokens].map(([id, token]) => [secretIdForKey(id), token]));
  if (apiKey) secrets[AI_API_KEY_SECRET_ID] = apiKey;
  return { secrets, tokens };
}
