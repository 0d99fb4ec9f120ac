import { alreadyExists, failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { COLLECTION_ID, CUSTOMER_ID } from '../../../test/public/payments/collection.fixtures.js';
import {
  CRYPTO_INTERAC_ROUTES,
  cryptoAddressCreatedBody,
  cryptoAddressExistingBody,
  cryptoNetworksBody,
  interacRequestCreatedBody,
  interacTransferAcceptedBody,
} from './crypto-interac-routes.js';
import {
  CRYPTO_ADDRESS_JSON,
  CRYPTO_NETWORKS_JSON,
  cryptoAddress,
  INTERAC_REQUEST_JSON,
  interacRequestTransaction,
} from '../../../test/public/payments/crypto-interac.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, UPDATED } from '../../../test/public/payments/payments.fixtures.js';

/** Crypto addresses and Interac (decision 0015) against a fake payments on loopback. */
describe('the crypto and Interac collection routes', () => {
  const payments = paymentRoutesUnderTest(CRYPTO_INTERAC_ROUTES, [
    'collection:crypto:create',
    'collection:interac:create',
    'collection:interac:accept',
  ]);

  const networks = '/api/external/collection/crypto/networks';
  const address = '/api/external/collection/crypto/address';
  const interac = '/api/external/collection/interac';
  const accept = (id = COLLECTION_ID) => `/api/external/collection/interac/${id}/accept`;
  const addressBody = { customer_id: CUSTOMER_ID, asset: 'USDT', network: 'TRON' };
  const request = {
    customer_id: CUSTOMER_ID,
    amount: 80_000,
    payer_email: 'accounts@payer.example.ca',
    description: 'Invoice 9',
    reference: 'invoice-9',
  };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (path: string, body: unknown, fields: string[]) => {
    const response = await payments.call('post', path, body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires collection:crypto:create for crypto, collection:interac:create to request and :accept to accept', () => {
    expect(CRYPTO_INTERAC_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['get', networks, 'collection:crypto:create'],
      ['post', address, 'collection:crypto:create'],
      ['post', interac, 'collection:interac:create'],
      ['post', '/api/external/collection/interac/{id}/accept', 'collection:interac:accept'],
    ]);
  });

  describe('GET /collection/crypto/networks', () => {
    it('answers every network payments lists, with its confirmations and settlement currency', async () => {
      const response = await payments.call('get', networks);
      expect(response).toEqual({
        status: 200,
        body: { message: 'crypto networks retrieved', data: CRYPTO_NETWORKS_JSON },
      });
      expect(cryptoNetworksBody.safeParse(response.body).error).toBeUndefined();
      expect(payments.calls[0]).toMatchObject({ method: 'listCryptoNetworks', caller: { businessId: BUSINESS_ID } });
    });

    it('refuses a query parameter without asking payments', async () => {
      expect(await payments.call('get', `${networks}?asset=USDT`)).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', errors: { asset: [expect.stringMatching(/takes none/)] } },
      });
      expect(payments.calls).toHaveLength(0);
    });
  });

  describe('POST /collection/crypto/address', () => {
    it('answers 201 with a new address, sending the typed request', async () => {
      const response = await payments.call('post', address, addressBody);
      expect(response).toEqual({ status: 201, body: { message: 'crypto address created', data: CRYPTO_ADDRESS_JSON } });
      expect(cryptoAddressCreatedBody.safeParse(response.body).error).toBeUndefined();
      expect(payments.calls[0]).toMatchObject({
        method: 'createCryptoAddress',
        request: { customerId: CUSTOMER_ID, asset: 'USDT', network: 'TRON' },
        caller: { businessId: BUSINESS_ID },
      });
    });

    it('answers 200 with the same address when the customer already has one for the asset and network', async () => {
      payments.answers.set('createCryptoAddress', () => ({ address: cryptoAddress(), existing: true }));
      const response = await payments.call('post', address, addressBody);
      expect(response).toEqual({
        status: 200,
        body: { message: 'crypto address already exists for this customer', data: CRYPTO_ADDRESS_JSON },
      });
      expect(cryptoAddressExistingBody.safeParse(response.body).error).toBeUndefined();
    });

    it('names every missing field at once', async () => {
      expect(await expectRefused(address, {}, ['customer_id', 'asset', 'network'])).toEqual({
        customer_id: ['is required'],
        asset: ['is required'],
        network: ['is required'],
      });
    });

    it.each([
      [{ asset: 'usdt' }, 'asset', /^must be 2 to 10 capital letters such as USDT, got "usdt"$/],
      [{ asset: 'U' }, 'asset', /^must be 2 to 10 capital letters/],
      [{ asset: 'USDTUSDTUSD' }, 'asset', /^must be 2 to 10 capital letters/],
      [{ asset: 5 }, 'asset', /^must be 2 to 10 capital letters such as USDT, got 5$/],
      [{ network: 'TRC-20' }, 'network', /^must be 2 to 20 capital letters such as TRON, got "TRC-20"$/],
      [{ network: 'N'.repeat(21) }, 'network', /^must be 2 to 20 capital letters/],
      [{ customer_id: 'cus_1' }, 'customer_id', /^must be a uuid, got "cus_1"$/],
      [{ address: 'T…' }, 'address', /^is not a recognised field$/],
    ])('refuses %j, naming %s', async (change, field, problem) => {
      const errors = await expectRefused(address, { ...addressBody, ...change }, [field]);
      expect(errors[field]?.[0]).toMatch(problem);
    });

    it('takes an asset of 10 capitals and a network of 20, leaving whether they exist to payments', async () => {
      const body = { ...addressBody, asset: 'A'.repeat(10), network: 'N'.repeat(20) };
      expect((await payments.call('post', address, body)).status).toBe(201);
      expect(payments.calls[0]?.request).toMatchObject({ asset: 'AAAAAAAAAA', network: 'N'.repeat(20) });
    });

    it.each([
      ['UNSUPPORTED_CRYPTO_NETWORK', 'USDT on SOLANA is not a crypto collection Corridor supports'],
      ['CUSTOMER_NOT_FOUND', `no customer ${CUSTOMER_ID} in this business`],
    ])("answers payments' refusal %s as 422 with its code and message", async (code, message) => {
      payments.answers.set('createCryptoAddress', () => {
        throw invalidArgument(message, undefined, code);
      });
      expect(await payments.call('post', address, addressBody)).toEqual({
        status: 422,
        body: { status: false, code, message },
      });
    });
  });

  describe('POST /collection/interac', () => {
    it('answers 201 with the PENDING request in CAD, its payer_email and no payment link', async () => {
      const response = await payments.call('post', interac, request);
      expect(response).toEqual({
        status: 201,
        body: { message: 'interac request created', data: INTERAC_REQUEST_JSON },
      });
      expect(interacRequestCreatedBody.safeParse(response.body).error).toBeUndefined();
      expect(payments.calls[0]).toMatchObject({
        method: 'createInteracRequest',
        request: {
          customerId: CUSTOMER_ID,
          amount: 80_000n,
          payerEmail: 'accounts@payer.example.ca',
          description: 'Invoice 9',
          reference: 'invoice-9',
        },
        caller: { businessId: BUSINESS_ID },
      });
    });

    it('says where the collection can be read; currency CAD and reference are optional', async () => {
      const response = await fetch(`${payments.base}${interac}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...request, currency: 'CAD', reference: undefined }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('location')).toBe(`/api/external/collection/${COLLECTION_ID}`);
      expect(payments.calls[0]?.request.reference).toBeUndefined();
    });

    it('names every missing field at once', async () => {
      expect(await expectRefused(interac, {}, ['customer_id', 'amount', 'payer_email', 'description'])).toEqual({
        customer_id: ['is required'],
        amount: ['is required'],
        payer_email: ['is required'],
        description: ['is required'],
      });
    });

    it.each([
      [{ currency: 'USD' }, 'currency', /^must be CAD \(Interac collects Canadian dollars only\), got "USD"$/],
      [{ currency: 'cad' }, 'currency', /^must be CAD/],
      [{ payer_email: 'payer.example.ca' }, 'payer_email', /^must be an email address like name@example\.com/],
      [{ payer_email: 'payer@localhost' }, 'payer_email', /^must be an email address/],
      [{ payer_email: 'pay er@example.ca' }, 'payer_email', /^must be an email address/],
      [{ payer_email: 42 }, 'payer_email', /^must be an email address, got 42$/],
      [{ payer_email: `${'p'.repeat(244)}@example.ca` }, 'payer_email', /^must be at most 254 characters$/],
      [{ amount: 0 }, 'amount', /^must be greater than 0, got 0$/],
      [{ amount: 12.5 }, 'amount', /a JSON integer/],
      [{ description: '' }, 'description', /must not be empty/],
      [{ description: 'd'.repeat(256) }, 'description', /^must be at most 255 characters$/],
      [{ reference: 'r'.repeat(101) }, 'reference', /^must be at most 100 characters$/],
      [{ redirect_url: 'https://shop.example' }, 'redirect_url', /^is not a recognised field$/],
    ])('refuses %j, naming %s', async (change, field, problem) => {
      const errors = await expectRefused(interac, { ...request, ...change }, [field]);
      expect(errors[field]?.[0]).toMatch(problem);
    });

    it('takes a payer_email of 254 characters', async () => {
      const longest = `${'p'.repeat(243)}@example.ca`;
      expect(longest).toHaveLength(254);
      expect((await payments.call('post', interac, { ...request, payer_email: longest })).status).toBe(201);
      expect(payments.calls[0]?.request.payerEmail).toBe(longest);
    });

    it.each([
      ['CUSTOMER_NOT_FOUND', `no customer ${CUSTOMER_ID} in this business`],
      ['INVALID_AMOUNT', 'amount must be at least 1.00 CAD'],
    ])("answers payments' refusal %s as 422 with its code and message", async (code, message) => {
      payments.answers.set('createInteracRequest', () => {
        throw invalidArgument(message, undefined, code);
      });
      expect(await payments.call('post', interac, request)).toEqual({
        status: 422,
        body: { status: false, code, message },
      });
    });

    it("passes payments' email refusal on, naming payer_email", async () => {
      payments.answers.set('createInteracRequest', () => {
        throw invalidArgument('payer_email must be an email address, got "x@y"', {
          payer_email: ['must be an email address'],
        });
      });
      expect(await payments.call('post', interac, request)).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', errors: { payer_email: ['must be an email address'] } },
      });
    });

    it('answers 409 when the reference is already used', async () => {
      payments.answers.set('createInteracRequest', () => {
        throw alreadyExists('REFERENCE_ALREADY_USED', 'reference invoice-9 is already used by another transaction');
      });
      expect(await payments.call('post', interac, request)).toMatchObject({
        status: 409,
        body: { code: 'REFERENCE_ALREADY_USED' },
      });
    });

    it('answers 500, not a collection, when payments sends a transaction without collection details', async () => {
      const broken = interacRequestTransaction();
      broken.collectionDetails = undefined;
      payments.answers.set('createInteracRequest', () => ({ transaction: broken }));
      expect(await payments.call('post', interac, request)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    });
  });

  describe('POST /collection/interac/{id}/accept', () => {
    it('answers 200 with the e-Transfer SUCCESSFUL, asking payments to accept that id', async () => {
      const response = await payments.call('post', accept());
      expect(response.status).toBe(200);
      expect(interacTransferAcceptedBody.safeParse(response.body).error).toBeUndefined();
      expect(response.body).toMatchObject({
        message: 'interac transfer accepted',
        data: {
          id: COLLECTION_ID,
          status: 'SUCCESSFUL',
          currency: 'CAD',
          collection_details: {
            method: 'interac_transfer',
            sender_name: 'Jean Tremblay',
            payer_email: 'jean.tremblay@example.ca',
            completed_at: UPDATED.toISOString(),
            crypto: null,
          },
        },
      });
      expect(payments.calls[0]).toMatchObject({
        method: 'acceptInteracTransfer',
        request: { collectionId: COLLECTION_ID },
        caller: { businessId: BUSINESS_ID },
      });
    });

    it('takes {} as its body, and refuses any field', async () => {
      expect((await payments.call('post', accept(), {})).status).toBe(200);
      payments.calls.length = 0;
      await expectRefused(accept(), { accept: true }, ['accept']);
    });

    it('answers 404 INTERAC_TRANSFER_NOT_FOUND for an id that is not a uuid, without asking payments', async () => {
      expect(await payments.call('post', accept('et_1'))).toEqual({
        status: 404,
        body: {
          status: false,
          code: 'INTERAC_TRANSFER_NOT_FOUND',
          message: 'no Interac e-Transfer et_1 for this business',
        },
      });
      expect(payments.calls).toHaveLength(0);
    });

    it.each([
      [notFound('INTERAC_TRANSFER_NOT_FOUND', `no Interac e-Transfer ${COLLECTION_ID} for this business`), 404],
      [failedPrecondition('COLLECTION_NOT_PENDING', `Interac e-Transfer ${COLLECTION_ID} is already expired`), 400],
    ])("maps payments' %s to %s", async (error, status) => {
      payments.answers.set('acceptInteracTransfer', () => {
        throw error;
      });
      expect(await payments.call('post', accept())).toEqual({
        status,
        body: { status: false, code: error.reason, message: error.message },
      });
    });
  });
});
