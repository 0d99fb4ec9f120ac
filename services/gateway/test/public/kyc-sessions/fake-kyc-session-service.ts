import { KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { KycSessionService } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { Metadata } from '@grpc/grpc-js';
import { startFakeGrpcService, type Answer } from '@corridor/testing';
import { routesUnderTest, serveRoutes } from '../route-harness.js';
import type { PublicRoute } from '../../../src/floor/route-context.js';
import { kycCapture, kycSessionView, verificationUpload } from '../../verify/verification.fixtures.js';
import { approvedSession, BUSINESS_ID, cancelledSession, kycSession } from './kyc-session.fixtures.js';

export type { Answer, ReceivedCall } from '@corridor/testing';

/** customer-kyb's KycSessionService answering canned sessions: the fixtures unless a spec sets an answer. */
export function startFakeKycSessionService() {
  const defaults: Record<string, Answer> = {
    createKycSession: () => ({ session: kycSession() }),
    getKycSession: () => ({ session: kycSession() }),
    listKycSessions: () => ({ sessions: [kycSession()], page: { limit: 15 } }),
    cancelKycSession: () => ({ session: cancelledSession() }),
    adminRecordKycResult: () => ({ session: approvedSession() }),
    // The person's page (services/gateway/src/verify): a face match on its way.
    getVerificationPage: () => ({ view: kycSessionView() }),
    createVerificationUpload: () => ({ upload: verificationUpload() }),
    addVerificationCapture: () => ({ view: kycSessionView({ captures: [kycCapture('document')] }) }),
    submitVerification: () => ({
      view: kycSessionView({
        status: KycSessionStatus.PROCESSING,
        captures: [kycCapture('document'), kycCapture('selfie')],
      }),
    }),
  };
  return startFakeGrpcService(KycSessionService, (method) => {
    const answer = defaults[method];
    if (!answer) throw new Error(`the fake KYC session service has no answer for ${method}`);
    return answer;
  });
}

/**
 * A describe's routes against the fake, as a caller of BUSINESS_ID holding `scopes`. The routes reach
 * customer-kyb only through `call` (RouteContext.metadata is emptied), so a handler that passed
 * `{ metadata }` instead would call as nobody, and the specs see it.
 */
export const kycSessionRoutesUnderTest = (routes: readonly PublicRoute[], scopes: string[]) =>
  routesUnderTest(startFakeKycSessionService, (service) =>
    serveRoutes(
      routes.map((route) => ({
        ...route,
        handle: (context: Parameters<PublicRoute['handle']>[0]) =>
          route.handle({ ...context, metadata: new Metadata(), call: { ...context.call } }),
      })),
      { businessId: BUSINESS_ID, scopes },
      { kycSessions: service.client },
    ),
  );
