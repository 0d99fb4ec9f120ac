import { MAX_JSON_DEPTH, jsonProblems, markInexactNumbers, repeatedKeys } from './input-boundary.js';

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

  it('names a number that would not read back as sent, and takes every one that would', () => {
    const problemsOf = (text: string) => jsonProblems(JSON.parse(text, markInexactNumbers));
    expect(
      problemsOf('{"a":0,"b":-0,"c":1e21,"d":0.1,"e":33.3330,"f":9007199254740991,"g":-12.5e-3,"h":1E+2}'),
    ).toEqual({});
    expect(problemsOf('{"big":1e400,"lossy":9007199254740993,"gone":1e-400,"list":[1,-1e309]}')).toEqual({
      big: [expect.stringMatching(/^must be a number that reads back as sent; 1e400 is beyond/)],
      lossy: [expect.stringContaining('9007199254740993')],
      gone: [expect.stringContaining('1e-400')],
      'list.1': [expect.stringContaining('-1e309')],
    });
  });

  it('names each key repeated in one object by its path, however it is escaped, and nothing else', () => {
    expect(repeatedKeys('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}],"s":"\\"a\\":"}')).toEqual({});
    expect(repeatedKeys('{"a":1,"b":2,"a":3}')).toEqual({ a: ['appears more than once in its object'] });
    expect(repeatedKeys('{"owners":[{"x":1},{"email":"a","\\u0065mail":"b"}]}')).toEqual({
      'owners.1.email': ['appears more than once in its object'],
    });
    expect(repeatedKeys('[{"k":[],"k":{}}]')).toEqual({ '0.k': ['appears more than once in its object'] });
    // Not JSON: nothing to say, body-parser refuses it
    expect(repeatedKeys('{"a":1,"a')).toEqual({});
    expect(repeatedKeys('{"a":1,"a":2')).toEqual({ a: ['appears more than once in its object'] });
  });
});
