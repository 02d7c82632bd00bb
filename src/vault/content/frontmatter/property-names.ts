/**
 * The one comparison of frontmatter property names (docs/tool-reference.md, `set_properties`):
 * names match ignoring case, as in Obsidian and `query_notes`, and ignoring Unicode form, as vault
 * paths do (NFC: a note written on macOS, or a name pasted from a file name, may spell `café` in
 * NFD, which looks the same). Used by every route that reads or writes a property by name:
 * `set_properties` and `write_note`'s `frontmatter_patch` (property-patch.ts), `query_notes`
 * (query-notes/evaluate.ts) and search's `[prop:value]` (query/note-filters.ts). The access rules'
 * own names and key labels compare in NFC too (access/rule-keys.ts, access/access-rules.ts).
 */

/** Any character outside ASCII: a name without one is its own NFC form. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * A property name in the form names are compared in: NFC, then lower case (`Café` in NFD and
 * `CAFÉ` give `café`). For comparison only, never a name to write.
 * @param name a property name as typed or as a note spells it.
 * @returns its folded form.
 */
export function propertyNameKey(name: string): string {
  return (NON_ASCII.test(name) ? name.normalize('NFC') : name).toLowerCase();
}

/**
 * The spellings `record` has of a property name, for one or many names: the exact one alone when
 * the record has it, else every key equal to it by {@link propertyNameKey}, in the record's key
 * order. The record's keys are folded once, at the first name not spelled exactly, so k names
 * against n keys cost n + k, not n × k (a long patch on a long frontmatter).
 * @param record parsed frontmatter (own keys only are read; not changed while the result is used).
 * @returns a function giving a name's matching keys: several when the note has more than one
 *   spelling and none is exact; none when it has no such property.
 */
export function propertySpellingsOf(record: Record<string, unknown>): (name: string) => string[] {
  let folded: Map<string, string[]> | undefined;
  return (name) => {
    if (Object.hasOwn(record, name)) return [name];
    if (folded === undefined) {
      folded = new Map();
      for (const key of Object.keys(record)) {
        const fold = propertyNameKey(key);
        const same = folded.get(fold);
        if (same) same.push(key);
        else folded.set(fold, [key]);
      }
    }
    return [...(folded.get(propertyNameKey(name)) ?? [])];
  };
}

/**
 * The key of `record` that the property `name` reads: the first key, in the record's order, equal
 * to it by {@link propertyNameKey} (a reading route takes the first of several spellings, as it
 * did by case alone; writes refuse that ambiguity: {@link propertySpellingsOf}).
 * @returns the key, or undefined when the record has no such property.
 */
export function findPropertyKey(record: Record<string, unknown>, name: string): string | undefined {
  const wanted = propertyNameKey(name);
  return Object.keys(record).find((key) => propertyNameKey(key) === wanted);
}
