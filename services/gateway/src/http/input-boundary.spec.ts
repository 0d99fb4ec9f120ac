import { MAX_JSON_DEPTH, jsonProblems } from './input-boundary.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
};

describe('the input boundary: what no route can take, named where it is (issue 18)', () => {
  it('accepts ordinary text, including tab, line feed and carriage return, and every other JSON value', () => {
    expect(
      jsonProblems({
        name: 'Ada Ọbí ‘quoted’ 🙂',
        note: 'line one\nline two\r\n\tindented',
        amount: 1e21,
        flags: [true, false, null],
        owners: [{ first_name: 'Ada' }],
      }),
    ).toEqual({});
  });

  it('names each string holding NUL or another C0 control character, by its path', () => {
    expect(
      jsonProblems({ email: 'a\u0000b@x.com', owners: [{ first_name: 'A' }, { last_name: 'B\u001b[31m' }] }),
    ).toEqual({
      email: [expect.stringContaining('must not contain control characters')],
      'owners.1.last_name': [expect.stringContaining('must not contain control characters')],
    });
    expect(jsonProblems('\u0007')).toEqual({ '(body)': [expect.any(String)] });
  });

  it('names a key holding a control character', () => {
    expect(Object.keys(jsonProblems({ 'bad\u0000key': 1 }))).toEqual(['bad?key']);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, without recursion`, () => {
    expect(jsonProblems(nested(MAX_JSON_DEPTH))).toEqual({});
    const deeper = jsonProblems(nested(MAX_JSON_DEPTH + 1));
    expect(Object.values(deeper)).toEqual([[`nests deeper than ${MAX_JSON_DEPTH} levels`]]);
    // 100,000 levels: JSON.parse takes it, and so must the check (no stack overflow).
    const deep = JSON.parse('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)) as unknown;
    expect(Object.keys(jsonProblems(deep))).toHaveLength(1);
  });
});
