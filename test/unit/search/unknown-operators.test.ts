import { unknownOperatorRemark } from '../../../src/search/query/parser/query-operators';

describe('unknownOperatorRemark', () => {
  it("names words written like an operator search does not have, and what to write: a property, or this syntax's operator", () => {
    expect(unknownOperatorRemark(['status:active'])).toBe(
      "'status:active' was searched as plain words: search has no such operator (its operators: file: path: content: " +
        'match-case: ignore-case: tag: has: line: block: section: task: task-todo: task-done:). Write [status:active] for a property instead.',
    );
    expect(unknownOperatorRemark(['Tags:project', 'folder:Projects', 'title:alpha', 'Tags:project'])).toMatch(
      /^'Tags:project', 'folder:Projects', 'title:alpha' were searched as plain words: .* Write tag:project, path:Projects, file:alpha instead\.$/,
    );
  });

  it('says nothing of operators, links, times, a word ending in a colon, or plain words', () => {
    for (const word of ['tag:x', 'PATH:a', 'https://example.com', 'mailto:a@b.c', '10:30', 'Note:', 'plain', 'a:/b']) {
      expect(unknownOperatorRemark([word])).toBeUndefined();
    }
  });
});
