import { timestampFromDate } from '@bufbuild/protobuf/wkt';
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
} from '../../../test/public/payments/collection.fixtures.js';
import { interacRequestTransaction } from '../../../test/public/payments/crypto-interac.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, UPDATED } from '../../../test/public/payments/payments.fixtures.js';
import { collectionSettledBody, incomingTransferBody, SANDBOX_ROUTES } from './sandbox-routes.js';

/** The sandbox rail's simulations against a fake payments on loopback. */
describe('the sandbox simulation routes', () => {
  const payments = paymentRoutesUnderTest(SANDBOX_ROUTES, [
    'virtual-account:create',
    'collection:create',
    'collection:crypto:create',
    'collection:interac:accept',
  ]);

  const transfer = `/api/external/sandbox/virtual-account/${VIRTUAL_ACCOUNT_ID}/incoming-transfer`;
  const settle = (action: string, id = COLLECTION_ID) => `/api/external/sandbox/collection/${id}/${action}`;
  const sent = { amount: 500_000, sender_name: 'Chidi Eze' };

  it('requires virtual-account:create for a transfer, collection:create for a payer’s answer, the crypto and Interac scopes for theirs', () => {
    expect(SANDBOX_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', '/api/external/sandbox/virtual-account/{id}/incoming-transfer', 'virtual-account:create'],
      ['post', '/api/external/sandbox/collection/{id}/pay', 'collection:create'],
      ['post', '/api/external/sandbox/collection/{id}/decline', 'collection:create'],
      ['post', '/api/external/sandbox/collection/{id}/expire', 'collection:create'],
      ['post', '/api/external/sandbox/collection/crypto/address/{id}/deposit', 'collection:crypto:create'],
      ['post', '/api/external/sandbox/collection/interac/incoming', 'collection:interac:accept'],
    ]);
  });

  it('an incoming transfer answers 201 with the bank-transfer collection it made', async () => {
    const response = await payments.call('post', transfer, sent);
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
    expect(payments.calls[0]).toMatchObject({
      method: 'sandboxIncomingTransfer',
      request: { virtualAccountId: VIRTUAL_ACCOUNT_ID, amount: 500_000n, senderName: 'Chidi Eze' },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('a transfer into a closed account answers the FAILED collection, account_closed', async () => {
    payments.answers.set('sandboxIncomingTransfer', () => ({
      transaction: bankTransferTransaction({ failureCode: CollectionFailureCode.ACCOUNT_CLOSED }),
    }));
    const response = await payments.call('post', transfer, sent);
    expect(response.body.data).toMatchObject({ collection_details: { failure_reason: 'account_closed' } });
  });

  it.each([
    [{}, ['amount', 'sender_name']],
    [{ ...sent, sender_name: 's'.repeat(101) }, ['sender_name']],
    [{ ...sent, sender_name: '' }, ['sender_name']],
    [{ ...sent, amount: 0 }, ['amount']],
    [{ ...sent, currency: 'NGN' }, ['currency']],
  ])('an incoming transfer of %j is 422 naming %j', async (body, fields) => {
    const response = await payments.call('post', transfer, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
  });

  it('an incoming transfer to an id that is not a uuid is 404 VIRTUAL_ACCOUNT_NOT_FOUND, payments not asked', async () => {
    const response = await payments.call('post', '/api/external/sandbox/virtual-account/va_1/incoming-transfer', sent);
    expect(response).toMatchObject({ status: 404, body: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND' } });
    expect(payments.calls).toHaveLength(0);
  });

  it.each([
    ['pay', SandboxCollectionOutcome.PAY],
    ['decline', SandboxCollectionOutcome.DECLINE],
    ['expire', SandboxCollectionOutcome.EXPIRE],
  ])(
    'POST …/collection/{id}/%s asks payments for that outcome and answers 200 with the collection',
    async (action, outcome) => {
      const response = await payments.call('post', settle(action));
      expect(response.status).toBe(200);
      expect(collectionSettledBody.safeParse(response.body).error).toBeUndefined();
      expect(response.body).toEqual({
        message: 'collection updated',
        data: {
          ...moneyRequestJson(payments.base),
          collection_details: {
            ...moneyRequestJson(payments.base).collection_details,
            completed_at: UPDATED.toISOString(),
          },
        },
      });
      expect(payments.calls[0]).toMatchObject({
        method: 'sandboxSettleCollection',
        request: { collectionId: COLLECTION_ID, outcome },
      });
    },
  );

  it('a payer’s answer takes {} as its body, and refuses any field', async () => {
    expect((await payments.call('post', settle('pay'), {})).status).toBe(200);
    const response = await payments.call('post', settle('pay'), { outcome: 'pay' });
    expect(response).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_FAILED', errors: { outcome: ['is not a recognised field'] } },
    });
    expect(payments.calls).toHaveLength(1);
  });

  it('shows an expired request as EXPIRED', async () => {
    payments.answers.set('sandboxSettleCollection', () => {
      const transaction = moneyRequestTransaction();
      transaction.status = TransactionStatus.EXPIRED;
      return { transaction };
    });
    expect((await payments.call('post', settle('expire'))).body.data).toMatchObject({ status: 'EXPIRED' });
  });

  it.each([
    [failedPrecondition('COLLECTION_NOT_PENDING', 'collection is SUCCESSFUL, not a pending money request'), 400],
    [notFound('COLLECTION_NOT_FOUND', `no collection ${COLLECTION_ID} in this business`), 404],
    [permissionDenied('SANDBOX_ONLY', 'the sandbox simulations do not exist in production'), 403],
  ])("maps payments' %s to %s", async (error, status) => {
    payments.answers.set('sandboxSettleCollection', () => {
      throw error;
    });
    expect(await payments.call('post', settle('decline'))).toEqual({
      status,
      body: { status: false, code: error.reason, message: error.message },
    });
  });

  it('answers SANDBOX_ONLY for an incoming transfer in production', async () => {
    payments.answers.set('sandboxIncomingTransfer', () => {
      throw permissionDenied('SANDBOX_ONLY', 'the sandbox simulations do not exist in production');
    });
    expect(await payments.call('post', transfer, sent)).toMatchObject({ status: 403, body: { code: 'SANDBOX_ONLY' } });
  });

  it('answers 404 COLLECTION_NOT_FOUND for an id that is not a uuid, without asking payments', async () => {
    expect(await payments.call('post', settle('pay', 'col_1'))).toMatchObject({
      status: 404,
      body: { code: 'COLLECTION_NOT_FOUND' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('an Interac request is paid through the same /pay, and answers its method and payer_email', async () => {
    payments.answers.set('sandboxSettleCollection', () => {
      const transaction = interacRequestTransaction({ completedAt: timestampFromDate(UPDATED) });
      transaction.status = TransactionStatus.SUCCESSFUL;
      return { transaction };
    });
    const response = await payments.call('post', settle('pay'));
    expect(response.body.data).toMatchObject({
      status: 'SUCCESSFUL',
      currency: 'CAD',
      collection_details: { method: 'interac_request', payer_email: 'accounts@payer.example.ca', payment_link: null },
    });
    expect(payments.calls[0]).toMatchObject({
      request: { collectionId: COLLECTION_ID, outcome: SandboxCollectionOutcome.PAY },
    });
  });
});
