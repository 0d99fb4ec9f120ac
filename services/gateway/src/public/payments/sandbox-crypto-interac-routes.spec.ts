import { invalidArgument, notFound, permissionDenied } from '@corridor/grpc';
import { COLLECTION_ID, CUSTOMER_ID } from '../../../test/public/payments/collection.fixtures.js';
import {
  CRYPTO_ADDRESS_ID,
  CRYPTO_DEPOSIT_JSON,
  cryptoDepositTransaction,
} from '../../../test/public/payments/crypto-interac.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID } from '../../../test/public/payments/payments.fixtures.js';
import { cryptoDepositBody, interacIncomingBody, SANDBOX_ROUTES } from './sandbox-routes.js';

/** The sandbox's crypto deposit and incoming Interac e-Transfer (decision 0015) against a fake payments on loopback. */
describe('the sandbox crypto and Interac simulations', () => {
  const payments = paymentRoutesUnderTest(SANDBOX_ROUTES, ['collection:crypto:create', 'collection:interac:accept']);

  describe('a crypto deposit', () => {
    const deposit = (id = CRYPTO_ADDRESS_ID) => `/api/external/sandbox/collection/crypto/address/${id}/deposit`;
    const amount = { asset_amount: '250000000' };

    it('answers 201 with the PROCESSING collection, 0 confirmations, sending the amount as the string given', async () => {
      const response = await fetch(`${payments.base}${deposit()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(amount),
      });
      const body = (await response.json()) as Record<string, unknown>;
      expect({ status: response.status, location: response.headers.get('location') }).toEqual({
        status: 201,
        location: `/api/external/collection/${COLLECTION_ID}`,
      });
      expect(cryptoDepositBody.safeParse(body).error).toBeUndefined();
      expect(body).toMatchObject({
        message: 'crypto deposit received',
        data: {
          type: 'COLLECTION',
          status: 'PROCESSING',
          currency: 'USD',
          amount: 25_000,
          fee: 250,
          net: 24_750,
          collection_details: {
            method: 'crypto_deposit',
            customer_id: CUSTOMER_ID,
            payment_link: null,
            payer_email: null,
            completed_at: null,
            crypto: CRYPTO_DEPOSIT_JSON,
          },
        },
      });
      expect(payments.calls[0]).toMatchObject({
        method: 'sandboxCryptoDeposit',
        request: { addressId: CRYPTO_ADDRESS_ID, assetAmount: '250000000' },
        caller: { businessId: BUSINESS_ID },
      });
    });

    it('takes 30 digits, beyond what a JSON number holds exactly', async () => {
      const most = '9'.repeat(30);
      expect((await payments.call('post', deposit(), { asset_amount: most })).status).toBe(201);
      expect(payments.calls[0]?.request.assetAmount).toBe(most);
    });

    it.each([
      [{}, /^is required$/],
      [{ asset_amount: 250000000 }, /^must be a string of digits such as "250000000", got 250000000$/],
      [{ asset_amount: '250.5' }, /^must be a whole number of the asset’s base units written as 1 to 30 digits/],
      [{ asset_amount: '-1' }, /^must be a whole number/],
      [{ asset_amount: '' }, /^must be a whole number/],
      [{ asset_amount: '1'.repeat(31) }, /^must be a whole number/],
    ])('refuses %j, naming asset_amount', async (body, problem) => {
      const response = await payments.call('post', deposit(), body);
      expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
      const errors = response.body.errors as Record<string, string[]>;
      expect(Object.keys(errors)).toEqual(['asset_amount']);
      expect(errors.asset_amount?.[0]).toMatch(problem);
      expect(payments.calls).toHaveLength(0);
    });

    it('answers 404 CRYPTO_ADDRESS_NOT_FOUND for an id that is not a uuid, payments not asked', async () => {
      expect(await payments.call('post', deposit('addr_1'), amount)).toMatchObject({
        status: 404,
        body: { code: 'CRYPTO_ADDRESS_NOT_FOUND', message: 'no crypto address addr_1 for this business' },
      });
      expect(payments.calls).toHaveLength(0);
    });

    it.each([
      [notFound('CRYPTO_ADDRESS_NOT_FOUND', `no crypto address ${CRYPTO_ADDRESS_ID} for this business`), 404],
      [invalidArgument('asset_amount must be worth at least 0.01 USD', undefined, 'INVALID_AMOUNT'), 422],
      [permissionDenied('SANDBOX_ONLY', 'a crypto deposit is a sandbox simulation'), 403],
    ])("maps payments' %s to %s", async (error, status) => {
      payments.answers.set('sandboxCryptoDeposit', () => {
        throw error;
      });
      expect(await payments.call('post', deposit(), amount)).toEqual({
        status,
        body: { status: false, code: error.reason, message: error.message },
      });
    });

    it('answers 500 when payments sends an asset_amount that is not digits, rather than a broken contract', async () => {
      payments.answers.set('sandboxCryptoDeposit', () => ({
        transaction: cryptoDepositTransaction({ assetAmount: '250.0' }),
      }));
      expect(await payments.call('post', deposit(), amount)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    });
  });

  describe('an incoming Interac e-Transfer', () => {
    const incoming = '/api/external/sandbox/collection/interac/incoming';
    const sentByJean = {
      customer_id: CUSTOMER_ID,
      amount: 30_000,
      sender_name: 'Jean Tremblay',
      sender_email: 'jean.tremblay@example.ca',
    };

    it('answers 201 with the collection PENDING for the business to accept', async () => {
      const response = await payments.call('post', incoming, sentByJean);
      expect(response.status).toBe(201);
      expect(interacIncomingBody.safeParse(response.body).error).toBeUndefined();
      expect(response.body).toMatchObject({
        message: 'interac transfer received',
        data: {
          status: 'PENDING',
          currency: 'CAD',
          amount: 30_000,
          collection_details: {
            method: 'interac_transfer',
            sender_name: 'Jean Tremblay',
            payer_email: 'jean.tremblay@example.ca',
            completed_at: null,
          },
        },
      });
      expect(payments.calls[0]).toMatchObject({
        method: 'sandboxInteracTransfer',
        request: {
          customerId: CUSTOMER_ID,
          amount: 30_000n,
          senderName: 'Jean Tremblay',
          senderEmail: 'jean.tremblay@example.ca',
        },
      });
    });

    it.each([
      [{}, ['customer_id', 'amount', 'sender_name', 'sender_email']],
      [{ ...sentByJean, sender_email: 'jean' }, ['sender_email']],
      [{ ...sentByJean, sender_email: `${'j'.repeat(244)}@example.ca` }, ['sender_email']],
      [{ ...sentByJean, sender_name: 's'.repeat(101) }, ['sender_name']],
      [{ ...sentByJean, amount: -5 }, ['amount']],
      [{ ...sentByJean, currency: 'CAD' }, ['currency']],
    ])('%j is 422 naming %j', async (body, fields) => {
      const response = await payments.call('post', incoming, body);
      expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
      expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
      expect(payments.calls).toHaveLength(0);
    });

    it.each([
      [invalidArgument(`no customer ${CUSTOMER_ID} in this business`, undefined, 'CUSTOMER_NOT_FOUND'), 422],
      [permissionDenied('SANDBOX_ONLY', 'an incoming Interac e-Transfer is a sandbox simulation'), 403],
    ])("maps payments' %s to %s", async (error, status) => {
      payments.answers.set('sandboxInteracTransfer', () => {
        throw error;
      });
      expect(await payments.call('post', incoming, sentByJean)).toEqual({
        status,
        body: { status: false, code: error.reason, message: error.message },
      });
    });
  });
});
