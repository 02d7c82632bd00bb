import { absentPropertiesRemark, requiredPropertyNames } from '../../../src/search/query/absent-properties';
import { parseQuery } from '../../../src/search/query/parser/query-parser';

describe('requiredPropertyNames', () => {
  it('lists the properties a match needs, once each ignoring case, in query order; not those under a "-"', () => {
    expect(requiredPropertyNames(parseQuery('[due:>2026-03] [Status:active] OR [status:done] alpha'))).toEqual(['due', 'Status']);
    expect(requiredPropertyNames(parseQuery('-[draft] -(-[kept]) line:([inline:x])'))).toEqual(['kept', 'inline']);
    // `[due:-(>X)]` needs the property (it is there, with another value).
    expect(requiredPropertyNames(parseQuery('[due:-(>2026-04-01)]'))).toEqual(['due']);
    expect(requiredPropertyNames(parseQuery('alpha "beta gamma" tag:x'))).toEqual([]);
  });
});

describe('absentPropertiesRemark', () => {
  const held = ['tags', 'Status', 'started', 'aliases'];

  it('names the closest spellings the notes have, at most one edit away for names of up to four characters', () => {
    expect(absentPropertiesRemark(['staus'], held, 'file.tags has every tag')).toBe(
      "No note you can read has the property 'staus' (names ignore case); check the spelling: the notes have 'Status'.",
    );
    expect(absentPropertiesRemark(['STARTD'], held, 'x')).toMatch(/the notes have 'started'\.$/);
    // 'tg' is two edits from 'tags': too far for a short name.
    expect(absentPropertiesRemark(['tg'], held, 'x')).toMatch(/list_notes shows each note's frontmatter\.$/);
  });

  it("points a 'tag' or 'tags' property at the tool's own way to read tags", () => {
    expect(absentPropertiesRemark(['tag', 'nope'], held, 'file.tags has every tag of a note')).toBe(
      "No note you can read has the properties 'tag', 'nope' (names ignore case); check the spelling: the notes have 'tags'. " +
        'For tags, file.tags has every tag of a note, inline ones too.',
    );
  });
});
