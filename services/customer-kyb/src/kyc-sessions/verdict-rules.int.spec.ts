import {
  KycRejectionType,
  KycResult,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { cancelKycSession, getKycSession } from './kyc-sessions.js';
import { dateOf, kycSessionSpecKit, refusalOf, SETTINGS } from '../../test/kyc-sessions/kyc-session-spec-kit.js';
import { sweepKycSessions } from './session-outcomes.js';

// The sandbox's magic references, what a FINAL rejection does to its customer_reference, and
// verdicts and sweeps racing each other (seed 3.4, decision 0016), against real PostgreSQL.

const { APPROVED, REJECTED } = KycResult;
const { FINAL, RETRYABLE } = KycRejectionType;
const BLURRED = 'The photo of your document was blurred. Please take it again in good light.';
const NOT_VERIFIED = 'We could not verify your identity with the documents provided.';

describe('customer-kyb: sandbox verdicts, FINAL references and concurrent verdicts (real PostgreSQL)', () => {
  const kit = kycSessionSpecKit('kyc_verdict_rules');
  const sandbox = () => kit.contextIn('sandbox');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const get = (session: KycSession) => getKycSession(kit.em(), sandbox(), session.businessId, session.id);
  const sweep = (context = sandbox()) => sweepKycSessions(kit.em(), context);
  const referenceRejected = (sessionId: string) => ({
    status: Status.INVALID_ARGUMENT,
    reason: 'KYC_REFERENCE_REJECTED',
    fieldErrors: { customer_reference: [`was rejected with FINAL in KYC session ${sessionId}`] },
  });

  it('decision 0016: in the sandbox _approve, _reject_retryable and _reject_final are decided by the sweep sandboxVerdictMs after creation, not before', async () => {
    const businessId = randomUUID();
    const approve = await kit.openSession(businessId, { customerReference: 'ada_approve' });
    const retryable = await kit.openSession(businessId, { customerReference: 'ada_reject_retryable' });
    const final = await kit.openSession(businessId, { customerReference: 'ada_reject_final' });
    const plain = await kit.openSession(businessId, { customerReference: 'ada_approved' });
    const sessions = [approve, retryable, final, plain];
    kit.clock.advance(SETTINGS.sandboxVerdictMs - 1);
    await sweep();
    for (const session of sessions) {
      expect((await get(session)).status).toBe(KycSessionStatus.PENDING);
      expect(await kit.eventCases(session.id)).toEqual([]);
    }

    kit.clock.advance(1);
    await sweep();
    const verdicts = await Promise.all(sessions.map(get));
    expect(verdicts.map((session) => [session.status, session.result, session.rejectionType])).toEqual([
      [KycSessionStatus.COMPLETED, APPROVED, undefined],
      [KycSessionStatus.COMPLETED, REJECTED, RETRYABLE],
      [KycSessionStatus.COMPLETED, REJECTED, FINAL],
      [KycSessionStatus.PENDING, undefined, undefined],
    ]);
    expect(verdicts.map((session) => session.rejectionReason)).toEqual([undefined, BLURRED, NOT_VERIFIED, undefined]);
    expect(dateOf(verdicts[0]?.completedAt)).toEqual(kit.clock.now());
    for (const [index, session] of sessions.slice(0, 3).entries()) {
      expect(await kit.outboxSessions(session.id)).toEqual([{ case: 'kycSessionCompleted', session: verdicts[index] }]);
    }
    expect(await kit.eventCases(plain.id)).toEqual([]);
    // Decided means final: the back office's verdict is then late.
    expect(await refusalOf(kit.recordVerdict(approve.id, { result: APPROVED }))).toMatchObject({
      status: Status.ALREADY_EXISTS,
      reason: 'KYC_SESSION_FINAL',
    });
  });

  it('decision 0016: in production the magic suffixes mean nothing: the session waits for a real verdict', async () => {
    const production = kit.contextIn('production');
    const session = await kit.openSession(randomUUID(), { customerReference: 'ada_approve' }, production);
    kit.clock.advance(SETTINGS.sandboxVerdictMs * 10);
    await sweep(production);
    await sweep();
    expect((await get(session)).status).toBe(KycSessionStatus.PENDING);
    expect(await kit.eventCases(session.id)).toEqual([]);
    const rejected = await kit.recordVerdict(
      session.id,
      { result: REJECTED, rejectionType: RETRYABLE, rejectionReason: 'Glare on the photo.' },
      production,
    );
    expect(rejected).toMatchObject({ result: REJECTED, rejectionReason: 'Glare on the photo.' });
  });

  it('seed 3.4: after a FINAL rejection the same customer_reference cannot start a session (422 KYC_REFERENCE_REJECTED); after RETRYABLE it can', async () => {
    const businessId = randomUUID();
    const rejected = await kit.openSession(businessId, { customerReference: 'kemi-001' });
    await kit.recordVerdict(rejected.id, { result: REJECTED, rejectionType: FINAL, rejectionReason: 'Forged.' });
    expect(await refusalOf(kit.openSession(businessId, { customerReference: 'kemi-001' }))).toEqual(
      referenceRejected(rejected.id),
    );
    // The reference is the business's own: another business may use the same words.
    expect((await kit.openSession(randomUUID(), { customerReference: 'kemi-001' })).status).toBe(
      KycSessionStatus.PENDING,
    );

    const retry = await kit.openSession(businessId, { customerReference: 'tunde-002' });
    await kit.recordVerdict(retry.id, { result: REJECTED, rejectionType: RETRYABLE, rejectionReason: 'Blurred.' });
    const again = await kit.openSession(businessId, { customerReference: 'tunde-002' });
    expect(again).toMatchObject({ customerReference: 'tunde-002', status: KycSessionStatus.PENDING });

    // The sandbox's own FINAL rejection blocks its reference just the same.
    const magic = await kit.openSession(businessId, { customerReference: 'bola_reject_final' });
    kit.clock.advance(SETTINGS.sandboxVerdictMs);
    await sweep();
    expect(await refusalOf(kit.openSession(businessId, { customerReference: 'bola_reject_final' }))).toEqual(
      referenceRejected(magic.id),
    );
  });

  it('20 admin verdicts at once on one session: exactly one is recorded, the other 19 are 409 KYC_SESSION_FINAL, one event', async () => {
    const session = await kit.openSession(randomUUID());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        kit.recordVerdict(
          session.id,
          i % 2 === 0
            ? { result: APPROVED }
            : { result: REJECTED, rejectionType: RETRYABLE, rejectionReason: `Retake number ${i}.` },
        ),
      ),
    );
    const recorded = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(recorded).toHaveLength(1);
    expect(refused).toEqual(
      Array.from({ length: 19 }, () =>
        expect.objectContaining({ status: Status.ALREADY_EXISTS, reason: 'KYC_SESSION_FINAL' }),
      ),
    );
    expect(await get(session)).toEqual(recorded[0]);
    expect(await kit.outboxSessions(session.id)).toEqual([{ case: 'kycSessionCompleted', session: recorded[0] }]);
  });

  it('sweeps running side by side (replicas) decide and expire each session once: one event per session', async () => {
    const businessId = randomUUID();
    const magic = await Promise.all(
      ['a_approve', 'b_reject_retryable', 'c_reject_final'].map((customerReference) =>
        kit.openSession(businessId, { customerReference }),
      ),
    );
    const plain = await Promise.all(Array.from({ length: 6 }, () => kit.openSession(businessId)));
    kit.clock.advance(SETTINGS.sandboxVerdictMs);
    await Promise.all(Array.from({ length: 4 }, () => sweep()));
    for (const session of magic) expect(await kit.eventCases(session.id)).toEqual(['kycSessionCompleted']);
    kit.clock.advance(SETTINGS.ttlMs);
    await Promise.all(Array.from({ length: 4 }, () => sweep()));
    for (const session of plain) expect(await kit.eventCases(session.id)).toEqual(['kycSessionExpired']);
    for (const session of magic) expect(await kit.eventCases(session.id)).toEqual(['kycSessionCompleted']);
  });
  it('seed 3.4: a cancel racing a verdict: exactly one wins, and a completed event goes out only when the verdict won', async () => {
    for (let round = 0; round < 5; round += 1) {
      const session = await kit.openSession(randomUUID());
      const [cancel, verdict] = await Promise.allSettled([
        cancelKycSession(kit.em(), sandbox(), session.businessId, session.id),
        kit.recordVerdict(session.id, { result: APPROVED }),
      ]);
      const status = (await get(session)).status;
      if (verdict.status === 'fulfilled') {
        expect(cancel).toMatchObject({ status: 'rejected', reason: { reason: 'KYC_SESSION_NOT_OPEN' } });
        expect(status).toBe(KycSessionStatus.COMPLETED);
        expect(await kit.eventCases(session.id)).toEqual(['kycSessionCompleted']);
      } else {
        expect(verdict).toMatchObject({ status: 'rejected', reason: { reason: 'KYC_SESSION_FINAL' } });
        expect(cancel.status).toBe('fulfilled');
        expect(status).toBe(KycSessionStatus.CANCELLED);
        expect(await kit.eventCases(session.id)).toEqual([]);
      }
    }
  });
});
