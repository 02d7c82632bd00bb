import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../src/main';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from './boot-plugin';
import { copyToTemp } from './temp-copy';

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
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir, mode: 'force', allowWrites: true, ...options });
  const client = await connectClient(booted.url, booted.token);
  return {
    booted,
    client,
    dir: copy.dir,
    done: async () => {
      await client.close();
      await booted.stop();
      await copy.cleanup();
    },
  };
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
