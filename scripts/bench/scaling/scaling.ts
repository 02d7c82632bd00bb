/**
 * The scaling table: generated vaults of growing size (1k, 10k, optionally 100k notes) and,
 * beside the 100k one, the PowerShell vault as it is (14k real notes, held to its figures when
 * issue 20 was filed) and seven copies of it in seven folders (≈ 99k real notes). Each row is
 * measured in its own child processes (scaling-row.ts: cold index, search, memory above the
 * host's own; then a fresh process for the warm start, as after a restart of Obsidian), as
 * Obsidian holds one vault at a time: every row starts on a clean heap, and one vault's (or
 * one boot's) objects never weigh on the next figures. Then issue 20's targets
 * beside the rows' figures, marked met or not (scaling-targets.ts).
 */
import { fork } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateVault, generatedQueries, heavyQueries } from '../generate-vault';
import { LARGE_QUERIES, unpackLargeVault } from '../large-vault';
import { ms, type Log } from '../measure';
import type { ScalingRowKind } from '../options';
import { benchConfigDir } from '../plugin-class';
import { formatScalingRow, SCALING_HEADER, targetLines } from './scaling-format';
import type { MeasuredRow, ScalingRow, TableVault, WarmFigures } from './scaling-measure';
import type { RowMessage, RowPhase } from './scaling-row';

/** Common words of the PowerShell docs, each in thousands of its notes: the heavy queries of the real-notes rows. */
const REAL_HEAVY = ['the', 'command parameter', '"of the"', 'value object type string', 'get -set'];

/**
 * Measures a row per size in `sizes` (generated vaults, made once into the temp dir and
 * reused) and, beside a size of 100k or more, the two PowerShell rows (skipped with a message
 * when `archive` is absent), of the kinds in `kinds` only (--rows), each in a child process running `rowScript` (the bundled
 * scaling-row.ts; its searches timed from a client process of its own); prints each row as it is measured, a row whose process failed as "not
 * measured" with its reason, then the targets table.
 * @param warmRuns warm starts per row (measureInChild)
 * @returns the measured rows
 * @throws Error when a size is not a positive integer (generateVault).
 */
export async function scalingTable(
  sizes: number[],
  kinds: readonly ScalingRowKind[],
  archive: string,
  rowScript: string,
  log: Log,
  warmRuns = 1,
): Promise<ScalingRow[]> {
  const cache = nodePath.join(os.tmpdir(), 'vault-mcp-bench-generated');
  log(
    `\nGenerated vaults (seeded; Zipf-like vocabulary, frontmatter, headings, wikilinks, tags) and, beside 100k, the PowerShell vault alone (14k) and in 7 copies; each row in its own process: cold index; then, in a fresh process as after a restart, a warm start from the saved index. ` +
      `Search over the query mix × 5 and "heavy" queries of the most frequent words × 5, timed at a client in a process of its own (connected after the build, tools/list first); slice: longest stretch without yielding (wall time); loop: longest event-loop delay during the cold build; ` +
      `arrays: ArrayBuffers (typed arrays, outside the heap); plugin: heap + arrays above the host's own. Timing figures come from a machine shared with other work:`,
  );
  log(SCALING_HEADER);
  const rows: ScalingRow[] = [];
  const measure = async (vault: TableVault): Promise<void> => {
    const measured = await measureInChild(rowScript, vault, log, warmRuns);
    if (measured === null) return;
    rows.push(measured.row);
    log(formatScalingRow(measured.row));
    for (const line of measured.details) log(line);
  };
  for (const size of sizes) {
    if (kinds.includes('generated')) await measureGenerated(size);
    if (size < 100_000 || !kinds.some((kind) => kind !== 'generated')) continue;
    const real = await powershellVaults(archive, log);
    if (kinds.includes('powershell') && real[0] !== undefined) await measure(real[0]);
    if (kinds.includes('powershell-x7') && real[1] !== undefined) await measure(real[1]);
  }
  for (const line of targetLines(rows)) log(line);
  return rows;

  async function measureGenerated(size: number): Promise<void> {
    const vault = await generateVault(cache, size);
    await measure({
      label: `generated ${size >= 1000 ? `${size / 1000}k` : size}`,
      path: vault.path,
      notes: vault.notes,
      bytes: vault.bytes,
      queries: generatedQueries(),
      heavy: heavyQueries(),
      configDir: benchConfigDir(),
      targets: size >= 100_000 ? 'at-100k' : null,
    });
  }
}

