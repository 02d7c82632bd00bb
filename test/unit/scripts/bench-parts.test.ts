/**
 * The bench's own parts: flags, percentiles, the seeded vault generator, the peer's failure
 * path and the multi-session throughput loop. Figures are never compared with time limits.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import VaultMcpPlugin from '../../../src/main';
import { DEFAULT_SCALE, FULL_SCALE, parseBenchArgs } from '../../../scripts/bench/options';
import { percentiles } from '../../../scripts/bench/measure';
import { warmRunsLine } from '../../../scripts/bench/scaling/scaling';
import { unwrittenFileMb } from '../../../scripts/bench/scaling/scaling-measure';
import { parseLoadArgs } from '../../../scripts/load/options';
import { failureKind } from '../../../scripts/load/drive';
import { generateVault, generatedQueries, vocabularyWord, VOCABULARY_SIZE } from '../../../scripts/bench/generate-vault';
import { benchPeerSearch } from '../../../scripts/bench/peer';
import { measureThroughput } from '../../../scripts/bench/throughput';
import { bootPlugin } from '../../harness/boot-plugin';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';

describe('parseBenchArgs', () => {
  it('runs 1k and 10k by default, adds 100k with --full, takes --scale over both', () => {
    expect(parseBenchArgs([])).toEqual({
      quick: false,
      peer: true,
      scale: DEFAULT_SCALE,
      rows: ['generated', 'powershell', 'powershell-x7'],
      warmRuns: 1,
      parts: ['onload', 'help', 'large', 'scale', 'semantic', 'vectors'],
      model: true,
      tuneFusion: false,
    });
    expect(parseBenchArgs(['--full']).scale).toEqual(FULL_SCALE);
    expect(parseBenchArgs(['--full', '--scale', '500, 100_000']).scale).toEqual([500, 100_000]);
    expect(parseBenchArgs(['--no-peer']).peer).toBe(false);
  });
  it('--quick drops the peer and the scaling table', () => {
    expect(parseBenchArgs(['--quick', '--full'])).toEqual({
      quick: true,
      peer: false,
      scale: [],
      rows: ['generated', 'powershell', 'powershell-x7'],
      warmRuns: 1,
      parts: ['onload', 'help'],
      model: false,
      tuneFusion: false,
    });
  });
  it('--no-model leaves the word-vector model out, --tune-fusion adds the fusion grid search', () => {
    expect(parseBenchArgs(['--only', 'semantic', '--no-model'])).toMatchObject({ parts: ['semantic'], model: false, tuneFusion: false });
    expect(parseBenchArgs(['--only', 'semantic', '--tune-fusion'])).toMatchObject({ model: true, tuneFusion: true });
  });
  it('--only picks parts; the scaling table is empty when not picked', () => {
    expect(parseBenchArgs(['--only', 'scale', '--scale', '100000'])).toMatchObject({ parts: ['scale'], scale: [100_000] });
    expect(parseBenchArgs(['--only', 'help,large'])).toMatchObject({ parts: ['help', 'large'], scale: [] });
    expect(parseBenchArgs(['--only', 'vectors', '--no-model'])).toMatchObject({ parts: ['vectors'], scale: [], model: false });
  });
  it('--rows picks the kinds of scaling row', () => {
    expect(parseBenchArgs(['--only', 'scale', '--scale', '100000', '--rows', 'powershell-x7'])).toMatchObject({
      scale: [100_000],
      rows: ['powershell-x7'],
    });
    expect(parseBenchArgs(['--rows', 'generated, powershell']).rows).toEqual(['generated', 'powershell']);
    expect(() => parseBenchArgs(['--rows', 'generated,x7'])).toThrow(
      /--rows wants scaling rows among generated, powershell, powershell-x7 .*got "x7"/,
    );
    expect(() => parseBenchArgs(['--rows'])).toThrow(/--rows wants scaling rows/);
  });
  it('--warm-runs sets the warm starts per scaling row (1 by default) and names what it wants on bad input', () => {
    expect(parseBenchArgs([]).warmRuns).toBe(1);
    expect(parseBenchArgs(['--only', 'scale', '--scale', '100000', '--warm-runs', '3'])).toMatchObject({ scale: [100_000], warmRuns: 3 });
    for (const bad of [[], ['0'], ['-1'], ['2.5'], ['x'], ['21'], ['1e1']]) {
      expect(() => parseBenchArgs(['--warm-runs', ...bad])).toThrow(
        /--warm-runs wants a whole number of warm starts per scaling row from 1 to 20/,
      );
    }
  });
  it('lists each warm start of a row and their medians', () => {
    const at = { warmCpuMs: 3_100, warmWallMs: 2_900, unwrittenMbAtStart: 116.4 };
    const line = warmRunsLine([
      { warmMs: 2_400, warmSliceMs: 37.1, warmBuildSliceMs: 30, ...at },
      { warmMs: 3_270, warmSliceMs: 138.5, warmBuildSliceMs: 138.5, ...at, unwrittenMbAtStart: 0.4 },
      { warmMs: 2_680, warmSliceMs: 48.8, warmBuildSliceMs: 40, ...at, unwrittenMbAtStart: NaN },
    ]);
    expect(line).toContain('warm starts (3 fresh processes from the same saved index');
    expect(line).toContain(
      '2.40 s / 37.1 (30.0) ms, CPU 3.10 s in 2.90 s, 116 MB unwritten; 3.27 s / 139 (139) ms, CPU 3.10 s in 2.90 s, 0 MB unwritten; ' +
        '2.68 s / 48.8 (40.0) ms, CPU 3.10 s in 2.90 s, ? MB unwritten',
    );
    expect(line).toMatch(/median 2\.68 s \/ 48\.8 \(40\.0\) ms$/);
    expect(
      warmRunsLine([
        { warmMs: 2_000, warmSliceMs: 10, warmBuildSliceMs: 8, ...at },
        { warmMs: 3_000, warmSliceMs: 20, warmBuildSliceMs: 12, ...at },
      ]),
    ).toMatch(/median 2\.50 s \/ 15\.0 \(10\.0\) ms$/);
  });
  it("reads the file data the kernel has yet to write from /proc/meminfo's Dirty and Writeback, NaN without the file", async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-meminfo-'));
    try {
      const meminfo = nodePath.join(dir, 'meminfo');
      await fsp.writeFile(
        meminfo,
        'MemTotal:       24000000 kB\nDirty:            113672 kB\nWriteback:          1952 kB\nWritebackTmp:        999 kB\n',
      );
      expect(await unwrittenFileMb(meminfo)).toBeCloseTo(((113_672 + 1_952) * 1024) / 1e6, 6);
      expect(await unwrittenFileMb(nodePath.join(dir, 'absent'))).toBeNaN();
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
  it('names the flag on bad input', () => {
    expect(() => parseBenchArgs(['--scale'])).toThrow(/--scale wants comma-separated positive note counts/);
    expect(() => parseBenchArgs(['--scale', '1000,ten'])).toThrow(/got "1000,ten"/);
    expect(() => parseBenchArgs(['--scale', '0'])).toThrow(/positive/);
    expect(() => parseBenchArgs(['--fast'])).toThrow(/Unknown bench flag "--fast"; use .*--no-model, --tune-fusion or --only/);
    expect(() => parseBenchArgs(['--only', 'help,peer'])).toThrow(
      /--only wants parts among onload, help, large, scale, semantic, vectors .*got "peer"/,
    );
    expect(() => parseBenchArgs(['--only'])).toThrow(/--only wants parts/);
  });
});

describe('percentiles', () => {
  it('takes nearest-rank percentiles', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(samples)).toEqual({ p50: 50, p95: 95, p99: 99, count: 100 });
    expect(percentiles([7])).toEqual({ p50: 7, p95: 7, p99: 7, count: 1 });
  });
  it('refuses an empty sample set', () => {
    expect(() => percentiles([])).toThrow(/no samples/);
  });
});

describe('generateVault', () => {
  let cache: string;
  beforeAll(async () => {
    cache = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-gen-test-'));
  });
  afterAll(async () => {
    await fsp.rm(cache, { recursive: true, force: true });
  });

  async function readAll(dir: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const entry of await fsp.readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) {
        const full = nodePath.join(entry.parentPath, entry.name);
        out.set(nodePath.relative(dir, full), await fsp.readFile(full, 'utf8'));
      }
    }
    return out;
  }

  it('writes the asked number of realistic notes, the same for the same seed', async () => {
    const a = await generateVault(nodePath.join(cache, 'a'), 300, 7);
    const b = await generateVault(nodePath.join(cache, 'b'), 300, 7);
    const c = await generateVault(nodePath.join(cache, 'c'), 300, 8);
    const notesA = await readAll(a.path);
    expect(notesA.size).toBe(300);
    expect(a.bytes).toBe([...notesA.values()].reduce((n, t) => n + Buffer.byteLength(t), 0));
    expect(await readAll(b.path)).toEqual(notesA);
    expect(await readAll(c.path)).not.toEqual(notesA);
    const texts = [...notesA.values()];
    for (const text of texts) {
      expect(text).toMatch(/^---\ntitle: .+\ntags: \[.+\]\n/);
      expect(text).toMatch(/\n# .+\n/);
      expect(text).toMatch(/\n## .+\n/);
    }
    const titles = new Set([...notesA.keys()].map((p) => nodePath.basename(p, '.md')));
    const links = texts.flatMap((t) => [...t.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => m[1]));
    expect(links.length).toBeGreaterThan(50);
    expect(links.every((l) => titles.has(l))).toBe(true);
    expect(texts.some((t) => /#[a-z]+\./.test(t))).toBe(true);
    expect(new Set([...notesA.keys()].map((p) => nodePath.dirname(p))).size).toBeGreaterThan(1);
  });

  it('reuses a finished vault from the cache', async () => {
    const again = await generateVault(nodePath.join(cache, 'a'), 300, 7);
    expect(again.reused).toBe(true);
    expect(again.notes).toBe(300);
  });

  it('draws words from a Zipf-like vocabulary of distinct words', () => {
    const words = new Set(Array.from({ length: VOCABULARY_SIZE }, (_, r) => vocabularyWord(r)));
    expect(words.size).toBe(VOCABULARY_SIZE);
    expect(generatedQueries()).toHaveLength(7);
  });

  it('refuses a note count that is not a positive integer', async () => {
    await expect(generateVault(cache, 0)).rejects.toThrow(/positive integer, got 0/);
    await expect(generateVault(cache, 2.5)).rejects.toThrow(/positive integer/);
  });
});

describe('benchPeerSearch', () => {
  it('throws a reason when the peer cannot start', async () => {
    const missing = nodePath.join(os.tmpdir(), 'vault-mcp-no-such-peer', 'server.js');
    await expect(benchPeerSearch(missing, os.tmpdir(), ['x'], { rounds: 1, budgetMs: 0 })).rejects.toThrow(
      /cannot start .*server\.js: .*Error: Cannot find module/,
    );
  });
});

describe('measureThroughput', () => {
  it('runs concurrent sessions over the demo vault without errors', async () => {
    const copy = await copyToTemp(DEMO_VAULT);
    const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: copy.dir });
    try {
      const result = await measureThroughput(
        booted.url,
        booted.token,
        { queries: ['project', 'idea'], paths: ['Home.md', 'Ideas.md'] },
        3,
        300,
      );
      expect(result.sessions).toBe(3);
      expect(result.errors).toBe(0);
      expect(result.calls).toBeGreaterThanOrEqual(3);
      expect(Object.keys(result.byTool)).toEqual(expect.arrayContaining(['search']));
      expect(result.p99).toBeGreaterThanOrEqual(result.p50);
    } finally {
      await booted.stop();
      await copy.cleanup();
    }
  });
  it('refuses an empty workload', async () => {
    await expect(measureThroughput('http://127.0.0.1:1/mcp', 'x', { queries: [], paths: ['a.md'] })).rejects.toThrow(
      /at least one query and one path/,
    );
  });
});

describe('load flags', () => {
  it('runs the 100k table only when --only names it', () => {
    expect(parseLoadArgs([]).parts).toEqual(['demo', 'large', 'memory']);
    expect(parseLoadArgs(['--quick']).parts).not.toContain('scale');
    expect(parseLoadArgs(['--only', 'scale', '--duration', '5'])).toMatchObject({ parts: ['scale'], durationS: 5 });
  });
  it('names the parts when --only gets an unknown one', () => {
    expect(() => parseLoadArgs(['--only', 'huge'])).toThrow(/--only wants parts among demo, large, memory, scale .*got "huge"/);
  });
});

describe('failureKind', () => {
  it('passes a good answer and names a bad one by status, tool error text or a missing result', () => {
    expect(failureKind(200, '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}')).toBeNull();
    expect(failureKind(408, '{"error":{"message":"The request took too long to arrive"}}')).toBe('HTTP 408');
    expect(failureKind(200, String.raw`{"result":{"content":[{"type":"text","text":"Regex \"a+\" is too slow"}],"isError":true}}`)).toBe(
      String.raw`tool error "Regex \"a+\" is too slow"`,
    );
    expect(failureKind(200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32603}}')).toBe('answer without a result');
  });
});
