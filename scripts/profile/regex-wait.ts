/**
 * `node scripts/regex-wait.mjs [sessions]`: how long a plain search waits behind slow regex
 * searches of other sessions, on the 14k PowerShell vault (unpacked as the bench does). Boots
 * src/main in the host, opens `sessions` clients (default 4) plus one more, and per round
 * starts one slow regex search in each, then 20 ms later a plain word search in the extra one;
 * prints per regex each search's time alone, then per round the plain search's answer time and
 * when the last regex search answered. Prints figures; asserts nothing.
 */
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { unpackLargeVault } from '../bench/large-vault';
import { percentiles } from '../bench/measure';
import VaultMcpPlugin from '../../src/main';

/** Regex searches that read every note's text and spend much of their regex time budget. */
const SLOW_REGEXES = ['/(\\w+\\s*)+Get-Nothing/', '/[a-z]+q[a-z]+z[a-z]*x/', '/(?:[A-Z][a-z]+-)+[A-Z][a-z]+Zzz/'];
const PLAIN = 'process';

/** Milliseconds one call takes, and whether it failed (a regex over its budget is a tool error). */
async function timed(client: Client, query: string): Promise<{ ms: number; error: boolean }> {
  const t = performance.now();
  const result = await client.callTool({ name: 'search', arguments: { query, mode: 'lexical', limit: 10 } });
  return { ms: performance.now() - t, error: result.isError === true };
}

async function main(): Promise<void> {
  provideObsidianModule();
  const sessions = Number(process.argv[2] ?? 4);
  const vault = await unpackLargeVault(nodePath.resolve('../shared/vaults/windows-powershell-docs.tar.zst'), console.log);
  if (vault === null) process.exit(0);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault });
  const clients = await Promise.all(Array.from({ length: sessions + 1 }, () => connectClient(booted.url, booted.token)));
  const plainClient = clients[sessions];
  for (let i = 0; i < 3; i++) await timed(plainClient, PLAIN);
  const alone = [];
  for (let i = 0; i < 5; i++) alone.push((await timed(plainClient, PLAIN)).ms);
  console.log(`plain '${PLAIN}' alone: p50 ${percentiles(alone).p50.toFixed(1)} ms`);
  for (const re of SLOW_REGEXES) {
    const one = await timed(clients[0], re);
    console.log(`regex ${re} alone: ${one.ms.toFixed(0)} ms${one.error ? ' (too slow: tool error)' : ''}`);
  }
  const waits: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    const slow = clients.slice(0, sessions).map((c, k) => timed(c, SLOW_REGEXES[(round + k) % SLOW_REGEXES.length]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const plain = await timed(plainClient, PLAIN);
    const done = await Promise.all(slow);
    const last = Math.max(...done.map((d) => d.ms));
    waits.push(plain.ms);
    console.log(
      `round ${round + 1}: ${sessions} regex searches in parallel; plain search answered in ${plain.ms.toFixed(0)} ms; last regex search after ${last.toFixed(0)} ms (from ${(performance.now() - started).toFixed(0)} ms ago)`,
    );
  }
  const p = percentiles(waits);
  console.log(`plain search behind ${sessions} regex searches: p50 ${p.p50.toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms`);
  await Promise.all(clients.map((c) => c.close()));
  await booted.stop();
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
