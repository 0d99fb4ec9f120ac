import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { KycRejectionType, KycResult, KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { SandboxRecordKycResultRequestSchema } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { Status, type CallerContext } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { getKycSession } from './kyc-sessions.js';
import { kycSessionSpecKit, refusalOf } from '../../test/kyc-sessions/kyc-session-spec-kit.js';
import { sandboxRecordKycResult } from './session-outcomes.js';

// SandboxRecordKycResult (issue 30): the identity provider's verdict, given by a platform to its own
// session in the sandbox (real PostgreSQL): the admin verdict's rules and event, another business's
// session NOT_FOUND, production SANDBOX_ONLY.

const { APPROVED, REJECTED } = KycResult;

describe('customer-kyb: the sandbox’s KYC verdict on one’s own session (real PostgreSQL)', () => {
  const kit = kycSessionSpecKit('kyc_sandbox_verdict');
  const sandbox = () => kit.contextIn('sandbox');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const callerOf = (businessId: string, environment = 'sandbox'): CallerContext => ({
    businessId,
    credentialId: 'member:00000000-0000-4000-8000-000000000001',
    environment,
  });
  const verdict = (
    caller: CallerContext,
    init: MessageInitShape<typeof SandboxRecordKycResultRequestSchema>,
    context = sandbox(),
  ) => sandboxRecordKycResult(kit.em(), context, caller, create(SandboxRecordKycResultRequestSchema, init));

  it('completes the caller’s own open session with the verdict and its kycSessionCompleted event', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId);
    const rejected = await verdict(callerOf(businessId), {
      sessionId: session.id,
      result: REJECTED,
      rejectionType: KycRejectionType.RETRYABLE,
      rejectionReason: 'The photo was blurred.',
    });
    expect(rejected).toMatchObject({
      id: session.id,
      status: KycSessionStatus.COMPLETED,
      result: REJECTED,
      rejectionReason: 'The photo was blurred.',
    });
    expect(await kit.eventCases(session.id)).toEqual(['kycSessionCompleted']);
    expect(await getKycSession(kit.em(), sandbox(), businessId, session.id)).toEqual(rejected);
  });

  it('keeps the admin verdict’s rules: a REJECTED without reason and type is 422, a second verdict 409', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId);
    expect(await refusalOf(verdict(callerOf(businessId), { sessionId: session.id, result: REJECTED }))).toMatchObject({
      status: Status.INVALID_ARGUMENT,
      fieldErrors: { rejection_reason: [expect.any(String)], rejection_type: [expect.any(String)] },
    });
    await verdict(callerOf(businessId), { sessionId: session.id, result: APPROVED });
    expect(await refusalOf(verdict(callerOf(businessId), { sessionId: session.id, result: APPROVED }))).toMatchObject({
      status: Status.ALREADY_EXISTS,
      reason: 'KYC_SESSION_FINAL',
    });
  });

  it('another business’s session is NOT_FOUND and stays open', async () => {
    const session = await kit.openSession(randomUUID());
    expect(await refusalOf(verdict(callerOf(randomUUID()), { sessionId: session.id, result: APPROVED }))).toEqual({
      status: Status.NOT_FOUND,
      reason: 'KYC_SESSION_NOT_FOUND',
      fieldErrors: undefined,
    });
    expect((await getKycSession(kit.em(), sandbox(), session.businessId, session.id)).status).toBe(
      KycSessionStatus.PENDING,
    );
    expect(await kit.eventCases(session.id)).toEqual([]);
  });

  it('production is SANDBOX_ONLY (PERMISSION_DENIED), whether the caller or this process is production', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId);
    const sandboxOnly = { status: Status.PERMISSION_DENIED, reason: 'SANDBOX_ONLY' };
    expect(
      await refusalOf(verdict(callerOf(businessId, 'production'), { sessionId: session.id, result: APPROVED })),
    ).toMatchObject(sandboxOnly);
    expect(
      await refusalOf(
        verdict(callerOf(businessId), { sessionId: session.id, result: APPROVED }, kit.contextIn('production')),
      ),
    ).toMatchObject(sandboxOnly);
    expect(await kit.eventCases(session.id)).toEqual([]);
  });
});
