import { CollectionFailureCode } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { SandboxCollectionOutcome } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { failedPrecondition, notFound, permissionDenied } from '@corridor/grpc';
import {
  bankTransferTransaction,
  COLLECTION_ID,
  CUSTOMER_ID,
  moneyRequestJson,
  moneyRequestTransaction,
  VIRTUAL_ACCOUNT_ID,
} from './collection.fixtures.js';
import { servePaymentRoutes, startFakePaymentsService } from './fake-payments-service.js';
import { BUSINESS_ID, UPDATED } from './payments.fixtures.js';
import { collectionSettledBody, incomingTransferBody, SANDBOX_ROUTES } from './sandbox-routes.js';

/** The sandbox rail's simulations against a fake payments on loopback. */
describe('the sandbox simulation routes', () => {
  let service: Awaited<ReturnType<typeof startFakePaymentsService>>;
  let routes: Awaited<ReturnType<typeof servePaymentRoutes>>;

  beforeAll(async () => {
    service = await startFakePaymentsService();
    routes = await servePaymentRoutes(SANDBOX_ROUTES, service, ['virtual-account:create', 'collection:create']);
  });
  afterAll(async () => {
    await routes.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
  });

  const transfer = `/api/external/sandbox/virtual-account/${VIRTUAL_ACCOUNT_ID}/incoming-transfer`;
  const settle = (action: string, id = COLLECTION_ID) => `/api/external/sandbox/collection/${id}/${action}`;
  const sent = { amount: 500_000, sender_name: 'Chidi Eze' };

  it('requires virtual-account:create for a transfer and collection:create for a payer’s answer', () => {
    expect(SANDBOX_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', '/api/external/sandbox/virtual-account/{id}/incoming-transfer', 'virtual-account:create'],
      ['post', '/api/external/sandbox/collection/{id}/pay', 'collection:create'],
      ['post', '/api/external/sandbox/collection/{id}/decline', 'collection:create'],
      ['post', '/api/external/sandbox/collection/{id}/expire', 'collection:create'],
    ]);
  });

  it('an incoming transfer answers 201 with the bank-transfer collection it made', async () => {
    const response = await routes.call('post', transfer, sent);
    expect(response.status).toBe(201);
    expect(incomingTransferBody.safeParse(response.body).error).toBeUndefined();
    expect(response.body).toMatchObject({
      message: 'incoming transfer received',
      data: {
        type: 'COLLECTION',
        collection_details: {
          method: 'bank_transfer',
          customer_id: CUSTOMER_ID,
          virtual_account_id: VIRTUAL_ACCOUNT_ID,
          sender_name: 'Chidi Eze',
          payment_link: null,
          completed_at: UPDATED.toISOString(),
        },
      },
    });
    expect(service.calls[0]).toMatchObject({
      method: 'sandboxIncomingTransfer',
      request: { virtualAccountId: VIRTUAL_ACCOUNT_ID, amount: 500_000n, senderName: 'Chidi Eze' },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('a transfer into a closed account answers the FAILED collection, account_closed', async () => {
    service.answers.set('sandboxIncomingTransfer', () => ({
      transaction: bankTransferTransaction({ failureCode: CollectionFailureCode.ACCOUNT_CLOSED }),
    }));
    const response = await routes.call('post', transfer, sent);
    expect(response.body.data).toMatchObject({ collection_details: { failure_reason: 'account_closed' } });
  });

  it.each([
    [{}, ['amount', 'sender_name']],
    [{ ...sent, sender_name: 's'.repeat(101) }, ['sender_name']],
    [{ ...sent, sender_name: '' }, ['sender_name']],
    [{ ...sent, amount: 0 }, ['amount']],
    [{ ...sent, currency: 'NGN' }, ['currency']],
  ])('an incoming transfer of %j is 422 naming %j', async (body, fields) => {
    const response = await routes.call('post', transfer, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(service.calls).toHaveLength(0);
  });

  it('an incoming transfer to an id that is not a uuid is 404 VIRTUAL_ACCOUNT_NOT_FOUND, payments not asked', async () => {
    const response = await routes.call('post', '/api/external/sandbox/virtual-account/va_1/incoming-transfer', sent);
    expect(response).toMatchObject({ status: 404, body: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND' } });
    expect(service.calls).toHaveLength(0);
  });

  it.each([
    ['pay', SandboxCollectionOutcome.PAY],
    ['decline', SandboxCollectionOutcome.DECLINE],
    ['expire', SandboxCollectionOutcome.EXPIRE],
  ])(
    'POST …/collection/{id}/%s asks payments for that outcome and answers 200 with the collection',
    async (action, outcome) => {
      const response = await routes.call('post', settle(action));
      expect(response.status).toBe(200);
      expect(collectionSettledBody.safeParse(response.body).error).toBeUndefined();
      expect(response.body).toEqual({
        message: 'collection updated',
        data: {
          ...moneyRequestJson(routes.base),
          collection_details: {
            ...moneyRequestJson(routes.base).collection_details,
            completed_at: UPDATED.toISOString(),
          },
        },
      });
      expect(service.calls[0]).toMatchObject({
        method: 'sandboxSettleCollection',
        request: { collectionId: COLLECTION_ID, outcome },
      });
    },
  );

  it('a payer’s answer takes {} as its body, and refuses any field', async () => {
    expect((await routes.call('post', settle('pay'), {})).status).toBe(200);
    const response = await routes.call('post', settle('pay'), { outcome: 'pay' });
    expect(response).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_FAILED', errors: { outcome: ['is not a recognised field'] } },
    });
    expect(service.calls).toHaveLength(1);
  });

  it('shows an expired request as EXPIRED', async () => {
    service.answers.set('sandboxSettleCollection', () => {
      const transaction = moneyRequestTransaction();
      transaction.status = TransactionStatus.EXPIRED;
      return { transaction };
    });
    expect((await routes.call('post', settle('expire'))).body.data).toMatchObject({ status: 'EXPIRED' });
  });

  it.each([
    [failedPrecondition('COLLECTION_NOT_PENDING', 'collection is SUCCESSFUL, not a pending money request'), 400],
    [notFound('COLLECTION_NOT_FOUND', `no collection ${COLLECTION_ID} in this business`), 404],
    [permissionDenied('SANDBOX_ONLY', 'the sandbox simulations do not exist in production'), 403],
  ])("maps payments' %s to %s", async (error, status) => {
    service.answers.set('sandboxSettleCollection', () => {
      throw error;
    });
    expect(await routes.call('post', settle('decline'))).toEqual({
      status,
      body: { status: false, code: error.reason, message: error.message },
    });
  });

  it('answers SANDBOX_ONLY for an incoming transfer in production', async () => {
    service.answers.set('sandboxIncomingTransfer', () => {
      throw permissionDenied('SANDBOX_ONLY', 'the sandbox simulations do not exist in production');
    });
    expect(await routes.call('post', transfer, sent)).toMatchObject({ status: 403, body: { code: 'SANDBOX_ONLY' } });
  });

  it('answers 404 COLLECTION_NOT_FOUND for an id that is not a uuid, without asking payments', async () => {
    expect(await routes.call('post', settle('pay', 'col_1'))).toMatchObject({
      status: 404,
      body: { code: 'COLLECTION_NOT_FOUND' },
    });
    expect(service.calls).toHaveLength(0);
  });
});