/**
 * Measures `vault` in two processes of `rowScript`, as a user would meet it across a restart of
 * Obsidian: the cold one (host load, index built and saved, searches, memory) and then the
 * warm one, a fresh process that loads the saved index (`warmRuns` such processes, one after
 * another, the row keeping the first's figures and a line listing them all). Each child's stderr is echoed here
 * (its tail kept); the vault's run config folder (the saved index) is removed afterwards
 * whether or not the children finished.
 * @returns the measured row (warm figures NaN, with a line saying why, when the warm process
 *   sent none), or null after logging why when the cold process exited without a row
 */
export async function measureInChild(rowScript: string, vault: TableVault, log: Log, warmRuns = 1): Promise<MeasuredRow | null> {
  const started = performance.now();
  try {
    const cold = await runRowProcess(rowScript, vault, 'cold');
    if (cold.message?.type !== 'row') {
      log(`  ${vault.label}: not measured: its process ended (${cold.exit}) without a row${because(cold.stderr)}`);
      return null;
    }
    const done: MeasuredRow = cold.message.measured;
    const warms: WarmFigures[] = [];
    for (let run = 0; run < warmRuns; run++) {
      const warm = await runRowProcess(rowScript, vault, 'warm');
      if (warm.message?.type !== 'warm') {
        done.details.push(`            warm start: not measured: its process ended (${warm.exit}) without figures${because(warm.stderr)}`);
        break;
      }
      warms.push(warm.message.warm);
    }
    if (warms.length > 0) {
      const [{ warmMs, warmSliceMs, warmBuildSliceMs }] = warms;
      Object.assign(done.row, { warmMs, warmSliceMs, warmBuildSliceMs });
      done.details.push(
        `            warm start's longest slice: ${ms(done.row.warmBuildSliceMs)} ms until complete, ${ms(done.row.warmSliceMs)} ms with the block bounds and phrase filters made after it; ` +
          `${unwrittenLine(warms[0])}`,
      );
    }
    if (warms.length > 1) done.details.push(warmRunsLine(warms));
    const processes = 1 + Math.max(warms.length, 1);
    done.details.push(
      `            row measured in ${((performance.now() - started) / 1000).toFixed(0)} s in ${processes === 2 ? 'two' : processes} processes (host load, cold build, searches; then, as after a restart, host load and warm start${processes > 2 ? `, ${processes - 1} times` : ''})`,
    );
    return done;
  } finally {
    await fsp.rm(nodePath.join(vault.path, vault.configDir), { recursive: true, force: true });
  }
}

/** The first warm start's CPU against its wall time and the file data the kernel had yet to write at its boot (WarmFigures), for the line under a row. */
function unwrittenLine(warm: WarmFigures): string {
  const unwritten = Number.isNaN(warm.unwrittenMbAtStart) ? 'not known here' : `${warm.unwrittenMbAtStart.toFixed(0)} MB`;
  return `the process's CPU ${(warm.warmCpuMs / 1000).toFixed(2)} s (all threads) in ${(warm.warmWallMs / 1000).toFixed(2)} s from the server listening to the phrase filters in; file data not yet on disk at its boot ${unwritten}`;
}

/** The line under a row listing each of its warm starts (--warm-runs): seconds, longest slice with the work after completeness and until complete, and their medians. */
export function warmRunsLine(warms: readonly WarmFigures[]): string {
  const median = (values: number[]): number => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const each = warms
    .map(
      (w) =>
        `${(w.warmMs / 1000).toFixed(2)} s / ${ms(w.warmSliceMs)} (${ms(w.warmBuildSliceMs)}) ms, ` +
        `CPU ${(w.warmCpuMs / 1000).toFixed(2)} s in ${(w.warmWallMs / 1000).toFixed(2)} s, ${Number.isNaN(w.unwrittenMbAtStart) ? '?' : w.unwrittenMbAtStart.toFixed(0)} MB unwritten`,
    )
    .join('; ');
  return (
    `            warm starts (${warms.length} fresh processes from the same saved index; s / longest slice ms (until complete), the process's CPU (all threads) ` +
    `in the wall time from the server listening to the phrase filters in, file data not yet on disk at the boot (the kernel writes it meanwhile); the row shows the first): ${each}; ` +
    `median ${(median(warms.map((w) => w.warmMs)) / 1000).toFixed(2)} s / ${ms(median(warms.map((w) => w.warmSliceMs)))} (${ms(median(warms.map((w) => w.warmBuildSliceMs)))}) ms`
  );
}

/** ": <why>" from a child's stderr tail (failureReason), or "" when it printed nothing. */
function because(stderr: string): string {
  const reason = failureReason(stderr);
  return reason === null ? '' : `: ${reason}`;
}

