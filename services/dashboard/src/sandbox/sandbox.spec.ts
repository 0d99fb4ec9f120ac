import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CustomerSchema, CustomerType, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  KycRejectionType,
  KycResult,
  KycSessionSchema,
  KycSessionStatus,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import {
  CollectionDetailsSchema,
  CollectionMethod,
  VirtualAccountSchema,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { CurrencySchema } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { SandboxCollectionOutcome } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { failedPrecondition, notFound } from '@corridor/grpc';
import { Metadata } from '@grpc/grpc-js';
import type { Response } from 'express';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember } from '../../test/testing/fake-identity.js';
import { requestFingerprint } from '@corridor/idempotency/request-key';
import { idempotentMemberCall } from '../members/idempotent-call.js';
import { formatMinorUnits, parseAmount } from '../money/amount.js';
import { API_AMOUNT_MAX } from './sandbox-routes.js';

const VIRTUAL_ACCOUNT_ID = '8d2f7b92-0000-4000-8000-00000000e001';
const OTHER_VIRTUAL_ACCOUNT_ID = '8d2f7b92-0000-4000-8000-00000000e002';
const COLLECTION_ID = '9e3a8ca3-0000-4000-8000-00000000f001';
const CUSTOMER_ID = '7c1e6a81-0000-4000-8000-00000000d001';
const SESSION_ID = '5a0d1e22-0000-4000-8000-00000000c001';
const OWNER_MEMBER = 'member:00000000-0000-4000-8000-000000000001';
const CREATED = timestampFromDate(new Date('2026-11-21T09:00:00.000Z'));
const MARKUP = '<script>alert(1)</script>';

const virtualAccount = () =>
  create(VirtualAccountSchema, {
    id: VIRTUAL_ACCOUNT_ID,
    customerId: CUSTOMER_ID,
    currency: 'NGN',
    status: VirtualAccountStatus.ACTIVE,
    accountName: 'Adaeze Okafor',
    accountNumber: '9912345678',
    bankName: 'Corridor Sandbox Bank',
    bankCode: '999',
    createdAt: CREATED,
  });

const collection = (changes: { amount: bigint; status: TransactionStatus; method: CollectionMethod }) =>
  create(TransactionSchema, {
    id: COLLECTION_ID,
    businessId: BUSINESS_ID,
    type: TransactionType.COLLECTION,
    status: changes.status,
    currency: 'NGN',
    amount: changes.amount,
    fee: 100n,
    net: changes.amount - 100n,
    description: 'Collection',
    createdAt: CREATED,
    updatedAt: CREATED,
    collectionDetails: create(CollectionDetailsSchema, {
      method: changes.method,
      customerId: CUSTOMER_ID,
      railReference: 'SBX-IN-0001',
    }),
  });

