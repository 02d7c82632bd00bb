import { quoteInput, ToolError } from '../../errors';

/**
 * Rules for the names of new notes and folders (create_note, move_note, create_folder).
 * Obsidian refuses file names with `* " \ / < > : | ?` (they break on some disks) and warns
 * that `# ^ [ ] |` break links ("File name cannot contain any of the following
 * characters"), so both sets are refused here with the rule spelled out.
 */

/** Characters a name may not contain, with why. */
const FORBIDDEN: ReadonlyArray<{ chars: RegExp; rule: string }> = [
  { chars: /[*"<>:|?\\]/, rule: 'file names may not contain * " \\ / < > : | ? (Obsidian and some disks refuse them)' },
  { chars: /[#^[\]]/, rule: 'note names may not contain # ^ [ ] | (they break [[links]])' },
];

/**
 * Unicode's default-ignorable code points (Default_Ignorable_Code_Point, DerivedCoreProperties.txt;
 * UTS #39 treats them as invisible): zero-width space, joiners and non-joiners, word joiner, BOM,
 * soft hyphen, bidirectional marks and controls ("Trojan Source", Unicode TR9), invisible math
 * operators, the combining grapheme joiner, variation selectors, tag characters, Hangul fillers.
 * A renderer draws none of them, so a name holding one looks the same as the name without it.
 */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Letters of the scripts whose spelling uses the zero-width (non-)joiner between letters (Unicode ch. 23.2: Arabic, Persian, Indic, …). */
const JOINING_SCRIPT =
  /[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}\p{sc=Thaana}]/u;
/** An emoji (with an optional skin-tone modifier or emoji presentation selector) ending the text before a joiner. */
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?$/u;
/** An emoji starting the text after a joiner. */
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
/** An emoji tag sequence (UTS #51: a black flag, tag characters, the cancel tag), e.g. the flag of Scotland. */
const TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

/**
 * True when the default-ignorable `char` at `index` of `name` is part of what a visible
 * character needs (UTS #51 emoji sequences; Unicode's joining rules), so it makes no look-alike:
 * a zero-width joiner between two emoji (`👩‍💻`); a joiner or non-joiner between letters of a
 * joining script (Persian `می‌خواهم`, Devanagari `क्‍ष`); the emoji presentation selector after
 * an emoji or before a keycap; tag characters inside a tag sequence (`inTags`).
 */
function neededInvisible(name: string, char: string, index: number, inTags: boolean): boolean {
  const before = name.slice(0, index);
  const after = name.slice(index + char.length);
  const prev = [...before].pop() ?? '';
  const next = [...after][0] ?? '';
  switch (char) {
    case '\u200d':
      return (EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after)) || (JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next));
    case '\u200c':
      return JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next);
    case '\ufe0f':
    case '\ufe0e':
      return /\p{Extended_Pictographic}/u.test(prev) || next === '\u20e3';
    default:
      return inTags;
  }
}

/**
 * The first invisible character of `name` that no visible character needs (see
 * {@link neededInvisible}), or null.
 * @param name one file or folder name.
 */
export function invisibleCharIn(name: string): string | null {
  const tags = new Set<number>();
  for (const m of name.matchAll(TAG_SEQUENCE)) for (let i = m.index + 2; i < m.index + m[0].length; i += 2) tags.add(i);
  for (const m of name.matchAll(DEFAULT_IGNORABLE)) {
    if (!neededInvisible(name, m[0], m.index, tags.has(m.index))) return m[0];
  }
  return null;
}

/** A character as `U+XXXX` (at least four hex digits). */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A character for an error message: itself, or `U+XXXX` when it cannot be seen. */
function shownChar(char: string): string {
  return /[\p{Cf}\p{Cc}\p{Zs}\p{Default_Ignorable_Code_Point}]/u.test(char) ? codePoint(char) : char;
}

/** A name for an error message, each invisible character shown as `<U+XXXX>` (`<` is in no name), so the agent sees what it sent. */
function shownName(name: string): string {
  return name.replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, (c) => `<${codePoint(c)}>`);
}

/** Windows' reserved device names (Microsoft's "Naming Files, Paths, and Namespaces"): no file or folder there may be named so, with any extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\.|$)/i;

/**
 * Refuses a new file or folder name that Windows reserves for a device (`CON`, `nul.md`,
 * `COM1.html`, any case, any extension): such a file cannot be made or synced on Windows, so a
 * vault opened or synced there would lose it.
 * @param segment one name (no `/`)
 * @throws ToolError('invalid_argument') naming the rule.
 */
