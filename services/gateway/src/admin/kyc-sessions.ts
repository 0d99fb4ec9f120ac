import type { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { isUuid, type ClientOf } from '@corridor/grpc';
import type { Metadata } from '@grpc/grpc-js';
import { Router, type Request } from 'express';
import { HttpError } from '../http/errors.js';
import { readBody } from '../public/payments/input.js';
import { kycSessionOf } from '../public/kyc-sessions/render.js';
import { KycResultBody } from '../public/kyc-sessions/requests.js';
import { KYC_REJECTION_TYPES, KYC_RESULTS } from '../public/kyc-sessions/vocabulary.js';

/** A session id of the path; anything but a uuid names no session, and customer-kyb is not asked. */
function sessionIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isUuid(id)) {
    throw new HttpError(404, 'KYC_SESSION_NOT_FOUND', `no KYC session ${String(id)}`);
  }
  return id;
}

/**
 * The identity provider's verdict on a merchant KYC session (DESIGN.md admin API, decision 0016).
 * The call carries no business-id: Admin* methods are not scoped to a business. customer-kyb says
 * whether reason and type fit the result (422), and answers 409 KYC_SESSION_FINAL for a final session.
 */
export function kycSessionsAdminRouter(kycSessions: ClientOf<typeof KycSessionService>): Router {
  const router = Router();

  router.post('/admin/kyc-sessions/:id/result', async (req, res) => {
    const sessionId = sessionIdOf(req);
    const body = readBody(KycResultBody, req.body);
    const response = await kycSessions.adminRecordKycResult(
      {
        sessionId,
        result: KYC_RESULTS.toProto(body.result),
        rejectionReason: body.rejection_reason,
        rejectionType: body.rejection_type === undefined ? undefined : KYC_REJECTION_TYPES.toProto(body.rejection_type),
      },
      { metadata: res.locals.grpcMetadata as Metadata },
    );
    // The admin listener's host is no person's: verification_url stays null (a completed session has none).
    res.json({ message: 'kyc session result recorded', data: kycSessionOf(response) });
  });

  return router;
}
