import { TFile, type TFolder } from 'obsidian';

/** File names that carry instructions for agents, in order of preference within one folder. */
export const AGENT_INSTRUCTION_FILES = ['AGENTS.md', 'AGENT.md'] as const;

/**
 * The nearest agent-instructions file for a note: `AGENTS.md`, else `AGENT.md` (exact name
 * first, then ignoring case), in the note's folder, then each ancestor up to the vault root.
 * Nearest wins (docs/architecture.md#tool-contract, `read_note`: "nearest wins").
 * @param file the note being read.
 * @param accept filter for candidates (readability, skipping the note itself).
 * @returns the file, or null when no folder on the way up has an accepted one.
 */
export function nearestAgentInstructions(file: TFile, accept: (candidate: TFile) => boolean): TFile | null {
  for (let folder: TFolder | null = file.parent; folder; folder = folder.parent) {
    for (const name of AGENT_INSTRUCTION_FILES) {
      const candidates = folder.children.filter((c): c is TFile => c instanceof TFile);
      const match = candidates.find((c) => c.name === name) ?? candidates.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (match && accept(match)) return match;
    }
  }
  return null;
}
