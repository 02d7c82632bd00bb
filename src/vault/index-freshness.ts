import { type CachedMetadata, type EventRef, type MetadataCache, type TFile } from 'obsidian';
import { frontMatterInfo, lfView } from './content/text/line-endings';
import { collapseWhitespace } from './content/sections';

/**
 * Whether the metadata cache describes a given text. Obsidian indexes a note some time after
 * it changes, so heading positions read right after a write may belong to the old text;
 * heading edits check this first and wait for the index when it is behind.
 */

/**
 * True when `cache` plausibly was built from `text`: every cached heading sits at its
 * position with its text, the frontmatter block ends where the cache says (or both have
 * none), and the last cached section ends where the text's content ends. A note whose lines
 * end in `\r` alone is read with those as line breaks (line-endings.ts).
 */
export function cacheMatchesText(cache: CachedMetadata | null, raw: string): boolean {
  const text = lfView(raw);
  if (!cache) return text.trim() === '';
  for (const h of cache.headings ?? []) {
    const { start, end } = h.position;
    if (end.offset > text.length) return false;
    const line = collapseWhitespace(text.slice(start.offset, end.offset));
    if (!line.includes(collapseWhitespace(h.heading))) return false;
    const lineStart = text.lastIndexOf('\n', start.offset - 1) + 1;
    if (
      text
        .slice(lineStart, start.offset)
        .replace(/^\uFEFF/, '')
        .trim() !== ''
    )
      return false;
  }
  const fmEnd = cache.frontmatterPosition?.end.offset;
  const info = frontMatterInfo(text);
  if (fmEnd === undefined ? info.exists : !info.exists || text.slice(fmEnd - 3, fmEnd) !== '---') return false;
  const sections = cache.sections ?? [];
  if (sections.length === 0) return text.trim() === '' || (cache.headings ?? []).length === 0;
  const lastEnd = sections[sections.length - 1].position.end.offset;
  return lastEnd <= text.length && text.slice(lastEnd).trim() === '';
}

/**
 * Waits for the metadata cache's next `changed` event for `file` (Obsidian fires it with the
 * text it indexed), or until `timeoutMs` ms pass.
 * @returns the indexed text, or null on timeout.
 */
export function nextIndexed(metadataCache: MetadataCache, file: TFile, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const finish = (data: string | null): void => {
      metadataCache.offref(ref);
      clearTimeout(timer);
      resolve(data);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const ref: EventRef = metadataCache.on('changed', (changed, data) => {
      if (changed.path === file.path) finish(data);
    });
  });
}
