import { create, type MessageInitShape } from '@bufbuild/protobuf';
import {
  KycRequirement,
  KycResult,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { ListKycSessionsRequestSchema } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { cancelKycSession, getKycSession, listKycSessions } from './kyc-sessions.js';
import { dateOf, kycSessionSpecKit, refusalOf, SETTINGS } from '../../test/kyc-sessions/kyc-session-spec-kit.js';
import { submitVerification } from './verification.js';

// POST /kyc-session, GET /kyc-session(/{id}) and POST /kyc-session/{id}/cancel as customer-kyb serves
// them (seed 3.4, decision 0016), against real PostgreSQL and S3Proxy.

const { DOCUMENTS, SELFIE, FACE_MATCH } = KycRequirement;

describe('customer-kyb: merchant KYC sessions, create, read, list and cancel (real PostgreSQL)', () => {
  const kit = kycSessionSpecKit('kyc_sessions');
  const context = () => kit.contextIn('sandbox');

  beforeAll(() => kit.start());
  afterAll(() => kit.stop());

  const get = (businessId: string, id: string) => getKycSession(kit.em(), context(), businessId, id);
  const cancel = (businessId: string, id: string) => cancelKycSession(kit.em(), context(), businessId, id);
  const list = (businessId: string, filters: MessageInitShape<typeof ListKycSessionsRequestSchema> = {}) =>
    listKycSessions(kit.em(), businessId, create(ListKycSessionsRequestSchema, filters));
  const ids = (sessions: readonly KycSession[]) => sessions.map((session) => session.id);
  const sessionCount = async (businessId: string) =>
    (await query(kit.databaseUrl(), 'select id from kyc_session where business_id = $1', [businessId])).length;
  const validationFailed = (fieldErrors: Record<string, unknown>) => ({
    status: Status.INVALID_ARGUMENT,
    reason: 'VALIDATION_FAILED',
    fieldErrors,
  });
  const notFound = { status: Status.NOT_FOUND, reason: 'KYC_SESSION_NOT_FOUND', fieldErrors: undefined };
  const notOpen = { status: Status.FAILED_PRECONDITION, reason: 'KYC_SESSION_NOT_OPEN', fieldErrors: undefined };

  it('seed 3.4: a new session is PENDING with a 43-character page token, expiring ttl after creation, and sends no event', async () => {
    const businessId = randomUUID();
    const session = await kit.openSession(businessId, {
      customerReference: 'ada-obi-001',
      requirements: [DOCUMENTS, SELFIE],
      redirectUrl: 'https://platform.example/kyc/done?step=2',
    });
    expect(session).toMatchObject({
      businessId,
      customerReference: 'ada-obi-001',
      requirements: [DOCUMENTS, SELFIE],
      redirectUrl: 'https://platform.example/kyc/done?step=2',
      status: KycSessionStatus.PENDING,
      captures: [],
    });
    expect(session.verificationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const absent = [session.customerId, session.result, session.rejectionReason, session.rejectionType];
    expect(absent).toEqual([undefined, undefined, undefined, undefined]);
    const ends = [session.submittedAt, session.completedAt, session.expiredAt, session.cancelledAt];
    expect(ends).toEqual([undefined, undefined, undefined, undefined]);
    expect(dateOf(session.createdAt)).toEqual(kit.clock.now());
    expect(dateOf(session.updatedAt)).toEqual(kit.clock.now());
    expect(dateOf(session.expiresAt)).toEqual(new Date(kit.clock.now().getTime() + SETTINGS.ttlMs));
    expect(await get(businessId, session.id)).toEqual(session);
    expect(await kit.eventCases(session.id)).toEqual([]);

    const another = await kit.openSession(businessId, { customerReference: 'ada-obi-001' });
    expect(another.verificationToken).not.toBe(session.verificationToken);
  });

  it('each invalid field of a create is a 422 VALIDATION_FAILED naming that field, and nothing is written', async () => {
    const businessId = randomUUID();
    const cases: [field: string, init: Parameters<typeof kit.openSession>[1]][] = [
      ['customer_reference', { customerReference: '' }],
      ['customer_reference', { customerReference: '   ' }],
      ['customer_reference', { customerReference: 'a'.repeat(256) }],
      ['customer_reference', { customerReference: 'ada\u0000obi' }],
      ['requirements', { requirements: [] }],
      ['requirements', { requirements: [KycRequirement.UNSPECIFIED] }],
      ['requirements', { requirements: [DOCUMENTS, SELFIE, DOCUMENTS] }],
      ['customer_id', { customerId: 'not-a-uuid' }],
      ['redirect_url', { redirectUrl: 'http://platform.example/kyc/done' }],
      ['redirect_url', { redirectUrl: 'platform.example/kyc/done' }],
      ['redirect_url', { redirectUrl: `https://platform.example/${'a'.repeat(2030)}` }],
    ];
    for (const [field, init] of cases) {
      const refusal = await refusalOf(kit.openSession(businessId, init));
      expect({ init, refusal }).toEqual({ init, refusal: validationFailed({ [field]: [expect.any(String)] }) });
    }
    const everything = await refusalOf(
      kit.openSession(businessId, { customerReference: '', requirements: [], customerId: 'x', redirectUrl: 'ftp://x' }),
    );
    expect(Object.keys(everything?.fieldErrors ?? {}).sort()).toEqual([
      'customer_id',
      'customer_reference',
      'redirect_url',
      'requirements',
    ]);
    expect(await sessionCount(businessId)).toBe(0);
    // The limits themselves are accepted.
    const longest = await kit.openSession(businessId, {
      customerReference: 'a'.repeat(255),
      requirements: [FACE_MATCH, DOCUMENTS, SELFIE],
      redirectUrl: `https://platform.example/${'a'.repeat(2048 - 'https://platform.example/'.length)}`,
    });
    expect(longest.status).toBe(KycSessionStatus.PENDING);
  });

  it('customer_id must be one of the business’s own customers (422 customer_id otherwise)', async () => {
    const businessId = randomUUID();
    const own = await kit.customerOf(businessId);
    const othersCustomer = await kit.customerOf(randomUUID());
    for (const customerId of [othersCustomer, randomUUID()]) {
      expect(await refusalOf(kit.openSession(businessId, { customerId }))).toEqual(
        validationFailed({ customer_id: ['is not one of your customers'] }),
      );
    }
    expect(await sessionCount(businessId)).toBe(0);
    expect(await kit.openSession(businessId, { customerId: own })).toMatchObject({ customerId: own });
  });

  it('another business’s session is KYC_SESSION_NOT_FOUND to read and to cancel, like an unknown id', async () => {
    const owner = randomUUID();
    const session = await kit.openSession(owner);
    const stranger = randomUUID();
    expect(await refusalOf(get(stranger, session.id))).toEqual(notFound);
    expect(await refusalOf(cancel(stranger, session.id))).toEqual(notFound);
    expect(await refusalOf(get(owner, randomUUID()))).toEqual(notFound);
    expect(await refusalOf(get(owner, 'not-a-uuid'))).toEqual(notFound);
    expect((await list(stranger)).sessions).toEqual([]);
    expect((await get(owner, session.id)).status).toBe(KycSessionStatus.PENDING);
  });

  it('the list is newest first in keyset pages of 3, with next and previous cursors that walk both ways', async () => {
    const businessId = randomUUID();
    const created: KycSession[] = [];
    for (let i = 0; i < 7; i += 1) {
      // Two pairs share a creation time: the id orders them, and no page repeats or skips one.
      if (i !== 2 && i !== 5) kit.clock.advance(1_000);
      created.push(await kit.openSession(businessId, { customerReference: `page-${i}` }));
    }
    await kit.openSession(randomUUID());
    const newestFirst = [...created].sort(
      (a, b) => (dateOf(b.createdAt)?.getTime() ?? 0) - (dateOf(a.createdAt)?.getTime() ?? 0) || (b.id < a.id ? -1 : 1),
    );

    const first = await list(businessId, { page: { limit: 3 } });
    expect(ids(first.sessions)).toEqual(ids(newestFirst.slice(0, 3)));
    expect(first.previousCursor).toBeUndefined();
    expect(first.limit).toBe(3);
    const second = await list(businessId, { page: { limit: 3, cursor: first.nextCursor } });
    expect(ids(second.sessions)).toEqual(ids(newestFirst.slice(3, 6)));
    expect(second.previousCursor).toBeDefined();
    const third = await list(businessId, { page: { limit: 3, cursor: second.nextCursor } });
    expect(ids(third.sessions)).toEqual(ids(newestFirst.slice(6)));
    expect(third.nextCursor).toBeUndefined();

    const backToSecond = await list(businessId, { page: { limit: 3, cursor: third.previousCursor } });
    expect(ids(backToSecond.sessions)).toEqual(ids(second.sessions));
    const backToFirst = await list(businessId, { page: { limit: 3, cursor: backToSecond.previousCursor } });
    expect(ids(backToFirst.sessions)).toEqual(ids(first.sessions));
    expect(backToFirst.previousCursor).toBeUndefined();
    expect(backToFirst.sessions[0]).toEqual(await get(businessId, newestFirst[0]?.id ?? ''));

    expect(ids((await list(businessId)).sessions)).toEqual(ids(newestFirst));
    expect(await refusalOf(list(businessId, { page: { limit: 101 } }))).toMatchObject({ reason: 'VALIDATION_FAILED' });
    expect(await refusalOf(list(businessId, { page: { cursor: 'not-a-cursor!' } }))).toMatchObject({
      reason: 'VALIDATION_FAILED',
    });
  });

  it('the list filters by customer_reference, status and customer_id, each alone and together', async () => {
    const businessId = randomUUID();
    const customerId = await kit.customerOf(businessId);
    kit.clock.advance(1_000);
    const plain = await kit.openSession(businessId, { customerReference: 'ref-a' });
    kit.clock.advance(1_000);
    const ofCustomer = await kit.openSession(businessId, { customerReference: 'ref-b', customerId });
    kit.clock.advance(1_000);
    const cancelled = await kit.openSession(businessId, { customerReference: 'ref-a', customerId });
    await cancel(businessId, cancelled.id);
    await kit.openSession(randomUUID(), { customerReference: 'ref-a' });

    expect(ids((await list(businessId, { customerReference: 'ref-a' })).sessions)).toEqual([cancelled.id, plain.id]);
    expect(ids((await list(businessId, { customerReference: 'ref-c' })).sessions)).toEqual([]);
    expect(ids((await list(businessId, { status: KycSessionStatus.CANCELLED })).sessions)).toEqual([cancelled.id]);
    expect(ids((await list(businessId, { status: KycSessionStatus.PENDING })).sessions)).toEqual([
      ofCustomer.id,
      plain.id,
    ]);
    expect(ids((await list(businessId, { status: KycSessionStatus.COMPLETED })).sessions)).toEqual([]);
    expect(ids((await list(businessId, { customerId })).sessions)).toEqual([cancelled.id, ofCustomer.id]);
    expect(ids((await list(businessId, { customerId: 'not-a-uuid' })).sessions)).toEqual([]);
    const together = await list(businessId, {
      customerReference: 'ref-a',
      status: KycSessionStatus.PENDING,
      customerId,
    });
    expect(together.sessions).toEqual([]);
    expect(ids((await list(businessId, { customerReference: 'ref-b', customerId })).sessions)).toEqual([ofCustomer.id]);
  });

  it('seed 3.4: cancelling an open session makes it CANCELLED and records no event; cancelling again answers the same', async () => {
    const businessId = randomUUID();
    const pending = await kit.openSession(businessId);
    const cancelled = await cancel(businessId, pending.id);
    expect(cancelled).toMatchObject({ id: pending.id, status: KycSessionStatus.CANCELLED });
    expect(dateOf(cancelled.cancelledAt)).toEqual(kit.clock.now());
    expect(dateOf(cancelled.updatedAt)).toEqual(kit.clock.now());
    expect(cancelled.result).toBeUndefined();
    kit.clock.advance(60_000);
    expect(await cancel(businessId, pending.id)).toEqual(cancelled);
    expect(await get(businessId, pending.id)).toEqual(cancelled);
    expect(await kit.eventCases(pending.id)).toEqual([]);

    // A submitted (PROCESSING) session is still open: it can be cancelled too.
    const submitted = await kit.openSession(businessId);
    await kit.giveFile(submitted.verificationToken, 'document');
    await submitVerification(kit.em(), context(), submitted.verificationToken);
    expect(await cancel(businessId, submitted.id)).toMatchObject({ status: KycSessionStatus.CANCELLED });
    expect(await kit.eventCases(submitted.id)).toEqual([]);
  });

  it('seed 3.4: a COMPLETED or EXPIRED session cannot be cancelled (400 KYC_SESSION_NOT_OPEN) and stays as it was', async () => {
    const businessId = randomUUID();
    const completed = await kit.openSession(businessId);
    const approved = await kit.recordVerdict(completed.id, { result: KycResult.APPROVED });
    expect(await refusalOf(cancel(businessId, completed.id))).toEqual(notOpen);
    expect(await get(businessId, completed.id)).toEqual(approved);

    const expiring = await kit.openSession(businessId);
    kit.clock.advance(SETTINGS.ttlMs);
    // Past its deadline, before any sweep: the cancel finds it expired.
    expect(await refusalOf(cancel(businessId, expiring.id))).toEqual(notOpen);
    expect(await get(businessId, expiring.id)).toMatchObject({ status: KycSessionStatus.EXPIRED });
    expect(await kit.eventCases(expiring.id)).toEqual(['kycSessionExpired']);
    expect(await kit.eventCases(completed.id)).toEqual(['kycSessionCompleted']);
  });
});
