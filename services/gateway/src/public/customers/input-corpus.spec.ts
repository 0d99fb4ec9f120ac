import { toBinary, toJson, type DescMessage } from '@bufbuild/protobuf';
import { INPUT_BODIES } from '../../../test/public/customers/input-bodies.js';
import { HttpError } from '../../http/errors.js';
import { readInput, readInputZod } from './input.js';

/** What a route makes of a body: the message customer-kyb receives (its wire bytes too), or the 422. */
function outcome(read: (descriptor: DescMessage, body: unknown) => unknown, message: DescMessage, body?: string) {
  try {
    const typed = read(message, body === undefined ? undefined : JSON.parse(body)) as Parameters<typeof toJson>[1];
    return {
      read: toJson(message, typed, { useProtoFieldName: true }),
      wire: Buffer.from(toBinary(message, typed)).toString('base64'),
    };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { refused: { status: error.httpStatus, code: error.code, message: error.message, errors: error.errors } };
  }
}

describe('the customer bodies read with zod as the descriptor reader read them', () => {
  it('has a body of every kind, each named once', () => {
    expect(new Set(INPUT_BODIES.map(({ name }) => name)).size).toBe(INPUT_BODIES.length);
    expect(INPUT_BODIES.length).toBeGreaterThan(1000);
  });

  it.each(INPUT_BODIES)('$name', ({ message, body }) => {
    // Stringified: the order of `errors` and of null_fields is part of the answer.
    expect(JSON.stringify(outcome(readInputZod, message, body))).toBe(
      JSON.stringify(outcome(readInput, message, body)),
    );
  });
});
