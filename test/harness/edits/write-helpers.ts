import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../../src/main';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from '../boot-plugin';
import { copyToTemp } from '../temp-copy';

/** A tool result's structured content. */
export type Json = Record<string, any>;

/** A booted plugin on a temp copy of a vault, with one connected SDK client. */
export interface WriteEnv {
  booted: BootedPlugin<VaultMcpPlugin>;
  client: Client;
  dir: string;
  done(): Promise<void>;
}

/**
 * Copies `source` to a temp folder, boots the plugin there (a force key with every write
 * tool on, unless `options` say otherwise) and connects one client.
 */
export async function bootWriteEnv(source: string, options: Partial<BootOptions> = {}): Promise<WriteEnv> {
  const copy = await copyToTemp(source);
  return bootWriteEnvIn(copy.dir, options, copy.cleanup);
}

/** The parts of the {@link WriteEnv} one describe block shares ({@link writeEnvPerBlock}), with call/callError on its client. */
export interface BlockWriteEnv {
  readonly booted: BootedPlugin<VaultMcpPlugin>;
  readonly client: Client;
  readonly dir: string;
  /** {@link call} on the block's client. */
  call(name: string, args?: Json): Promise<Json>;
  /** {@link callError} on the block's client. */
  callError(name: string, args?: Json): Promise<string>;
}

/**
 * One {@link bootWriteEnv} of `source` shared by the tests of the enclosing describe block: call
 * it while the block is defined; it boots in the block's beforeAll and ends in its afterAll.
 * @returns the env's parts, read through getters once the block's tests run.
 * @throws Error from a getter read before the boot (outside the block's tests).
 */
export function writeEnvPerBlock(source: string, options: Partial<BootOptions> = {}): BlockWriteEnv {
  let env: WriteEnv | undefined;
  beforeAll(async () => {
    env = await bootWriteEnv(source, options);
  });
  afterAll(async () => env?.done());
  const current = (): WriteEnv => {
    if (!env) throw new Error('the WriteEnv of this describe block is read before its beforeAll booted it');
    return env;
  };
  return {
    get booted() {
      return current().booted;
    },
    get client() {
      return current().client;
    },
    get dir() {
      return current().dir;
    },
    call: (name, args) => call(current().client, name, args),
    callError: (name, args) => callError(current().client, name, args),
  };
}

/**
 * Boots the plugin on the vault folder `dir` as it is (a force key with every write tool on,
 * unless `options` say otherwise) and connects one client. Its done() closes the client, stops
 * the plugin, then calls `remove` (the caller's clean-up of the folder, or of a folder around it).
 * @throws what booting or connecting throws, after undoing what was started and calling `remove`.
 */
export async function bootWriteEnvIn(dir: string, options: Partial<BootOptions>, remove: () => Promise<void>): Promise<WriteEnv> {
  return bootEnvIn(dir, { mode: 'force', allowWrites: true, ...options }, remove);
}

/**
 * Writes `files` into `<root>/vault`, `root` a new temp folder named after `prefix` (a folder
 * beside the vault may stand for a place outside it), lets `prepare(vault, root)` change the disk
 * (links, files too large to list), then boots the plugin on the vault with `options` as given
 * (bootPlugin's defaults otherwise: a propose key, no write tools) and connects one client. Its
 * done() closes the client, stops the plugin and removes `root`.
 * @throws what writing, preparing, booting or connecting throws, after removing `root`.
 */
export async function bootFilesEnv(
  prefix: string,
  files: Record<string, string | Buffer>,
  options: Partial<BootOptions> = {},
  prepare?: (vault: string, root: string) => Promise<void>,
): Promise<WriteEnv & { root: string }> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), prefix));
  const vault = nodePath.join(root, 'vault');
  const remove = (): Promise<void> => fsp.rm(root, { recursive: true, force: true });
  try {
    await writeVaultFiles(vault, files);
    await prepare?.(vault, root);
  } catch (err) {
    await remove();
    throw err;
  }
  return { ...(await bootEnvIn(vault, options, remove)), root };
}

/** {@link bootWriteEnvIn} with `options` passed to bootPlugin as they are. */
async function bootEnvIn(dir: string, options: Partial<BootOptions>, remove: () => Promise<void>): Promise<WriteEnv> {
  let booted: BootedPlugin<VaultMcpPlugin> | undefined;
  let client: Client;
  try {
    booted = await bootPlugin(VaultMcpPlugin, { vaultPath: dir, ...options });
    client = await connectClient(booted.url, booted.token);
  } catch (err) {
    await booted?.stop();
    await remove();
    throw err;
  }
  const started = booted;
  return {
    booted: started,
    client,
    dir,
    done: async () => {
      await client.close();
      await started.stop();
      await remove();
    },
  };
}

/** Writes `files` (vault path → text, written as UTF-8, or exact bytes) into the folder `dir`, making their folders. */
export async function writeVaultFiles(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(dir, path), content);
  }
}

/** The paths a search for `query` returns (its first page, as the tool's defaults give it). */
export async function searchPaths(client: Client, query: string): Promise<string[]> {
  return ((await call(client, 'search', { query })).results as Json[]).map((r) => r.path as string);
}

/** Calls a tool and returns its structured result; fails the test on isError. */
export async function call(client: Client, name: string, args: Json = {}): Promise<Json> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Json;
}

/** Calls a tool expecting isError; returns its one-sentence message. */
export async function callError(client: Client, name: string, args: Json = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  return (result.content as Array<{ text: string }>)[0].text;
}

/** A result either way: `{ok: true, value}` or `{ok: false, message}`. */
export async function attempt(
  client: Client,
  name: string,
  args: Json,
): Promise<{ ok: true; value: Json } | { ok: false; message: string }> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) return { ok: false, message: (result.content as Array<{ text: string }>)[0].text };
  return { ok: true, value: result.structuredContent as Json };
}
