/**
 * The note the browser tests review and revert: "Lisbon trip" with a Plan and a Budget
 * section, and Claude Code's two-hunk edit of it (one line replaced in Plan, one added to
 * Budget). Plain text, shared by the entries bundled for Chromium and by the Node-side tests.
 */

/** The note's text (no frontmatter), ending in a newline. */
export const LISBON_NOTE = [
  '# Lisbon trip',
  '',
  '## Plan',
  '- Fly out on Friday morning',
  '- Stay three nights near Alfama',
  '- Visit the tile museum',
  '',
  '## Budget',
  'Flights cost about 240 euros each.',
  'The hotel is 95 euros per night.',
  '',
].join('\n');

/** `text` (holding {@link LISBON_NOTE}) after Claude Code's edit: four nights instead of three, and a Lisboa Card line after the hotel's. */
export function lisbonEdited(text: string): string {
  return text
    .replace('- Stay three nights near Alfama\n', '- Stay four nights near Alfama, checking out on Tuesday\n')
    .replace('The hotel is 95 euros per night.\n', 'The hotel is 95 euros per night.\nA Lisboa Card for three days is 45 euros.\n');
}
