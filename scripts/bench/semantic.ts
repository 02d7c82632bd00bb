/**
 * The semantic part of the bench:
 * - quality on obsidian-help-en: recall@5 and MRR of the labelled questions in
 *   semantic-questions.json for lexical (always), and for semantic and hybrid when
 *   VAULT_MCP_EMBED_URL (an OpenAI-compatible base URL ending in /v1, or `fake` for the tests'
 *   hashed bag-of-words server, a plumbing check and not a model) and VAULT_MCP_EMBED_MODEL are
 *   set (VAULT_MCP_EMBED_KEY optional);
 * - speed of exact cosine search over 100k int8 chunks of 768 dimensions.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bootPlugin, connectClient } from '../../test/harness/boot-plugin';
import { startFakeOpenAi } from '../../test/fakes/fake-openai';
import { seededRandom } from '../../test/harness/seeded-random';
import { AI_API_KEY_SECRET_ID } from '../../src/ai/secret-id';
import { VectorStore } from '../../src/search/semantic/vector-store';
import { encodeSemanticIndex, decodeSemanticIndex } from '../../src/search/semantic/store-file';
import { ms, percentiles, type Log } from './measure';
import type { PluginClass } from './plugin-class';
import questionsFile from './semantic-questions.json';

/** One labelled question. */
interface Question {
  q: string;
  answers: string[];
  class: string;
}

/** Figures of one ranking over a set of questions. */
export interface QualityFigures {
  /** Mean share of a question's answer notes found in the top 5. */
  recallAt5: number;
  /** Mean reciprocal rank of the first answer note in the top 10 (0 when none). */
  mrr: number;
}

/**
 * recall@5 and MRR@10 of ranked result paths against the answer notes.
 * @param runs per question: the answers and the ranked paths returned
 */
export function quality(runs: ReadonlyArray<{ answers: readonly string[]; ranked: readonly string[] }>): QualityFigures {
  if (runs.length === 0) return { recallAt5: 0, mrr: 0 };
  let recall = 0;
  let rr = 0;
  for (const { answers, ranked } of runs) {
    const top5 = new Set(ranked.slice(0, 5));
    recall += answers.filter((a) => top5.has(a)).length / answers.length;
    const first = ranked.slice(0, 10).findIndex((p) => answers.includes(p));
    rr += first < 0 ? 0 : 1 / (first + 1);
  }
  return { recallAt5: recall / runs.length, mrr: rr / runs.length };
}

/** Which ranking the bench asks the `search` tool for; `lexical-any` is lexical with the words joined by OR. */
type Ranking = 'lexical' | 'lexical-any' | 'semantic' | 'hybrid';

async function ranked(client: Client, ranking: Ranking, q: string): Promise<string[]> {
  const query = ranking === 'lexical-any' ? q.split(/\s+/).map((w) => `"${w.replace(/"/g, '')}"`).join(' OR ') : q;
  const mode = ranking === 'lexical-any' ? 'lexical' : ranking;
  const result = await client.callTool({ name: 'search', arguments: { query, mode, limit: 10, fields: 'metadata' } });
  if (result.isError) throw new Error(`search ${mode} "${q}" failed: ${JSON.stringify(result.content)}`);
  return ((result.structuredContent as { results: Array<{ path: string }> }).results ?? []).map((h) => h.path);
}

/**
 * Measures retrieval quality on obsidian-help-en and prints one row per ranking and question class.
 * @returns false when the vault is absent (after saying so)
 */
