import type { TextScope } from './query-ast';

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
