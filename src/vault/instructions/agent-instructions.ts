import { TFile, type TFolder } from 'obsidian';
import { foldPath, isPathInside } from '../paths/paths';

/** File names that carry instructions for agents, in order of preference within one folder. */
export const AGENT_INSTRUCTION_FILES = ['AGENTS.md', 'AGENT.md'] as const;

/**
 * Every file name that carries instructions for agents, and so is the user's to write: the names
 * served as `agent_md` ({@link AGENT_INSTRUCTION_FILES}), and the files coding agents read as
 * instructions in the folder they run in and its parents (or, for Codex, down from the project
 * root), which a vault may be for them: OpenAI Codex's `AGENTS.override.md`, read before
 * `AGENTS.md` in each folder (developers.openai.com, Codex "Custom instructions with AGENTS.md":
 * "In each directory along the path, it checks for AGENTS.override.md, then AGENTS.md"); Claude
 * Code's `CLAUDE.md` and `CLAUDE.local.md` (docs.claude.com, Claude Code "Manage Claude's memory");
 * Gemini CLI's `GEMINI.md` (geminicli.com, "Provide context with GEMINI.md files"); Qwen Code's
 * `QWEN.md` (Qwen Code's docs, "Memory": "QWEN.md in the project root"). What these agents read
 * from dot-folders (`.claude/rules/`, `.github/copilot-instructions.md`, `.cursor/rules/`) is
 * beyond every key already: no tool reaches a dot-name (docs/security.md); the notes Claude Code's
 * `.claude/CLAUDE.md` and `.claude/rules/` import are held by InstructionPlaces. Only writes are held
 * for these; read_note serves AGENT_INSTRUCTION_FILES alone.
 */
export const HELD_INSTRUCTION_FILES = [
  ...AGENT_INSTRUCTION_FILES,
  'AGENTS.override.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'GEMINI.md',
  'QWEN.md',
] as const;

/**
 * The instruction files whose agents expand `@path` imports in them (instruction-imports.ts):
 * Claude Code's `CLAUDE.md` and `CLAUDE.local.md`, Gemini CLI's `GEMINI.md`, Qwen Code's `QWEN.md`
 * (the same import processor). Codex reads `AGENTS.md` / `AGENTS.override.md` as they are.
 */
const IMPORTING_INSTRUCTION_FILES: ReadonlySet<string> = new Set(['CLAUDE.md', 'CLAUDE.local.md', 'GEMINI.md', 'QWEN.md'].map(foldPath));

/**
 * True when the last segment of a vault path names a file whose agent expands `@path` imports
 * in it ({@link IMPORTING_INSTRUCTION_FILES}), ignoring case and Unicode form ({@link foldPath}).
 * @param path a normalized vault path, or a bare name.
 */
export function importsInstructions(path: string): boolean {
  return IMPORTING_INSTRUCTION_FILES.has(foldPath(path.slice(path.lastIndexOf('/') + 1)));
}

/** {@link HELD_INSTRUCTION_FILES} folded ({@link foldPath}): how a name is recognised whatever its case. */
const FOLDED_INSTRUCTION_NAMES: ReadonlySet<string> = new Set(HELD_INSTRUCTION_FILES.map(foldPath));

/**
 * True when the last segment of a vault path (a file or folder name) is one of
 * {@link HELD_INSTRUCTION_FILES}, ignoring case and Unicode form ({@link foldPath}).
 * @param path a normalized vault path, or a bare name.
 */
export function hasInstructionName(path: string): boolean {
  return FOLDED_INSTRUCTION_NAMES.has(foldPath(path.slice(path.lastIndexOf('/') + 1)));
}

/**
 * True when a vault path holds instructions that agents are given: an entry named like
 * {@link HELD_INSTRUCTION_FILES} in any folder (`AGENTS.md` / `AGENT.md`: read_note's `agent_md`,
 * {@link nearestAgentInstructions}, which matches the name ignoring case; `AGENTS.override.md`,
 * `CLAUDE.md`, `GEMINI.md`: what coding agents read), or anything in the skills folder (served to every key as skills_list /
 * skill_read and MCP prompts, skills.ts). Case and Unicode form are ignored ({@link foldPath}), as
 * the vault's own lookups ignore them: `agents.md` and an NFD-spelt skills folder count. A folder
 * by such a name counts too: it would take the file's place. The rule by name behind "agent
 * instructions are the user's to write" (write-gate.ts); InstructionPlaces adds the places links lead to.
 * @param path a normalized vault path (file or folder, existing or not).
 * @param skillsFolder the skills folder's vault path (skillsFolderOf; never the vault root).
 */
export function isAgentInstructionPath(path: string, skillsFolder: string): boolean {
  if (path === '') return false;
  if (hasInstructionName(path)) return true;
  return skillsFolder !== '' && isPathInside(path, skillsFolder, true);
}

/**
 * The nearest agent-instructions file for a note: `AGENTS.md`, else `AGENT.md` (exact name
 * first, then ignoring case and Unicode form: {@link foldPath}, as {@link isAgentInstructionPath}), in the note's folder, then each ancestor up to the vault root.
 * Nearest wins (docs/architecture.md#tool-contract, `read_note`: "nearest wins").
 * @param file the note being read.
 * @param accept filter for candidates (readability, skipping the note itself).
 * @returns the file, or null when no folder on the way up has an accepted one.
 */
export function nearestAgentInstructions(file: TFile, accept: (candidate: TFile) => boolean): TFile | null {
  for (let folder: TFolder | null = file.parent; folder; folder = folder.parent) {
    for (const name of AGENT_INSTRUCTION_FILES) {
      const candidates = folder.children.filter((c): c is TFile => c instanceof TFile);
      const match = candidates.find((c) => c.name === name) ?? candidates.find((c) => foldPath(c.name) === foldPath(name));
      if (match && accept(match)) return match;
    }
  }
  return null;
}
