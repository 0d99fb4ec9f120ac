import { KycRejectionType, KycResult } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { alreadyExists, invalidArgument, notFound } from '@corridor/grpc';
import { startFakeKycSessionService } from '../../test/public/kyc-sessions/fake-kyc-session-service.js';
import {
  DOCUMENT_CAPTURE_JSON,
  kycSessionJson,
  rejectedSession,
  SESSION_ID,
  UPDATED,
} from '../../test/public/kyc-sessions/kyc-session.fixtures.js';
import { kycResultRecordedBody } from '../public/kyc-sessions/responses.js';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';

const ADMIN_TOKEN = 'admin-token-for-the-kyc-verdict-spec';

/** POST /admin/kyc-sessions/{id}/result on the admin listener as bootstrap builds it, over a fake customer-kyb. */
describe('admin KYC session verdicts (decision 0016)', () => {
  const backOffice = adminUnderTest(
    startFakeKycSessionService,
    (service) => ({ kycSessions: service.client }),
    ADMIN_TOKEN,
    'req-admin-13',
  );

  const path = `/admin/kyc-sessions/${SESSION_ID}/result`;
  const record = (body: unknown, token?: string) => backOffice.admin('POST', path, body, token);

  /** The completed session as the admin API shows it: no verification page, whatever the host. */
  const completedJson = (changes: Record<string, unknown>) => ({
    ...kycSessionJson('https://unused.example'),
    status: 'COMPLETED',
    verification_url: null,
    captures: [DOCUMENT_CAPTURE_JSON],
    updated_at: UPDATED.toISOString(),
    submitted_at: UPDATED.toISOString(),
    completed_at: UPDATED.toISOString(),
    ...changes,
  });

  it('records APPROVED and answers 200 with the COMPLETED session, calling customer-kyb unscoped', async () => {
    const response = await record({ result: 'APPROVED' });
    expect(response).toEqual({
      status: 200,
      body: { message: 'kyc session result recorded', data: completedJson({ result: 'APPROVED' }) },
    });
    expect(kycResultRecordedBody.safeParse(response.body).error).toBeUndefined();
    expect(backOffice.calls).toHaveLength(1);
    expect(backOffice.calls[0]).toMatchObject({
      method: 'adminRecordKycResult',
      request: { sessionId: SESSION_ID, result: KycResult.APPROVED },
    });
    expect(backOffice.calls[0]?.request.rejectionReason).toBeUndefined();
    expect(backOffice.calls[0]?.request.rejectionType).toBeUndefined();
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
    expect(backOffice.calls[0]?.caller).toMatchObject({ requestId: 'req-admin-13', environment: 'sandbox' });
  });

  it('records REJECTED with its reason and type as the proto values', async () => {
    backOffice.answers.set('adminRecordKycResult', () => ({ session: rejectedSession() }));
    const reason = 'We could not verify your identity with the documents provided.';
    const response = await record({ result: 'REJECTED', rejection_reason: reason, rejection_type: 'FINAL' });
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'kyc session result recorded',
        data: completedJson({ result: 'REJECTED', rejection_reason: reason, rejection_type: 'FINAL' }),
      },
    });
    expect(backOffice.calls[0]?.request).toMatchObject({
      result: KycResult.REJECTED,
      rejectionReason: reason,
      rejectionType: KycRejectionType.FINAL,
    });
  });

  it.each([
    [{}, 'result', /^is required$/],
    [{ result: 'approved' }, 'result', /^must be one of APPROVED, REJECTED, got "approved"$/],
    [{ result: 'REJECTED', rejection_type: 'LATER' }, 'rejection_type', /^must be one of FINAL, RETRYABLE/],
    [{ result: 'REJECTED', rejection_reason: 'no\u0085line' }, 'rejection_reason', /control characters/],
    [{ result: 'APPROVED', note: 'ok' }, 'note', /^is not a recognised field$/],
  ])('refuses %j with 422 naming %s, without asking customer-kyb', async (body, field, problem) => {
    const response = await record(body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    const errors = response.body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toMatch(problem);
    expect(backOffice.calls).toHaveLength(0);
  });

  it.each([[''], ['x'.repeat(501)]])(
    'passes the reason %j to customer-kyb, which checks its length',
    async (reason) => {
      const errors = { rejection_reason: ['must be at most 500 characters'] };
      backOffice.answers.set('adminRecordKycResult', () => {
        throw invalidArgument('the verdict is not valid: rejection_reason', errors);
      });
      const response = await record({ result: 'REJECTED', rejection_reason: reason, rejection_type: 'FINAL' });
      expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED', errors } });
      expect(backOffice.calls[0]?.request).toMatchObject({ rejectionReason: reason });
    },
  );

  it("answers customer-kyb's 422 for a verdict whose reason and type do not fit the result", async () => {
    const errors = { rejection_reason: ['is required when the result is REJECTED: text showable to the person'] };
    backOffice.answers.set('adminRecordKycResult', () => {
      throw invalidArgument('the verdict is not valid: rejection_reason', errors);
    });
    expect(await record({ result: 'REJECTED', rejection_type: 'RETRYABLE' })).toEqual({
      status: 422,
      body: { status: false, code: 'VALIDATION_FAILED', message: 'the verdict is not valid: rejection_reason', errors },
    });
  });

  it('answers 409 KYC_SESSION_FINAL when the session is already final: the verdict changes nothing', async () => {
    const message = `KYC session ${SESSION_ID} is already EXPIRED: a verdict after a session is final changes nothing and sends no webhook`;
    backOffice.answers.set('adminRecordKycResult', () => {
      throw alreadyExists('KYC_SESSION_FINAL', message);
    });
    expect(await record({ result: 'APPROVED' })).toEqual({
      status: 409,
      body: { status: false, code: 'KYC_SESSION_FINAL', message },
    });
  });

  it("answers customer-kyb's 404 for an unknown session, and 404 for an id that is no uuid without asking", async () => {
    backOffice.answers.set('adminRecordKycResult', () => {
      throw notFound('KYC_SESSION_NOT_FOUND', `no KYC session ${SESSION_ID}`);
    });
    expect(await record({ result: 'APPROVED' })).toMatchObject({
      status: 404,
      body: { code: 'KYC_SESSION_NOT_FOUND' },
    });
    backOffice.calls.length = 0;
    expect(await backOffice.admin('POST', '/admin/kyc-sessions/ks_1/result', { result: 'APPROVED' })).toEqual({
      status: 404,
      body: { status: false, code: 'KYC_SESSION_NOT_FOUND', message: 'no KYC session ks_1' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });

  it('refuses a caller with a wrong admin token before calling customer-kyb', async () => {
    expect(await record({ result: 'APPROVED' }, 'wrong')).toMatchObject({
      status: 401,
      body: { code: 'ADMIN_TOKEN_INVALID' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });
});
