import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  CustomerInputSchema,
  DocumentInputSchema,
  OwnerFileUploadInputSchema,
  ReviewInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  KybDocumentType,
  OwnerFileSlot,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { UpdateCustomerRequestSchema } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { jsonOfInput } from '@corridor/testing';
import { HttpError } from '../../http/errors.js';
import { readInput } from './input.js';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/** What customer-kyb receives and reads back as JSON: the request encoded and decoded as gRPC does. */
function acrossTheWire(body: unknown) {
  const request = create(UpdateCustomerRequestSchema, {
    customerId: 'c-1',
    customer: readInput(CustomerInputSchema, body),
  });
  const received = fromBinary(UpdateCustomerRequestSchema, toBinary(UpdateCustomerRequestSchema, request));
  return jsonOfInput(CustomerInputSchema, received.customer ?? {}, CUSTOMER_INPUT_WORDS);
}

/** The 422 a body is refused with. */
function refusal(descriptor: Parameters<typeof readInput>[0], body: unknown): HttpError {
  try {
    readInput(descriptor, body);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('a customer body as its typed message (decision 0025)', () => {
  it('arrives exactly as sent: null stays null, an omitted property stays absent (seed 2.1 rule 2)', () => {
    const sent = {
      type: 'business',
      business_name: 'Acme Ltd',
      website: null,
      expected_monthly_payments: 40,
      business_type: 'non_profit',
      estimated_annual_revenue: '0_99999',
      owners: [
        {
          id: 'o-1',
          tin: null,
          has_control: false,
          ownership_percentage: 33.333334,
          id_document_type: 'drivers_license',
        },
        { first_name: 'Ada' },
      ],
    };
    const received = acrossTheWire(sent);
    expect(received).toEqual(sent);
    expect(received).not.toHaveProperty('trading_name');
    const [changed] = received.owners as Record<string, unknown>[];
    expect(changed).toHaveProperty('tin', null);
    expect(changed).not.toHaveProperty('email');
  });

  it('tells an empty owners array from none, and owners sent as null from both', () => {
    expect(acrossTheWire({ owners: [] })).toEqual({ owners: [] });
    expect(acrossTheWire({})).toEqual({});
    expect(acrossTheWire({ owners: null })).toEqual({ owners: null });
  });

  it('carries a percentage as its exact decimal text and a count as an integer, never a double', () => {
    const message = readInput(CustomerInputSchema, {
      expected_monthly_payments: 9_007_199_254_740_991,
      owners: [{ ownership_percentage: 0.000001 }],
    });
    expect(message.expectedMonthlyPayments).toBe(9_007_199_254_740_991n);
    expect(message.owners?.entries[0]?.ownershipPercentage).toBe('0.000001');
  });

  it('refuses wrong JSON types, unknown and read-only properties and words outside an enum, each at its path', () => {
    const error = refusal(CustomerInputSchema, {
      type: 'company',
      business_type: 'plc',
      expected_monthly_payments: 12.5,
      website: 42,
      surprise: true,
      verification_status: 'VERIFIED',
      documents: [],
      owners: [
        { first_name: 'Ada', ownership_percentage: 'fifty', has_control: 'yes', status: 'APPROVED' },
        'not an owner',
        { id_document_front: 'f-1', email: ['a@b.co'] },
      ],
    });
    expect(error).toMatchObject({ httpStatus: 422, code: 'VALIDATION_FAILED' });
    expect(error.errors).toEqual({
      type: ['must be individual or business; got "company"'],
      business_type: [
        'must be one of corporation, government_entity, llc, non_profit, other, partnership, sole_proprietorship; got "plc"',
      ],
      expected_monthly_payments: ['must be a whole number (got 12.5)'],
      website: ['must be an http or https URI, got a number'],
      surprise: ['is not a recognised field'],
      verification_status: ['is set by Corridor and cannot be sent'],
      documents: ['cannot be sent here: register KYB documents with POST /customer/{id}/document'],
      'owners.0.ownership_percentage': ['must be a number from 0 to 100, got a string'],
      'owners.0.has_control': ['must be true or false, got a string'],
      'owners.0.status': ['is set by Corridor and cannot be sent'],
      'owners.1': ['must be an object, got a string'],
      'owners.2.id_document_front': [
        'is not part of this request: upload owner ID files per slot with POST /customer/{id}/owner/{owner}/files',
      ],
      'owners.2.email': ['must be an email address, got an array'],
    });
    expect(error.message).toBe('type must be individual or business; got "company"');
  });

  it('refuses a number JSON.parse has already rounded: it is not what was sent', () => {
    expect(refusal(CustomerInputSchema, { expected_monthly_payments: 2 ** 60 }).errors).toEqual({
      expected_monthly_payments: [`must be a whole number (got ${2 ** 60})`],
    });
  });

  it('refuses no body (422 at (body)) and a body that is no JSON object', () => {
    expect(refusal(CustomerInputSchema, undefined)).toMatchObject({
      message: 'the request body is required: send a JSON object',
      errors: { '(body)': ['is required: send a JSON object'] },
    });
    for (const body of [[{ type: 'business' }], null, 'Acme', 42]) {
      expect(refusal(CustomerInputSchema, body)).toMatchObject({
        message: 'the request body must be a JSON object',
        errors: { '(body)': ['must be a JSON object'] },
      });
    }
  });

  it('reads the file, document and review bodies with their enums', () => {
    expect(readInput(OwnerFileUploadInputSchema, { slot: 'id_document_back', content_length: 10 })).toMatchObject({
      slot: OwnerFileSlot.ID_DOCUMENT_BACK,
      contentLength: 10n,
    });
    expect(readInput(DocumentInputSchema, { type: 'CAC_STATUS_REPORT', file_id: null })).toMatchObject({
      type: KybDocumentType.CAC_STATUS_REPORT,
      nullFields: ['file_id'],
    });
    const review = readInput(ReviewInputSchema, {
      owners: [{ id: 'o-1', status: 'REJECTED', admin_comments: ['blurred'] }],
      verdict: 'REJECTED',
    });
    expect(review.owners?.entries[0]).toMatchObject({
      status: ReviewStatus.REJECTED,
      adminComments: { entries: ['blurred'] },
    });
    expect(review.verdict).toBe(VerificationStatus.REJECTED);
    expect(refusal(OwnerFileUploadInputSchema, { slot: 'selfie', content_length: '10' }).errors).toEqual({
      slot: ['must be id_document_front or id_document_back; got "selfie"'],
      content_length: ['must be a whole number, got a string'],
    });
    expect(refusal(ReviewInputSchema, { owners: [{ admin_comments: ['ok', 3] }] }).errors).toEqual({
      'owners.0.admin_comments.1': ['must be a string, got a number'],
    });
  });
});
