import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  UpdateCustomerRequestSchema,
  UpgradeKybScopeRequestSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { HttpError } from '../http/errors.js';
import { structOfBody } from './body.js';

/** What customer-kyb receives: the request encoded and decoded as gRPC does. */
function acrossTheWire(body: unknown) {
  const request = create(UpdateCustomerRequestSchema, { customerId: 'c-1', body: structOfBody(body) });
  return fromBinary(UpdateCustomerRequestSchema, toBinary(UpdateCustomerRequestSchema, request));
}

describe('a request body as the Struct a service reads (decision 0008)', () => {
  it('arrives exactly as sent: null stays null, an omitted property stays absent (seed 2.1 rule 2)', () => {
    const sent = {
      business_name: 'Acme Ltd',
      website: null,
      expected_monthly_payments: 40,
      owners: [{ id: 'o-1', tin: null, has_control: false, ownership_percentage: 33.33 }, { first_name: 'Ada' }],
      nested: { deeper: [1, 'two', true, null, {}] },
    };
    const received = acrossTheWire(sent);
    expect(received.customerId).toBe('c-1');
    expect(received.body).toEqual(sent);
    expect(Object.keys(received.body ?? {})).not.toContain('trading_name');
    expect(received.body?.website).toBeNull();
    const [changed] = received.body?.owners as { tin?: null }[];
    expect(changed).toHaveProperty('tin', null);
    expect(changed).not.toHaveProperty('email');
  });

  it('keeps a wrong type as sent, for customer-kyb to name ("fifty" is its 422, not the gateway’s)', () => {
    const sent = { owners: [{ first_name: 'Ada', last_name: 'Obi', ownership_percentage: 'fifty' }] };
    const request = create(UpgradeKybScopeRequestSchema, { customerId: 'c-1', body: structOfBody(sent) });
    expect(fromBinary(UpgradeKybScopeRequestSchema, toBinary(UpgradeKybScopeRequestSchema, request)).body).toEqual(
      sent,
    );
  });

  it('refuses no body at all with 422 at (body): read as {}, a change of nothing would answer 200 (issue 18)', () => {
    expect(() => structOfBody(undefined)).toThrow(
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
      structOfBody(body);
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
