/**
 * The search-quality side of the bench: hit@5 / MRR@10 and the question halves, the labelled
 * sets themselves, SIF sentence vectors over a tiny hand-made vocabulary (never the npm model),
 * the bench's OpenAI-compatible embeddings server over real HTTP, reading a wink vector file,
 * and the fusion tuner's replay. No figures of the real vaults are asserted: they are printed
 * by `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { fuse, HYBRID_FUSION } from '../../../src/search/hybrid/fusion';
import { hybridLists } from '../../../src/search/hybrid/candidates';
import { answerEmbeddings, startEmbeddingsServer } from '../../../scripts/bench/quality/embeddings-server';
import {
  answerRank,
  byStanding,
  describeFusion,
  fusionGrid,
  neverBelow,
  objective,
  questionLosses,
  replayHybrid,
  type TuningRun,
} from '../../../scripts/bench/quality/fusion-tuning';
import { printQualityTables } from '../../../scripts/bench/quality/quality-table';
import { cell, classesOf, halves, quality, qualityByClass, type Question } from '../../../scripts/bench/quality/retrieval-metrics';
import { SifEncoder, vectorWords, zipfProbability, type WordVectors } from '../../../scripts/bench/quality/sif-embedding';
import { ensureWordVectors, loadWordVectors, wordVectorsFile } from '../../../scripts/bench/quality/word-vectors';
import { anyWordsQuery } from '../../../scripts/bench/quality/semantic';
import helpSet from '../../../scripts/bench/quality/semantic-questions.json';
import powershellSet from '../../../scripts/bench/quality/semantic-questions-powershell.json';
import { HELP_EN_VAULT } from '../../harness/temp-copy';

describe('hit@5 and MRR@10', () => {
  it('counts any listed answer, the first one found ranks the question', () => {
    const f = quality([
      { answers: ['a', 'b'], ranked: ['x', 'b', 'a'] },
      { answers: ['c'], ranked: ['1', '2', '3', '4', '5', 'c'] },
      { answers: ['d'], ranked: [] },
    ]);
    expect(f.n).toBe(3);
    expect(f.hitAt5).toBeCloseTo(1 / 3, 10);
    expect(f.mrrAt10).toBeCloseTo((1 / 2 + 1 / 6) / 3, 10);
    expect(cell(f)).toBe('0.33 / 0.22');
  });

  it('ignores answers past rank 10, gives zeros for no runs, refuses a question without answers', () => {
    expect(quality([{ answers: ['z'], ranked: [...'abcdefghij', 'z'] }]).mrrAt10).toBe(0);
    expect(quality([])).toEqual({ hitAt5: 0, mrrAt10: 0, n: 0 });
    expect(() => quality([{ answers: [], ranked: ['a'] }])).toThrow(/has no answers/);
  });

  it('alternates the halves within each class, so both hold every class', () => {
    const qs: Question[] = ['p', 'p', 'k', 'p', 'k', 's'].map((c, i) => ({ q: `q${i}`, answers: [`a${i}`], class: c }));
    expect(halves(qs)).toEqual(['held-out', 'tuning', 'held-out', 'held-out', 'tuning', 'held-out']);
    expect(classesOf(qs)).toEqual(['all', 'p', 'k', 's']);
    const runs = qs.map((q, i) => ({ answers: q.answers, ranked: i % 2 === 0 ? q.answers : [] }));
    const tuning = qualityByClass(qs, runs, 'tuning');
    // Tuning: q1 (missed) and q4 (found); held-out p: q0 (found) and q3 (missed).
    expect(tuning.get('all')).toEqual({ hitAt5: 0.5, mrrAt10: 0.5, n: 2 });
    expect(tuning.get('s')!.n).toBe(0);
    expect(qualityByClass(qs, runs, 'held-out').get('p')).toEqual({ hitAt5: 0.5, mrrAt10: 0.5, n: 2 });
    expect(qualityByClass(qs, runs, 'all').get('all')!.n).toBe(6);
  });
});

describe('the lexical-any row', () => {
  it('quotes each word (so "or" stays a word), drops stray quotes and ORs them', () => {
    expect(anyWordsQuery('  stop  folders or "sync" ')).toBe('"stop" OR "folders" OR "or" OR "sync"');
    expect(anyWordsQuery('canvas')).toBe('"canvas"');
    expect(anyWordsQuery('  ')).toBe('');
  });
});

describe('the labelled sets', () => {
  const sets = [helpSet, powershellSet] as Array<{ vault: string; questions: Question[] }>;

  it('hold at least 80 questions over two vaults, each class in each set, no question twice', () => {
    expect(sets.reduce((n, s) => n + s.questions.length, 0)).toBeGreaterThanOrEqual(80);
    for (const set of sets) {
      expect(new Set(set.questions.map((q) => q.class))).toEqual(new Set(['paraphrase', 'keyword', 'short']));
      expect(new Set(set.questions.map((q) => q.q)).size).toBe(set.questions.length);
      for (const q of set.questions) {
        expect(q.answers.length).toBeGreaterThan(0);
        expect(new Set(q.answers).size).toBe(q.answers.length);
      }
    }
  });

  const helpPresent = existsSync(HELP_EN_VAULT) ? it : it.skip;
  if (!existsSync(HELP_EN_VAULT)) console.log(`Skipping the help set's answer check: ${HELP_EN_VAULT} is absent.`);
  helpPresent('every obsidian-help-en answer is a note of that vault', () => {
    for (const q of helpSet.questions)
      for (const a of q.answers) expect([q.q, existsSync(nodePath.join(HELP_EN_VAULT, a))]).toEqual([q.q, true]);
  });

  const archive = nodePath.resolve(__dirname, '../../../../shared/vaults/windows-powershell-docs.tar.zst');
  const psPresent = existsSync(archive) ? it : it.skip;
  if (!existsSync(archive)) console.log(`Skipping the PowerShell set's answer check: ${archive} is absent.`);
  psPresent('every PowerShell answer is in the archive, and a cmdlet lists its note in every version folder', () => {
    const listed = execFileSync('tar', ['--zstd', '-tf', archive], { maxBuffer: 64 * 1024 * 1024 })
      .toString('utf8')
      .split('\n');
    const prefix = 'windows-powershell-docs/';
    const paths = listed.filter((p) => p.startsWith(prefix) && p.endsWith('.md')).map((p) => p.slice(prefix.length));
    const byName = new Map<string, string[]>();
    for (const p of paths) {
      if (p.startsWith('docs-conceptual/')) continue;
      const name = nodePath.posix.basename(p).toLowerCase();
      byName.set(name, [...(byName.get(name) ?? []), p]);
    }
    for (const q of powershellSet.questions) {
      const names = new Set(q.answers.map((a) => nodePath.posix.basename(a).toLowerCase()));
      const every = [...names].flatMap((n) => byName.get(n) ?? []);
      expect([q.q, [...q.answers].sort()]).toEqual([q.q, [...every].sort()]);
    }
  });
});

/** A five-word vocabulary in frequency order, 3 dimensions. */
function tinyVectors(): WordVectors {
  const words = ['the', 'dns', 'server', 'client', 'cache'];
  const rows = [
    [1, 1, 1],
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 0],
    [0.5, 0.5, 0],
  ];
  return { dim: 3, words, data: Float32Array.from(rows.flat()) };
}

