import { timestampDate } from '@bufbuild/protobuf/wkt';
import { CollectionMethod } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { walletBalances } from '../ledger/index.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { collectionSpecKit } from '../../test/collection-spec-kit.js';
import { getCollection } from './collect.js';
import { confirmDueDeposits, createCryptoAddress, cryptoNetworks, receiveCryptoDeposit } from './crypto.js';
import { describePayments } from '../../test/payments-database.js';

/** One block of the sandbox chain: a deposit gains a confirmation this often. */
const BLOCK_MS = 2_000;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

describePayments('payments: crypto collections, stablecoin deposits credited in USD (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  let kit: ReturnType<typeof collectionSpecKit>;

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now, { cryptoBlockMs: BLOCK_MS });
    kit = collectionSpecKit(database.orm, database.url, () => now);
  });

  const business = () => kit.business({ kybScope: 'MINIMAL', status: 'PENDING', name: 'Lagos Stablecoin Traders Ltd' });
  const addressOf = (businessId: string, customerId: string, asset: string, network: string) =>
    database.em().transactional((tx) => createCryptoAddress(tx, context, businessId, { customerId, asset, network }));
  const deposit = (businessId: string, addressId: string, assetAmount: string, on = context) =>
    database.em().transactional((tx) => receiveCryptoDeposit(tx, on, businessId, { addressId, assetAmount }));
  /** A customer's deposit address with a deposit on it, as the sandbox makes them. */
  async function depositOn(asset: string, network: string, assetAmount: string) {
    const { businessId, customerId } = await business();
    const { address } = await addressOf(businessId, customerId, asset, network);
    return { businessId, customerId, address, deposited: await deposit(businessId, address.id, assetAmount) };
  }
  const sweep = () => confirmDueDeposits(database.em(), context);
  const read = (businessId: string, id: string) => getCollection(database.em(), businessId, id);
  const usd = async (businessId: string) => (await walletBalances(database.em(), businessId)).get('USD');

  it('issue 11: lists the five stablecoin networks, each with its standard, 6 decimals, its confirmations, settled in USD', () => {
    expect(
      cryptoNetworks().map(({ asset, network, standard, decimals, confirmationsRequired, settlementCurrency }) => ({
        asset,
        network,
        standard,
        decimals,
        confirmationsRequired,
        settlementCurrency,
      })),
    ).toEqual([
      {
        asset: 'USDT',
        network: 'TRON',
        standard: 'TRC-20',
        decimals: 6,
        confirmationsRequired: 20,
        settlementCurrency: 'USD',
      },
      {
        asset: 'USDT',
        network: 'ETHEREUM',
        standard: 'ERC-20',
        decimals: 6,
        confirmationsRequired: 12,
        settlementCurrency: 'USD',
      },
      {
        asset: 'USDC',
        network: 'ETHEREUM',
        standard: 'ERC-20',
        decimals: 6,
        confirmationsRequired: 12,
        settlementCurrency: 'USD',
      },
      {
        asset: 'USDC',
        network: 'POLYGON',
        standard: 'ERC-20',
        decimals: 6,
        confirmationsRequired: 32,
        settlementCurrency: 'USD',
      },
      {
        asset: 'USDC',
        network: 'SOLANA',
        standard: 'SPL',
        decimals: 6,
        confirmationsRequired: 1,
        settlementCurrency: 'USD',
      },
    ]);
  });

  it('issue 11: one deposit address per (customer, asset, network): asked again it is the same (existing), each network its own, in its network’s form', async () => {
    const { businessId, customerId } = await business();
    const first = await addressOf(businessId, customerId, 'USDT', 'TRON');
    expect(first.existing).toBe(false);
    expect(first.address).toMatchObject({ customerId, asset: 'USDT', network: 'TRON' });
    expect(first.address.createdAt && timestampDate(first.address.createdAt)).toEqual(now);
    advance(60_000);
    expect(await addressOf(businessId, customerId, 'USDT', 'TRON')).toEqual({ address: first.address, existing: true });

    const forms: [string, string, RegExp][] = [
      ['USDT', 'TRON', /^T[1-9A-HJ-NP-Za-km-z]{33}$/],
      ['USDT', 'ETHEREUM', /^0x[0-9a-f]{40}$/],
      ['USDC', 'ETHEREUM', /^0x[0-9a-f]{40}$/],
      ['USDC', 'POLYGON', /^0x[0-9a-f]{40}$/],
      ['USDC', 'SOLANA', /^[1-9A-HJ-NP-Za-km-z]{32,44}$/],
    ];
    const made = [];
    for (const [asset, network, form] of forms) {
      const { address } = await addressOf(businessId, customerId, asset, network);
      expect({ asset: address.asset, network: address.network, address: address.address }).toEqual({
        asset,
        network,
        address: expect.stringMatching(form),
      });
      made.push(address);
    }
    expect(made[0]).toEqual(first.address);
    // Distinct per network and per asset, and from another customer's for the same pair.
    expect(new Set(made.map(({ id }) => id)).size).toBe(forms.length);
    expect(new Set(made.map(({ address }) => address)).size).toBe(forms.length);
    const other = await business();
    const theirs = await addressOf(other.businessId, other.customerId, 'USDT', 'TRON');
    expect(theirs.existing).toBe(false);
    expect(theirs.address.address).not.toBe(first.address.address);
    expect(theirs.address.address).toMatch(BASE58);
  });

  it('issue 11: two requests for the same address at once agree on one address, made once', async () => {
    const { businessId, customerId } = await business();
    const answers = await Promise.all([
      addressOf(businessId, customerId, 'USDC', 'SOLANA'),
      addressOf(businessId, customerId, 'USDC', 'SOLANA'),
    ]);
    expect(answers.map(({ existing }) => existing).sort()).toEqual([false, true]);
    expect(answers[0]?.address).toEqual(answers[1]?.address);
    const rows = await query(database.url, 'select id from crypto_address where customer_id = $1', [customerId]);
    expect(rows).toHaveLength(1);
  });

  it('issue 11: an asset/network pair Corridor does not support is 422 UNSUPPORTED_CRYPTO_NETWORK; another business’s customer 422 CUSTOMER_NOT_FOUND', async () => {
    const { businessId, customerId } = await business();
    for (const [asset, network] of [
      ['USDT', 'SOLANA'],
      ['USDC', 'TRON'],
      ['BTC', 'BITCOIN'],
      ['usdt', 'tron'],
    ] as const) {
      await expect(addressOf(businessId, customerId, asset, network)).rejects.toMatchObject({
        reason: 'UNSUPPORTED_CRYPTO_NETWORK',
        status: Status.INVALID_ARGUMENT,
        fieldErrors: { network: [expect.any(String)] },
      });
    }
    const stranger = await business();
    for (const id of [stranger.customerId, randomUUID(), 'not-a-uuid']) {
      await expect(addressOf(businessId, id, 'USDT', 'TRON')).rejects.toMatchObject({
        reason: 'CUSTOMER_NOT_FOUND',
        status: Status.INVALID_ARGUMENT,
      });
    }
    expect(await query(database.url, 'select id from crypto_address where business_id = $1', [businessId])).toEqual([]);
  });

  it('issue 11: a deposit is a COLLECTION in PROCESSING with 0 of its confirmations; no money moves yet', async () => {
    const { businessId, customerId, address, deposited } = await depositOn('USDT', 'TRON', '250000000');
    // 250 USDT in base units (6 decimals) is USD 250.00; the default collection fee is 1 %.
    expect(deposited).toMatchObject({
      type: TransactionType.COLLECTION,
      status: TransactionStatus.PROCESSING,
      currency: 'USD',
      amount: 25_000n,
      fee: 250n,
      net: 24_750n,
      collectionDetails: {
        method: CollectionMethod.CRYPTO_DEPOSIT,
        customerId,
        crypto: {
          addressId: address.id,
          asset: 'USDT',
          network: 'TRON',
          address: address.address,
          assetAmount: '250000000',
          txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
          confirmations: 0,
          confirmationsRequired: 20,
        },
      },
    });
    expect(deposited.collectionDetails?.completedAt).toBeUndefined();
    expect(deposited.collectionDetails?.paymentToken).toBeUndefined();
    expect(await read(businessId, deposited.id)).toEqual(deposited);
    expect(await usd(businessId)).toBeUndefined();
    expect(await kit.moves(deposited.id)).toEqual([]);
    expect(await kit.statusTrail(deposited.id)).toEqual([['created', TransactionStatus.PROCESSING]]);
    // A second deposit to the same address is its own collection, with its own hash.
    const again = await deposit(businessId, address.id, '1000000');
    expect(again.id).not.toBe(deposited.id);
    expect(again.collectionDetails?.crypto?.txHash).not.toBe(deposited.collectionDetails?.crypto?.txHash);
  });

  it('issue 11: confirmations grow with the blocks; at the network’s count the deposit is SUCCESSFUL and the USD wallet gets amount - 1 %, once', async () => {
    const { businessId, deposited } = await depositOn('USDC', 'ETHEREUM', '1000000000');
    const confirmations = async () => {
      const collection = await read(businessId, deposited.id);
      return [collection.status, collection.collectionDetails?.crypto?.confirmations];
    };
    advance(BLOCK_MS - 1);
    await sweep();
    expect(await confirmations()).toEqual([TransactionStatus.PROCESSING, 0]);
    advance(1);
    await sweep();
    expect(await confirmations()).toEqual([TransactionStatus.PROCESSING, 1]);
    advance(4 * BLOCK_MS + 500);
    await sweep();
    expect(await confirmations()).toEqual([TransactionStatus.PROCESSING, 5]);
    advance(6 * BLOCK_MS);
    await sweep();
    expect(await confirmations()).toEqual([TransactionStatus.PROCESSING, 11]);
    expect(await usd(businessId)).toBeUndefined();

    advance(BLOCK_MS);
    await sweep();
    const confirmed = await read(businessId, deposited.id);
    expect(confirmed).toMatchObject({
      status: TransactionStatus.SUCCESSFUL,
      amount: 100_000n,
      fee: 1_000n,
      net: 99_000n,
      collectionDetails: { crypto: { confirmations: 12, confirmationsRequired: 12 } },
    });
    expect(confirmed.collectionDetails?.completedAt && timestampDate(confirmed.collectionDetails.completedAt)).toEqual(
      now,
    );
    expect(await usd(businessId)).toMatchObject({ ledger: 99_000n, pending: 0n, available: 99_000n });
    expect(await kit.moves(deposited.id)).toEqual([
      { phase: 'posted', amount: '99000', debit: 'settlement', credit: 'wallet' },
      { phase: 'posted', amount: '1000', debit: 'settlement', credit: 'fees' },
    ]);
    expect(await kit.statusTrail(deposited.id)).toEqual([
      ['created', TransactionStatus.PROCESSING],
      ['updated', TransactionStatus.PROCESSING, TransactionStatus.SUCCESSFUL],
    ]);

    // Later sweeps leave a confirmed deposit alone: no second credit, no second event.
    advance(40 * BLOCK_MS);
    await sweep();
    await sweep();
    expect(await read(businessId, deposited.id)).toEqual(confirmed);
    expect(await usd(businessId)).toMatchObject({ ledger: 99_000n });
    expect(await kit.statusTrail(deposited.id)).toHaveLength(2);
  });

  it('issue 11: two sweeps running side by side confirm each due deposit exactly once, one credit and one event each', async () => {
    const { businessId, customerId } = await business();
    const { address } = await addressOf(businessId, customerId, 'USDC', 'SOLANA');
    const deposits = [];
    for (let i = 1; i <= 10; i++) deposits.push(await deposit(businessId, address.id, `${i}000000`));
    advance(BLOCK_MS);
    const [due] = await query<{ count: string }>(
      database.url,
      `select count(*) from collection where status = 'processing' and next_confirmation_at <= $1`,
      [now],
    );
    const replica = async () => {
      let swept = 0;
      for (let batch; (batch = await confirmDueDeposits(database.em(), context, 3)) > 0;) swept += batch;
      return swept;
    };
    const [first, second] = await Promise.all([replica(), replica()]);
    expect(first + second).toBe(Number(due?.count));
    for (const { id } of deposits) {
      expect(await kit.statusTrail(id)).toEqual([
        ['created', TransactionStatus.PROCESSING],
        ['updated', TransactionStatus.PROCESSING, TransactionStatus.SUCCESSFUL],
      ]);
      expect(await kit.moves(id)).toHaveLength(2);
    }
    // USD 1 + 2 + … + 10 = 55.00, each less 1 %.
    expect(await usd(businessId)).toMatchObject({ ledger: 5_500n - 55n, pending: 0n });
  });

  it('issue 11: base units below a cent stay with the rail: the whole cents are credited, never the dust', async () => {
    const { businessId, address, deposited } = await depositOn('USDC', 'SOLANA', '100009999');
    expect(deposited).toMatchObject({
      amount: 10_000n,
      fee: 100n,
      collectionDetails: { crypto: { assetAmount: '100009999', confirmationsRequired: 1 } },
    });
    // Solana's hashes are base58 signatures, not 0x hex.
    expect(deposited.collectionDetails?.crypto?.txHash).not.toMatch(/^0x/);
    const tiny = await deposit(businessId, address.id, '10999');
    expect(tiny.amount).toBe(1n);
    advance(BLOCK_MS);
    await sweep();
    expect((await read(businessId, deposited.id)).status).toBe(TransactionStatus.SUCCESSFUL);
    expect((await read(businessId, tiny.id)).status).toBe(TransactionStatus.SUCCESSFUL);
    // One cent's fee of 1 % rounds to nothing: the cent is credited whole.
    expect(await usd(businessId)).toMatchObject({ ledger: 9_900n + 1n, pending: 0n });
  });

  it('issue 11: a deposit is refused: under a cent or not base units 422 INVALID_AMOUNT, an unknown address 404, production 403', async () => {
    const { businessId, address } = await depositOn('USDT', 'ETHEREUM', '5000000');
    // issue 18 (schemathesis): 25 digits are worth more cents than an amount can hold; the database refused them.
    const tooMuch = '8310140313639779709118972';
    for (const assetAmount of ['9999', '0', '', '12.5', '-5000000', '1e9', ' 5000000', '1'.repeat(31), tooMuch]) {
      await expect(deposit(businessId, address.id, assetAmount)).rejects.toMatchObject({
        reason: 'INVALID_AMOUNT',
        status: Status.INVALID_ARGUMENT,
        fieldErrors: { asset_amount: [expect.any(String)] },
      });
    }
    for (const [owner, id] of [
      [randomUUID(), address.id],
      [businessId, randomUUID()],
      [businessId, 'not-a-uuid'],
    ] as const) {
      await expect(deposit(owner, id, '5000000')).rejects.toMatchObject({
        reason: 'CRYPTO_ADDRESS_NOT_FOUND',
        status: Status.NOT_FOUND,
      });
    }
    const production = { ...context, environment: 'production' as const };
    await expect(deposit(businessId, address.id, '5000000', production)).rejects.toMatchObject({
      reason: 'SANDBOX_ONLY',
      status: Status.PERMISSION_DENIED,
    });
    expect(await query(database.url, 'select id from collection where business_id = $1', [businessId])).toHaveLength(1);
  });
});
