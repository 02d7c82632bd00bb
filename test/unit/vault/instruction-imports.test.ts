import { importPathsIn } from '../../../src/vault/instructions/instruction-imports';

/**
 * The `@path` imports of an instruction file (Claude Code's CLAUDE.md import rule, which Gemini
 * CLI's and Qwen Code's `@file.md` fall within): every path the agent would load must be found,
 * on the safe side; addresses, npm scopes and fenced code are not imports.
 */
describe('importPathsIn', () => {
  it('finds the imports Claude Code documents: relative, nested, home and absolute paths, at a line start or after a space', () => {
    const text = [
      'See @README for project overview and @package.json for available npm commands.',
      '- git workflow @guides/git-instructions.md',
      '@conventions.md',
      '- @~/.claude/my-project-instructions.md',
      'Shared: @../shared/style.md and @./local.md, @/abs/path.md', // the comma stays, as in Claude Code
    ].join('\n');
    expect(importPathsIn(text).sort()).toEqual(
      [
        '../shared/style.md',
        './local.md,',
        '/abs/path.md',
        'README',
        'conventions.md',
        'guides/git-instructions.md',
        'package.json',
        '~/.claude/my-project-instructions.md',
      ].sort(),
    );
  });

  it('cuts a #fragment, unescapes "\\ " and keeps trailing punctuation as Claude Code does', () => {
    expect(importPathsIn('Read @guides/My\\ rules.md#Style now')).toEqual(['guides/My rules.md']);
    expect(importPathsIn('Also @AGENTS.md.')).toEqual(['AGENTS.md.', 'AGENTS.md']);
    // Claude Code ends a path at a backslash that escapes no space; Gemini CLI takes it whole (a Windows path).
    expect(importPathsIn('Also @docs\\rules.md')).toEqual(['docs', 'docs\\rules.md']);
  });

  it('gives a path ending in dots or spaces also without them, the file Windows opens for it', () => {
    expect(importPathsIn('See @rules2.md.')).toEqual(['rules2.md.', 'rules2.md']);
    expect(importPathsIn('See @guides/a.md... and @b.md.\\ .')).toEqual(expect.arrayContaining(['guides/a.md...', 'guides/a.md', 'b.md']));
    // Nothing left, or only a folder or a dot: no second path.
    expect(importPathsIn('Up @.. and @./. and @dir/.')).toEqual(['..', './.', 'dir/.']);
    expect(importPathsIn('Plain @rules.md')).toEqual(['rules.md']);
  });

  it('finds an import inside emphasis or link text, also the path that ends where the mark begins', () => {
    expect(importPathsIn('**@rules.md**')).toEqual(expect.arrayContaining(['rules.md']));
    expect(importPathsIn('[@rules.md](https://example.com)')).toEqual(expect.arrayContaining(['rules.md']));
    expect(importPathsIn('_@style.md_ and `x`@code.md')).toEqual(expect.arrayContaining(['style.md', 'code.md']));
  });

  it('takes no address, npm scope, bare @ or decoration for an import, nor anything in a fenced code block', () => {
    expect(importPathsIn('mail me@example.md or x@y.md')).toEqual([]);
    expect(importPathsIn('an @ alone, @@scope, @#tag, @/ and @% here')).toEqual([]);
    const fenced = ['```sh', 'npm i @types/node', '```', '~~~', '@decorator.md', '~~~', 'after @after.md'].join('\n');
    expect(importPathsIn(fenced)).toEqual(['after.md']);
    // An unclosed fence runs to the end, as CommonMark reads it.
    expect(importPathsIn('```\n@inside.md\n')).toEqual([]);
    // A backtick line with a backtick in its info string opens no fence: what follows counts.
    expect(importPathsIn('``` a`b\n@counted.md\n')).toEqual(['counted.md']);
  });

  it('answers nothing for a text without @', () => {
    expect(importPathsIn('No imports here.\n')).toEqual([]);
  });
});