describe('SIF sentence vectors', () => {
  it('splits unknown words at camel case and keeps the parts with vectors', () => {
    const has = (w: string) => ['get', 'dns', 'client', 'server', 'address', 'ad', 'user', 'ipv4'].includes(w);
    expect(vectorWords('Set-DnsClientServerAddress', has)).toEqual(['dns', 'client', 'server', 'address']);
    expect(vectorWords('Get-ADUser for IPv4', has)).toEqual(['get', 'ad', 'user', 'ipv4']);
    expect(vectorWords('## ¿Qué? 123', has)).toEqual([]);
  });

  it("reads word probabilities from frequency rank by Zipf's law (they sum to 1)", () => {
    const n = 1000;
    let sum = 0;
    for (let r = 0; r < n; r++) sum += zipfProbability(r, n);
    expect(sum).toBeCloseTo(1, 6);
    expect(zipfProbability(0, n) / zipfProbability(9, n)).toBeCloseTo(10, 10);
    expect(() => zipfProbability(n, n)).toThrow(/rank 1000 is outside 0…999/);
  });

  it('gives unit vectors orthogonal to the common component, frequent words weighing less', () => {
    const enc = new SifEncoder(tinyVectors(), { a: 0.05, removeCommon: true });
    const v = enc.encode('DNS client cache');
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    const dot = v.reduce((s, x, i) => s + x * enc.common![i], 0);
    expect(Math.abs(dot)).toBeLessThan(1e-5);
    const plain = new SifEncoder(tinyVectors(), { a: 0.05, removeCommon: false });
    // "the" is rank 0: its weight is the smallest, so adding it barely moves the vector.
    const withThe = plain.encode('the server');
    const without = plain.encode('server');
    expect(withThe.reduce((s, x, i) => s + x * without[i], 0)).toBeGreaterThan(0.8);
  });

  it('a text without known words gets one constant vector; bad vectors are refused', () => {
    const enc = new SifEncoder(tinyVectors());
    expect(Array.from(enc.encode('zzz qqq'))).toEqual([1, 0, 0]);
    expect(Array.from(enc.encode(''))).toEqual([1, 0, 0]);
    expect(() => new SifEncoder({ dim: 3, words: ['a'], data: new Float32Array(2) })).toThrow(/want 1 × 3 numbers, got 2/);
  });
});

