import { fieldPath } from './validation.js';
import { describeJson, FieldProblems, firstProblemMessage } from '@corridor/validation';

describe('field problems and the 422 message', () => {
  it('seed 7: the message names the specific problem: the first field path and its first problem', () => {
    expect(
      firstProblemMessage({
        'owners.1.email': ['must be unique within the customer (case-insensitive)'],
        country: ['must equal incorporation_country (NG) for a business'],
      }),
    ).toBe('owners.1.email must be unique within the customer (case-insensitive)');
    expect(firstProblemMessage({})).toBe('(body) is invalid');
  });

  it('collects problems by path in the order found, once each', () => {
    const problems = new FieldProblems();
    expect(problems.isEmpty).toBe(true);
    problems.add('type', 'is required');
    problems.add(fieldPath('owners', 0, 'tin'), 'must be 5 to 50 characters (got 4)');
    problems.add('type', 'is required');
    problems.addAll({ type: ['another'] });
    expect(problems.errors).toEqual({
      type: ['is required', 'another'],
      'owners.0.tin': ['must be 5 to 50 characters (got 4)'],
    });
    expect(problems.resultOf(() => 1)).toEqual({ ok: false, errors: problems.errors });
    expect(new FieldProblems().resultOf(() => 1)).toEqual({ ok: true, value: 1 });
  });

  it('names JSON values the way a developer reads them', () => {
    expect([null, [], {}, 'x', 1, true].map(describeJson)).toEqual([
      'null',
      'an array',
      'an object',
      'a string',
      'a number',
      'a boolean',
    ]);
    expect(fieldPath('', 'country')).toBe('country');
  });
});
