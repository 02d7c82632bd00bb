/**
 * A synthetic but realistic vault for the scaling table: notes with YAML frontmatter (title,
 * tags, sometimes aliases), a title heading, sections with paragraphs drawn from a seeded
 * word generator whose vocabulary follows a Zipf-like law, wikilinks to other notes and
 * inline tags, spread over two levels of folders. The same seed and count give the same vault.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../../test/harness/seeded-random';

/** Distinct words in the generated language. */
export const VOCABULARY_SIZE = 30_000;
const STOPWORDS = [
  'the',
  'of',
  'and',
  'to',
  'in',
  'a',
  'is',
  'that',
  'for',
  'it',
  'as',
  'with',
  'on',
  'be',
  'by',
  'this',
  'from',
  'or',
  'at',
  'are',
];
const SYLLABLES = [
  'ka',
  'to',
  'ri',
  'men',
  'sel',
  'an',
  'vo',
  'lu',
  'tra',
  'pe',
  'do',
  'gin',
  'shi',
  'ur',
  'bal',
  'nex',
  'or',
  'fi',
  'quo',
  'zem',
];
/** Bumped when the generator's output changes, so cached vaults of an older shape are not reused. */
const GENERATOR_VERSION = 1;

/** The word of frequency rank `rank` (0 = most frequent): English stopwords first, then made-up words of 3–4 syllables, all distinct. */
export function vocabularyWord(rank: number): string {
  if (rank < STOPWORDS.length) return STOPWORDS[rank];
  let n = rank - STOPWORDS.length + 400;
  let word = '';
  while (n > 0) {
    word = SYLLABLES[n % SYLLABLES.length] + word;
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
}

/** Cumulative Zipf weights 1/(rank+1)^s over `size` ranks, for sampling by binary search. */
function zipfTable(size: number, s: number): Float64Array {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) cumulative[r] = total += 1 / Math.pow(r + 1, s);
  return cumulative;
}

