/**
 * The scaling table's own parts: issue 20's targets against a row's figures, the printed
 * targets table, and the child process a row is measured in (a stand-in child script here:
 * the real one needs the bundled build). Figures are made up; no speed is asserted.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { formatScalingRow, SCALING_HEADER, targetLines } from '../../../scripts/bench/scaling/scaling-format';
import type { ScalingRow, TableVault } from '../../../scripts/bench/scaling/scaling-measure';
import { measureInChild, ROW_HEAP_MB, rowExecArgv } from '../../../scripts/bench/scaling/scaling';
import { FIGURES_AT_FILING, TARGETS_AT_100K, verdicts } from '../../../scripts/bench/scaling/scaling-targets';

function row(overrides: Partial<ScalingRow>): ScalingRow {
  return {
    label: 'generated 100k',
    notes: 100_000,
    textMb: 200,
    indexMs: 18_000,
    longestSliceMs: 40,
    loopDelayMs: 45,
    warmMs: 2_500,
    warmSliceMs: 30,
    warmBuildSliceMs: 25,
    heapAfterMb: 1_100,
    arraysAfterMb: 240,
    pluginMb: 280,
    searchP50: 8,
    searchP95: 45,
    heavyP50: 9,
    heavyP95: 49,
    peakRssMb: 2_000,
    targets: 'at-100k',
    ...overrides,
  };
}

describe('verdicts', () => {
  it('holds a 100k row to every target of issue 20, a bound itself counting as met', () => {
    const all = verdicts(row({ searchP50: 10, pluginMb: 416, warmMs: 8_600 }));
    expect(all.map((v) => v.figure)).toEqual(Object.keys(TARGETS_AT_100K));
    const met = Object.fromEntries(all.map((v) => [v.figure, v.met]));
    expect(met).toMatchObject({ searchP50: true, pluginMb: false, warmMs: false, indexMs: true, longestSliceMs: true });
    expect(all.find((v) => v.figure === 'pluginMb')).toEqual({ figure: 'pluginMb', value: 416, bound: 300, met: false });
  });
  it('holds the 14k row to its figures at filing only, and no row without a target set', () => {
    const filing = verdicts(row({ label: 'PowerShell 14k', targets: 'at-filing', searchP50: 9.4, indexMs: 3_500, warmMs: 2_407 }));
    expect(filing.map((v) => [v.figure, v.bound, v.met])).toEqual([
      ['searchP50', FIGURES_AT_FILING.searchP50, false],
      ['indexMs', FIGURES_AT_FILING.indexMs, true],
      ['warmMs', FIGURES_AT_FILING.warmMs, false],
    ]);
    expect(verdicts(row({ targets: null }))).toEqual([]);
  });
  it('says "not measured" for a figure that is NaN (a warm start that did not load its file)', () => {
    expect(verdicts(row({ warmMs: NaN })).find((v) => v.figure === 'warmMs')?.met).toBeNull();
  });
});

describe('targetLines', () => {
  it('prints the bounds of each target set, then its rows marked met or not, with a count', () => {
    const lines = targetLines([
      row({ label: 'generated 1k', targets: null }),
      row({ searchP95: 488, longestSliceMs: 1_809 }),
      row({ label: 'PowerShell 14k', targets: 'at-filing', searchP50: 5.2, indexMs: 6_404, warmMs: NaN }),
    ]);
    const text = lines.join('\n');
    expect(text).not.toMatch(/generated 1k/);
    expect(text).toMatch(/^ {2}target at 100k +≤ 10\.0 +≤ 50\.0 +≤ 10\.0 +≤ 50\.0 +≤ 300 +≤ 20\.0 +≤ 50\.0 +≤ 3\.0 +≤ 50\.0$/m);
    expect(text).toMatch(/^ {2}generated 100k +8\.0 ✓ +488 ✗ +9\.0 ✓ +49\.0 ✓ +280 ✓ +18\.0 ✓ +1809 ✗ +2\.5 ✓ +30\.0 ✓ +7 of 9$/m);
    expect(text).toMatch(/^ {2}14k at filing +≤ 6\.0 +— +— +— +— +≤ 3\.6 +— +≤ 1\.2 +—$/m);
    expect(text).toMatch(/^ {2}PowerShell 14k +5\.2 ✓ +45\.0 +9\.0 +49\.0 +280 +6\.4 ✗ +40\.0 +NaN \? +30\.0 +1 of 3$/m);
    expect(lines.indexOf(lines.find((l) => l.includes('target at 100k'))!)).toBeLessThan(
      lines.indexOf(lines.find((l) => l.includes('14k at filing'))!),
    );
  });
  it('prints nothing when no row has targets', () => {
    expect(targetLines([row({ targets: null })])).toEqual([]);
    expect(targetLines([])).toEqual([]);
  });
});

describe('formatScalingRow', () => {
  it('puts every figure under its header', () => {
    const line = formatScalingRow(row({ searchP95: 488 }));
    const columns = SCALING_HEADER.trim().split(/ {2,}/);
    expect(columns).toHaveLength(13);
    expect(line).toMatch(
      /^ {2}generated 100k +100000 +200\.0 +18\.0 +40\.0 +45\.0 +2\.5 +30\.0 +1100 +240 +280 +8\.0 \/ 488 +9\.0 \/ 49\.0$/,
    );
    // The last column ends where its header ends.
    expect(line.length).toBe(SCALING_HEADER.length);
  });
});

describe('rowExecArgv', () => {
  it("passes the bench's own Node flags on, with the row heap limit unless one is given", () => {
    expect(rowExecArgv([])).toEqual([`--max-old-space-size=${ROW_HEAP_MB}`]);
    expect(rowExecArgv(['--cpu-prof'])).toEqual(['--cpu-prof', `--max-old-space-size=${ROW_HEAP_MB}`]);
    expect(rowExecArgv(['--max-old-space-size=12000'])).toEqual(['--max-old-space-size=12000']);
  });
});

describe('measureInChild', () => {
  let dir: string;
  let vault: TableVault;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-scaling-child-'));
    vault = {
      label: 'stand-in',
      path: dir,
      notes: 1,
      bytes: 1,
      queries: ['x'],
      heavy: ['y'],
      configDir: '.obsidian-bench-test',
      targets: null,
    };
    await fsp.mkdir(nodePath.join(dir, vault.configDir));
  });
  afterEach(async () => {
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('measures cold and then warm in a fresh process that finds the saved index, merges the figures, and removes the run config folder', async () => {
    const script = nodePath.join(dir, 'child.js');
    // The cold phase leaves a saved index; the warm phase reports whether it found it (and its pid, to tell the processes apart).
    await fsp.writeFile(
      script,
      `const fs = require('node:fs'), path = require('node:path');
       const vault = JSON.parse(process.argv[2]);
       const saved = path.join(vault.path, vault.configDir, 'saved');
       if (process.argv[3] === 'cold') {
         fs.writeFileSync(saved, String(process.pid));
         process.send({ type: 'row', measured: { row: { label: vault.label, indexMs: NaN, warmMs: NaN, warmSliceMs: NaN }, details: ['detail'] } }, () => process.exit(0));
       } else {
         const coldPid = Number(fs.readFileSync(saved, 'utf8'));
         process.send({ type: 'warm', warm: { warmMs: coldPid === process.pid ? -1 : 1234, warmSliceMs: 56, warmBuildSliceMs: 41, warmCpuMs: 2500, warmWallMs: 1900, unwrittenMbAtStart: 118.6 } }, () => process.exit(0));
       }`,
    );
    const lines: string[] = [];
    const measured = await measureInChild(script, vault, (line) => lines.push(line));
    expect(measured?.row).toEqual({ label: 'stand-in', indexMs: NaN, warmMs: 1234, warmSliceMs: 56, warmBuildSliceMs: 41 });
    expect(measured?.details[0]).toBe('detail');
    expect(measured?.details[1]).toMatch(
      /warm start's longest slice: 41\.0 ms until complete, 56\.0 ms with the block bounds and phrase filters.*the process's CPU 2\.50 s \(all threads\) in 1\.90 s .*not yet on disk at its boot 119 MB$/,
    );
    expect(measured?.details[2]).toMatch(/^ +row measured in \d+ s in two processes/);
    expect(lines).toEqual([]);
    await expect(fsp.stat(nodePath.join(dir, vault.configDir))).rejects.toThrow(/ENOENT/);
  });

  it('with warmRuns, starts that many warm processes from the same saved index, keeps the first in the row and lists them all', async () => {
    const script = nodePath.join(dir, 'child.js');
    // Each warm process counts itself in a file beside the saved index and reports its number as its warm ms.
    await fsp.writeFile(
      script,
      `const fs = require('node:fs'), path = require('node:path');
       const vault = JSON.parse(process.argv[2]);
       const count = path.join(vault.path, vault.configDir, 'count');
       if (process.argv[3] === 'cold') {
         fs.writeFileSync(count, '0');
         process.send({ type: 'row', measured: { row: { label: vault.label, warmMs: NaN, warmSliceMs: NaN }, details: [] } }, () => process.exit(0));
       } else {
         const n = Number(fs.readFileSync(count, 'utf8')) + 1;
         fs.writeFileSync(count, String(n));
         process.send({ type: 'warm', warm: { warmMs: n * 1000, warmSliceMs: n * 10, warmBuildSliceMs: n, warmCpuMs: n * 900, warmWallMs: n * 1000, unwrittenMbAtStart: 120 / n } }, () => process.exit(0));
       }`,
    );
    const measured = await measureInChild(script, vault, () => undefined, 3);
    expect(measured?.row).toMatchObject({ warmMs: 1000, warmSliceMs: 10, warmBuildSliceMs: 1 });
    expect(measured?.details[1]).toMatch(
      /warm starts \(3 fresh processes .*: 1\.00 s \/ 10\.0 \(1\.0\) ms, CPU 0\.90 s in 1\.00 s, 120 MB unwritten; 2\.00 s \/ 20\.0 \(2\.0\) ms, CPU 1\.80 s in 2\.00 s, 60 MB unwritten; 3\.00 s \/ 30\.0 \(3\.0\) ms, CPU 2\.70 s in 3\.00 s, 40 MB unwritten; median 2\.00 s/,
    );
    expect(measured?.details[2]).toMatch(/^ +row measured in \d+ s in 4 processes .*warm start, 3 times\)$/);
  });

  it('gives each row process the vault as JSON and the phase, nothing more', async () => {
    const script = nodePath.join(dir, 'args.js');
    await fsp.writeFile(
      script,
      `const args = process.argv.slice(2);
       if (args[1] === 'cold') process.send({ type: 'row', measured: { row: { label: JSON.parse(args[0]).label, args: args.length }, details: [] } }, () => process.exit(0));
       else process.send({ type: 'warm', warm: { warmMs: args.length, warmSliceMs: 3, warmBuildSliceMs: 3, warmCpuMs: 1, warmWallMs: 1, unwrittenMbAtStart: 0 } }, () => process.exit(0));`,
    );
    expect((await measureInChild(script, vault, () => undefined))?.row).toEqual({
      label: vault.label,
      args: 2,
      warmMs: 2,
      warmSliceMs: 3,
      warmBuildSliceMs: 3,
    });
  });

  it('keeps the cold row with a reason when the warm process dies without figures', async () => {
    const script = nodePath.join(dir, 'warm-dies.js');
    await fsp.writeFile(
      script,
      `if (process.argv[3] === 'warm') { process.stderr.write('Error: no saved index\\n'); process.exit(1); }
       process.send({ type: 'row', measured: { row: { label: 'stand-in', warmMs: NaN, warmSliceMs: NaN }, details: [] } }, () => process.exit(0));`,
    );
    const errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let measured: Awaited<ReturnType<typeof measureInChild>>;
    try {
      measured = await measureInChild(script, vault, () => undefined);
    } finally {
      errors.mockRestore();
    }
    expect(measured?.row).toEqual({ label: 'stand-in', warmMs: NaN, warmSliceMs: NaN });
    expect(measured?.details[0]).toBe(
      '            warm start: not measured: its process ended (code 1) without figures: Error: no saved index',
    );
    await expect(fsp.stat(nodePath.join(dir, vault.configDir))).rejects.toThrow(/ENOENT/);
  });

  it('says why when the child dies without a row', async () => {
    const script = nodePath.join(dir, 'dies.js');
    await fsp.writeFile(
      script,
      `process.stderr.write('<--- Last few GCs --->\\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\\n 1: 0xb8d0a3 node::Abort() [node]\\n'); process.exit(134);`,
    );
    const lines: string[] = [];
    const errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await measureInChild(script, vault, (line) => lines.push(line))).toBeNull();
    } finally {
      errors.mockRestore();
    }
    expect(lines).toEqual([
      '  stand-in: not measured: its process ended (code 134) without a row: FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    ]);
    await expect(fsp.stat(nodePath.join(dir, vault.configDir))).rejects.toThrow(/ENOENT/);
  });

  it('says so when the row script does not exist', async () => {
    const lines: string[] = [];
    const errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await measureInChild(nodePath.join(dir, 'absent.cjs'), vault, (line) => lines.push(line))).toBeNull();
    } finally {
      errors.mockRestore();
    }
    expect(lines[0]).toMatch(
      /^ {2}stand-in: not measured: its process ended \(code 1\) without a row: Error: Cannot find module '.*absent\.cjs'$/,
    );
  });
});