/** Forks `rowScript` for one phase of `vault`'s row (its arguments: the vault as JSON and the phase) and resolves once it exits: how it ended, its stderr's tail (8,000 chars, echoed here as it comes) and the last message it sent. */
async function runRowProcess(
  rowScript: string,
  vault: TableVault,
  phase: RowPhase,
): Promise<{ exit: string; stderr: string; message: RowMessage | null }> {
  let stderr = '';
  let message: RowMessage | null = null;
  const exit = await new Promise<string>((resolve) => {
    // Advanced serialization keeps NaN (a figure not measured) as NaN over IPC.
    const child = fork(rowScript, [JSON.stringify(vault), phase], {
      execArgv: rowExecArgv(process.execArgv),
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.on('message', (sent: RowMessage) => {
      message = sent;
    });
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(signal === null ? `code ${code}` : `signal ${signal}`));
  });
  return { exit, stderr, message };
}

/**
 * Heap limit of a row's process, MB: seven copies of the PowerShell vault (660 MB of text)
 * take the test host past Node's default of about 4 GB (the host keeps every note's text and
 * metadata; the plugin's share is what the table's plugin column shows), where a row crawls
 * in back-to-back garbage collections or dies.
 */
export const ROW_HEAP_MB = 8192;

/** The Node flags of a row's process: this process's own (a --cpu-prof applies to each row too), with ROW_HEAP_MB unless a heap limit is already given. */
export function rowExecArgv(own: string[]): string[] {
  return own.some((flag) => flag.startsWith('--max-old-space-size')) ? own : [...own, `--max-old-space-size=${ROW_HEAP_MB}`];
}

/** The line of a child's stderr that says why it ended: V8's fatal error (heap out of memory) or the first thrown error's message; else its last line, or null when empty. */
function failureReason(stderr: string): string | null {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.find((line) => /^(FATAL ERROR|[\w.]*Error\b)/.test(line)) ?? lines.at(-1) ?? null;
}

/**
 * The real-notes rows beside 100k: the PowerShell vault unpacked from `archive` (14k notes,
 * held to its figures at filing) and seven copies of it (held to the 100k targets).
 * @returns both vaults, or none after saying why when the archive is absent or cannot be unpacked
 */
async function powershellVaults(archive: string, log: Log): Promise<TableVault[]> {
  if (!existsSync(archive)) {
    log(`  (the PowerShell vault and its 7 copies skipped: ${archive} is absent)`);
    return [];
  }
  const source = await unpackLargeVault(archive, log);
  if (source === null) return [];
  const copies = await sevenCopies(source);
  const vault = async (label: string, path: string, targets: TableVault['targets']): Promise<TableVault> => {
    const size = await markdownSize(path);
    return { label, path, ...size, queries: LARGE_QUERIES, heavy: REAL_HEAVY, configDir: benchConfigDir(), targets };
  };
  return [await vault('PowerShell 14k', source, 'at-filing'), await vault('PowerShell × 7', copies, 'at-100k')];
}

/**
 * Seven copies of the vault at `source`, one per folder `copy-1` … `copy-7` of a temp folder,
 * as hard links where the file system allows (made once, reused after).
 * @returns the folder holding the copies
 */
async function sevenCopies(source: string): Promise<string> {
  const dir = nodePath.join(os.tmpdir(), 'vault-mcp-bench-powershell-x7');
  const marker = `${dir}.done`;
  if (!existsSync(marker)) {
    await fsp.rm(dir, { recursive: true, force: true });
    for (let i = 1; i <= 7; i++) await copyTree(source, nodePath.join(dir, `copy-${i}`));
    await fsp.writeFile(marker, '');
  }
  return dir;
}

/** Markdown notes under `dir` and their bytes, outside hidden folders (the host's file index leaves those out). */
async function markdownSize(dir: string): Promise<{ notes: number; bytes: number }> {
  let notes = 0;
  let bytes = 0;
  for (const entry of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.md')) continue;
    if (
      nodePath
        .relative(dir, entry.parentPath)
        .split(nodePath.sep)
        .some((segment) => segment.startsWith('.'))
    )
      continue;
    notes++;
    bytes += (await fsp.stat(nodePath.join(entry.parentPath, entry.name))).size;
  }
  return { notes, bytes };
}

/** Copies the tree at `from` to `to` (without hidden folders such as `.obsidian`), hard-linking files, copying when linking fails. */
async function copyTree(from: string, to: string): Promise<void> {
  await fsp.mkdir(to, { recursive: true });
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const a = nodePath.join(from, entry.name);
    const b = nodePath.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(a, b);
    else if (entry.isFile()) await fsp.link(a, b).catch(() => fsp.copyFile(a, b));
  }
}
