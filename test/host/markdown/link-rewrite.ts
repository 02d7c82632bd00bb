import type * as O from 'obsidian';
import type { TFile } from '../vault/abstract-file';
import { parentPath } from '../vault/path';

/** One link in a note that must be rewritten after its target moved. */
export interface LinkEdit {
  /** Char offsets of the link in the note text, and the text expected there. */
  from: number;
  to: number;
  original: string;
  /** The file the link points to (already at its new path when the edit is applied). */
  target: TFile;
}

/** How a new linkpath is spelled: the shortest unique form or the full vault path. */
export type LinkpathStyle = (target: TFile, keepExtension: boolean, fullPath: boolean) => string;

/** Relative path from folder `from` to vault path `to` (`../x/y.md`). */
function relativePath(from: string, to: string): string {
  const a = from === '/' ? [] : from.split('/');
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

/**
 * The rewritten text of one wikilink or embed (`[[...]]`, `![[...]]`): only the linkpath
 * changes; `#subpath`, the `|alias` (or table-escaped `\|alias`) and the embed `!` stay exactly
 * as written. A linkpath that named a folder keeps a full path, one with `.md` keeps `.md`.
 */
export function rewriteWikilink(original: string, target: TFile, style: LinkpathStyle): string {
  const open = original.startsWith('!') ? 3 : 2;
  const inner = original.slice(open, -2);
  const m = /^(.*?)(\\?\||#|$)/.exec(inner) as RegExpExecArray;
  const oldPath = m[1];
  const next = style(target, /\.md$/i.test(oldPath.trim()), oldPath.includes('/'));
  return original.slice(0, open) + next + inner.slice(oldPath.length) + ']]';
}

/**
 * The rewritten text of a Markdown link or image (`[t](url)`, `![t](url)`): the destination
 * becomes the target's new path, relative to the note's folder when it was written relative
 * (`./`, `../`), else the shortest unique form; spaces are %20-encoded unless the destination
 * was in `<...>`. `#subpath` and the title are kept.
 */
export function rewriteMarkdownLink(original: string, sourcePath: string, target: TFile, style: LinkpathStyle): string {
  const m = /^(!?\[[^\]]*\]\()(\s*)(<[^>]*>|[^\s)]+)(.*)$/s.exec(original);
  if (!m) return original;
  const [, head, space, rawDest, tail] = m;
  const angled = rawDest.startsWith('<');
  const dest = angled ? rawDest.slice(1, -1) : rawDest;
  const hash = dest.indexOf('#');
  const subpath = hash < 0 ? '' : dest.slice(hash);
  const oldPath = hash < 0 ? dest : dest.slice(0, hash);
  const relative = oldPath.startsWith('./') || oldPath.startsWith('../');
  const keepExt = /\.md$/i.test(oldPath);
  let next = relative ? relativePath(parentPath(sourcePath), target.path) : style(target, keepExt, oldPath.includes('/'));
  if (relative && oldPath.startsWith('./') && !next.startsWith('.')) next = './' + next;
  if (relative && !keepExt && target.extension === 'md') next = next.replace(/\.md$/, '');
  const written = angled ? `<${next}${subpath}>` : encodeURI(next) + subpath;
  return head + space + written + tail;
}

/** Applies edits (any order) to `text`, skipping any whose text no longer matches `original`. */
export function applyLinkEdits(text: string, edits: Array<LinkEdit & { replacement: string }>): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.from - a.from)) {
    if (out.slice(e.from, e.to) !== e.original) continue;
    out = out.slice(0, e.from) + e.replacement + out.slice(e.to);
  }
  return out;
}

/**
 * Rewrites frontmatter wikilinks (`key: "[[Old]]"`) inside the frontmatter block of `text`,
 * replacing each `original` by its rewritten form. Returns the new text.
 */
export function rewriteFrontmatterLinks(
  text: string,
  frontmatterEnd: number,
  links: Array<{ original: string; replacement: string }>,
): string {
  let head = text.slice(0, frontmatterEnd);
  for (const l of links) head = head.split(l.original).join(l.replacement);
  return head + text.slice(frontmatterEnd);
}

/** Whether a cached reference is a wikilink/embed (else a Markdown link/image). */
export function isWikiReference(ref: O.Reference): boolean {
  return /^!?\[\[/.test(ref.original);
}
