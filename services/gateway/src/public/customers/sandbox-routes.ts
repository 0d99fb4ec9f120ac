import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import {
  CustomerSchema,
  CustomerType,
  IdDocumentType,
  KybDocumentType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { BODY_PATH, FieldProblems, firstProblemMessage, isJsonObject, NOT_RECOGNISED } from '@corridor/validation';
import { HttpError } from '../../http/errors.js';
import { pathParam } from '../../http/path-params.js';
import type { JsonSchema } from '../../http/json-schema.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { readInput } from './input.js';
import { customerJson, present } from './render.js';
import { createCustomerBody } from './request-schemas.js';
import { customerBody } from './response-schemas.js';

/**
 * The sandbox's shortcuts to a customer in a final state (issue 31, decision 0031): a review of one's
 * own customer under review, and one call that creates a customer and brings it to the verdict.
 * customer-kyb refuses both in production (SANDBOX_ONLY, 403), as payments' simulations are refused.
 */

const VERDICTS = { VERIFIED: VerificationStatus.VERIFIED, REJECTED: VerificationStatus.REJECTED } as const;
type Verdict = keyof typeof VERDICTS;
const COMMENT_MAX = 2000;

function refuse(problems: FieldProblems): never {
  const { errors } = problems;
  throw new HttpError(422, 'VALIDATION_FAILED', firstProblemMessage(errors), errors);
}

/** A verdict word of the body, or undefined (a problem is added) when it is none. */
function readVerdict(value: unknown, key: string, problems: FieldProblems): VerificationStatus | undefined {
  if (typeof value === 'string' && Object.hasOwn(VERDICTS, value)) return VERDICTS[value as Verdict];
  problems.add(key, 'must be VERIFIED or REJECTED');
  return undefined;
}

/** `{verdict, comment?}`; customer-kyb judges the comment's length and blankness. */
function readReview(body: unknown): { verdict: VerificationStatus; comment?: string } {
  const problems = new FieldProblems();
  if (!isJsonObject(body)) {
    problems.add(BODY_PATH, 'must be a JSON object: {"verdict": "VERIFIED"} or {"verdict": "REJECTED"}');
    refuse(problems);
  }
  for (const key of Object.keys(body)) if (key !== 'verdict' && key !== 'comment') problems.add(key, NOT_RECOGNISED);
  const verdict =
    body.verdict === undefined || body.verdict === null
      ? (problems.add('verdict', 'is required: VERIFIED or REJECTED'), undefined)
      : readVerdict(body.verdict, 'verdict', problems);
  const comment = body.comment;
  if (comment !== undefined && comment !== null && typeof comment !== 'string') {
    problems.add('comment', `must be a text of at most ${COMMENT_MAX} characters`);
  }
  if (!problems.isEmpty || verdict === undefined) refuse(problems);
  return { verdict, ...(typeof comment === 'string' ? { comment } : {}) };
}

/**
 * POST /customer's body plus `verification_status`: no body reads as {}. Every problem at once, the
 * customer fields' as POST /customer reports them.
 */
function readSandboxCreate(body: unknown) {
  const problems = new FieldProblems();
  if (body !== undefined && !isJsonObject(body)) {
    problems.add(BODY_PATH, 'must be a JSON object (or no body at all)');
    refuse(problems);
  }
  const { verification_status: status, ...customerBody } = body ?? {};
  const verdict =
    status === undefined || status === null
      ? VerificationStatus.VERIFIED
      : readVerdict(status, 'verification_status', problems);
  let customer;
  try {
    customer = readInput(CustomerInputSchema, customerBody);
  } catch (error) {
    if (!(error instanceof HttpError) || !error.errors) throw error;
    problems.addAll(error.errors);
  }
  if (!problems.isEmpty || verdict === undefined || customer === undefined) refuse(problems);
  return { customer, verificationStatus: verdict };
}

async function sandboxReview({ req, res, clients, call }: RouteContext): Promise<void> {
  const review = readReview(req.body);
  const { customer } = await clients.customer.sandboxReviewCustomer(
    { customerId: pathParam(req, 'id'), ...review },
    call,
  );
  res.json({ message: 'customer reviewed', data: customerJson(present(customer, 'customer')) });
}

async function sandboxCreate({ req, res, clients, call }: RouteContext): Promise<void> {
  const { customer } = await clients.customer.sandboxCreateCustomer(readSandboxCreate(req.body), call);
  const json = customerJson(present(customer, 'customer'));
  res.status(201).location(`/api/external/customer/${json.id}`).json({ message: 'customer created', data: json });
}

// --- the document ---------------------------------------------------------------------------------

const verdictSchema = (description: string): JsonSchema => ({
  type: 'string',
  enum: Object.keys(VERDICTS),
  description,
});

/** POST /sandbox/customer/{id}/review. */
export const sandboxReviewBody: JsonSchema = {
  type: 'object',
  description:
    'The back office’s verdict on one of your customers under review (PROCESSING): every owner and document under review is approved (VERIFIED) or rejected (REJECTED) with the comment',
  required: ['verdict'],
  additionalProperties: false,
  properties: {
    verdict: verdictSchema('VERIFIED or REJECTED'),
    comment: {
      type: 'string',
      minLength: 1,
      maxLength: COMMENT_MAX,
      description:
        'the admin comment on each owner and document judged; a rejection without one gets "Rejected with the sandbox tools (no comment given)."',
    },
  },
  examples: [{ verdict: 'VERIFIED' }],
};

const verificationStatus = verdictSchema('the state the customer ends in; VERIFIED when not sent');

/**
 * POST /sandbox/customer: POST /customer's two shapes with nothing required (a body with no `type`
 * is a business), plus verification_status.
 */
function sandboxCreateBodyOf(branch: JsonSchema): JsonSchema {
  const individual = (branch.title ?? '') === 'individual';
  const { required: _required, ...rest } = branch;
  const kybScope = branch.properties?.kyb_scope;
  return {
    ...rest,
    ...(individual ? { required: ['type'] } : {}),
    properties: {
      ...branch.properties,
      ...(kybScope
        ? {
            kyb_scope: {
              ...kybScope,
              description:
                'FULL (the default here: one owner holding 100 % unless owners are sent) or MINIMAL, for a business allow-listed for MINIMAL KYB only, as on POST /customer (422 otherwise)',
            },
          }
        : {}),
      verification_status: verificationStatus,
    },
  };
}

export const sandboxCreateBody: JsonSchema = {
  description:
    'POST /customer’s body with every field optional, plus verification_status. What is not sent is filled in: a business "Sandbox Trading Ltd" in GB with a unique registration number (an individual "Sandbox Customer" with a passport when type is individual). ID files and a formation document are sandbox placeholders (0 bytes); nothing is uploaded.',
  oneOf: (createCustomerBody.oneOf ?? []).map((branch) => sandboxCreateBodyOf(branch as JsonSchema)),
  examples: [{ verification_status: 'VERIFIED' }, { type: 'individual', first_name: 'Ada', last_name: 'Obi' }],
};

const EXAMPLE_AT = timestampFromDate(new Date('2026-12-01T09:00:00.000Z'));

/** A customer as the sandbox leaves it, through the same rendering as every answer. */
const exampleCustomer = customerJson(
  create(CustomerSchema, {
    id: '6c1d7a9e-52f0-4c8e-9d1a-3f6b2e8c0a11',
    businessId: '4b8f3c2e-7a1d-4e6f-8b2c-9d0e1f2a3b4c',
    type: CustomerType.BUSINESS,
    kybScope: KybScope.FULL,
    verificationStatus: VerificationStatus.VERIFIED,
    data: {
      case: 'business',
      value: {
        country: 'GB',
        businessName: 'Sandbox Trading Ltd',
        registrationNumber: 'SBX-3F9A1C7E20',
        incorporationCountry: 'GB',
      },
    },
    owners: [
      {
        id: '7e2f8b0a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
        status: ReviewStatus.APPROVED,
        data: {
          firstName: 'Sandbox',
          lastName: 'Owner',
          ownershipPercentage: '100',
          dateOfBirth: '1980-01-01',
          nationality: 'GB',
          idDocumentType: IdDocumentType.PASSPORT,
          idDocumentNumber: 'SBX8C2D4E6F10',
          idDocumentCountry: 'GB',
          idExpiryDate: '2031-12-01',
        },
        idFiles: [
          {
            fileId: '9b4cad2e-3d5f-4a7b-9c1d-2e3f4a5b6c7d',
            slot: 'id_document_front',
            contentType: 'application/pdf',
            sizeBytes: 0n,
            uploadedAt: EXAMPLE_AT,
          },
        ],
        createdAt: EXAMPLE_AT,
        updatedAt: EXAMPLE_AT,
      },
    ],
    documents: [
      {
        id: '8a3b9c1d-4e6f-4b8c-8d2e-3f4a5b6c7d8e',
        type: KybDocumentType.CERTIFICATE_OF_INCORPORATION,
        status: ReviewStatus.APPROVED,
        file: {
          fileId: '9b4cad2e-5f7a-4b9c-8d3e-4f5a6b7c8d9e',
          slot: 'document',
          contentType: 'application/pdf',
          sizeBytes: 0n,
          uploadedAt: EXAMPLE_AT,
        },
        createdAt: EXAMPLE_AT,
        updatedAt: EXAMPLE_AT,
      },
    ],
    createdAt: EXAMPLE_AT,
    updatedAt: EXAMPLE_AT,
    submittedAt: EXAMPLE_AT,
  }),
);

const withExample = (schema: JsonSchema, message: string): JsonSchema => ({
  ...schema,
  examples: [{ message, data: exampleCustomer }],
});

export const sandboxReviewedBody = withExample(customerBody('customer reviewed'), 'customer reviewed');
export const sandboxCreatedBody = withExample(customerBody('customer created'), 'customer created');

const FORBIDDEN = {
  description:
    'In production: the shortcuts exist only in the sandbox (SANDBOX_ONLY); or the token lacks the scope (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)',
};

export const SANDBOX_CUSTOMER_ROUTES: readonly PublicRoute[] = [
  {
    method: 'post',
    path: '/api/external/sandbox/customer',
    scope: 'customer:write',
    operationId: 'sandboxCreateCustomer',
    summary:
      'Sandbox: a VERIFIED (or REJECTED) customer in one call: created, given placeholder ID files and a formation document, submitted and reviewed; the same customer.status_changed webhooks follow as the long way’s',
    requestBody: sandboxCreateBody,
    requestBodyRequired: false,
    responses: {
      201: { description: 'The customer, VERIFIED or REJECTED', schema: sandboxCreatedBody },
      403: FORBIDDEN,
      422: {
        description:
          'A field is invalid, unknown or of the other type, verification_status is not VERIFIED or REJECTED, MINIMAL is asked for by a business not allow-listed for it (VALIDATION_FAILED); the (registration_number, incorporation_country) pair is taken (DUPLICATE_REGISTRATION); or the customer sent would not pass submit (READINESS_CHECK_FAILED, e.g. owners not summing to 100). Nothing is created. `errors` lists every problem.',
      },
    },
    handle: sandboxCreate,
  },
  {
    method: 'post',
    path: '/api/external/sandbox/customer/{id}/review',
    scope: 'customer:write',
    operationId: 'sandboxReviewCustomer',
    summary:
      'Sandbox: the back office’s review of one of your customers under review (PROCESSING), VERIFIED or REJECTED; customer.status_changed follows',
    requestBody: sandboxReviewBody,
    responses: {
      200: { description: 'The customer after the verdict', schema: sandboxReviewedBody },
      400: {
        description:
          'The body is not valid JSON (MALFORMED_JSON), or the customer is not under review (NOT_UNDER_REVIEW: submit it first)',
      },
      403: FORBIDDEN,
      404: { description: 'Your business has no customer with this id (CUSTOMER_NOT_FOUND)' },
      422: {
        description:
          'verdict is missing or not VERIFIED or REJECTED, comment is blank or longer than 2000 characters, or the body has another field (VALIDATION_FAILED, `errors` names each field)',
      },
    },
    handle: sandboxReview,
  },
];