describe('the bench embeddings server', () => {
  const encode = (t: string) => [t.length, 1];

  it('answers OpenAI-shaped embeddings and errors', () => {
    const ok = answerEmbeddings('POST', '/v1/embeddings', JSON.stringify({ model: 'm', input: ['ab', 'c d e'] }), 'm', encode);
    expect(ok).toEqual({
      status: 200,
      body: {
        object: 'list',
        model: 'm',
        usage: { prompt_tokens: 4, total_tokens: 4 },
        data: [
          { object: 'embedding', index: 0, embedding: [2, 1] },
          { object: 'embedding', index: 1, embedding: [5, 1] },
        ],
      },
    });
    expect(answerEmbeddings('POST', '/v1/embeddings', JSON.stringify({ model: 'm', input: 'x' }), 'm', encode).status).toBe(200);
    expect(answerEmbeddings('POST', '/v1/embeddings', JSON.stringify({ model: 'other', input: 'x' }), 'm', encode)).toMatchObject({
      status: 404,
      body: { error: { code: 'model_not_found' } },
    });
    expect(answerEmbeddings('POST', '/v1/embeddings', JSON.stringify({ model: 'm', input: [] }), 'm', encode)).toMatchObject({
      status: 400,
      body: { error: { param: 'input' } },
    });
    expect(answerEmbeddings('POST', '/v1/embeddings', '{not json', 'm', encode)).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringMatching(/could not parse/) } },
    });
    expect(answerEmbeddings('POST', '/v1/chat/completions', '{}', 'm', encode)).toMatchObject({
      status: 404,
      body: { error: { message: expect.stringMatching(/serves POST \/v1\/embeddings/) } },
    });
    expect(answerEmbeddings('GET', '/v1/models', '', 'm', encode)).toMatchObject({ status: 200, body: { data: [{ id: 'm' }] } });
  });

  it('serves them over real HTTP on 127.0.0.1', async () => {
    const server = await startEmbeddingsServer('m', encode);
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const res = await fetch(`${server.baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', input: 'hello' }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: Array<{ embedding: number[] }> }).data[0].embedding).toEqual([5, 1]);
    } finally {
      await server.close();
    }
  });
});

describe('the word-vector file', () => {
  it('reads a wink-format file in its words order and names a file of another shape', async () => {
    const dir = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-wink-'));
    try {
      const file = wordVectorsFile(dir);
      await fsp.mkdir(nodePath.dirname(file), { recursive: true });
      await fsp.writeFile(
        file,
        JSON.stringify({ dimensions: 2, words: ['the', 'gone', 'dns'], vectors: { the: [1, 2, 2.2, 0], dns: [3, 4, 5, 2] } }),
      );
      // Present already: nothing is installed.
      expect(ensureWordVectors(dir, () => {})).toEqual({ file });
      const v = loadWordVectors(file);
      expect(v.words).toEqual(['the', 'dns']);
      expect(Array.from(v.data)).toEqual([1, 2, 3, 4]);
      await fsp.writeFile(file, JSON.stringify({ words: [] }));
      expect(() => loadWordVectors(file)).toThrow(/is not a wink embeddings file .*delete it so the bench reinstalls it/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('fusion tuning', () => {
  const lists = [
    {
      allTerms: [{ key: 'a', score: 3 }],
      lexical: [
        { key: 'a', score: 3 },
        { key: 'b', score: 1 },
      ],
      any: [{ key: 'b', score: 2 }],
      semantic: [
        { key: 'b', score: 0.9 },
        { key: 'a', score: 0.2 },
      ],
    },
  ];

  it('replays hybrid search as it fuses (HYBRID_FUSION over hybridLists)', () => {
    expect(replayHybrid(lists)).toEqual([
      fuse(hybridLists(lists[0].allTerms, lists[0].lexical, lists[0].semantic), HYBRID_FUSION).map((e) => e.key),
    ]);
    expect(replayHybrid(lists, { method: 'rank', k: 60, weights: [0, 0, 1] })).toEqual([['b', 'a']]);
  });

  it('grids both families with one weight per list, and describes them as written in code', () => {
    const grid = fusionGrid();
    expect(grid.some((p) => p.method === 'rank') && grid.some((p) => p.method === 'score')).toBe(true);
    expect(grid.every((p) => p.weights.length === 3 && p.weights[2] > 0 && p.weights[0] + p.weights[1] >= p.weights[2])).toBe(true);
    expect(describeFusion({ method: 'score', normalization: 'max', weights: [0.3, 0.1, 0.6] })).toBe('score max weights=[0.3, 0.1, 0.6]');
  });

  it('the objective rewards figures and penalizes falling below the better half', () => {
    const even = { set: 's', cls: 'p', hybrid: { hitAt5: 0.5, mrrAt10: 0.5, n: 2 }, best: { hitAt5: 0.5, mrrAt10: 0.5 } };
    expect(objective([even])).toBeCloseTo(0.5, 10);
    expect(objective([{ ...even, best: { hitAt5: 0.75, mrrAt10: 0.5 } }])).toBeCloseTo(0.5 - 2 * 0.25, 10);
    expect(objective([])).toBe(0);
  });

  it('ranks the answer in the top 10, 10 when absent', () => {
    expect(answerRank(['b', 'c'], ['a', 'c', 'b'])).toBe(1);
    expect(answerRank(['z'], ['a', 'b'])).toBe(10);
    expect(answerRank(['k'], [...'abcdefghij', 'k'])).toBe(10);
  });

  it('counts questions hybrid ranks below the better of its halves, per split', () => {
    const questions: Question[] = [
      { q: 'one', answers: ['a'], class: 'p' },
      { q: 'two', answers: ['b'], class: 'p' },
    ];
    const run: TuningRun = {
      source: 's',
      set: 'v',
      questions,
      lists: [
        // Lexical has "a" first; semantic alone puts "z" above it.
        {
          allTerms: [],
          lexical: [{ key: 'a', score: 1 }],
          any: [],
          semantic: [
            { key: 'z', score: 0.9 },
            { key: 'a', score: 0.1 },
          ],
        },
        { allTerms: [], lexical: [{ key: 'b', score: 1 }], any: [], semantic: [{ key: 'b', score: 0.9 }] },
      ],
    };
    const semanticOnly = { method: 'rank', k: 60, weights: [0, 0, 1] } as const;
    expect(questionLosses([run], semanticOnly, 'all')).toBe(1);
    // Question one is the held-out half (the class's 1st question), question two the tuning half.
    expect(questionLosses([run], semanticOnly, 'held-out')).toBe(1);
    expect(questionLosses([run], semanticOnly, 'tuning')).toBe(0);
    expect(questionLosses([run], { method: 'rank', k: 60, weights: [0, 1, 0.5] }, 'all')).toBe(0);
  });

  it('orders parameter sets: safe first, then fewest questions below, then the objective', () => {
    const p = (k: number) => ({ method: 'rank' as const, k, weights: [0, 1, 1] });
    const standings = [
      { params: p(1), safe: false, lost: 0, objective: 0.9 },
      { params: p(2), safe: true, lost: 2, objective: 0.9 },
      { params: p(3), safe: true, lost: 1, objective: 0.5 },
      { params: p(4), safe: true, lost: 1, objective: 0.6 },
    ];
    expect([...standings].sort(byStanding).map((s) => s.params.k)).toEqual([4, 3, 2, 1]);
    const cellOf = (hit: number, best: number) => ({
      set: 's',
      cls: 'p',
      hybrid: { hitAt5: hit, mrrAt10: hit, n: 1 },
      best: { hitAt5: best, mrrAt10: best },
    });
    expect(neverBelow([cellOf(0.5, 0.5), cellOf(0.6, 0.5)])).toBe(true);
    expect(neverBelow([cellOf(0.4, 0.5)])).toBe(false);
  });
});

describe('the quality tables', () => {
  it('judges hybrid against lexical and its own semantic row only, never the lexical-any reference row', () => {
    const questions: Question[] = [{ q: 'q', answers: ['a'], class: 'p' }];
    const lines: string[] = [];
    printQualityTables(
      'v',
      'f.json',
      questions,
      [
        { label: 'lexical', ranked: [['x', 'y', 'z', 'w', 'v', 'a']] },
        { label: 'lexical-any', ranked: [['a']], reference: true },
        { label: 'semantic m', ranked: [['y', 'a']], half: 'm' },
        { label: 'hybrid m', ranked: [['y', 'a']], hybridOf: 'm' },
      ],
      (l) => lines.push(l),
    );
    expect(lines.filter((l) => l.includes('hybrid m ≥ its better half'))).toEqual([
      '  hybrid m ≥ its better half, held-out: all yes; p yes',
      '  hybrid m ≥ its better half, all: all yes; p yes',
    ]);
  });
});
