import { kafkaHeaders, storableText, storedHeaders } from './record.js';

describe('a dead letter as stored', () => {
  it('keeps every header value as bytes, repeated names in order, and gives them back as kafkajs does', () => {
    const stored = storedHeaders({
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'x-raw': Buffer.from([0, 255]),
      'x-twice': [Buffer.from('one'), 'two'],
      absent: undefined,
    });
    expect(stored).toEqual({
      traceparent: [Buffer.from('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01').toString('base64')],
      'x-raw': ['AP8='],
      'x-twice': ['b25l', 'dHdv'],
    });
    const back = kafkaHeaders(JSON.parse(JSON.stringify(stored)) as typeof stored);
    expect(back['x-twice']).toEqual([Buffer.from('one'), Buffer.from('two')]);
    expect(back['x-raw']).toEqual([Buffer.from([0, 255])]);
  });

  it('keeps a header named __proto__ as a name like any other', () => {
    const stored = storedHeaders(JSON.parse('{"__proto__": "x"}') as Record<string, string>);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.entries(stored)).toEqual([['__proto__', ['eA==']]]);
  });

  it('writes a header name with a NUL, which jsonb refuses, so the message can still be kept', () => {
    expect(Object.keys(storedHeaders({ 'a\u0000b': 'x' }))).toEqual(['a\ufffdb']);
  });

  it('keeps a reason storable: no NUL, bounded', () => {
    expect(storableText('a\u0000b')).toBe('ab');
    expect(storableText('x'.repeat(5_000))).toHaveLength(2_000);
  });
});
