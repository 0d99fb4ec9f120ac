import {
  CreateKycSessionResponseSchema,
  KycSessionService,
  SandboxRecordKycResultResponseSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import type { MikroORM } from '@corridor/db';
import { registration } from '@corridor/grpc';
import { idempotentWrites } from '@corridor/idempotency';
import type { CustomerContext } from './context.js';
import { platform } from './customer.grpc.js';
import {
  cancelKycSession,
  createKycSession,
  getKycSession,
  listKycSessions,
  type KycSessionSettings,
} from './kyc-sessions/kyc-sessions.js';
import { recordKycResult, sandboxRecordKycResult } from './kyc-sessions/session-outcomes.js';
import {
  addVerificationCapture,
  createVerificationUpload,
  getVerificationPage,
  submitVerification,
} from './kyc-sessions/verification.js';

/** The gRPC edge of merchant KYC sessions (decision 0016): thin, one fork of the entity manager per call. */
export function kycSessionServiceRegistration({
  orm,
  context,
  settings,
}: {
  orm: MikroORM;
  context: CustomerContext;
  settings: KycSessionSettings;
}) {
  const em = () => orm.em.fork();
  const idempotent = idempotentWrites(em);
  return registration(KycSessionService, {
    async createKycSession(request, call) {
      const { businessId } = platform(call);
      // Its Idempotency-Key is claimed in the transaction of the write (decision 0012).
      return idempotent(call, 'CreateKycSession', CreateKycSessionResponseSchema, async (tx) => ({
        session: await createKycSession(tx, context, settings, businessId, request),
      }));
    },
    async getKycSession(request, call) {
      return { session: await getKycSession(em(), context, platform(call).businessId, request.sessionId) };
    },
    async listKycSessions(request, call) {
      const { sessions, nextCursor, previousCursor, limit } = await listKycSessions(
        em(),
        platform(call).businessId,
        request,
      );
      return { sessions, page: { nextCursor, previousCursor, limit } };
    },
    async cancelKycSession(request, call) {
      return { session: await cancelKycSession(em(), context, platform(call).businessId, request.sessionId) };
    },
    async getVerificationPage(request) {
      return { view: await getVerificationPage(em(), context, request.token) };
    },
    async createVerificationUpload(request) {
      return { upload: await createVerificationUpload(em(), context, request) };
    },
    async addVerificationCapture(request) {
      return { view: await addVerificationCapture(em(), context, request) };
    },
    async submitVerification(request) {
      return { view: await submitVerification(em(), context, request.token) };
    },
    async adminRecordKycResult(request) {
      return { session: await recordKycResult(em(), context, request) };
    },
    async sandboxRecordKycResult(request, call) {
      // The dashboard sends an Idempotency-Key: a resubmitted form answers the first verdict again.
      return idempotent(call, 'SandboxRecordKycResult', SandboxRecordKycResultResponseSchema, async (tx) => ({
        session: await sandboxRecordKycResult(tx, context, call.caller, request),
      }));
    },
  });
}
