import { failureKind } from './failure.js';

/** An error as a driver makes it: a message and the fields it sets. */
const errorWith = (message: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(message), fields);

describe('failureKind: what an unexpected error says about its cause (issue 18)', () => {
  it.each([
    ['a refused connection', errorWith('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['a reset socket', errorWith('read ECONNRESET', { code: 'ECONNRESET' })],
    ['a DNS failure', errorWith('getaddrinfo EAI_AGAIN db', { code: 'EAI_AGAIN' })],
    ['PostgreSQL shut down by an administrator (57P01)', errorWith('terminating connection', { code: '57P01' })],
    ['PostgreSQL starting up (57P03)', errorWith('the database system is starting up', { code: '57P03' })],
    ['too many connections (53300)', errorWith('sorry, too many clients already', { code: '53300' })],
    ['a connection exception (08006)', errorWith('connection failure', { code: '08006' })],
    ['pg losing its connection', new Error('Connection terminated unexpectedly')],
    ['pg waiting for a pooled connection', new Error('timeout exceeded when trying to connect')],
    ['MikroORM wrapping a refused connection', errorWith('connect failed', { name: 'ConnectionException' })],
    ['redis closed', errorWith('The client is closed', { name: 'ClientClosedError' })],
    ['kafkajs unable to connect', errorWith('Connection error', { name: 'KafkaJSConnectionError' })],
    [
      'a refusal deep in the causes',
      errorWith('query failed', {
        previous: errorWith('wrapped', { cause: errorWith('x', { code: 'ECONNREFUSED' }) }),
      }),
    ],
    ['one of an AggregateError', new AggregateError([new Error('a'), errorWith('b', { code: 'ECONNREFUSED' })])],
  ])('%s is unavailable: a retry is the remedy', (_name, error) => {
    expect(failureKind(error)).toBe('unavailable');
  });

  it.each([
    ['NUL in jsonb (22P05)', errorWith('unsupported Unicode escape sequence', { code: '22P05' })],
    [
      'an invalid byte sequence (22021)',
      errorWith('invalid byte sequence for encoding "UTF8": 0x00', { code: '22021' }),
    ],
    ['a value too long (22001)', errorWith('value too long for type character varying(255)', { code: '22001' })],
    ['a number out of range (22003)', errorWith('numeric field overflow', { code: '22003' })],
    ['NUL in a bind parameter (08P01)', errorWith('invalid message format', { code: '08P01' })],
    ['an index row too large (54000)', errorWith('index row size exceeds maximum', { code: '54000' })],
    ['MikroORM carrying the state', errorWith('insert failed', { name: 'DriverException', sqlState: '22P05' })],
  ])('%s is a refused value: the caller’s input', (_name, error) => {
    expect(failureKind(error)).toBe('refused-value');
  });

  it.each([
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation the code did not expect (23505)', errorWith('duplicate key', { code: '23505' })],
    ['a syntax error in our SQL (42601)', errorWith('syntax error at or near', { code: '42601' })],
    ['a string', 'boom'],
    ['undefined', undefined],
    [
      'a cycle of causes',
      (() => {
        const a = errorWith('a');
        const b = errorWith('b', { cause: a });
        Object.assign(a, { cause: b });
        return a;
      })(),
    ],
  ])('%s is a defect', (_name, error) => {
    expect(failureKind(error)).toBe('defect');
  });
});
