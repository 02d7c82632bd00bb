import { isAgentInstructionPath } from '../../../src/vault/instructions/agent-instructions';

/**
 * The rule behind "agent instructions are the user's to write" (write-gate.ts): which vault
 * paths hold instructions other agents are given. Case and Unicode form are ignored, as the
 * vault's own lookups (foldPath) and read_note's AGENTS.md lookup ignore them.
 */
describe('isAgentInstructionPath', () => {
  it('names AGENTS.md and AGENT.md in any folder and any case, and nothing else by name', () => {
    for (const path of ['AGENTS.md', 'Inbox/AGENTS.md', 'a/b/AGENT.md', 'Inbox/agents.md', 'Inbox/Agent.MD', 'x/aGeNtS.Md'])
      expect([path, isAgentInstructionPath(path, 'Skills')]).toEqual([path, true]);
    for (const path of ['', 'Inbox/AGENTS.md.bak', 'Inbox/MY AGENTS.md', 'AGENTS/note.md', 'Inbox/AGENTS', 'Agents notes.md'])
      expect([path, isAgentInstructionPath(path, 'Skills')]).toEqual([path, false]);
  });

  it("names the files coding agents read as instructions (Codex's AGENTS.override.md, Claude Code's CLAUDE.md and CLAUDE.local.md, Gemini CLI's GEMINI.md, Qwen Code's QWEN.md), in any case", () => {
    for (const path of ['CLAUDE.md', 'Areas/Finance/CLAUDE.md', 'a/claude.local.md', 'x/GEMINI.md', 'x/Gemini.MD'])
      expect([path, isAgentInstructionPath(path, 'Skills')]).toEqual([path, true]);
    for (const path of ['AGENTS.override.md', 'sub/agents.override.md', 'QWEN.md', 'a/Qwen.md'])
      expect([path, isAgentInstructionPath(path, 'Skills')]).toEqual([path, true]);
    for (const path of ['Claude notes.md', 'x/CLAUDE.md.bak', 'x/GEMINI', 'CLAUDE/note.md', 'AGENTS.override', 'x/AGENTS.overrides.md'])
      expect([path, isAgentInstructionPath(path, 'Skills')]).toEqual([path, false]);
  });

  it('names the skills folder and everything in it, ignoring case and Unicode form, but not a look-alike folder', () => {
    expect(isAgentInstructionPath('Skills', 'Skills')).toBe(true);
    expect(isAgentInstructionPath('Skills/summarize/SKILL.md', 'Skills')).toBe(true);
    expect(isAgentInstructionPath('skills/new/reference.md', 'Skills')).toBe(true);
    expect(isAgentInstructionPath('Skills2/x/SKILL.md', 'Skills')).toBe(false);
    expect(isAgentInstructionPath('Notes/Skills/x.md', 'Skills')).toBe(false);
    expect(isAgentInstructionPath('Comp\u00e9tences/r/SKILL.md', 'Compe\u0301tences')).toBe(true);
    expect(isAgentInstructionPath('Compe\u0301tences/r/SKILL.md', 'Comp\u00c9tences')).toBe(true);
    expect(isAgentInstructionPath('Team/Skills/a/SKILL.md', 'Team/Skills')).toBe(true);
  });
});
