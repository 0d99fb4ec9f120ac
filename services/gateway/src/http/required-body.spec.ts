import { HttpError } from './errors.js';
import { requiredJsonObject } from './input.js';

describe('a request body must be one JSON object (customer bodies: decision 0025; webhook bodies: 0026)', () => {
  it('refuses no body at all with 422 at (body): read as {}, a change of nothing would answer 200 (issue 18)', () => {
    expect(() => requiredJsonObject(undefined)).toThrow(
      expect.objectContaining({
        httpStatus: 422,
        code: 'VALIDATION_FAILED',
        message: 'the request body is required: send a JSON object',
        errors: { '(body)': ['is required: send a JSON object'] },
      }),
    );
  });

  it.each([
    ['an array', [{ business_name: 'Acme' }]],
    ['null', null],
    ['a string', 'Acme'],
    ['a number', 42],
    ['a boolean', true],
  ])('refuses %s with 422 VALIDATION_FAILED at (body)', (_name, body) => {
    let refusal: unknown;
    try {
      requiredJsonObject(body);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      httpStatus: 422,
      code: 'VALIDATION_FAILED',
      message: 'the request body must be a JSON object',
      errors: { '(body)': ['must be a JSON object'] },
    });
  });
});