function sample(table: Float64Array, random: () => number): number {
  const target = random() * table[table.length - 1];
  let lo = 0;
  let hi = table.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (table[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const capitalize = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** What was generated: notes, bytes of Markdown written, and how long it took (ms; 0 when reused from the cache). */
export interface GeneratedVault {
  path: string;
  notes: number;
  bytes: number;
  ms: number;
  reused: boolean;
}

/**
 * Writes `count` notes into `<cacheDir>/generated-<count>-s<seed>` (reused when a previous run
 * finished writing it: a marker file next to the folder records the count and bytes).
 * Files are written as they are generated, 32 at a time, so memory stays flat at 100k notes.
 * @throws Error when `count` is not a positive integer, or on a file-system error.
 */
export async function generateVault(cacheDir: string, count: number, seed = 1): Promise<GeneratedVault> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`generateVault: the note count must be a positive integer, got ${count}`);
  const dir = nodePath.join(cacheDir, `generated-${count}-s${seed}`);
  const marker = `${dir}.v${GENERATOR_VERSION}.done`;
  if (existsSync(marker) && existsSync(dir)) {
    const done = JSON.parse(await fsp.readFile(marker, 'utf8')) as { notes: number; bytes: number };
    return { path: dir, notes: done.notes, bytes: done.bytes, ms: 0, reused: true };
  }
  const started = performance.now();
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.rm(marker, { force: true });
  const random = seededRandom(seed);
  const words = zipfTable(VOCABULARY_SIZE, 1.05);
  const tags = zipfTable(300, 1.1);
  const titles: string[] = new Array<string>(count);
  const taken = new Set<string>();
  const areas = 12;
  const perFolder = 150;
  const text = (n: number): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(vocabularyWord(sample(words, random)));
    return out.join(' ');
  };
  const titleWords = (): string => {
    const n = 2 + Math.floor(random() * 3);
    const out: string[] = [];
    // Titles use the middle of the vocabulary (no stopwords), as note names are content words.
    for (let i = 0; i < n; i++)
      out.push(capitalize(vocabularyWord(STOPWORDS.length + (sample(words, random) % (VOCABULARY_SIZE - STOPWORDS.length)))));
    return out.join(' ');
  };
  const paragraph = (noteIndex: number): string => {
    const sentences: string[] = [];
    const n = 2 + Math.floor(random() * 4);
    for (let i = 0; i < n; i++) {
      let sentence = capitalize(text(6 + Math.floor(random() * 14)));
      const roll = random();
      if (roll < 0.12 && noteIndex > 0) sentence += ` see [[${titles[Math.floor(random() * noteIndex)]}]]`;
      else if (roll < 0.18) sentence += ` #${vocabularyWord(2000 + sample(tags, random))}`;
      sentences.push(`${sentence}.`);
    }
    return sentences.join(' ');
  };
  let bytes = 0;
  const pending = new Set<Promise<void>>();
  for (let i = 0; i < count; i++) {
    let title = titleWords();
    while (taken.has(title)) title = `${title} ${capitalize(vocabularyWord(sample(words, random) + STOPWORDS.length))}`;
    taken.add(title);
    titles[i] = title;
    const folderIndex = Math.floor(i / perFolder);
    const folder = `${capitalize(vocabularyWord(1000 + (folderIndex % areas)))}/${capitalize(vocabularyWord(5000 + folderIndex))}`;
    const noteTags = Array.from({ length: 1 + Math.floor(random() * 3) }, () => vocabularyWord(2000 + sample(tags, random)));
    const lines = ['---', `title: ${title}`, `tags: [${[...new Set(noteTags)].join(', ')}]`];
    if (random() < 0.2) lines.push(`aliases: [${capitalize(text(2))}]`);
    lines.push(
      `created: 2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      '---',
      '',
      `# ${title}`,
      '',
      paragraph(i),
      '',
    );
    const sections = 1 + Math.floor(random() * 4);
    for (let h = 0; h < sections; h++) {
      lines.push(`## ${capitalize(text(2 + Math.floor(random() * 3)))}`, '');
      const paragraphs = 1 + Math.floor(random() * 3);
      for (let p = 0; p < paragraphs; p++) lines.push(paragraph(i), '');
    }
    const body = lines.join('\n');
    bytes += Buffer.byteLength(body);
    const file = nodePath.join(dir, folder, `${title}.md`);
    const write = (async () => {
      await fsp.mkdir(nodePath.dirname(file), { recursive: true });
      await fsp.writeFile(file, body);
    })();
    pending.add(write);
    const settle = (): boolean => pending.delete(write);
    // Errors surface through Promise.race / Promise.all below; this handler only frees the slot.
    write.then(settle, settle);
    if (pending.size >= 32) await Promise.race(pending);
  }
  await Promise.all(pending);
  await fsp.writeFile(marker, JSON.stringify({ notes: count, bytes }));
  return { path: dir, notes: count, bytes, ms: performance.now() - started, reused: false };
}

/** Search queries for a generated vault: a frequent word, a mid-frequency word, a rare word, two words, a phrase, a prefix and a tag. */
export function generatedQueries(): string[] {
  const w = (rank: number): string => vocabularyWord(rank);
  return [w(30), w(300), w(8000), `${w(40)} ${w(900)}`, `"${w(20)} ${w(21)}"`, w(120).slice(0, 4), `tag:#${w(2003)}`];
}

/**
 * Queries whose every term is among the vocabulary's most frequent made-up words, so each
 * matches tens of thousands of notes at 100k: the worst case of ranked retrieval (every
 * holder is scored) and of a filter (every candidate evaluated), reported apart from
 * {@link generatedQueries}.
 */
export function heavyQueries(): string[] {
  const w = (rank: number): string => vocabularyWord(rank);
  return [w(20), `${w(21)} ${w(22)}`, `${w(23)} ${w(24)} ${w(25)} ${w(26)}`, `${w(27)} ${w(8000)}`, `${w(28)} -${w(29)}`];
}
