/**
 * `node scripts/engine-signatures.mjs [notes] [out-file] [--time runs] [--warm]`: the lexical engine's
 * answers to many queries on a generated vault (default 40k notes, reused from the bench's
 * cache), written as one signature line per (query, caller, k) run — total, estimated flag,
 * ranked summary (terms, ignored, all-terms count), and the first k matches in order with path,
 * exact score, all-terms flag, missing words and highlighted terms. Run it on two trees and
 * diff the files: a change to how the engine finds matches must leave them byte-identical.
 * Queries cover plain words, prefixes, typos, stop words, phrases, negations, OR, groups,
 * `tag:`, `path:`, `file:`, properties, `task:`, text operators and regexes; callers see every
 * note or a rule hiding about a fifth of them. With `--time runs` it also prints each query's
 * engine CPU ms (p50 of the runs, k 20, every note visible). With `--warm` the engine answering
 * is one loaded from the saved index: a first boot builds and saves it (under the vault's
 * `.obsidian-signatures` config folder, removed first), a second boot loads it, and the
 * signatures are taken once its phrase filters have loaded too; they must equal a cold build's.
 * Asserts nothing.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { provideObsidianModule } from '../obsidian-module';
import { bootPlugin } from '../../test/harness/boot-plugin';
import { generateVault, vocabularyWord } from '../bench/generate-vault';
import { percentiles } from '../bench/measure';
import VaultMcpPlugin from '../../src/main';
import { parseQuery } from '../../src/search/query/parser/query-parser';
import { RegexGuard } from '../../src/search/query/regex-guard';
import type { EngineResult, LexicalEngine } from '../../src/search/engine/lexical-engine';

/** The queries: the bench's mix and heavy ones, and every operator over the generated vocabulary. */
function queries(): string[] {
  const w = (rank: number): string => vocabularyWord(rank);
  const tag = (rank: number): string => w(2000 + rank);
  const area = w(1000);
  const typo = w(300).slice(0, -1) + 'x';
  return [
    w(30),
    w(300),
    w(8000),
    `${w(40)} ${w(900)}`,
    `"${w(20)} ${w(21)}"`,
    w(120).slice(0, 4),
    `tag:#${w(2003)}`,
    w(20),
    `${w(21)} ${w(22)}`,
    `${w(23)} ${w(24)} ${w(25)} ${w(26)}`,
    `${w(27)} ${w(8000)}`,
    `${w(28)} -${w(29)}`,
    'the',
    `the ${w(30)}`,
    'zzzzqq',
    typo,
    `${w(300)} zzzzqq`,
    w(20).slice(0, 3),
    `${w(20)}-${w(21)}`,
    `"${w(20)} ${w(21)}" ${w(22)}`,
    `${w(30)} -"${w(20)} ${w(21)}"`,
    `"the ${w(20)}"`,
    `${w(20)} -${w(21)} -${w(22)}`,
    `-${w(29)} ${w(28)}`,
    `${w(28)} -${w(29).slice(0, 4)}`,
    `-${w(30)}`,
    `${w(300)} OR ${w(301)}`,
    `(${w(300)} OR ${w(301)}) ${w(20)}`,
    `${w(300)} (${w(301)} OR -${w(20)})`,
    `${w(8000)} OR tag:#${tag(1)}`,
    `tag:#${tag(0)}`,
    `tag:${tag(1)} ${w(30)}`,
    `tag:#${w(2003)} -${w(28)}`,
    `tag:${tag(0)} tag:${tag(1)}`,
    `-tag:#${tag(0)} ${w(300)}`,
    `${w(28)} -${w(29)} tag:${tag(2)}`,
    `path:${area} ${w(300)}`,
    `path:${area}`,
    `file:${w(300)}`,
    `file:${w(300)} ${w(20)}`,
    '[aliases]',
    `[aliases] ${w(30)}`,
    '[created:2024-01-01]',
    `[title:${w(300)}]`,
    `[created:>2024-06-01] ${w(40)}`,
    `task:${w(30)}`,
    `line:(${w(30)} ${w(31)})`,
    `section:(${w(40)})`,
    `content:${w(300)}`,
    `match-case:${w(30).charAt(0).toUpperCase()}${w(30).slice(1)}`,
    `/${w(300)}/`,
    `/${w(30).slice(0, 4)}\\w+${w(31).slice(-2)}/ ${w(300)}`,
    `path:/${area.charAt(0).toUpperCase()}${area.slice(1, 3)}/ ${w(300)}`,
    `${w(40)} ${w(900)} -${w(20)}`,
    `${w(300)} -zzzzqq`,
  ];
}

