import { Environment } from '@corridor/contracts/events';
import {
  KycRejectionType,
  KycRequirement,
  KycResult,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { cancelKycSession, getKycSession } from './kyc-sessions.js';
import { dateOf, kycSessionSpecKit, refusalOf, SETTINGS } from '../../test/kyc-sessions/kyc-session-spec-kit.js';
import { sweepKycSessions } from './session-outcomes.js';
import { submitVerification } from './verification.js';

// How a KYC session ends (seed 3.4, 6.2; decision 0016): the admin verdict, the deadline's sweep and
// the sandbox's magic references, each with its event in the outbox (real PostgreSQL and S3Proxy).

const { APPROVED, REJECTED } = KycResult;
const { FINAL, RETRYABLE } = KycRejectionType;

describe('customer-kyb: KYC session outcomes, verdicts, expiry and the sandbox (real PostgreSQL)', () => {
  const kit = kycSessionSpecKit('kyc_outcomes');
  const sandbox = () => kit.contextIn('sandbox');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const get = (session: KycSession) => getKycSession(kit.em(), sandbox(), session.businessId, session.id);
  const sweep = (context = sandbox()) => sweepKycSessions(kit.em(), context);
  const final = { status: Status.ALREADY_EXISTS, reason: 'KYC_SESSION_FINAL', fieldErrors: undefined };
  const validationFailed = (fieldErrors: Record<string, unknown>) => ({
    status: Status.INVALID_ARGUMENT,
    reason: 'VALIDATION_FAILED',
    fieldErrors,
  });

  /** A session the person has submitted: PROCESSING, waiting for the verdict. */
  async function submittedSession(businessId = randomUUID()) {
    const session = await kit.openSession(businessId, { requirements: [KycRequirement.DOCUMENTS] });
    await kit.giveFile(session.verificationToken, 'document');
    await submitVerification(kit.em(), sandbox(), session.verificationToken);
    return session;
  }

  /** The session an outbox event carries, checked to be the only event of its session. */
  async function onlyEvent(sessionId: string, expected: 'kycSessionCompleted' | 'kycSessionExpired') {
    const events = await kit.outboxEvents(sessionId);
    expect(events.map(({ topic, event }) => [topic, event.payload.case])).toEqual([[sandbox().topic, expected]]);
    const [carried] = await kit.outboxSessions(sessionId);
    return { event: events[0]?.event, session: carried?.session };
  }

  it('seed 3.4: an APPROVED verdict completes a PROCESSING session and records one kycSessionCompleted event with the session', async () => {
    const businessId = randomUUID();
    const session = await submittedSession(businessId);
    kit.clock.advance(60_000);
    const approved = await kit.recordVerdict(session.id, { result: APPROVED });
    expect(approved).toMatchObject({ id: session.id, status: KycSessionStatus.COMPLETED, result: APPROVED });
    expect([approved.rejectionReason, approved.rejectionType]).toEqual([undefined, undefined]);
    expect(dateOf(approved.completedAt)).toEqual(kit.clock.now());
    expect(approved.captures).toHaveLength(1);
    expect(await get(session)).toEqual(approved);

    const { event, session: carried } = await onlyEvent(session.id, 'kycSessionCompleted');
    expect(carried).toEqual(approved);
    expect(event).toMatchObject({ type: 'kyc_session.completed', businessId, environment: Environment.SANDBOX });
    expect(dateOf(event?.occurredAt)).toEqual(kit.clock.now());
  });

  it('seed 3.4: REJECTED FINAL and RETRYABLE complete an open session (PENDING too) with their reason and type, one event each', async () => {
    for (const rejectionType of [FINAL, RETRYABLE]) {
      const session = await kit.openSession(randomUUID());
      const rejected = await kit.recordVerdict(session.id, {
        result: REJECTED,
        rejectionType,
        rejectionReason: '  The document has expired.  ',
      });
      expect(rejected).toMatchObject({
        status: KycSessionStatus.COMPLETED,
        result: REJECTED,
        rejectionType,
        rejectionReason: 'The document has expired.',
      });
      expect((await onlyEvent(session.id, 'kycSessionCompleted')).session).toEqual(rejected);
    }
  });

  it('an invalid verdict is a 422 naming each field that does not fit the result; the session stays open', async () => {
    const session = await submittedSession();
    const cases: [fields: string[], verdict: Parameters<typeof kit.recordVerdict>[1]][] = [
      [['result'], {}],
      [['rejection_reason', 'rejection_type'], { result: REJECTED }],
      [['rejection_type'], { result: REJECTED, rejectionReason: 'Blurred.' }],
      [['rejection_reason'], { result: REJECTED, rejectionType: FINAL }],
      [['rejection_reason'], { result: REJECTED, rejectionType: FINAL, rejectionReason: '   ' }],
      [['rejection_reason'], { result: REJECTED, rejectionType: FINAL, rejectionReason: 'x'.repeat(501) }],
      [['rejection_reason'], { result: APPROVED, rejectionReason: 'Blurred.' }],
      [['rejection_type'], { result: APPROVED, rejectionType: RETRYABLE }],
    ];
    for (const [fields, verdict] of cases) {
      const refusal = await refusalOf(kit.recordVerdict(session.id, verdict));
      const expected = validationFailed(Object.fromEntries(fields.map((field) => [field, [expect.any(String)]])));
      expect({ verdict, refusal }).toEqual({ verdict, refusal: expected });
    }
    expect((await get(session)).status).toBe(KycSessionStatus.PROCESSING);
    expect(await kit.eventCases(session.id)).toEqual([]);
  });

  it('a verdict for no session is 404 KYC_SESSION_NOT_FOUND', async () => {
    const notFound = { status: Status.NOT_FOUND, reason: 'KYC_SESSION_NOT_FOUND', fieldErrors: undefined };
    expect(await refusalOf(kit.recordVerdict(randomUUID(), { result: APPROVED }))).toEqual(notFound);
    expect(await refusalOf(kit.recordVerdict('not-a-uuid', { result: APPROVED }))).toEqual(notFound);
  });

  it('seed 3.4: a verdict on a COMPLETED, CANCELLED or EXPIRED session is 409 KYC_SESSION_FINAL, changes nothing and records no event', async () => {
    const completed = await submittedSession();
    await kit.recordVerdict(completed.id, { result: REJECTED, rejectionType: RETRYABLE, rejectionReason: 'Blurred.' });
    const cancelled = await kit.openSession(randomUUID());
    await cancelKycSession(kit.em(), sandbox(), cancelled.businessId, cancelled.id);
    const expired = await kit.openSession(randomUUID());
    kit.clock.advance(SETTINGS.ttlMs);
    await sweep();
    for (const session of [completed, cancelled, expired]) {
      const before = await get(session);
      const events = await kit.eventCases(session.id);
      kit.clock.advance(1_000);
      expect(await refusalOf(kit.recordVerdict(session.id, { result: APPROVED }))).toEqual(final);
      expect(await get(session)).toEqual(before);
      expect(await kit.eventCases(session.id)).toEqual(events);
    }
  });

  it('seed 3.4: the sweep expires open sessions past their deadline with one kycSessionExpired event each; a second sweep adds nothing', async () => {
    const pending = await kit.openSession(randomUUID());
    const processing = await submittedSession();
    kit.clock.advance(SETTINGS.ttlMs - 1);
    await sweep();
    expect((await get(pending)).status).toBe(KycSessionStatus.PENDING);
    expect((await get(processing)).status).toBe(KycSessionStatus.PROCESSING);
    for (const session of [pending, processing]) expect(await kit.eventCases(session.id)).toEqual([]);
    kit.clock.advance(1);
    expect(await sweep()).toBeGreaterThanOrEqual(2);
    for (const session of [pending, processing]) {
      const { event, session: carried } = await onlyEvent(session.id, 'kycSessionExpired');
      expect(carried).toMatchObject({ id: session.id, status: KycSessionStatus.EXPIRED });
      expect(dateOf(carried?.expiredAt)).toEqual(kit.clock.now());
      expect(event?.type).toBe('kyc_session.expired');
      expect(await get(session)).toEqual(carried);
    }
    expect(await sweep()).toBe(0);
    kit.clock.advance(1_000);
    // seed 3.4: a verdict arriving after the session is final sends nothing.
    expect(await refusalOf(kit.recordVerdict(processing.id, { result: APPROVED }))).toEqual(final);
    for (const session of [pending, processing])
      expect(await kit.eventCases(session.id)).toEqual(['kycSessionExpired']);
  });

  it('seed 3.4: past its deadline a session reads EXPIRED before any sweep, and a verdict then is 409 with the expired event only', async () => {
    const read = await kit.openSession(randomUUID());
    const judged = await submittedSession();
    kit.clock.advance(SETTINGS.ttlMs);
    const expired = await get(read);
    expect(expired.status).toBe(KycSessionStatus.EXPIRED);
    expect(dateOf(expired.expiredAt)).toEqual(kit.clock.now());
    expect(await kit.eventCases(read.id)).toEqual(['kycSessionExpired']);

    expect(await refusalOf(kit.recordVerdict(judged.id, { result: APPROVED }))).toEqual(final);
    expect((await get(judged)).status).toBe(KycSessionStatus.EXPIRED);
    expect(await kit.eventCases(judged.id)).toEqual(['kycSessionExpired']);
    await sweep();
    for (const session of [read, judged]) expect(await kit.eventCases(session.id)).toEqual(['kycSessionExpired']);
  });
  it('reads, a verdict and sweeps racing past the deadline expire a session once: one kycSessionExpired event', async () => {
    const session = await submittedSession();
    kit.clock.advance(SETTINGS.ttlMs);
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 8 }, () => get(session)),
      kit.recordVerdict(session.id, { result: APPROVED }),
      sweep(),
      sweep(),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([
      { status: 'rejected', reason: expect.objectContaining({ reason: 'KYC_SESSION_FINAL' }) },
    ]);
    expect((await get(session)).status).toBe(KycSessionStatus.EXPIRED);
    expect(await kit.eventCases(session.id)).toEqual(['kycSessionExpired']);
  });
});