export function assertNotDeviceName(segment: string): void {
  const device = DEVICE_NAME.exec(segment);
  if (device)
    throw new ToolError(
      'invalid_argument',
      `'${segment}' is named '${device[1]}', a name Windows reserves for a device (as are CON, PRN, AUX, NUL, COM1-9 and LPT1-9, with any extension): such a file cannot be made or synced there; choose another name.`,
    );
}

/** Longest file or folder name accepted, in UTF-8 bytes (disks allow 255; room is kept for temp-file suffixes). */
export const MAX_NAME_BYTES = 200;

/**
 * Checks every segment of a normalized vault path: at most {@link MAX_NAME_BYTES} bytes, none
 * of the forbidden characters, no invisible character ({@link invisibleCharIn}), no trailing dot or space (Windows and sync services drop those),
 * and no Windows device name ({@link assertNotDeviceName}).
 * @throws ToolError('invalid_argument') naming the segment and the rule.
 */
export function assertValidName(path: string): void {
  for (const segment of path.split('/')) {
    if (Buffer.byteLength(segment, 'utf8') > MAX_NAME_BYTES) {
      throw new ToolError(
        'invalid_argument',
        `The name '${segment.slice(0, 40)}…' is longer than ${MAX_NAME_BYTES} bytes (disks allow 255 per name); choose a shorter name.`,
      );
    }
    for (const { chars, rule } of FORBIDDEN) {
      const bad = chars.exec(segment);
      if (bad)
        throw new ToolError('invalid_argument', `'${shownName(segment)}' contains '${shownChar(bad[0])}': ${rule}; choose another name.`);
    }
    const invisible = invisibleCharIn(segment);
    if (invisible !== null) {
      throw new ToolError(
        'invalid_argument',
        `'${shownName(segment)}' contains '${codePoint(invisible)}': names may not contain invisible characters (Unicode's default-ignorable code points: zero-width spaces and joiners, bidirectional controls, variation selectors, tag characters, Hangul fillers), since a name that looks the same as another note's would stand beside it; remove it from the name (joiners stay allowed inside emoji sequences and between letters of scripts that join, such as Persian or Devanagari).`,
      );
    }
    if (/[. ]$/.test(segment) || /[. ]\.md$/i.test(segment)) {
      throw new ToolError(
        'invalid_argument',
        `'${shownName(/[. ]\.md$/i.test(segment) ? segment.slice(0, -3) : segment)}' ends with a dot or a space, which some disks and sync services drop; choose another name.`,
      );
    }
    assertNotDeviceName(segment);
  }
}

/**
 * The one rule for what a note is: a file whose extension is `md` exactly, as Obsidian's
 * `vault.getMarkdownFiles()` and metadata cache take it. An agent's `.MD` / `.Md` means that
 * extension and is written `.md`; any other path gets `.md` added. So `create_note T/y.MD`
 * creates `T/y.md`, a note every tool can then find (a file named `y.MD` would be none).
 * @param path a normalized vault path. @returns the path ending in `.md`.
 */
export function withMarkdownExtension(path: string): string {
  return /\.md$/i.test(path) ? `${path.slice(0, -3)}.md` : `${path}.md`;
}

/**
 * File types that are no note: those Obsidian opens as something else (help.obsidian.md "Accepted
 * file formats": Bases, Canvas, images, audio, video, PDF), and common text and office files it
 * does not open at all (an agent writing `notes.txt` or `data.json` means that file, not a note).
 */
const OTHER_FILE_TYPES =
  /\.(base|canvas|avif|bmp|gif|jpe?g|png|svg|webp|flac|m4a|mp3|ogg|wav|webm|3gp|mkv|mov|mp4|ogv|pdf|txt|json|csv|tsv|ya?ml|html?|xml|docx?|xlsx?|pptx?|zip)$/i;

/**
 * The remark for a note made at (or moved to) a path the agent typed with a file type that is no
 * note ({@link OTHER_FILE_TYPES}: `Scratch/img.png`, `notes.txt`): it became the note `Scratch/img.png.md`, a
 * Markdown text named after it, which may be what the agent meant (a note about a PDF) or not (an
 * image: Vault MCP writes notes only).
 * @param typed the path as the agent gave it. @param notePath the note's path, ending in `.md`.
 * @returns the sentence, or null when the typed name ends in `.md` or in no such type.
 */
export function otherFileTypeRemark(typed: string, notePath: string): string | null {
  const type = OTHER_FILE_TYPES.exec(typed.trim());
  if (type === null || !notePath.endsWith('.md')) return null;
  return (
    `${quoteInput(typed.trim())} ends in '${type[0]}', the type of a file that is no note: this is the ` +
    `note '${notePath}' (Markdown text). Vault MCP writes notes only, not images, PDFs, canvases or other files.`
  );
}
