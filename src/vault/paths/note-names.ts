import { ToolError } from '../../errors';

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
  {
    // Invisible: zero-width space, word joiner, BOM, soft hyphen, and the bidirectional marks and controls (Unicode TR9; "Trojan Source").
    // Zero-width (non-)joiners stay allowed: emoji sequences and Persian or Indic words need them.
    chars: /[\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/,
    rule: "names may not contain invisible characters (a name that looks the same as another note's would stand beside it)",
  },
];

/** A character for an error message: itself, or `U+XXXX` when it cannot be seen. */
function shownChar(char: string): string {
  return /[\p{Cf}\p{Cc}\p{Zs}]/u.test(char) ? `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : char;
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
 * of the forbidden characters, no trailing dot or space (Windows and sync services drop those),
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
      if (bad) throw new ToolError('invalid_argument', `'${segment}' contains '${shownChar(bad[0])}': ${rule}; choose another name.`);
    }
    if (/[. ]$/.test(segment) || /[. ]\.md$/i.test(segment)) {
      throw new ToolError(
        'invalid_argument',
        `'${segment}' ends with a dot or a space, which some disks and sync services drop; choose another name.`,
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
