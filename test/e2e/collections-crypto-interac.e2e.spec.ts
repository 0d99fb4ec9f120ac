import { randomUUID } from 'node:crypto';
import { createTestCertificates, eventually, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import {
  COLLECTION_TIMINGS,
  CRYPTO_INTERAC_SCOPES,
  CollectionsApi,
  collectionHookOf,
  type CryptoAddressJson,
  type MoneyInTransactionJson,
  type MoneyInWebhookBody,
} from '../support/collections.js';
import { businessBody, unique, type CustomerJson } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import { ReceivingBusiness, expectedSignature, receiverEnv } from '../support/receiving-business.js';

/** payments' environment: a sandbox block every 50 ms and sweeps every 200 ms; requests wait a minute. */
const PAYMENTS_ENV = { ...COLLECTION_TIMINGS, COLLECTION_EXPIRY_MS: '60000', SANDBOX_CRYPTO_BLOCK_MS: '50' };

/** The routes decision 0015 adds, each with the scope it asks for and a call that passes validation. */
const ROUTES = [
  { method: 'GET', path: () => '/collection/crypto/networks', scope: 'collection:crypto:create' },
  {
    method: 'POST',
    path: () => '/collection/crypto/address',
    scope: 'collection:crypto:create',
    body: { customer_id: randomUUID(), asset: 'USDT', network: 'TRON' },
  },
  {
    method: 'POST',
    path: () => `/sandbox/collection/crypto/address/${randomUUID()}/deposit`,
    scope: 'collection:crypto:create',
    body: { asset_amount: '1000000' },
  },
  {
    method: 'POST',
    path: () => '/collection/interac',
    scope: 'collection:interac:create',
    body: { customer_id: randomUUID(), amount: 100_00, payer_email: 'payer@example.ca', description: 'Invoice' },
  },
  {
    method: 'POST',
    path: () => `/collection/interac/${randomUUID()}/accept`,
    scope: 'collection:interac:accept',
  },
  {
    method: 'POST',
    path: () => '/sandbox/collection/interac/incoming',
    scope: 'collection:interac:accept',
    body: { customer_id: randomUUID(), amount: 100_00, sender_name: 'Jean', sender_email: 'jean@example.ca' },
  },
] as const;

/**
 * Issue 11's crypto collections and Interac end to end (decision 0015): a customer's stablecoin
 * deposit confirmed block by block and credited in USD, an Interac request paid and an e-Transfer
 * accepted in CAD, each with its collection webhook; every route behind its scope; the books balance.
 */
describe('crypto collections and Interac through the gateway (issue 11)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let api: CollectionsApi;
  /** A business with its HTTPS receiver as collection_url and a token of CRYPTO_INTERAC_SCOPES. */
  let owner: ReceivingBusiness;
  let token: string;
  let customer: CustomerJson;
  let tronAddress: CryptoAddressJson;
  let interacRequest: MoneyInTransactionJson;

  /** A wallet's balances; zero while the business has no wallet in that currency. */
  const balances = async (currency: string) => {
    const wallet = (await api.wallets(token)).find((one) => one.currency === currency);
    return {
      available_balance: wallet?.available_balance ?? 0,
      pending_balance: wallet?.pending_balance ?? 0,
      ledger_balance: wallet?.ledger_balance ?? 0,
    };
  };
  const credited = (before: Awaited<ReturnType<typeof balances>>, net: number) => ({
    available_balance: before.available_balance + net,
    pending_balance: 0,
    ledger_balance: before.ledger_balance + net,
  });

  /** The one signed collection webhook of a transaction with this event, as collection_url got it. */
  const collectionHook = async (transactionId: string, event: string): Promise<MoneyInWebhookBody['data']> => {
    const [hook] = await owner.receiver.waitFor((request) => collectionHookOf(request, transactionId)?.event === event);
    if (!hook) throw new Error(`no ${event} for ${transactionId}`);
    expectSigned(hook);
    return (hook.json as MoneyInWebhookBody).data;
  };
  const expectSigned = (hook: ReceivedWebhook) => {
    expect({ path: hook.path, verified: hook.verified, error: hook.verificationError }).toEqual({
      path: '/collection',
      verified: true,
      error: undefined,
    });
    expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(owner.secret, hook));
  };
  /** The collection webhook fields every one of them has, from the transaction as the API shows it. */
  const hookDataOf = (transaction: MoneyInTransactionJson) => {
    const details = transaction.collection_details;
    if (!details) throw new Error(`${transaction.id} has no collection_details`);
    return {
      transaction_id: transaction.id,
      business_id: owner.businessId,
      transaction_status: 'SUCCESSFUL',
      message: 'Transaction Successful',
      method: details.method,
      customer_id: customer.id,
      virtual_account_id: null,
      sender_name: details.sender_name,
      description: details.description,
      reference: transaction.reference,
      amount: transaction.amount,
      fee: transaction.fee,
      net: transaction.net,
      currency: transaction.currency,
      failure_reason: null,
      created_at: transaction.created_at,
      completed_at: details.completed_at,
      expired_at: null,
      payer_email: details.payer_email,
      crypto: details.crypto,
    };
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: PAYMENTS_ENV,
    });
    api = new CollectionsApi(platform);
    await platform.start();
    owner = await ReceivingBusiness.create(platform, certificates);
    token = await owner.tokenWith([...CRYPTO_INTERAC_SCOPES]);
    // Neither rail asks for a verified customer: one just created will do.
    customer = await api.createCustomer(token, businessBody({ kyb_scope: 'MINIMAL' }));
  });
  afterAll(async () => {
    await owner?.stop();
    await platform?.stop();
  });

  describe('crypto collections', () => {
    it('issue 11: crypto networks: GET /collection/crypto/networks lists the five stablecoin networks, settled in USD', async () => {
      const usd = { decimals: 6, settlement_currency: 'USD' };
      expect(await api.cryptoNetworks(token)).toEqual([
        { asset: 'USDT', network: 'TRON', standard: 'TRC-20', confirmations_required: 20, ...usd },
        { asset: 'USDT', network: 'ETHEREUM', standard: 'ERC-20', confirmations_required: 12, ...usd },
        { asset: 'USDC', network: 'ETHEREUM', standard: 'ERC-20', confirmations_required: 12, ...usd },
        { asset: 'USDC', network: 'POLYGON', standard: 'ERC-20', confirmations_required: 32, ...usd },
        { asset: 'USDC', network: 'SOLANA', standard: 'SPL', confirmations_required: 1, ...usd },
      ]);
    });

    it('issue 11: crypto address: 201 with a TRON address, 200 with the same one asked again, another for another network; an unknown pair 422', async () => {
      const body = { customer_id: customer.id, asset: 'USDT', network: 'TRON' };
      tronAddress = await api.cryptoAddressWhenKnown(token, body);
      expect(tronAddress).toEqual({
        id: expect.any(String),
        customer_id: customer.id,
        asset: 'USDT',
        network: 'TRON',
        address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
        created_at: expect.any(String),
      });
      expect(await api.cryptoAddress(token, body, 200)).toEqual(tronAddress);

      const polygon = await api.cryptoAddress(token, { ...body, asset: 'USDC', network: 'POLYGON' });
      expect(polygon).toMatchObject({
        asset: 'USDC',
        network: 'POLYGON',
        address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      });
      expect(polygon.id).not.toBe(tronAddress.id);

      await expectError(await api.cryptoAddressResponse(token, { ...body, network: 'SOLANA' }), 422, {
        code: 'UNSUPPORTED_CRYPTO_NETWORK',
      });
    });

    it('issue 11: crypto collection: a sandbox deposit is PROCESSING, gains confirmations, then SUCCESSFUL with collection.successful (data.crypto with its confirmations); the USD wallet gets amount - 1 %', async () => {
      const before = await balances('USD');
      const deposit = await api.cryptoDeposit(token, tronAddress.id, '250000000');
      expect(deposit).toMatchObject({
        type: 'COLLECTION',
        status: 'PROCESSING',
        currency: 'USD',
        amount: 250_00,
        fee: 250,
        net: 250_00 - 250,
        reference: null,
        collection_details: {
          method: 'crypto_deposit',
          customer_id: customer.id,
          payment_link: null,
          payer_email: null,
          completed_at: null,
          crypto: {
            address_id: tronAddress.id,
            asset: 'USDT',
            network: 'TRON',
            address: tronAddress.address,
            asset_amount: '250000000',
            tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
            confirmations: 0,
            confirmations_required: 20,
          },
        },
      });

      // Read until confirmed: the count only grows, and a deposit short of 20 is still PROCESSING.
      const seen: [string, number | undefined][] = [];
      const confirmed = await eventually(
        async () => {
          const read = await api.moneyInTransaction(token, deposit.id);
          seen.push([read.status, read.collection_details?.crypto?.confirmations]);
          if (read.status !== 'SUCCESSFUL') throw new Error(`deposit ${deposit.id}: ${JSON.stringify(seen)}`);
          return read;
        },
        30_000,
        50,
      );
      const counts = seen.map(([, confirmations]) => confirmations ?? -1);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(seen.filter(([status, count]) => status === 'PROCESSING' && (count ?? 0) >= 20)).toEqual([]);
      expect(confirmed).toMatchObject({
        status: 'SUCCESSFUL',
        amount: 250_00,
        net: 250_00 - 250,
        collection_details: {
          completed_at: expect.any(String),
          crypto: {
            tx_hash: deposit.collection_details?.crypto?.tx_hash,
            confirmations: 20,
            confirmations_required: 20,
          },
        },
      });
      expect(await balances('USD')).toEqual(credited(before, 250_00 - 250));

      const data = await collectionHook(deposit.id, 'collection.successful');
      expect(data).toEqual(hookDataOf(confirmed));
      expect(data.crypto).toMatchObject({ confirmations: 20, confirmations_required: 20, asset_amount: '250000000' });
      // Created PROCESSING, it had no webhook of its own.
      const events = owner.receiver.requests.map((one) => collectionHookOf(one, deposit.id)?.event).filter(Boolean);
      expect(events).toEqual(['collection.successful']);
    });
  });

  describe('Interac', () => {
    it('issue 11: Interac request: PENDING in CAD with the payer_email; paid through /sandbox/collection/{id}/pay: SUCCESSFUL, collection.successful, the CAD wallet credited', async () => {
      const before = await balances('CAD');
      const reference = `ir-${unique()}`;
      interacRequest = await api.interacRequestWhenKnown(token, {
        customer_id: customer.id,
        amount: 800_00,
        currency: 'CAD',
        payer_email: 'accounts@payer.example.ca',
        description: 'Invoice 9',
        reference,
      });
      expect(interacRequest).toMatchObject({
        type: 'COLLECTION',
        status: 'PENDING',
        currency: 'CAD',
        amount: 800_00,
        fee: 800,
        net: 800_00 - 800,
        reference,
        collection_details: {
          method: 'interac_request',
          customer_id: customer.id,
          payer_email: 'accounts@payer.example.ca',
          description: 'Invoice 9',
          payment_link: null,
          crypto: null,
          expires_at: expect.any(String),
          completed_at: null,
        },
      });
      expect(await balances('CAD')).toEqual(before);

      const paid = await api.call(token, 'POST', `/sandbox/collection/${interacRequest.id}/pay`);
      const { data: settled } = (await paid.json()) as { data: MoneyInTransactionJson };
      expect({ status: paid.status, transaction: settled.status }).toEqual({ status: 200, transaction: 'SUCCESSFUL' });
      expect(await balances('CAD')).toEqual(credited(before, 800_00 - 800));
      const data = await collectionHook(interacRequest.id, 'collection.successful');
      expect(data).toEqual(hookDataOf(await api.moneyInTransaction(token, interacRequest.id)));
      expect(data).toMatchObject({ method: 'interac_request', payer_email: 'accounts@payer.example.ca', reference });
    });

    it('issue 11: Interac e-Transfer: an incoming one waits PENDING for the business; accepted it is SUCCESSFUL, credited, with collection.successful; accepted again 400', async () => {
      const before = await balances('CAD');
      const incoming = await api.interacIncomingWhenKnown(token, {
        customer_id: customer.id,
        amount: 300_00,
        sender_name: 'Jean Tremblay',
        sender_email: 'jean.tremblay@example.ca',
      });
      expect(incoming).toMatchObject({
        status: 'PENDING',
        currency: 'CAD',
        amount: 300_00,
        fee: 300,
        collection_details: {
          method: 'interac_transfer',
          customer_id: customer.id,
          sender_name: 'Jean Tremblay',
          payer_email: 'jean.tremblay@example.ca',
          completed_at: null,
        },
      });
      expect(await balances('CAD')).toEqual(before);

      const accepted = await api.acceptInterac(token, incoming.id);
      expect(accepted).toMatchObject({
        id: incoming.id,
        status: 'SUCCESSFUL',
        collection_details: { method: 'interac_transfer', completed_at: expect.any(String) },
      });
      expect(await balances('CAD')).toEqual(credited(before, 300_00 - 300));
      const data = await collectionHook(incoming.id, 'collection.successful');
      expect(data).toEqual(hookDataOf(accepted));
      expect(data).toMatchObject({ sender_name: 'Jean Tremblay', payer_email: 'jean.tremblay@example.ca' });

      await expectError(await api.acceptInteracResponse(token, incoming.id), 400, { code: 'COLLECTION_NOT_PENDING' });
      await expectError(await api.acceptInteracResponse(token, interacRequest.id), 404, {
        code: 'INTERAC_TRANSFER_NOT_FOUND',
      });
      expect(await balances('CAD')).toEqual(credited(before, 300_00 - 300));
    });
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path()}`.replace(/[0-9a-f-]{36}/, '{id}'), route] as const))(
    'issue 11: scopes: %s refuses a token without its scope (403 SCOPE_MISSING naming it)',
    async (_name, route) => {
      const body = 'body' in route ? route.body : undefined;
      const without = await owner.tokenWith(CRYPTO_INTERAC_SCOPES.filter((scope) => scope !== route.scope));
      await expectError(await api.call(without, route.method, route.path(), body), 403, {
        code: 'SCOPE_MISSING',
        message: new RegExp(`requires the scope ${route.scope}`),
      });
      // The control: the journey's token, holding the scope, is let through (to whatever comes next).
      const allowed = await api.call(token, route.method, route.path(), body);
      expect({ status: allowed.status, body: await allowed.text() }).not.toMatchObject({ status: 403 });
    },
  );

  it('DESIGN.md "The books always balance": GET /admin/ledger/check is ok after the journey', async () => {
    await api.expectBooksBalance();
  });
});