/** A match's exact signature: path, score (shortest round-trip form), all-terms flag, missing words, highlighted terms. */
function matchLine(m: EngineResult['matches'][number]): string {
  return [m.note.path, String(m.score), String(m.allTerms), JSON.stringify(m.missing ?? null), JSON.stringify([...m.terms].sort())].join(
    '\t',
  );
}

/** One run's signature: the result's summary, then its first k matches in order. */
function signature(label: string, r: EngineResult, k: number): string {
  const head = JSON.stringify({ total: r.total, estimated: r.estimated === true, ranked: r.ranked });
  return [`## ${label}\t${head}`, ...r.matches.slice(0, k).map(matchLine)].join('\n');
}

interface SearchInternals {
  engine: LexicalEngine;
  save(): Promise<void>;
  stats: { warm: boolean };
  phrasesLoaded: Promise<boolean> | null;
}

async function main(): Promise<void> {
  provideObsidianModule();
  const args = process.argv.slice(2);
  const timeAt = args.indexOf('--time');
  const timeRuns = timeAt >= 0 ? Number(args[timeAt + 1]) : 0;
  const warm = args.includes('--warm');
  const positional = args.filter((a, i) => a !== '--warm' && (timeAt < 0 || (i !== timeAt && i !== timeAt + 1)));
  const notes = Number(positional[0] ?? 40_000);
  const out = positional[1] ?? null;
  const vault = await generateVault(nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated'), notes);
  const boot = { vaultPath: vault.path, waitForIndex: true, ...(warm ? { persistIndex: true, configDir: '.obsidian-signatures' } : {}) };
  if (warm) {
    fs.rmSync(nodePath.join(vault.path, boot.configDir ?? ''), { recursive: true, force: true });
    const first = await bootPlugin(VaultMcpPlugin, boot);
    await (first.plugin as unknown as { search: SearchInternals }).search.save();
    await first.stop();
  }
  const booted = await bootPlugin(VaultMcpPlugin, boot);
  const search = (booted.plugin as unknown as { search: SearchInternals }).search;
  if (warm && !search.stats.warm) throw new Error('engine-signatures --warm: the second boot did not load the saved index');
  // The phrase filters load after the index is complete; until they are in, an estimated total may differ (its sample reads other notes).
  if (warm && (await search.phrasesLoaded) !== true) throw new Error('engine-signatures --warm: the saved phrase filters did not load');
  const engine = search.engine;
  const vaultFiles = booted.app.vault as unknown as { getFileByPath(path: string): unknown; cachedRead(file: never): Promise<string> };
  const read = (path: string): Promise<string> => {
    const file = vaultFiles.getFileByPath(path);
    return file === null ? Promise.reject(new Error(`${path} is gone`)) : vaultFiles.cachedRead(file as never);
  };
  // Hides about a fifth of the notes, by a hash of the path (every folder keeps some notes).
  const hidden = (path: string): boolean => {
    let h = 0;
    for (let i = 0; i < path.length; i++) h = (h * 31 + path.charCodeAt(i)) | 0;
    return (h >>> 0) % 5 === 0;
  };
  const callers = [
    { key: 'all', allow: (): boolean => true },
    { key: 'some', allow: (p: string): boolean => !hidden(p) },
  ];
  const lines: string[] = [];
  for (const q of queries())
    for (const who of callers)
      for (const k of [20, 200]) {
        // A generous regex budget: a loaded machine must not turn a slow regex into a refusal in one run and not the other.
        const r = await engine.match(parseQuery(q), read, who, new RegexGuard(60_000), k);
        lines.push(signature(`${q}\t${who.key}\tk=${k}`, r, k));
      }
  if (out !== null) fs.writeFileSync(out, lines.join('\n') + '\n');
  console.log(`${lines.length} signatures of ${engine.size} notes${out === null ? '' : ` written to ${out}`}`);
  if (timeRuns > 0) {
    console.log(`engine CPU ms, k 20, every note visible, p50 of ${timeRuns} runs:`);
    for (const q of queries()) {
      const runs: number[] = [];
      let total = 0;
      for (let i = 0; i < timeRuns; i++) {
        const cpu = process.cpuUsage();
        total = (await engine.match(parseQuery(q), read, callers[0], new RegexGuard(), 20)).total;
        const used = process.cpuUsage(cpu);
        runs.push((used.user + used.system) / 1000);
      }
      console.log(`  ${q.padEnd(44)} ${String(total).padStart(7)} ${percentiles(runs).p50.toFixed(1).padStart(8)}`);
    }
  }
  await booted.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
