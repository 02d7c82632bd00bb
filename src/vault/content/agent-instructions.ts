import { TFile, type TFolder } from 'obsidian';
import { foldPath, isPathInside } from '../paths/paths';

/** File names that carry instructions for agents, in order of preference within one folder. */
export const AGENT_INSTRUCTION_FILES = ['AGENTS.md', 'AGENT.md'] as const;

/** {@link AGENT_INSTRUCTION_FILES} folded ({@link foldPath}): how a name is recognised whatever its case. */
const FOLDED_INSTRUCTION_NAMES: ReadonlySet<string> = new Set(AGENT_INSTRUCTION_FILES.map(foldPath));

/**
 * True when a vault path holds instructions that other agents are given: a file named
 * `AGENTS.md` / `AGENT.md` in any folder (read_note's `agent_md`, {@link nearestAgentInstructions},
 * which matches the name ignoring case), or anything in the skills folder (served to every key as
 * skills_list / skill_read and MCP prompts, skills.ts). Case and Unicode form are ignored
 * ({@link foldPath}), as the vault's own lookups ignore them: `agents.md` and an NFD-spelt skills
 * folder count. The rule behind "agent instructions are the user's to write" (write-gate.ts).
 * @param path a normalized vault path (file or folder, existing or not).
 * @param skillsFolder the skills folder's vault path (skillsFolderOf; never the vault root).
 */
export function isAgentInstructionPath(path: string, skillsFolder: string): boolean {
  if (path === '') return false;
  if (FOLDED_INSTRUCTION_NAMES.has(foldPath(path.slice(path.lastIndexOf('/') + 1)))) return true;
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
