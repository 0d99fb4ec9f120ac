import { create, type MessageInitShape } from '@bufbuild/protobuf';
import type { GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionDetailsSchema,
  CollectionMethod,
  RefundSchema,
  RefundStatus,
  VirtualAccountSchema,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { CurrencySchema, WalletSchema } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { PayoutDetailsSchema, PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  AmountSide,
  SwapDetailsSchema,
  TransactionSchema,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import {
  callerMetadata,
  createClients,
  failedPrecondition,
  invalidArgument,
  notFound,
  PAYMENTS_SERVICES,
  registration,
  startGrpcServer,
  type CallContext,
  type PaymentsClients,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember } from '../../test/testing/fake-identity.js';

const at = (iso: string) => timestampFromDate(new Date(iso));
const SWAP_ID = '2f6a1c3d-0000-4000-8000-000000007001';
const PAYOUT_ID = '2f6a1c3d-0000-4000-8000-000000007002';
const COLLECTION_ID = '9e3a8ca3-0000-4000-8000-00000000f001';
const REFUND_ID = 'af4b9db4-0000-4000-8000-000000001001';
const OTHERS_ID = '2f6a1c3d-0000-4000-8000-0000000070ff';
const CUSTOMER_ID = '7c1e6a81-0000-4000-8000-00000000d001';
const VIRTUAL_ACCOUNT_ID = '8d2f7b92-0000-4000-8000-00000000e001';
const SCRIPT = '<script>alert(1)</script>';

const base = {
  businessId: BUSINESS_ID,
  status: TransactionStatus.SUCCESSFUL,
  createdAt: at('2026-11-21T09:00:00Z'),
  updatedAt: at('2026-11-21T09:00:02Z'),
};

const swap = () =>
  create(TransactionSchema, {
    ...base,
    id: SWAP_ID,
    type: TransactionType.SWAP,
    currency: 'NGN',
    amount: -15_000_000n,
    fee: 75_000n,
    net: -15_075_000n,
    reference: 'inv-2041',
    description: 'Swap 150000.00 NGN to 97.35 USD',
    swapDetails: create(SwapDetailsSchema, {
      fromCurrency: 'NGN',
      fromAmount: 15_000_000n,
      toCurrency: 'USD',
      toAmount: 9_735n,
      rate: '0.000649',
      fee: 75_000n,
      amountSide: AmountSide.FROM,
    }),
  });

/** 1,000,000,000.01 NGN out to GTBank: amounts beyond a float's cents. */
const payout = () =>
  create(TransactionSchema, {
    ...base,
    id: PAYOUT_ID,
    type: TransactionType.PAYOUT,
    status: TransactionStatus.PROCESSING,
    currency: 'NGN',
    amount: -100_000_000_001n,
    fee: 5_000n,
    net: -100_000_005_001n,
    reference: 'payout-77',
    description: 'Payout to Adaeze Okafor',
    payoutDetails: create(PayoutDetailsSchema, {
      status: PayoutStatus.PROCESSING,
      destination: {
        bankCode: '058',
        accountNumber: '0123456789',
        accountName: 'Adaeze Okafor',
        bankName: 'Guaranty Trust Bank',
        currency: 'NGN',
      },
      narration: 'November invoice',
      railReference: 'SBX-PO-0001',
    }),
  });

/** 150.00 GBP into a virtual account: refundable (successful, GBP, never refunded). */
const collection = (changes: Omit<MessageInitShape<typeof TransactionSchema>, '$typeName'> = {}) =>
  create(TransactionSchema, {
    ...base,
    id: COLLECTION_ID,
    type: TransactionType.COLLECTION,
    currency: 'GBP',
    amount: 15_000n,
    fee: 150n,
    net: 14_850n,
    description: 'Bank transfer from Chidi Eze',
    collectionDetails: create(CollectionDetailsSchema, {
      method: CollectionMethod.BANK_TRANSFER,
      customerId: CUSTOMER_ID,
      virtualAccountId: VIRTUAL_ACCOUNT_ID,
      senderName: 'Chidi Eze',
      railReference: 'SBX-IN-0001',
      completedAt: at('2026-11-21T09:00:02Z'),
    }),
    ...changes,
  });

const refund = (changes: Omit<MessageInitShape<typeof RefundSchema>, '$typeName'> = {}) =>
  create(RefundSchema, {
    id: REFUND_ID,
    transactionId: COLLECTION_ID,
    status: RefundStatus.PROCESSING,
    amount: 15_000n,
    currency: 'GBP',
    reason: 'customer changed their mind',
    createdAt: at('2026-11-22T10:00:00Z'),
    updatedAt: at('2026-11-22T10:00:00Z'),
    ...changes,
  });

const refundTransaction = () =>
  create(TransactionSchema, {
    ...base,
    id: REFUND_ID,
    type: TransactionType.REFUND,
    status: TransactionStatus.PROCESSING,
    currency: 'GBP',
    amount: -15_000n,
    fee: 100n,
    net: -15_100n,
    description: `Refund of collection ${COLLECTION_ID}`,
    refundDetails: refund(),
  });

const virtualAccount = (changes: Omit<MessageInitShape<typeof VirtualAccountSchema>, '$typeName'> = {}) =>
  create(VirtualAccountSchema, {
    id: VIRTUAL_ACCOUNT_ID,
    customerId: CUSTOMER_ID,
    currency: 'NGN',
    status: VirtualAccountStatus.ACTIVE,
    accountName: 'Adaeze Okafor',
    accountNumber: '9912345678',
    bankName: 'Corridor Sandbox Bank',
    bankCode: '999',
    createdAt: at('2026-11-21T09:00:00Z'),
    ...changes,
  });

const TRANSACTIONS: Record<string, () => ReturnType<typeof swap>> = {
  [SWAP_ID]: swap,
  [PAYOUT_ID]: payout,
  [COLLECTION_ID]: () => collection(),
  [REFUND_ID]: refundTransaction,
};

/** What payments answers by default in these specs; one spec changes one answer. */
function answerAsPayments(dashboard: Dashboard) {
  const { answers } = dashboard.payments;
  answers.clear();
  answers.set('listCurrencies', () => ({
    currencies: [
      create(CurrencySchema, { code: 'NGN', name: 'Nigerian Naira', exponent: 2 }),
      create(CurrencySchema, { code: 'GBP', name: 'Pound Sterling', exponent: 2 }),
      create(CurrencySchema, { code: 'USD', name: 'US Dollar', exponent: 2 }),
      create(CurrencySchema, { code: 'USDT', name: 'Tether (8 places)', exponent: 8 }),
    ],
  }));
  answers.set('listWallets', () => ({
    wallets: [
      create(WalletSchema, {
        currency: 'NGN',
        availableBalance: 100_000_000_001n,
        pendingBalance: 150_750n,
        ledgerBalance: 100_000_150_751n,
        updatedAt: at('2026-11-21T09:00:02Z'),
      }),
      create(WalletSchema, { currency: 'USDT', availableBalance: 1n, pendingBalance: 0n, ledgerBalance: 1n }),
    ],
  }));
  answers.set('listTransactions', () => ({
    transactions: [swap(), payout(), collection()],
    page: { nextCursor: 'cursor-older', previousCursor: 'cursor-newer', limit: 50 },
  }));
  answers.set('getTransaction', (request) => {
    const transaction = TRANSACTIONS[String(request.transactionId)];
    // payments' answer for another business's id, as for no id at all.
    if (!transaction) throw notFound('TRANSACTION_NOT_FOUND', `no transaction ${String(request.transactionId)}`);
    return { transaction: transaction() };
  });
  answers.set('createRefund', () => ({ refund: refund(), existing: false }));
  answers.set('listVirtualAccounts', () => ({
    virtualAccounts: [virtualAccount()],
    page: { nextCursor: 'va-older', limit: 50 },
  }));
  answers.set('getVirtualAccount', (request) => {
    if (request.virtualAccountId !== VIRTUAL_ACCOUNT_ID) throw notFound('VIRTUAL_ACCOUNT_NOT_FOUND', 'no account');
    return { virtualAccount: virtualAccount() };
  });
}

interface SeenCall {
  method: string;
  key?: string;
  fingerprint?: string;
}

/**
 * Between the dashboard and the harness's fake payments: the fake records the caller, not the
 * idempotency metadata, so this real gRPC hop records that and forwards the call (caller metadata
 * kept); `replay` makes it answer as payments does a stored response (idempotent-replayed).
 */
async function startMetadataRecorder(dashboard: Dashboard) {
  const seen: SeenCall[] = [];
  const state = { replay: false };
  const forwarding = (name: keyof PaymentsClients) => {
    const fake = dashboard.payments.clients[name] as unknown as Record<string, (...args: unknown[]) => unknown>;
    return Object.fromEntries(
      PAYMENTS_SERVICES[name].methods.map(({ localName }) => [
        localName,
        async (request: unknown, context: CallContext) => {
          const first = (header: string) => context.metadata.get(header)[0]?.toString();
          seen.push({
            method: localName,
            key: first('idempotency-key'),
            fingerprint: first('idempotency-fingerprint'),
          });
          const answer = await fake[localName]?.(request, { metadata: callerMetadata(context.caller) });
          if (state.replay) context.responseMetadata.set('idempotent-replayed', 'true');
          return answer;
        },
      ]),
    );
  };
  const server = await startGrpcServer({
    address: '127.0.0.1:0',
    services: (Object.keys(PAYMENTS_SERVICES) as (keyof PaymentsClients)[]).map((name) =>
      registration<GenServiceMethods>(PAYMENTS_SERVICES[name], forwarding(name) as never),
    ),
    logger: createLogger('test', { level: 'silent' }),
  });
  const clients = createClients(PAYMENTS_SERVICES, { address: `127.0.0.1:${server.port}` });
  Object.assign(dashboard.deps.clients, clients);
  return {
    seen,
    state,
    async stop() {
      for (const client of Object.values(clients)) client.close();
      await server.shutdown(1_000);
    },
  };
}

describe('Money', () => {
  let dashboard: Dashboard;
  let recorder: Awaited<ReturnType<typeof startMetadataRecorder>>;
  let owner: TestBrowser;
  let viewer: TestBrowser;
  const callsOf = (method: string) => dashboard.payments.calls.filter((call) => call.method === method);

  beforeAll(async () => {
    dashboard = await startDashboard();
    recorder = await startMetadataRecorder(dashboard);
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    owner = dashboard.browser();
    viewer = dashboard.browser();
    await owner.signIn('owner@example.com');
    await viewer.signIn('viewer@example.com');
  });
  afterAll(async () => {
    await recorder.stop();
    await dashboard.close();
  });
  beforeEach(() => {
    answerAsPayments(dashboard);
    dashboard.payments.calls.length = 0;
    dashboard.identity.calls.length = 0;
    recorder.seen.length = 0;
    recorder.state.replay = false;
  });

  it('shows each wallet’s balances exactly, with its currency’s exponent, as the member’s business', async () => {
    const page = await viewer.get('/money');
    expect(page.status).toBe(200);
    expect(page.html).toContain('1,000,000,000.01 NGN');
    expect(page.html).toContain('1,507.50 NGN');
    expect(page.html).toContain('1,000,001,507.51 NGN');
    expect(page.html).toContain('0.00000001 USDT');
    expect(page.html).toContain('<nav aria-label="Money"');
    expect(page.html).toContain('href="/money/transactions?type=PAYOUT"');
    expect(callsOf('listWallets')[0]?.caller).toMatchObject({
      businessId: BUSINESS_ID,
      credentialId: 'member:00000000-0000-4000-8000-000000000002',
    });
  });

  it('lists transactions with every filter and the cursor passed to payments, and pages keeping the filters', async () => {
    const query =
      'type=PAYOUT&status=SUCCESSFUL&currency=ngn&reference=payout-77&from=2026-11-01&to=2026-11-22T00:00:00%2B01:00&per_page=20&cursor=cursor-abc';
    const page = await viewer.get(`/money/transactions?${query}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>Payouts</h1>');
    const [call] = callsOf('listTransactions');
    expect(call?.request).toMatchObject({
      type: TransactionType.PAYOUT,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'NGN',
      reference: 'payout-77',
      from: { seconds: BigInt(Date.parse('2026-11-01T00:00:00Z') / 1000) },
      to: { seconds: BigInt(Date.parse('2026-11-21T23:00:00Z') / 1000) },
      page: { cursor: 'cursor-abc', limit: 20 },
    });
    expect(call?.caller.businessId).toBe(BUSINESS_ID);
    expect(page.html).toContain('-1,000,000,000.01 NGN');
    expect(page.html).toContain(`href="/money/transactions/${PAYOUT_ID}"`);
    expect(page.html).toMatch(/href="\/money\/transactions\?type=PAYOUT&amp;[^"]*cursor=cursor-older"[^>]*>Next page/);
    expect(page.html).toMatch(/href="\/money\/transactions\?[^"]*cursor=cursor-newer"[^>]*>Previous page/);
    expect(page.html).toContain('<th scope="col">Amount</th>');
  });

  it('answers 422 naming each bad filter, without asking payments', async () => {
    const page = await viewer.get('/money/transactions?type=GIFT&currency=naira&from=2026-02-31&per_page=500');
    expect(page.status).toBe(422);
    expect(page.html).toContain('Type must be one of SWAP, COLLECTION, PAYOUT, REFUND, ADJUSTMENT, not “GIFT”');
    expect(page.html).toContain('Currency must be a three-letter ISO 4217 code');
    expect(page.html).toContain('Created from must be a date');
    expect(page.html).toContain('Per page must be a whole number from 1 to 100');
    expect(callsOf('listTransactions')).toHaveLength(0);
    const backwards = await viewer.get('/money/transactions?from=2026-11-22&to=2026-11-21');
    expect(backwards.status).toBe(422);
    expect(backwards.html).toContain('must be before Created before');
  });

  it('answers 422 when payments refuses the cursor', async () => {
    dashboard.payments.answers.set('listTransactions', () => {
      throw invalidArgument('cursor is not a page of this list', { cursor: ['is not a page of this list'] });
    });
    const page = await viewer.get('/money/transactions?cursor=forged');
    expect(page.status).toBe(422);
    expect(page.html).toContain('cursor is not a page of this list');
  });

  it('shows a swap’s rate and both amounts, and a payout’s beneficiary and rail status', async () => {
    const swapPage = await viewer.get(`/money/transactions/${SWAP_ID}`);
    expect(swapPage.status).toBe(200);
    expect(swapPage.html).toContain('1 NGN = 0.000649 USD');
    expect(swapPage.html).toContain('150,000.00 NGN');
    expect(swapPage.html).toContain('97.35 USD');
    expect(swapPage.html).toContain('750.00 NGN');
    const payoutPage = await viewer.get(`/money/transactions/${PAYOUT_ID}`);
    expect(payoutPage.html).toContain('1,000,000,000.01 NGN');
    expect(payoutPage.html).toContain('Adaeze Okafor');
    expect(payoutPage.html).toContain('Guaranty Trust Bank (058)');
    expect(payoutPage.html).toMatch(/Rail status<\/dt><dd>Processing/);
    expect(payoutPage.html).toContain('SBX-PO-0001');
    expect(callsOf('getTransaction')[0]?.request).toMatchObject({ transactionId: SWAP_ID });
  });

  it('shows a collection’s payer and virtual account, and a refund’s collection', async () => {
    const collectionPage = await viewer.get(`/money/transactions/${COLLECTION_ID}`);
    expect(collectionPage.html).toContain('Chidi Eze');
    expect(collectionPage.html).toContain(`href="/money/virtual-accounts/${VIRTUAL_ACCOUNT_ID}"`);
    expect(collectionPage.html).toContain(`href="/customers/${CUSTOMER_ID}"`);
    const refundPage = await viewer.get(`/money/transactions/${REFUND_ID}`);
    expect(refundPage.html).toMatch(new RegExp(`Refund of</dt><dd><a href="/money/transactions/${COLLECTION_ID}">`));
    expect(refundPage.html).toContain('customer changed their mind');
    expect(refundPage.html).toContain('-151.00 GBP');
  });

  it('answers 404 for another business’s transaction or virtual account, and for what is no id', async () => {
    expect((await owner.get(`/money/transactions/${OTHERS_ID}`)).status).toBe(404);
    expect((await owner.get(`/money/virtual-accounts/${OTHERS_ID}`)).status).toBe(404);
    const calls = dashboard.payments.calls.length;
    expect((await owner.get('/money/transactions/not-an-id')).status).toBe(404);
    expect((await owner.get('/money/virtual-accounts/not-an-id')).status).toBe(404);
    expect(dashboard.payments.calls).toHaveLength(calls);
    await owner.get(`/money/transactions/${COLLECTION_ID}`);
    expect((await owner.post(`/money/transactions/${OTHERS_ID}/refund`, { amount: '150.00' })).status).toBe(404);
    expect(callsOf('createRefund')).toHaveLength(0);
  });

  it('lists virtual accounts with their filters and cursor, and shows one', async () => {
    const page = await viewer.get(
      `/money/virtual-accounts?customer_id=${CUSTOMER_ID}&currency=NGN&status=active&cursor=va-page`,
    );
    expect(page.status).toBe(200);
    expect(callsOf('listVirtualAccounts')[0]?.request).toMatchObject({
      customerId: CUSTOMER_ID,
      currency: 'NGN',
      status: VirtualAccountStatus.ACTIVE,
      page: { cursor: 'va-page', limit: 50 },
    });
    expect(page.html).toContain('9912345678');
    expect(page.html).toMatch(/href="\/money\/virtual-accounts\?[^"]*cursor=va-older"[^>]*>Next page/);
    const bad = await viewer.get('/money/virtual-accounts?customer_id=nobody&status=open');
    expect(bad.status).toBe(422);
    expect(bad.html).toContain('Customer id must be a customer’s id');
    expect(bad.html).toContain('Status must be one of active, closed');
    const one = await viewer.get(`/money/virtual-accounts/${VIRTUAL_ACCOUNT_ID}`);
    expect(one.status).toBe(200);
    expect(one.html).toContain('Corridor Sandbox Bank (999)');
  });

  it('refunds a collection once however often its form is sent: one key, reaching payments each time', async () => {
    const form = await owner.get(`/money/transactions/${COLLECTION_ID}`);
    const key = /name="idempotency_key" value="([^"]+)"/.exec(form.html)?.[1];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(form.html).toContain('value="150.00"');
    // Both submissions are of this one page: its CSRF token and its key.
    const fields = {
      csrf_token: owner.csrfToken(),
      idempotency_key: key ?? '',
      amount: '150.00',
      reason: 'customer changed their mind',
    };
    const first = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, fields);
    expect(first).toMatchObject({ status: 303, location: `/money/transactions/${REFUND_ID}?notice=refund-started` });
    // The double submit: payments has the refund under this key and answers it again.
    recorder.state.replay = true;
    dashboard.payments.answers.set('createRefund', () => ({ refund: refund(), existing: false }));
    const second = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, fields);
    expect(second).toMatchObject({ status: 303, location: `/money/transactions/${REFUND_ID}?notice=refund-existing` });

    const refunds = recorder.seen.filter((call) => call.method === 'createRefund');
    expect(refunds).toHaveLength(2);
    expect(refunds.map((call) => call.key)).toEqual([key, key]);
    expect(refunds[0]?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(refunds[1]?.fingerprint).toBe(refunds[0]?.fingerprint);
    expect(callsOf('createRefund')[0]?.request).toMatchObject({
      transactionId: COLLECTION_ID,
      amount: 15_000n,
      reason: 'customer changed their mind',
    });
    expect(callsOf('createRefund')[0]?.caller).toMatchObject({ businessId: BUSINESS_ID });
    // Recorded once: the repeat changed nothing.
    const audits = dashboard.identity.callsOf('recordAudit');
    expect(audits).toHaveLength(1);
    expect(audits[0]?.request).toMatchObject({ action: 'refund.created', target: REFUND_ID, businessId: BUSINESS_ID });
    expect(String(audits[0]?.request.details)).toContain('150.00 GBP');

    const shown = await owner.get(`/money/transactions/${REFUND_ID}?notice=refund-started`);
    expect(shown.html).toContain('The refund is started');
  });

  it('shows payments’ refusals on the form: 422 for an ineligible refund, 409 for a precondition', async () => {
    await owner.get(`/money/transactions/${COLLECTION_ID}`);
    const key = /name="idempotency_key" value="([^"]+)"/.exec(owner.last?.html ?? '')?.[1] ?? '';
    dashboard.payments.answers.set('createRefund', () => {
      throw invalidArgument(
        'amount 10000: only the full amount of the collection, 15000, can be refunded',
        { amount: ['only the full amount'] },
        'PARTIAL_REFUND_NOT_SUPPORTED',
      );
    });
    const partial = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      idempotency_key: key,
      amount: '100',
    });
    expect(partial.status).toBe(422);
    expect(partial.html).toContain('only the full amount of the collection');
    // The form again with the same key: what was refused made nothing, so the key is still unused.
    expect(partial.html).toContain(`name="idempotency_key" value="${key}"`);
    dashboard.payments.answers.set('createRefund', () => {
      throw failedPrecondition('REFERENCE_USED_ON_ANOTHER_TRANSACTION', 'reference already names another refund');
    });
    const conflict = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      idempotency_key: key,
      amount: '150.00',
    });
    expect(conflict.status).toBe(409);
    expect(conflict.html).toContain('reference already names another refund');
    const typo = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      idempotency_key: key,
      amount: '150.005',
    });
    expect(typo.status).toBe(422);
    expect(typo.html).toContain('GBP has 2 decimal places');
    expect(dashboard.identity.callsOf('recordAudit')).toHaveLength(0);
  });

  it('shows no refund form to a viewer, nor for a collection already refunded, and refuses a viewer’s POST', async () => {
    const page = await viewer.get(`/money/transactions/${COLLECTION_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('/refund"');
    expect(page.html).not.toContain('idempotency_key');
    const refused = await viewer.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      idempotency_key: 'a-key',
      amount: '150.00',
    });
    expect(refused.status).toBe(403);
    dashboard.payments.answers.set('getTransaction', () => ({
      transaction: collection({ refundStatus: RefundStatus.PROCESSING }),
      refund: refund(),
    }));
    const refunded = await owner.get(`/money/transactions/${COLLECTION_ID}`);
    expect(refunded.html).not.toContain('idempotency_key');
    expect(refunded.html).toContain(`href="/money/transactions/${REFUND_ID}"`);
    expect(callsOf('createRefund')).toHaveLength(0);
  });

  it('refuses a refund POST without the CSRF token', async () => {
    await owner.get(`/money/transactions/${COLLECTION_ID}`);
    const forged = await owner.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      csrf_token: '',
      idempotency_key: 'k',
      amount: '150.00',
    });
    expect(forged.status).toBe(403);
    expect(callsOf('createRefund')).toHaveLength(0);
  });

  it('renders markup from payments as text', async () => {
    dashboard.payments.answers.set('getTransaction', () => ({
      transaction: collection({
        description: SCRIPT,
        reference: SCRIPT,
        collectionDetails: create(CollectionDetailsSchema, {
          method: CollectionMethod.BANK_TRANSFER,
          customerId: CUSTOMER_ID,
          senderName: SCRIPT,
          railReference: SCRIPT,
        }),
      }),
    }));
    dashboard.payments.answers.set('listTransactions', () => ({
      transactions: [collection({ description: SCRIPT })],
      page: { limit: 50 },
    }));
    for (const path of [
      `/money/transactions/${COLLECTION_ID}`,
      `/money/transactions?reference=${encodeURIComponent(SCRIPT)}`,
    ]) {
      const page = await owner.get(path);
      expect(page.status).toBe(200);
      expect(page.html).not.toContain(SCRIPT);
      expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });
});

describe('Money in production', () => {
  let dashboard: Dashboard;

  beforeAll(async () => {
    dashboard = await startDashboard({ environment: 'production' });
    answerAsPayments(dashboard);
    // TOTP on, so the admin is not sent to enrol first.
    dashboard.identity.add(fakeMember(1, MemberRole.ADMIN, { email: 'admin@example.com', totpEnabled: true }));
    dashboard.identity.add(fakeMember(2, MemberRole.DEVELOPER, { email: 'developer@example.com', totpEnabled: true }));
  });
  afterAll(() => dashboard.close());

  it('lets an admin refund but not a developer, whose refunds are the sandbox’s only', async () => {
    const admin = dashboard.browser();
    await admin.signIn('admin@example.com');
    expect((await admin.get(`/money/transactions/${COLLECTION_ID}`)).html).toContain('name="idempotency_key"');
    const developer = dashboard.browser();
    await developer.signIn('developer@example.com');
    const page = await developer.get(`/money/transactions/${COLLECTION_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="idempotency_key"');
    const refused = await developer.post(`/money/transactions/${COLLECTION_ID}/refund`, {
      idempotency_key: 'a-key',
      amount: '150.00',
    });
    expect(refused.status).toBe(403);
    expect(dashboard.payments.calls.filter((call) => call.method === 'createRefund')).toHaveLength(0);
  });
});
