import { SkillCatalog } from '../../vault/skills';
import { skillsFolderOf } from '../../vault/skills-folder';
import { defineTool } from '../tool';

/**
 * `skills_list`: the vault's skills (`<Skills folder>/<name>/SKILL.md`), metadata only; an
 * isError result when the skills folder is closed to the caller (quarantined, outside its roots).
 */
export const skillsListTool = defineTool({
  name: 'skills_list',
  title: 'List skills',
  description: 'Skills: id, name, description, SKILL.md path; error if malformed.',
  kind: 'read',
  inputSchema: {},
  annotations: { title: 'List skills', readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const folder = skillsFolderOf(ctx.settings.skills?.folder);
    const catalog = new SkillCatalog(ctx.notes);
    catalog.assertFolderOpen(folder, ctx.scope);
    const skills = await catalog.list(folder, ctx.scope);
    const out: Record<string, unknown> = { folder, skills };
    if (skills.length === 0)
      out.note = `No skills in ${folder}/; a skill is a folder ${folder}/<id>/ holding a SKILL.md with name: and description: frontmatter.`;
    return out;
  },
});
