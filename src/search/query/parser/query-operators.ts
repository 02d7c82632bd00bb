import type { TextScope } from './query-ast';
import { inputExcerpt, quoteInput } from '../../../errors';
import { visibleText } from '../../../diff/visible-text';

/**
 * The operators of Obsidian's search syntax that take a value (`name:value`, Obsidian Help,
 * "Search operators"), each with the example an error message suggests, and which of them
 * limit a sub-query to one stretch of the note (`line:`, `block:`, `section:`, the task
 * operators, `content:`). The parser (query-parser.ts) reads them; this is the one list.
 */

/** Every operator, with the example its "without a value" error suggests (from Obsidian Help where it has one). */
const OPERATOR_EXAMPLES: Record<string, string> = {
  file: 'file:202209',
  path: 'path:"Daily notes/2022-07"',
  content: 'content:"happy cat"',
  'match-case': 'match-case:HappyCat',
  'ignore-case': 'ignore-case:ikea',
  tag: 'tag:#work',
  has: 'has:due',
  line: 'line:(mix flour)',
  block: 'block:(dog cat)',
  section: 'section:(dog cat)',
  task: 'task:(call OR email)',
  'task-todo': 'task-todo:call',
  'task-done': 'task-done:call',
};
const SCOPES: ReadonlySet<string> = new Set<string>(['content', 'line', 'block', 'section', 'task', 'task-todo', 'task-done']);

/** True when `name` (lower-cased, without the colon) is an operator of {@link OPERATOR_EXAMPLES}. */
export function isOperator(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(OPERATOR_EXAMPLES, name);
}

/** True when `name` is a stretch operator (its node is a `scope` of that {@link TextScope}). */
export function isScopeOperator(name: string): name is TextScope {
  return SCOPES.has(name);
}

/**
 * The example of operator `name` for an error message (`file:202209` for `file`).
 * @throws Error when `name` is not an operator (a parser bug: it checks {@link isOperator} first)
 */
export function operatorExample(name: string): string {
  if (!isOperator(name)) throw new Error(`operatorExample: "${name}" is not a search operator`);
  return OPERATOR_EXAMPLES[name];
}

/** Operators other search syntaxes have, read here as words, and this syntax's way to say the same. */
const OTHER_SYNTAXES: Record<string, string> = {
  tags: 'tag:',
  folder: 'path:',
  dir: 'path:',
  title: 'file:',
  name: 'file:',
  filename: 'file:',
};

/** Schemes of links an agent may paste, whose `name:` is no operator meant (`https://…`). */
const LINK_SCHEMES = /^(?:https?|ftp|mailto|obsidian|file|zotero|data)$/i;

/**
 * The remark for words written like an operator that is not one (`status:active`, `tags:project`):
 * they are searched as plain words (the index splits them at the colon), and no answer said so (a
 * newcomer's `status:active` ranked AGENTS.md first, session 43). Names what to write instead: a
 * property filter `[status:active]`, or this syntax's operator for another syntax's name (`tags:` →
 * `tag:`, `folder:` → `path:`, `title:` → `file:`).
 * @param words the query's words as written (QueryNode `word` texts)
 * @returns the sentence, or undefined when no word looks like an unknown operator.
 */
export function unknownOperatorRemark(words: readonly string[]): string | undefined {
  const written: string[] = [];
  const instead: string[] = [];
  for (const word of words) {
    const m = /^([A-Za-z][\w-]*):([^\s/].*)$/.exec(word);
    if (!m || isOperator(m[1].toLowerCase()) || LINK_SCHEMES.test(m[1]) || written.includes(word)) continue;
    written.push(word);
    const other = OTHER_SYNTAXES[m[1].toLowerCase()];
    // Echoed as every input is: cut, and what is drawn as nothing written out (errors.ts quoteInput).
    const value = visibleText(inputExcerpt(m[2]));
    instead.push(other === undefined ? `[${m[1]}:${value}] for a property` : `${other}${value}`);
  }
  if (written.length === 0) return undefined;
  const names = written.slice(0, 3).map(quoteInput);
  return (
    `${names.join(', ')} ${written.length === 1 ? 'was' : 'were'} searched as plain words: search has no such operator ` +
    `(its operators: ${Object.keys(OPERATOR_EXAMPLES).join(': ')}:). Write ${instead.slice(0, 3).join(', ')} instead.`
  );
}