describe('sandbox tools', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  let viewer: TestBrowser;

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
    viewer = dashboard.browser();
    await viewer.signIn('viewer@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.identity.calls.length = 0;
    for (const fake of [dashboard.payments, dashboard.customers, dashboard.kycSessions]) {
      fake.calls.length = 0;
      fake.answers.clear();
    }
    dashboard.payments.answers.set('getVirtualAccount', (request) => {
      if (request.virtualAccountId !== VIRTUAL_ACCOUNT_ID) {
        throw notFound('VIRTUAL_ACCOUNT_NOT_FOUND', 'no virtual account for this business');
      }
      return { virtualAccount: virtualAccount() };
    });
    dashboard.payments.answers.set('listCurrencies', () => ({
      currencies: [create(CurrencySchema, { code: 'NGN', name: 'Nigerian naira', exponent: 2 })],
    }));
  });

  const callsOf = (fake: { calls: Dashboard['payments']['calls'] }, method: string) =>
    fake.calls.filter((call) => call.method === method);
  const audits = () => dashboard.identity.callsOf('recordAudit').map((call) => call.request);

  it('shows the four simulations, each with its own idempotency key, prefilled from the query as text', async () => {
    const page = await owner.get(
      `/sandbox?customer_id=${CUSTOMER_ID}&virtual_account_id=${VIRTUAL_ACCOUNT_ID}&collection_id=${COLLECTION_ID}&session_id=${encodeURIComponent(MARKUP)}`,
    );
    expect(page.status).toBe(200);
    expect(page.html.match(/<h1/g)).toHaveLength(1);
    for (const action of ['incoming-transfer', 'money-request', 'customer-review', 'kyc-verdict']) {
      expect(page.html).toContain(`action="/sandbox/${action}"`);
    }
    const keys = [...page.html.matchAll(/name="idempotency_key" value="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(keys).size).toBe(4);
    expect(page.html).toContain(`value="${CUSTOMER_ID}"`);
    expect(page.html).toContain(`value="${VIRTUAL_ACCOUNT_ID}"`);
    expect(page.html).not.toContain(MARKUP);
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).toMatch(/<label for="field-amount">Amount<\/label>/);
  });

  it('an incoming transfer of "1000.5" NGN is 100050 minor units exactly, as the member’s business, and is audited', async () => {
    dashboard.payments.answers.set('sandboxIncomingTransfer', (request) => ({
      transaction: collection({
        amount: request.amount as bigint,
        status: TransactionStatus.SUCCESSFUL,
        method: CollectionMethod.BANK_TRANSFER,
      }),
    }));
    await owner.get('/sandbox');
    const result = await owner.post('/sandbox/incoming-transfer', {
      virtual_account_id: VIRTUAL_ACCOUNT_ID,
      amount: '1000.5',
      sender_name: 'Chidi Eze',
      idempotency_key: 'key-transfer-1',
    });
    expect(result.status).toBe(201);
    const [call] = callsOf(dashboard.payments, 'sandboxIncomingTransfer');
    expect(call?.request).toMatchObject({
      virtualAccountId: VIRTUAL_ACCOUNT_ID,
      amount: 100050n,
      senderName: 'Chidi Eze',
    });
    expect(call?.caller).toMatchObject({ businessId: BUSINESS_ID, credentialId: OWNER_MEMBER, environment: 'sandbox' });
    expect(result.html).toContain('A transfer of 1,000.50 NGN from Chidi Eze arrived');
    expect(result.html).toContain('SUCCESSFUL');
    expect(result.html).toContain(`href="/money/transactions/${COLLECTION_ID}"`);
    expect(audits()).toEqual([
      expect.objectContaining({ businessId: BUSINESS_ID, action: 'sandbox.incoming_transfer', target: COLLECTION_ID }),
    ]);
  });

  it.each([
    ['12.345', /NGN has 2 decimal places: “12.345” has 3/],
    ['abc', /“abc” is not an amount: write it like 1,500.00/],
    ['-5', /“-5” is not an amount/],
    ['0.00', /The amount must be more than zero/],
    ['1e3', /“1e3” is not an amount/],
  ])('a bad amount (%s) is 422 naming the amount, and nothing is simulated', async (amount, problem) => {
    await owner.get('/sandbox');
    const page = await owner.post('/sandbox/incoming-transfer', {
      virtual_account_id: VIRTUAL_ACCOUNT_ID,
      amount,
      sender_name: 'Chidi Eze',
      idempotency_key: 'key-transfer-2',
    });
    expect(page.status).toBe(422);
    expect(page.html).toMatch(problem);
    expect(page.html).toContain('id="field-amount-error"');
    expect(page.html).toContain('aria-invalid="true"');
    expect(callsOf(dashboard.payments, 'sandboxIncomingTransfer')).toHaveLength(0);
    expect(audits()).toHaveLength(0);
  });

  it('another business’s virtual account is 404 and nothing is simulated', async () => {
    await owner.get('/sandbox');
    const page = await owner.post('/sandbox/incoming-transfer', {
      virtual_account_id: OTHER_VIRTUAL_ACCOUNT_ID,
      amount: '10',
      sender_name: 'Chidi Eze',
      idempotency_key: 'key-transfer-3',
    });
    expect(page.status).toBe(404);
    expect(page.html).toContain('Your business has no virtual account with this ID.');
    expect(callsOf(dashboard.payments, 'getVirtualAccount')[0]?.caller).toMatchObject({ businessId: BUSINESS_ID });
    expect(callsOf(dashboard.payments, 'sandboxIncomingTransfer')).toHaveLength(0);
  });

  it('pays a money request; a request no longer pending is 422 with the service’s words', async () => {
    dashboard.payments.answers.set('sandboxSettleCollection', () => ({
      transaction: collection({
        amount: 15_000n,
        status: TransactionStatus.SUCCESSFUL,
        method: CollectionMethod.MONEY_REQUEST,
      }),
    }));
    await owner.get(`/sandbox?collection_id=${COLLECTION_ID}`);
    const paid = await owner.post('/sandbox/money-request', {
      collection_id: COLLECTION_ID,
      outcome: 'pay',
      idempotency_key: 'key-mr-1',
    });
    expect(paid.status).toBe(200);
    expect(callsOf(dashboard.payments, 'sandboxSettleCollection')[0]?.request).toMatchObject({
      collectionId: COLLECTION_ID,
      outcome: SandboxCollectionOutcome.PAY,
    });
    expect(paid.html).toContain('The money request was paid by the payer: it is now SUCCESSFUL.');
    expect(paid.html).toContain('150.00 NGN');
    expect(paid.html).toContain(`href="/money/transactions/${COLLECTION_ID}"`);
    expect(audits()[0]).toMatchObject({ action: 'sandbox.money_request_settled', target: COLLECTION_ID });

    dashboard.payments.answers.set('sandboxSettleCollection', () => {
      throw failedPrecondition('COLLECTION_NOT_PENDING', `collection ${COLLECTION_ID} is SUCCESSFUL, not PENDING`);
    });
    await owner.get('/sandbox');
    const refused = await owner.post('/sandbox/money-request', {
      collection_id: COLLECTION_ID,
      outcome: 'decline',
      idempotency_key: 'key-mr-2',
    });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('is SUCCESSFUL, not PENDING');
    expect(audits()).toHaveLength(1);
  });

  it('reviews a customer with SandboxReviewCustomer; a customer not submitted is 422 saying so; another business’s is 404', async () => {
    dashboard.customers.answers.set('sandboxReviewCustomer', (request) => ({
      customer: create(CustomerSchema, {
        id: CUSTOMER_ID,
        businessId: BUSINESS_ID,
        type: CustomerType.INDIVIDUAL,
        verificationStatus: request.verdict as VerificationStatus,
        createdAt: CREATED,
        updatedAt: CREATED,
      }),
    }));
    await owner.get('/sandbox');
    const reviewed = await owner.post('/sandbox/customer-review', {
      customer_id: CUSTOMER_ID,
      verdict: 'REJECTED',
      comment: ` ${MARKUP} `,
      idempotency_key: 'key-review-1',
    });
    expect(reviewed.status).toBe(200);
    const [call] = callsOf(dashboard.customers, 'sandboxReviewCustomer');
    expect(call?.request).toMatchObject({
      customerId: CUSTOMER_ID,
      verdict: VerificationStatus.REJECTED,
      comment: MARKUP,
    });
    expect(call?.caller).toMatchObject({ businessId: BUSINESS_ID, environment: 'sandbox' });
    expect(reviewed.html).toContain(`Customer ${CUSTOMER_ID} is now REJECTED`);
    expect(reviewed.html).toContain(`href="/customers/${CUSTOMER_ID}"`);
    expect(audits()[0]).toMatchObject({ action: 'sandbox.customer_reviewed', target: CUSTOMER_ID });

    dashboard.customers.answers.set('sandboxReviewCustomer', () => {
      throw failedPrecondition(
        'NOT_UNDER_REVIEW',
        `customer ${CUSTOMER_ID} is PENDING; only a PROCESSING customer is reviewed`,
      );
    });
    await owner.get('/sandbox');
    const pending = await owner.post('/sandbox/customer-review', {
      customer_id: CUSTOMER_ID,
      verdict: 'VERIFIED',
      idempotency_key: 'key-review-2',
    });
    expect(pending.status).toBe(422);
    expect(pending.html).toContain('is PENDING; only a PROCESSING customer is reviewed');
    // What was sent stays in the form.
    expect(pending.html).toContain(`value="${CUSTOMER_ID}"`);

    dashboard.customers.answers.set('sandboxReviewCustomer', () => {
      throw notFound('CUSTOMER_NOT_FOUND', 'no such customer');
    });
    await owner.get('/sandbox');
    const other = await owner.post('/sandbox/customer-review', {
      customer_id: CUSTOMER_ID,
      verdict: 'VERIFIED',
      idempotency_key: 'key-review-3',
    });
    expect(other.status).toBe(404);
    expect(audits()).toHaveLength(1);
  });

  it('gives a KYC verdict: an approval sends no rejection fields, a rejection its type and reason', async () => {
    dashboard.kycSessions.answers.set('sandboxRecordKycResult', (request) => ({
      session: create(KycSessionSchema, {
        id: SESSION_ID,
        businessId: BUSINESS_ID,
        customerReference: 'person-42',
        status: KycSessionStatus.COMPLETED,
        result: request.result as KycResult,
        ...(request.result === KycResult.REJECTED
          ? {
              rejectionType: request.rejectionType as KycRejectionType,
              rejectionReason: String(request.rejectionReason),
            }
          : {}),
        createdAt: CREATED,
        expiresAt: CREATED,
      }),
    }));
    await owner.get('/sandbox');
    const approved = await owner.post('/sandbox/kyc-verdict', {
      session_id: SESSION_ID,
      result: 'APPROVED',
      rejection_type: 'FINAL',
      rejection_reason: 'left over',
      idempotency_key: 'key-kyc-1',
    });
    expect(approved.status).toBe(200);
    expect(approved.html).toContain(`KYC session ${SESSION_ID} is COMPLETED: APPROVED`);
    expect(approved.html).toContain(`href="/kyc-sessions/${SESSION_ID}"`);
    const [first] = callsOf(dashboard.kycSessions, 'sandboxRecordKycResult');
    expect(first?.request).toMatchObject({ sessionId: SESSION_ID, result: KycResult.APPROVED });
    expect(first?.request.rejectionType).toBeUndefined();
    expect(first?.request.rejectionReason).toBeUndefined();

    await owner.get('/sandbox');
    const rejected = await owner.post('/sandbox/kyc-verdict', {
      session_id: SESSION_ID,
      result: 'REJECTED',
      rejection_type: 'RETRYABLE',
      rejection_reason: 'The photo was blurred.',
      idempotency_key: 'key-kyc-2',
    });
    expect(rejected.status).toBe(200);
    expect(callsOf(dashboard.kycSessions, 'sandboxRecordKycResult')[1]?.request).toMatchObject({
      result: KycResult.REJECTED,
      rejectionType: KycRejectionType.RETRYABLE,
      rejectionReason: 'The photo was blurred.',
    });
    expect(audits().map((audit) => audit.action)).toEqual([
      'sandbox.kyc_result_recorded',
      'sandbox.kyc_result_recorded',
    ]);
  });

  it('names the fields a form lacks (422) before any service is asked, and a form without its key is refused', async () => {
    await owner.get('/sandbox');
    const page = await owner.post('/sandbox/kyc-verdict', {
      session_id: 'not-a-session',
      result: 'MAYBE',
      idempotency_key: 'key-kyc-3',
    });
    expect(page.status).toBe(422);
    expect(page.html).toContain('Enter the KYC session ID');
    expect(page.html).toContain('Choose a result: APPROVED or REJECTED');
    await owner.get('/sandbox');
    const keyless = await owner.post('/sandbox/customer-review', { customer_id: CUSTOMER_ID, verdict: 'VERIFIED' });
    expect(keyless.status).toBe(422);
    expect(keyless.html).toContain('reload the page');
    expect(dashboard.kycSessions.calls).toHaveLength(0);
    expect(dashboard.customers.calls).toHaveLength(0);
  });

  it('a viewer sees no sandbox tools and is 403 on every form; a POST without the CSRF token is 403', async () => {
    const home = await viewer.get('/');
    expect(home.html).not.toContain('href="/sandbox"');
    expect((await viewer.get('/sandbox')).status).toBe(403);
    const refused = await viewer.post('/sandbox/customer-review', {
      customer_id: CUSTOMER_ID,
      verdict: 'VERIFIED',
      idempotency_key: 'key-viewer',
    });
    expect(refused.status).toBe(403);
    await owner.get('/sandbox');
    const forged = await owner.post('/sandbox/customer-review', {
      csrf_token: '',
      customer_id: CUSTOMER_ID,
      verdict: 'VERIFIED',
      idempotency_key: 'key-forged',
    });
    expect(forged.status).toBe(403);
    expect(dashboard.customers.calls).toHaveLength(0);
  });
});

