import { isRecord, parseListFile, stringFieldProblem, type ListFileFormat } from '../../../../src/vault/plugin-files/list-file-codec';

const FORMAT: ListFileFormat = {
  version: 2,
  list: 'things',
  item: 'thing',
  problemOf: (t) => (isRecord(t) ? stringFieldProblem(t, ['name'], 'required') : 'not an object'),
};

describe('versioned list files', () => {
  test('reads the list of a file of its version, in order', () => {
    expect(parseListFile(JSON.stringify({ version: 2, things: [{ name: 'a' }, { name: 'b' }] }), FORMAT)).toEqual([
      { name: 'a' },
      { name: 'b' },
    ]);
    expect(parseListFile('{"version":2,"things":[]}', FORMAT)).toEqual([]);
  });

  test('refuses text that is not JSON, has no list, another version, or a malformed item, naming the first problem', () => {
    expect(() => parseListFile('{"version":2,', FORMAT)).toThrow(/^not valid JSON/);
    expect(() => parseListFile('[]', FORMAT)).toThrow('no "things" list');
    expect(() => parseListFile('{"version":2,"things":{}}', FORMAT)).toThrow('no "things" list');
    expect(() => parseListFile('{"version":1,"things":[]}', FORMAT)).toThrow('format version 1, expected 2');
    expect(() => parseListFile('{"version":2,"things":[{"name":"a"},{"name":""},7]}', FORMAT)).toThrow(
      'thing #2: "name" must be a non-empty string',
    );
    expect(() => parseListFile('{"version":2,"things":[null]}', FORMAT)).toThrow('thing #1: not an object');
  });

  test('string field rules: required, nullable, optional', () => {
    expect(stringFieldProblem({ a: 'x', b: 'y' }, ['a', 'b'], 'required')).toBeNull();
    expect(stringFieldProblem({ a: 'x' }, ['a', 'b'], 'required')).toBe('"b" must be a non-empty string');
    expect(stringFieldProblem({ a: null }, ['a'], 'nullable')).toBeNull();
    expect(stringFieldProblem({}, ['a'], 'nullable')).toBe('"a" must be a string or null');
    expect(stringFieldProblem({}, ['a'], 'optional')).toBeNull();
    expect(stringFieldProblem({ a: 3 }, ['a'], 'optional')).toBe('"a" must be a string');
    expect(isRecord([])).toBe(false);
    expect(isRecord(null)).toBe(false);
  });
});
