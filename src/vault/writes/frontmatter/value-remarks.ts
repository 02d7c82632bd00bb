import { quoteInput } from '../../../errors';
import { namesNoCalendarDay } from '../../content/frontmatter/calendar-date';
import { pathOfSyntheticId } from '../../paths/note-ref';

/**
 * What the result of a property write says of a value stored as given that readers will not take
 * as what it looks like:
 * - a text that starts like a date but names no calendar day (`2026-02-30`): Obsidian's date
 *   property shows it as invalid, and search's and query_notes' date comparisons skip it
 *   (calendar-date.ts namesNoCalendarDay);
 * - an `id` (any case) starting with `path:`: that prefix names a note by its path, so the note
 *   keeps its own `path:` id (note-ref.ts frontmatterId) and the id set reads another note or none.
 * @param key the property's name as stored. @param stored its value after the write.
 * @returns one sentence, or undefined when there is nothing to say.
 */
export function unreadValueRemark(key: string, stored: unknown): string | undefined {
  const items: unknown[] = Array.isArray(stored) ? stored : [stored];
  const day = items.find((item): item is string => typeof item === 'string' && namesNoCalendarDay(item));
  if (day !== undefined) {
    return (
      `${quoteInput(day)} in ${quoteInput(key)} is stored as given, but it names no calendar day (a month of 01–12, a day the ` +
      'month has): Obsidian shows it as an invalid date, and date comparisons in search and query_notes skip it.'
    );
  }
  if (key.toLowerCase() === 'id' && typeof stored === 'string' && pathOfSyntheticId(stored.trim()) !== null) {
    return (
      `${quoteInput(stored)} is stored as 'id', but an id starting with 'path:' names a note by its path: ` +
      "read_note's {id} does not read it as this note's id (the note keeps its own 'path:' id); give an id without that prefix."
    );
  }
  return undefined;
}
