import { z } from '@corridor/config';
import { HttpError } from '../http/errors.js';
import { jsonSchemaOf as kycJsonSchemaOf } from '../public/kyc-sessions/json-schema.js';
import { kycSessionOf } from '../public/kyc-sessions/render.js';
import { kycResultRecordedBody } from '../public/kyc-sessions/responses.js';
import { KYC_REJECTION_TYPES, KYC_RESULTS } from '../public/kyc-sessions/vocabulary.js';
import { printableText, wordOf } from '../floor/fields.js';
import { readBody } from '../http/input.js';
import { jsonSchemaOf } from './json-schema.js';
import { uuidOfPath } from '../floor/path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';

/**
 * The identity provider's verdict on a merchant KYC session (DESIGN.md admin API, decision 0016).
 * The words are the proto enums the call is built from; customer-kyb says whether reason and type
 * fit the result, and how long a reason may be.
 */
export const KycResultBody = z.strictObject({
  result: wordOf(KYC_RESULTS, 'the identity provider’s verdict'),
  rejection_reason: printableText(
    'required when REJECTED, absent when APPROVED: why, in words showable to the person (customer-kyb takes at most 500 characters, not only spaces)',
    { minLength: 1, maxLength: 500 },
  ).optional(),
  rejection_type: wordOf(
    KYC_REJECTION_TYPES,
    'required when REJECTED, absent when APPROVED: FINAL ends the reference, RETRYABLE lets it start a new session',
  ).optional(),
});

const sessionNotFound = (id: string) => new HttpError(404, 'KYC_SESSION_NOT_FOUND', `no KYC session ${id}`);

async function recordKycResult({ req, res, clients, call }: AdminRouteContext): Promise<void> {
  const sessionId = uuidOfPath(req, 'id', sessionNotFound);
  const body = readBody(KycResultBody, req.body);
  const response = await clients.kycSessions.adminRecordKycResult(
    {
      sessionId,
      result: KYC_RESULTS.toProto(body.result),
      rejectionReason: body.rejection_reason,
      rejectionType: body.rejection_type === undefined ? undefined : KYC_REJECTION_TYPES.toProto(body.rejection_type),
    },
    call,
  );
  // The admin listener's host is no person's: verification_url stays null (a completed session has none).
  res.json({ message: 'kyc session result recorded', data: kycSessionOf(response) });
}

export const KYC_VERDICT_ROUTES: readonly AdminRoute[] = [
  {
    method: 'post',
    path: '/admin/kyc-sessions/{id}/result',
    operationId: 'recordKycResult',
    summary:
      'Record the identity provider’s verdict on an open merchant KYC session; its merchant.kyc.session.completed webhook goes out',
    requestBody: jsonSchemaOf(KycResultBody, 'input'),
    responses: {
      200: { description: 'The COMPLETED session', schema: kycJsonSchemaOf(kycResultRecordedBody) },
      404: { description: 'No KYC session with this id, of any business (KYC_SESSION_NOT_FOUND)' },
      409: {
        description:
          'The session is already final (COMPLETED, EXPIRED or CANCELLED): nothing changes (KYC_SESSION_FINAL)',
      },
      422: {
        description:
          'result missing or not APPROVED or REJECTED, rejection_type not FINAL or RETRYABLE, a reason with control characters, an unknown field (VALIDATION_FAILED, `errors` names each); or customer-kyb refuses a reason or type that does not fit the result, or a reason of more than 500 characters',
      },
    },
    handle: recordKycResult,
  },
];