describe('sandbox tools in production', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  beforeAll(async () => {
    dashboard = await startDashboard({ environment: 'production' });
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com', totpEnabled: true }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
  });
  afterAll(() => dashboard.close());

  it('answers 404, not 403, for the page and every form, and calls nothing', async () => {
    const home = await owner.get('/');
    expect(home.html).not.toContain('href="/sandbox"');
    expect((await owner.get('/sandbox')).status).toBe(404);
    for (const form of ['incoming-transfer', 'money-request', 'customer-review', 'kyc-verdict']) {
      await owner.get('/');
      const page = await owner.post(`/sandbox/${form}`, { idempotency_key: 'key-production' });
      expect(page.status).toBe(404);
    }
    expect([...dashboard.payments.calls, ...dashboard.customers.calls, ...dashboard.kycSessions.calls]).toEqual([]);
  });
});

describe('sandbox amounts and idempotency keys', () => {
  it('reads major units exactly, with bigint arithmetic', () => {
    expect(parseAmount('1000.5', 2, 'NGN')).toEqual({ ok: true, minor: 100050n });
    expect(parseAmount(' 1,000.50 ', 2, 'NGN')).toEqual({ ok: true, minor: 100050n });
    expect(parseAmount('0.1', 2, 'USD')).toEqual({ ok: true, minor: 10n });
    expect(parseAmount('90071992547409.91', 2, 'NGN', API_AMOUNT_MAX)).toEqual({ ok: true, minor: 9007199254740991n });
    expect(parseAmount('90071992547409.92', 2, 'NGN', API_AMOUNT_MAX)).toMatchObject({ ok: false });
    expect(parseAmount('5.5', 0, 'XOF')).toEqual({
      ok: false,
      problem: 'XOF has no minor unit: write a whole number',
    });
    expect(parseAmount('1,00.5', 2, 'NGN')).toMatchObject({ ok: false });
    expect(formatMinorUnits(100050n, 2)).toBe('1,000.50');
    expect(formatMinorUnits(5n, 2)).toBe('0.05');
    expect(formatMinorUnits(-1234567n, 2)).toBe('-12,345.67');
    expect(formatMinorUnits(1000n, 0)).toBe('1,000');
  });

  it('sends the form’s key with the request’s fingerprint as the gateway sends Idempotency-Key, and reads a replay', () => {
    const res = {
      locals: {
        dashboard: {
          requestId: 'req-1',
          environment: 'sandbox',
          address: '127.0.0.1',
          session: {
            id: 's',
            stage: 'signed_in',
            memberId: '00000000-0000-4000-8000-000000000001',
            businessId: BUSINESS_ID,
            role: 'developer',
            email: 'd@example.com',
            name: 'D',
            createdAt: 0,
            lastSeenAt: 0,
            csrfToken: 't',
          },
        },
      },
    } as unknown as Response;
    const request = { customerId: CUSTOMER_ID, verdict: VerificationStatus.VERIFIED };
    const call = idempotentMemberCall(res, 'key-1', '/sandbox/customer-review', request);
    const metadata = call.settings.metadata;
    expect(metadata?.get('idempotency-key')).toEqual(['key-1']);
    expect(metadata?.get('business-id')).toEqual([BUSINESS_ID]);
    expect(metadata?.get('idempotency-fingerprint')).toEqual([
      requestFingerprint('POST', '/sandbox/customer-review', {
        verdict: VerificationStatus.VERIFIED,
        customerId: CUSTOMER_ID,
      }),
    ]);
    expect(requestFingerprint('POST', '/p', { amount: 100050n })).not.toBe(
      requestFingerprint('POST', '/p', { amount: 100051n }),
    );
    expect(call.replayed()).toBe(false);
    const answered = new Metadata();
    answered.set('idempotent-replayed', 'true');
    call.settings.onResponseMetadata?.(answered);
    expect(call.replayed()).toBe(true);
  });
});
