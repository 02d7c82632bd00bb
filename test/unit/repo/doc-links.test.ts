/**
 * The documentation's pointers hold: README.md stays a front door (at most 12 KB), every pointer
 * at a Markdown file in a source, test or script comment (`docs/architecture.md#write-path`,
 * `CONTRIBUTING.md#conformance`, `DESIGN.md`) names a file of this repository and, with `#`, a
 * heading of it, and every relative link of README.md, CONTRIBUTING.md and docs/ does too. Anchors
 * follow GitHub's rule (see {@link githubAnchors}). A failure names the file, the pointer and
 * what is missing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodePath from 'node:path';

const ROOT = nodePath.resolve(__dirname, '../../..');
/** The README's size limit, bytes: well-kept plugins' READMEs are 2–12 KB front doors (issue 21). */
const README_MAX_BYTES = 12 * 1024;
/** Folders whose files may point at documentation, and the file kinds read there. */
const POINTER_FOLDERS = ['src', 'test', 'scripts'];
const POINTER_FILES = /\.(ts|mjs|js|yml)$/;
/** Vaults written for tests hold Markdown of their own, not pointers at ours; this file names missing files on purpose. */
const SKIPPED = /^test\/fixtures\/|^test\/unit\/repo\/doc-links\.test\.ts$/;
/**
 * A pointer at one of our Markdown files: `docs/<page>.md`, or one of the root files, with an
 * optional `#anchor`. The character before may not be part of a longer path
 * (`test/host/README.md` is not the root README).
 */
const POINTER = /(?<![\w./-])((?:docs\/[\w.-]+|README|CONTRIBUTING|CHANGELOG|DESIGN)\.md)(#[\w-]+)?/g;

/**
 * The anchors GitHub gives the headings of `markdown`: each heading's text lowercased, every
 * character that is not a letter, digit, space, `-` or `_` dropped, spaces turned into `-`; a
 * repeated anchor gets `-1`, `-2`, … Headings inside fenced code blocks are not headings.
 * @param markdown a Markdown document
 * @returns the set of anchors, without `#`
 */
export function githubAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every file under `dir` (repo-relative, `/`-separated), depth first. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(nodePath.join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(nodePath.join(ROOT, rel)).isDirectory()) out.push(...filesUnder(rel));
    else out.push(rel);
  }
  return out;
}

/**
 * What is wrong with a pointer at `target` (repo-relative) with `anchor` (without `#`, or
 * undefined), or null when both exist.
 */
function danglingReason(target: string, anchor: string | undefined): string | null {
  const file = nodePath.join(ROOT, target);
  if (!existsSync(file)) return `${target} is not in the repository`;
  if (anchor === undefined || !target.endsWith('.md') || statSync(file).isDirectory()) return null;
  const anchors = githubAnchors(readFileSync(file, 'utf8'));
  return anchors.has(anchor) ? null : `${target} has no heading with anchor #${anchor} (its anchors: ${[...anchors].join(', ')})`;
}

describe('githubAnchors', () => {
  it('makes anchors as GitHub does: lowercase, punctuation dropped, spaces to dashes, repeats numbered', () => {
    const anchors = githubAnchors(
      '# Tool reference\n## The `vault` input\n## Proposals\n## Proposals\n```\n# not a heading\n```\n### 100k notes: where the time goes (issue 20)\n## The tools/list budget\n## Search → quality',
    );
    expect([...anchors]).toEqual([
      'tool-reference',
      'the-vault-input',
      'proposals',
      'proposals-1',
      '100k-notes-where-the-time-goes-issue-20',
      'the-toolslist-budget',
      'search--quality',
    ]);
  });

  it('finds no anchor in a document without headings', () => {
    expect(githubAnchors('plain text\n#hashtag is not a heading')).toEqual(new Set());
  });
});

describe('README.md', () => {
  it(`is at most ${README_MAX_BYTES} bytes: everything else lives in docs/ and CONTRIBUTING.md`, () => {
    const bytes = statSync(nodePath.join(ROOT, 'README.md')).size;
    if (bytes > README_MAX_BYTES)
      throw new Error(`README.md is ${bytes} bytes, over ${README_MAX_BYTES}: move the detail to a page under docs/ and link it`);
    expect(bytes).toBeGreaterThan(0);
  });

  it('shows the inline review first and links the architecture and contributor pages', () => {
    const readme = readFileSync(nodePath.join(ROOT, 'README.md'), 'utf8');
    const firstImage = /!\[[^\]]*\]\(([^)]+)\)/.exec(readme);
    expect(firstImage?.[1]).toBe('docs/review-inline.png');
    expect(readme).toContain('](docs/architecture.md)');
    expect(readme).toContain('](CONTRIBUTING.md)');
  });
});

describe('pointers at the documentation in source, test and script comments', () => {
  const files = POINTER_FOLDERS.flatMap(filesUnder).filter((f) => POINTER_FILES.test(f) && !SKIPPED.test(f));

  it('are found at all (the scan reads the source tree)', () => {
    const pointers = files.flatMap((f) => [...readFileSync(nodePath.join(ROOT, f), 'utf8').matchAll(POINTER)]);
    expect(pointers.filter((m) => m[1] === 'docs/architecture.md').length).toBeGreaterThan(50);
  });

  it('each name a file of the repository and, with #, one of its headings', () => {
    const dangling: string[] = [];
    for (const file of files) {
      const text = readFileSync(nodePath.join(ROOT, file), 'utf8');
      for (const match of text.matchAll(POINTER)) {
        const reason = danglingReason(match[1]!, match[2]?.slice(1));
        if (reason) dangling.push(`${file}: "${match[0]}": ${reason}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('refuse a pointer at a missing file or heading, saying which', () => {
    expect(danglingReason('DESIGN.md', undefined)).toBe('DESIGN.md is not in the repository');
    expect(danglingReason('docs/architecture.md', 'no-such-section')).toMatch(
      /^docs\/architecture\.md has no heading with anchor #no-such-section \(its anchors: .*write-path/,
    );
    expect(danglingReason('docs/architecture.md', 'write-path')).toBeNull();
  });
});

describe('relative links in README.md, CONTRIBUTING.md and docs/', () => {
  const pages = ['README.md', 'CONTRIBUTING.md', ...filesUnder('docs').filter((f) => f.endsWith('.md'))];

  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = readFileSync(nodePath.join(ROOT, page), 'utf8');
    const dangling: string[] = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)\)|\bsrc="([^"]+)"/g)) {
      const link = (match[1] ?? match[2])!;
      if (/^[a-z]+:/i.test(link)) continue;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : nodePath.posix.normalize(nodePath.posix.join(nodePath.posix.dirname(page), path));
      const reason = danglingReason(target, anchor);
      if (reason) dangling.push(`(${link}): ${reason}`);
    }
    expect(dangling).toEqual([]);
  });
});
