import { toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_BODIES } from '../../../test/public/customers/input-bodies.js';
import { HttpError } from '../../http/errors.js';
import { readInput } from './input.js';

/**
 * Every body of the corpus is read as the descriptor reader it replaced read it (decision 0064):
 * input-corpus.json holds what that reader made of each, recorded before it was deleted. A body a
 * route reads differently is a change the platforms would see (a 422's message, the order of its
 * errors) or customer-kyb would (a field set or not, null_fields and their order).
 */

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../test/public/customers/input-corpus.json'), 'utf8'),
) as Record<string, unknown>;

/** What a route makes of a body: the message customer-kyb receives (presence shown), or the 422. */
function outcome(message: DescMessage, body?: string) {
  try {
    const typed: MessageShape<DescMessage> = readInput(message, body === undefined ? undefined : JSON.parse(body));
    return { read: toJson(message, typed, { useProtoFieldName: true }) };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return { refused: { status: error.httpStatus, code: error.code, message: error.message, errors: error.errors } };
  }
}

describe('the customer bodies, read with zod as they always were', () => {
  it('has an answer recorded for every body of the corpus, and a body for every answer', () => {
    expect(INPUT_BODIES.map(({ name }) => name)).toEqual(Object.keys(recorded));
  });

  it.each(INPUT_BODIES)('$name', ({ name, message, body }) => {
    // Stringified: the order of `errors` and of null_fields is part of the answer.
    expect(JSON.stringify(outcome(message, body))).toBe(JSON.stringify(recorded[name]));
  });
});
