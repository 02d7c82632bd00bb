import * as z from 'zod';
import { SkillCatalog, skillsFolderOf } from '../../vault/skills';
import { defineTool } from '../tool';

/** `skill_read`: one whole skill (SKILL.md and the list of its other files). */
export const skillReadTool = defineTool({
  name: 'skill_read',
  title: 'Read skill',
  description: 'A skill by id: SKILL.md body and the paths of its other files.',
  kind: 'read',
  inputSchema: {
    id: z.string().min(1).describe('From skills_list.'),
  },
  annotations: { title: 'Read skill', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const folder = skillsFolderOf(ctx.settings.skills?.folder);
    const skill = await new SkillCatalog(ctx.notes).read(folder, args.id, ctx.scope);
    return {
      id: skill.id,
      name: skill.name,
      description: skill.description,
      path: skill.path,
      error: skill.error,
      body: skill.body,
      files: skill.files,
    };
  },
});
