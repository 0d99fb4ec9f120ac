import { randomUUID } from 'node:crypto';
import { createTestCertificates, eventually, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import {
  COLLECTION_SCOPES,
  COLLECTION_TIMINGS,
  CollectionsApi,
  collectionHookOf,
  ibanIsValid,
  nubanIsValid,
  refundHookOf,
  type CollectionTransactionJson,
  type VirtualAccountJson,
} from '../support/collections.js';
import { businessBody, unique, type CustomerJson } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import { ReceivingBusiness, expectedSignature, receiverEnv } from '../support/receiving-business.js';

/** The business's own fees, so every amount below is exact: GBP 0.50 + 1 %, NGN 10.00 + 0.5 %, GBP refunds 1.00. */
const FEES = [
  { type: 'collection', currency: 'GBP', flat: 50, percentage_bps: 100 },
  { type: 'collection', currency: 'NGN', flat: 10_00, percentage_bps: 50 },
  { type: 'refund', currency: 'GBP', flat: 1_00, percentage_bps: 0 },
] as const;

/**
 * Issue 11 end to end: a business customer verified at MINIMAL KYB holds an NGN virtual account,
 * upgraded to FULL a GBP one; money arrives by bank transfer with its collection webhook, goes back
 * by refund with its two, and a money request nobody pays expires. Sandbox simulations are refused
 * in production, and the books balance afterwards.
 */
describe('collections through the gateway (issue 11)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  /** Production, for the sandbox-only simulations: no customer-kyb or notification needed. */
  const production = new Platform({ environment: 'production', customers: false, notifications: false });
  let api: CollectionsApi;
  /** A business with its HTTPS receiver as collection_url and a token of COLLECTION_SCOPES. */
  let owner: ReceivingBusiness;
  let token: string;
  let customer: CustomerJson;
  let ngnAccount: VirtualAccountJson;
  let gbpAccount: VirtualAccountJson;
  /** The GBP transfer of the journey, and its refund's reference. */
  let gbpCollection: CollectionTransactionJson;
  let refundReference: string;

  const balances = async (currency: string) => {
    const { available_balance, pending_balance, ledger_balance } = await api.wallet(token, currency);
    return { available_balance, pending_balance, ledger_balance };
  };

  /** The collection_url webhooks about a transaction that match `event`, once `count` have arrived. */
  const collectionHooks = (transactionId: string, event: string, count = 1) =>
    owner.receiver.waitFor((request) => collectionHookOf(request, transactionId)?.event === event, count);

  const expectSigned = (hook: ReceivedWebhook) => {
    expect({ path: hook.path, verified: hook.verified, error: hook.verificationError }).toEqual({
      path: '/collection',
      verified: true,
      error: undefined,
    });
    expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(owner.secret, hook));
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: COLLECTION_TIMINGS,
    });
    api = new CollectionsApi(platform);
    await Promise.all([platform.start(), production.start()]);
    owner = await ReceivingBusiness.create(platform, certificates);
    token = await owner.tokenWith([...COLLECTION_SCOPES]);
    for (const fee of FEES) await api.setFeeRule({ business_id: owner.businessId, ...fee });
    // Refunds leave the wallet in full while the collection credited amount - fee: room for both.
    await api.fund(owner.businessId, 'GBP', 1_000_00);
  });
  afterAll(async () => {
    await owner?.stop();
    await Promise.all([platform?.stop(), production.stop()]);
  });

  describe('virtual bank accounts (seed 1, seed 3.1)', () => {
    it('seed 1: a business customer VERIFIED at MINIMAL KYB opens an NGN account: 201, a valid NUBAN, named after the customer', async () => {
      customer = await api.verifiedCustomer(token, 'MINIMAL');
      ngnAccount = await api.openWhenKnown(token, customer.id, 'NGN');
      expect(ngnAccount).toEqual({
        id: expect.any(String),
        customer_id: customer.id,
        currency: 'NGN',
        status: 'active',
        account_name: customer.business_name,
        account_number: expect.stringMatching(/^\d{10}$/),
        bank_name: expect.any(String),
        bank_code: expect.stringMatching(/^\d{3}$/),
        created_at: expect.any(String),
        closed_at: null,
        close_reason: null,
      });
      expect(nubanIsValid(ngnAccount.bank_code, ngnAccount.account_number)).toBe(true);
      expect(await api.virtualAccount(token, ngnAccount.id)).toEqual(ngnAccount);
    });

    it('seed 1: MINIMAL KYB holds NGN only: GBP is 422 CURRENCY_NOT_ALLOWED_FOR_CUSTOMER; a second NGN account 422 VIRTUAL_ACCOUNT_ALREADY_OPEN', async () => {
      await expectError(await api.virtualAccountResponse(token, customer.id, 'GBP'), 422, {
        code: 'CURRENCY_NOT_ALLOWED_FOR_CUSTOMER',
        message: /FULL/,
      });
      await expectError(await api.virtualAccountResponse(token, customer.id, 'NGN'), 422, {
        code: 'VIRTUAL_ACCOUNT_ALREADY_OPEN',
      });
    });

    it('seed 1: only a VERIFIED customer of the business: 422 CUSTOMER_NOT_VERIFIED before the verdict, CUSTOMER_NOT_FOUND for another business', async () => {
      const unverified = await api.createCustomer(token, businessBody({ kyb_scope: 'MINIMAL' }));
      // payments learns of the customer from customer-kyb's event: until then it is unknown.
      await eventually(
        async () => {
          const answer = await (await api.virtualAccountResponse(token, unverified.id, 'NGN')).text();
          if (!answer.includes('CUSTOMER_NOT_VERIFIED')) throw new Error(answer);
        },
        15_000,
        200,
      );
      await expectError(await api.virtualAccountResponse(token, unverified.id, 'NGN'), 422, {
        code: 'CUSTOMER_NOT_VERIFIED',
      });
      const other = await platform.tokenFor(['virtual-account:create', 'virtual-account:read']);
      await expectError(await api.virtualAccountResponse(other.token, customer.id, 'NGN'), 422, {
        code: 'CUSTOMER_NOT_FOUND',
      });
      await expectError(await api.call(other.token, 'GET', `/virtual-account/${ngnAccount.id}`), 404, {
        code: 'VIRTUAL_ACCOUNT_NOT_FOUND',
      });
    });

    it('seed 1, seed 3.1: upgraded to FULL and verified again, the customer opens GBP (a valid IBAN); its NGN account stays open', async () => {
      await api.upgradeAndVerify(token, customer.id);
      expect((await api.virtualAccount(token, ngnAccount.id)).status).toBe('active');
      // Until the projection has the upgrade and the new verdict, the old answers may still come.
      gbpAccount = await api.openWhenKnown(token, customer.id, 'GBP', [
        'CUSTOMER_NOT_VERIFIED',
        'CURRENCY_NOT_ALLOWED_FOR_CUSTOMER',
      ]);
      expect(gbpAccount).toMatchObject({ customer_id: customer.id, currency: 'GBP', status: 'active' });
      expect(gbpAccount.account_number).toMatch(/^GB\d{2}/);
      expect(ibanIsValid(gbpAccount.account_number)).toBe(true);
      expect(await api.virtualAccount(token, ngnAccount.id)).toEqual(ngnAccount);
      const listed = await api.virtualAccounts(token, `customer_id=${customer.id}`);
      expect(listed.data.map((account) => account.currency).sort()).toEqual(['GBP', 'NGN']);
    });
  });

  describe('money in and back out (seed 2.5, 3.5, 4.4, 6.3)', () => {
    it('seed 6.3: a transfer into the GBP account is collected at once; the wallet gets the net; collection.successful reaches collection_url, signed', async () => {
      const before = await balances('GBP');
      gbpCollection = await api.incomingTransfer(token, gbpAccount.id, { amount: 250_00, sender_name: 'Jane Payer' });
      expect(gbpCollection).toMatchObject({
        type: 'COLLECTION',
        status: 'SUCCESSFUL',
        currency: 'GBP',
        amount: 250_00,
        fee: 50 + 250,
        net: 250_00 - 300,
        refund_status: null,
        refund_details: null,
        collection_details: {
          method: 'bank_transfer',
          customer_id: customer.id,
          virtual_account_id: gbpAccount.id,
          sender_name: 'Jane Payer',
          payment_link: null,
          failure_reason: null,
          completed_at: expect.any(String),
          rail_reference: expect.any(String),
        },
      });
      expect(await balances('GBP')).toEqual({
        available_balance: before.available_balance + gbpCollection.net,
        pending_balance: 0,
        ledger_balance: before.ledger_balance + gbpCollection.net,
      });

      const [hook] = await collectionHooks(gbpCollection.id, 'collection.successful');
      if (!hook) throw new Error('no collection.successful');
      expectSigned(hook);
      expect(collectionHookOf(hook, gbpCollection.id)?.data).toEqual({
        transaction_id: gbpCollection.id,
        business_id: owner.businessId,
        transaction_status: 'SUCCESSFUL',
        message: 'Transaction Successful',
        method: 'bank_transfer',
        customer_id: customer.id,
        virtual_account_id: gbpAccount.id,
        sender_name: 'Jane Payer',
        description: gbpCollection.collection_details?.description,
        reference: null,
        amount: 250_00,
        fee: 300,
        net: 250_00 - 300,
        currency: 'GBP',
        failure_reason: null,
        created_at: gbpCollection.created_at,
        completed_at: gbpCollection.collection_details?.completed_at,
        expired_at: null,
        payer_email: null,
        crypto: null,
      });
    });

    it('seed 3.5, seed 6.3: a refund is processing (refund_initiated) then successful (refund); the wallet pays amount + fee', async () => {
      const before = await balances('GBP');
      refundReference = `rf-${unique()}`;
      const body = {
        transaction_id: gbpCollection.id,
        reason: 'Customer changed their mind',
        reference: refundReference,
      };
      const refund = await api.refund(token, body);
      expect(refund).toEqual({
        id: expect.any(String),
        transaction_id: gbpCollection.id,
        status: 'processing',
        amount: 250_00,
        currency: 'GBP',
        reason: body.reason,
        reference: refundReference,
        failure_reason: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        completed_at: null,
      });
      const refundHook = async (event: string) =>
        (await owner.receiver.waitFor((request) => refundHookOf(request, refund.id)?.event === event))[0];
      const [initiated, final] = [await refundHook('refund_initiated'), await refundHook('refund')];
      if (!initiated || !final) throw new Error('refund webhooks missing');
      expect(initiated.receivedAt.getTime()).toBeLessThanOrEqual(final.receivedAt.getTime());
      expectSigned(initiated);
      expectSigned(final);
      const common = {
        refund_id: refund.id,
        transaction_id: gbpCollection.id,
        business_id: owner.businessId,
        reference: refundReference,
        reason: body.reason,
        amount: 250_00,
        currency: 'GBP',
        failure_reason: null,
        created_at: refund.created_at,
      };
      expect(refundHookOf(initiated, refund.id)?.data).toEqual({
        ...common,
        type: 'refund_initiated',
        status: 'processing',
        completed_at: null,
      });
      const settled = await api.getRefund(token, refund.id);
      expect(settled).toMatchObject({ status: 'successful', completed_at: expect.any(String) });
      expect(refundHookOf(final, refund.id)?.data).toEqual({
        ...common,
        type: 'refund',
        status: 'successful',
        completed_at: settled.completed_at,
      });
      expect(await balances('GBP')).toEqual({
        available_balance: before.available_balance - 250_00 - 1_00,
        pending_balance: 0,
        ledger_balance: before.ledger_balance - 250_00 - 1_00,
      });
      expect(await api.collectionTransaction(token, refund.id)).toMatchObject({
        type: 'REFUND',
        status: 'SUCCESSFUL',
        amount: -250_00,
        fee: 1_00,
        net: -250_00 - 1_00,
        refund_details: settled,
      });
    });

    it('seed 2.5: GET /transaction/{id} shows refund_status, and the nested refund only to a token with refund:read', async () => {
      const refund = (await api.collectionTransaction(token, gbpCollection.id)).refund;
      expect(refund).toMatchObject({ transaction_id: gbpCollection.id, status: 'successful' });
      expect(await api.collectionTransaction(token, gbpCollection.id)).toMatchObject({ refund_status: 'successful' });
      const withoutRefundRead = await owner.tokenWith(['transaction:read']);
      const read = await api.collectionTransaction(withoutRefundRead, gbpCollection.id);
      expect(read.refund_status).toBe('successful');
      expect(Object.keys(read)).not.toContain('refund');
    });

    it('seed 4.4: refusals: an NGN collection 422, a second refund 422, the reference on another transaction 400, on the same one 200 with the same refund', async () => {
      const ngn = await api.incomingTransfer(token, ngnAccount.id, { amount: 20_000_00, sender_name: 'Chidi Okafor' });
      expect(ngn).toMatchObject({ status: 'SUCCESSFUL', fee: 10_00 + 10_000, net: 20_000_00 - 11_000 });
      await expectError(await api.refundResponse(token, { transaction_id: ngn.id }), 422, {
        code: 'REFUND_CURRENCY_NOT_SUPPORTED',
      });
      await expectError(await api.refundResponse(token, { transaction_id: gbpCollection.id }), 422, {
        code: 'ALREADY_REFUNDED',
      });
      const again = await api.refund(token, { transaction_id: gbpCollection.id, reference: refundReference }, 200);
      expect(again).toEqual((await api.collectionTransaction(token, gbpCollection.id)).refund);

      const other = await api.incomingTransfer(token, gbpAccount.id, { amount: 100_00, sender_name: 'Jane Payer' });
      const before = await balances('GBP');
      await expectError(
        await api.refundResponse(token, { transaction_id: other.id, reference: refundReference }),
        400,
        { code: 'REFERENCE_USED_ON_ANOTHER_TRANSACTION' },
      );
      expect(await balances('GBP')).toEqual(before);
      expect((await api.collectionTransaction(token, other.id)).refund).toBeNull();
    });

    it('seed 6.3: a closed account bounces a transfer: FAILED (account_closed), no money moves, collection.failed', async () => {
      const closed = await api.closeVirtualAccount(token, ngnAccount.id);
      expect(closed).toMatchObject({ status: 'closed', close_reason: 'requested', closed_at: expect.any(String) });
      const before = await balances('NGN');
      const bounced = await api.incomingTransfer(token, ngnAccount.id, { amount: 5_000_00, sender_name: 'Late Payer' });
      expect(bounced).toMatchObject({
        status: 'FAILED',
        fee: 0,
        collection_details: { failure_reason: 'account_closed', virtual_account_id: ngnAccount.id },
      });
      expect(await balances('NGN')).toEqual(before);
      const [hook] = await collectionHooks(bounced.id, 'collection.failed');
      if (!hook) throw new Error('no collection.failed');
      expectSigned(hook);
      expect(collectionHookOf(hook, bounced.id)?.data).toMatchObject({
        transaction_status: 'FAILED',
        message: 'Transaction Failed',
        failure_reason: 'account_closed',
        amount: 5_000_00,
      });
    });
  });

  describe('a money request (seed 3.5)', () => {
    it('seed 3.5, seed 6.3: left alone it expires: collection.expired, EXPIRED with "Transaction Expired", no funds move, listed under status=EXPIRED', async () => {
      const before = await balances('NGN');
      const reference = `mr-${unique()}`;
      const request = await api.moneyRequest(token, {
        customer_id: customer.id,
        amount: 5_000_00,
        currency: 'NGN',
        description: 'Invoice 7',
        reference,
      });
      expect(request).toMatchObject({
        status: 'PENDING',
        reference,
        collection_details: {
          method: 'money_request',
          description: 'Invoice 7',
          payment_link: expect.stringMatching(new RegExp(`^${platform.publicUrl}/pay/[A-Za-z0-9_-]+$`)),
          expires_at: expect.any(String),
          completed_at: null,
        },
      });
      const expiresIn = Date.parse(request.collection_details?.expires_at ?? '') - Date.parse(request.created_at);
      expect(expiresIn).toBe(Number(COLLECTION_TIMINGS.COLLECTION_EXPIRY_MS));

      const [hook] = await collectionHooks(request.id, 'collection.expired');
      if (!hook) throw new Error('no collection.expired');
      expectSigned(hook);
      const expired = await api.collectionTransaction(token, request.id);
      expect(expired.status).toBe('EXPIRED');
      expect(collectionHookOf(hook, request.id)?.data).toMatchObject({
        transaction_status: 'EXPIRED',
        message: 'Transaction Expired',
        method: 'money_request',
        reference,
        amount: 5_000_00,
        expired_at: expired.updated_at,
      });
      // Created PENDING, then expired: one webhook, no other.
      const events = owner.receiver.requests.map((one) => collectionHookOf(one, request.id)?.event).filter(Boolean);
      expect(events).toEqual(['collection.expired']);
      expect(await balances('NGN')).toEqual(before);
      const listed = await api.transactions(token, 'status=EXPIRED&per_page=100');
      expect(listed.data.map((transaction) => transaction.id)).toContain(request.id);
      expect(new Set(listed.data.map((transaction) => transaction.status))).toEqual(new Set(['EXPIRED']));
      await expectError(await api.call(token, 'POST', `/sandbox/collection/${request.id}/pay`), 400, {
        code: 'COLLECTION_NOT_PENDING',
      });
    });
  });

  it('DESIGN.md environments: production refuses the sandbox simulations with 403 SANDBOX_ONLY', async () => {
    const caller = await production.tokenFor(['virtual-account:create', 'collection:create']);
    const transfer = await production.api(
      `/api/external/sandbox/virtual-account/${randomUUID()}/incoming-transfer`,
      caller.token,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100_00, sender_name: 'Jane Payer' }),
      },
    );
    await expectError(transfer, 403, { code: 'SANDBOX_ONLY' });
    const pay = await production.api(`/api/external/sandbox/collection/${randomUUID()}/pay`, caller.token, {
      method: 'POST',
    });
    await expectError(pay, 403, { code: 'SANDBOX_ONLY' });
  });

  it('DESIGN.md "The books always balance": GET /admin/ledger/check is ok after the journey', async () => {
    await api.expectBooksBalance();
  });
});