export async function benchSemanticQuality(Plugin: PluginClass, vault: string, log: Log): Promise<boolean> {
  if (!existsSync(vault)) {
    log(`Skipping the search quality benchmark: ${vault} is absent.`);
    return false;
  }
  const questions = (questionsFile as { questions: Question[] }).questions;
  const envUrl = process.env.VAULT_MCP_EMBED_URL;
  const fake = envUrl === 'fake' ? await startFakeOpenAi({ models: {}, embeddingModels: { 'hashed-bow': { dimensions: 512 } } }) : null;
  const baseUrl = fake ? fake.baseUrl : envUrl;
  const model = fake ? 'hashed-bow' : process.env.VAULT_MCP_EMBED_MODEL;
  const embed = baseUrl && model ? { baseUrl, model } : null;
  const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-bench-quality-'));
  try {
    await fsp.cp(vault, dir, { recursive: true });
    const booted = await bootPlugin(Plugin, {
      vaultPath: dir,
      configure: (s) => {
        if (!embed) return;
        // The bench's user opted in by setting the variables, remote endpoints included.
        s.ai = { ...s.ai, enabled: true, allowRemote: true, baseUrl: embed.baseUrl, embeddingModel: embed.model, semanticIndex: true };
      },
    });
    const semantic = (booted.plugin as unknown as { semantic: { refresh(): Promise<void>; current: { state: string } } }).semantic;
    if (process.env.VAULT_MCP_EMBED_KEY) booted.app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, process.env.VAULT_MCP_EMBED_KEY);
    let buildMs = 0;
    if (embed) {
      const started = performance.now();
      await semantic.refresh();
      buildMs = performance.now() - started;
    }
    const client = await connectClient(booted.url, booted.token);
    const rankings: Ranking[] = embed && semantic.current.state === 'ready' ? ['lexical', 'lexical-any', 'semantic', 'hybrid'] : ['lexical', 'lexical-any'];
    const classes = ['all', ...new Set(questions.map((q) => q.class))];
    log(`\nsearch quality on obsidian-help-en: ${questions.length} labelled questions (scripts/bench/semantic-questions.json)`);
    if (embed) {
      log(`  embeddings: ${fake ? "the tests' hashed bag-of-words fake (plumbing check, not a model)" : `${embed.model} at ${embed.baseUrl}`}; index ${semantic.current.state} after ${ms(buildMs)} ms`);
    } else {
      log('  semantic and hybrid not measured: set VAULT_MCP_EMBED_URL (base URL ending in /v1) and VAULT_MCP_EMBED_MODEL');
    }
    log(`  ${'ranking'.padEnd(12)} ${classes.map((c) => `${c} (n=${c === 'all' ? questions.length : questions.filter((q) => q.class === c).length}) R@5 / MRR`.padStart(30)).join('')}`);
    for (const ranking of rankings) {
      const runs: Array<{ cls: string; answers: string[]; ranked: string[] }> = [];
      for (const question of questions) runs.push({ cls: question.class, answers: question.answers, ranked: await ranked(client, ranking, question.q) });
      const cells = classes.map((c) => {
        const f = quality(runs.filter((r) => c === 'all' || r.cls === c));
        return `${f.recallAt5.toFixed(2)} / ${f.mrr.toFixed(2)}`.padStart(30);
      });
      log(`  ${ranking.padEnd(12)} ${cells.join('')}`);
    }
    await client.close();
    await booted.stop();
    return true;
  } finally {
    await fake?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Times exact cosine search over `rows` random int8 chunks of `dim` dimensions (20 queries),
 * and the save/load of that store; prints one line each.
 */
export function benchVectorSearch(rows: number, dim: number, log: Log): void {
  const random = seededRandom(42);
  const store = new VectorStore('bench');
  const started = performance.now();
  const batch = 1000;
  for (let n = 0; n < rows; n += batch) {
    const entries = [];
    for (let i = 0; i < batch && n + i < rows; i++) {
      entries.push({
        record: { path: `n${n + i}.md`, section: '1', heading: 'h', start: 0, hash: String(n + i) },
        vector: Float32Array.from({ length: dim }, () => random() * 2 - 1),
      });
    }
    for (const e of entries) store.setNote(e.record.path, [e]);
  }
  const fillMs = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const q = Float32Array.from({ length: dim }, () => random() * 2 - 1);
    const t = performance.now();
    store.nearest(q, 400, () => true);
    times.push(performance.now() - t);
  }
  const p = percentiles(times);
  const t0 = performance.now();
  const bytes = encodeSemanticIndex(store, new Map());
  const encodeMs = performance.now() - t0;
  const t1 = performance.now();
  decodeSemanticIndex(bytes);
  const decodeMs = performance.now() - t1;
  log(`\nexact cosine search, ${rows.toLocaleString('en-US')} chunks × ${dim} dims int8 (${(bytes.byteLength / 1e6).toFixed(0)} MB file; filled in ${ms(fillMs)} ms):`);
  log(`  top 400 chunks per query: p50 ${ms(p.p50)} ms, p95 ${ms(p.p95)} ms (${p.count} queries); save encode ${ms(encodeMs)} ms, load decode ${ms(decodeMs)} ms`);
}
