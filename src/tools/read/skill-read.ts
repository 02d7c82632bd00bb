import * as z from 'zod';
import { ToolError } from '../../errors';
import { SkillCatalog } from '../../vault/skills';
import { skillsFolderOf } from '../../vault/skills-folder';
import { defineTool } from '../tool';
import { BODY_BUDGET, pageText } from './read-note';

/**
 * `skill_read`: one whole skill (SKILL.md and the list of its other files), or with `file` one of
 * those files' text, paged as read_note pages a body (SkillCatalog.readFile decides which files).
 */
export const skillReadTool = defineTool({
  name: 'skill_read',
  title: 'Read skill',
  description: "A skill by id: SKILL.md body and files; file: one file's text, paged.",
  kind: 'read',
  inputSchema: {
    id: z.string().describe('From skills_list.'),
    file: z.string().optional().describe('As in files.'),
    offset: z.number().int().min(0).optional().describe('After has_more.'),
  },
  annotations: { title: 'Read skill', readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const folder = skillsFolderOf(ctx.settings.skills?.folder);
    const catalog = new SkillCatalog(ctx.notes);
    if (args.file === undefined) {
      if (args.offset !== undefined)
        throw new ToolError('invalid_argument', 'offset pages one file of the skill; give file too (the SKILL.md body comes whole).');
      const skill = await catalog.read(folder, args.id, ctx.scope);
      const out: Record<string, unknown> = {
        id: skill.id,
        name: skill.name,
        description: skill.description,
        path: skill.path,
        error: skill.error,
        body: skill.body,
        files: skill.files,
      };
      if (skill.files.length > 0) out.note = `Read one of files with skill_read {"id": ${JSON.stringify(skill.id)}, "file": "<path>"}.`;
      return out;
    }
    const file = await catalog.readFile(folder, args.id, args.file, ctx.scope);
    const page = pageText(file.text, args.offset ?? 0, BODY_BUDGET);
    const out: Record<string, unknown> = {
      id: file.id,
      path: file.path,
      size: file.size,
      content: page.text,
      content_length: page.length,
      content_offset: page.offset,
      has_more: page.hasMore,
    };
    if (page.hasMore)
      out.note = `File cut at ${page.next} of ${page.length} chars; call skill_read with the same id and file and offset=${page.next} for the rest.`;
    return out;
  },
});
