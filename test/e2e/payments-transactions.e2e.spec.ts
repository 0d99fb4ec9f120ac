import { randomUUID } from 'node:crypto';
import {
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import type { EventCollector } from '@corridor/testing';
import { expectError, Platform } from '../support/platform.js';
import { type PaymentsCaller, type TransactionJson, type TransactionPage } from '../support/payments.js';

/** Every field of the public transaction, no more (the shared contract). */
const TRANSACTION_FIELDS = [
  'amount',
  'collection_details',
  'created_at',
  'currency',
  'description',
  'fee',
  'id',
  'net',
  'reference',
  'refund_details',
  'refund_status',
  'status',
  'swap_details',
  'type',
  'updated_at',
];

const ids = (transactions: readonly TransactionJson[]) => transactions.map((t) => t.id);
const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

/**
 * GET /transaction/{id} and GET /transaction (DESIGN.md "Lists stay flat"): newest first, keyset
 * pages in Laravel's cursor-paginator envelope, exact combinable filters; and transaction.created
 * on Kafka.
 */
describe('payments: reading transactions through the gateway', () => {
  const platform = Platform.shared();
  const api = platform.payments;
  let owner: PaymentsCaller;
  let events: EventCollector;
  const referenceA = `order-${randomUUID()}`;
  const referenceB = `order-${randomUUID()}`;
  /** The owner's five transactions, newest first: swap NGN→USD, two swaps USD→NGN, two credits. */
  let newestFirst: TransactionJson[] = [];
  let swapA: TransactionJson;

  /** The owner's list for a query string, with the ids of its page. */
  const list = (queryString = '') => api.transactions(owner.token, queryString);
  const expectListed = async (queryString: string, expected: readonly TransactionJson[]) => {
    const page = await list(queryString);
    expect({ query: queryString, ids: ids(page.data) }).toEqual({ query: queryString, ids: ids(expected) });
  };

  beforeAll(async () => {
    await platform.start();
    events = await api.events();
    await api.setRate('USD', 'NGN', '1500');
    owner = await api.caller();
    // One after another, so their creation order is their age.
    const usdCredit = await api.fund(owner.businessId, 'USD', 100_000);
    const ngnCredit = await api.fund(owner.businessId, 'NGN', 5_000_000);
    swapA = await api.swap(owner.token, {
      from_currency: 'USD',
      to_currency: 'NGN',
      amount: 10_000,
      reference: referenceA,
    });
    const swapUsd = await api.swap(owner.token, { from_currency: 'USD', to_currency: 'NGN', amount: 20_000 });
    const swapNgn = await api.swap(owner.token, {
      from_currency: 'NGN',
      to_currency: 'USD',
      amount: 1_500_000,
      reference: referenceB,
    });
    newestFirst = [swapNgn, swapUsd, swapA, ngnCredit, usdCredit];
    // Another business's transaction with the owner's reference never shows in the owner's lists.
    const stranger = await api.caller();
    await api.fund(stranger.businessId, 'USD', 100_000);
    await api.swap(stranger.token, { from_currency: 'USD', to_currency: 'NGN', amount: 10_000, reference: referenceA });
  });
  afterAll(async () => {
    try {
      await events?.stop();
      if (platform.started) await api.expectBooksBalance();
    } finally {
      await platform.stop();
    }
  });

  it('reads one transaction with exactly the contract’s fields, as the swap answered it', async () => {
    const read = await api.transaction(owner.token, swapA.id);
    expect(read).toEqual(swapA);
    expect(Object.keys(read).sort()).toEqual(TRANSACTION_FIELDS);
    expect(read).toMatchObject({ type: 'SWAP', status: 'SUCCESSFUL', currency: 'USD', reference: referenceA });
    expect(read.net).toBe(read.amount - read.fee);
    await expectError(await api.call(owner.token, 'GET', '/transaction/not-a-uuid'), 404);
  });

  it('swap_details is on SWAP and null on ADJUSTMENT; refund_status is null before any refund', async () => {
    const { data } = await list();
    for (const transaction of data) {
      expect(transaction.refund_status).toBeNull();
      if (transaction.type === 'SWAP') {
        expect(transaction.swap_details).toEqual({
          from_currency: transaction.currency,
          from_amount: -transaction.amount,
          to_currency: expect.stringMatching(/^(USD|NGN)$/),
          to_amount: expect.any(Number),
          rate: expect.stringMatching(/^\d+(\.\d+)?$/),
          fee: transaction.fee,
          quote_id: null,
          amount_side: 'from',
        });
      } else {
        expect(transaction).toMatchObject({ type: 'ADJUSTMENT', swap_details: null, fee: 0 });
      }
    }
  });

  it('lists newest first in the cursor-paginator envelope, 15 a page by default', async () => {
    const page = await list();
    expect(ids(page.data)).toEqual(ids(newestFirst));
    expect(page.links).toEqual({ first: null, last: null, prev: null, next: null });
    expect(page.meta).toEqual({
      path: `${platform.publicUrl}/api/external/transaction`,
      per_page: 15,
      next_cursor: null,
      prev_cursor: null,
    });
  });

  it('per_page=2 walks five transactions in three pages, forward and back, without duplicates or gaps', async () => {
    const first = await list('per_page=2');
    expect(ids(first.data)).toEqual(ids(newestFirst.slice(0, 2)));
    expect(first.links.prev).toBeNull();
    expect(first.meta).toMatchObject({ per_page: 2, prev_cursor: null, next_cursor: expect.any(String) });
    const next = new URL(first.links.next ?? '');
    expect(`${next.origin}${next.pathname}`).toBe(`${platform.publicUrl}/api/external/transaction`);
    expect(next.searchParams.get('per_page')).toBe('2');
    expect(next.searchParams.get('cursor')).toBe(first.meta.next_cursor);

    const second = await list(first.links.next ?? '');
    expect(ids(second.data)).toEqual(ids(newestFirst.slice(2, 4)));
    expect(second.links.prev).toEqual(expect.any(String));
    expect(second.links.next).toEqual(expect.any(String));

    const third = await list(second.links.next ?? '');
    expect(ids(third.data)).toEqual(ids(newestFirst.slice(4)));
    expect(third.links.next).toBeNull();
    expect(third.meta.next_cursor).toBeNull();

    const walked = [...first.data, ...second.data, ...third.data];
    expect(new Set(ids(walked)).size).toBe(5);

    const back = await list(third.links.prev ?? '');
    expect(ids(back.data)).toEqual(ids(newestFirst.slice(2, 4)));
    const start = await list(back.links.prev ?? '');
    expect(ids(start.data)).toEqual(ids(newestFirst.slice(0, 2)));
    expect(start.links.prev).toBeNull();
  });

  it('page links keep the filters', async () => {
    const first = await list('type=SWAP&per_page=2');
    expect(ids(first.data)).toEqual(ids(newestFirst.slice(0, 2)));
    expect(new URL(first.links.next ?? '').searchParams.get('type')).toBe('SWAP');
    const second: TransactionPage = await list(first.links.next ?? '');
    expect(ids(second.data)).toEqual([swapA.id]);
    expect(second.links.next).toBeNull();
    expect(new URL(second.links.prev ?? '').searchParams.get('type')).toBe('SWAP');
  });

  it('filters by status, type, currency and reference, each alone and combined', async () => {
    const [swapNgn, swapUsd, , ngnCredit, usdCredit] = newestFirst;
    expect(newestFirst.every((t) => t.status === 'SUCCESSFUL')).toBe(true);
    await expectListed('status=SUCCESSFUL', newestFirst);
    await expectListed('status=FAILED', []);
    // seed 4.4: status accepts EXPIRED (a collection state); a swap never is.
    await expectListed('status=EXPIRED', []);
    await expectListed(
      'type=SWAP',
      newestFirst.filter((t) => t.type === 'SWAP'),
    );
    await expectListed('type=ADJUSTMENT', [ngnCredit!, usdCredit!]);
    await expectListed('type=COLLECTION', []);
    await expectListed('currency=USD', [swapUsd!, swapA, usdCredit!]);
    await expectListed('currency=NGN', [swapNgn!, ngnCredit!]);
    await expectListed(query({ reference: referenceA }), [swapA]);
    await expectListed(query({ reference: referenceB }), [swapNgn!]);
    await expectListed(query({ reference: `order-${randomUUID()}` }), []);

    await expectListed('type=SWAP&currency=USD', [swapUsd!, swapA]);
    await expectListed('type=ADJUSTMENT&currency=NGN&status=SUCCESSFUL', [ngnCredit!]);
    await expectListed(query({ type: 'SWAP', currency: 'USD', reference: referenceA }), [swapA]);
    await expectListed(query({ type: 'ADJUSTMENT', reference: referenceA }), []);
  });

  it('filters by created_at: from is inclusive, to exclusive, alone and combined', async () => {
    const [swapNgn, swapUsd, , ngnCredit, usdCredit] = newestFirst;
    await expectListed(query({ from: swapA.created_at }), [swapNgn!, swapUsd!, swapA]);
    await expectListed(query({ to: swapNgn!.created_at }), [swapUsd!, swapA, ngnCredit!, usdCredit!]);
    await expectListed(query({ from: swapA.created_at, to: swapNgn!.created_at }), [swapUsd!, swapA]);
    await expectListed(query({ from: swapA.created_at, to: swapNgn!.created_at, currency: 'NGN' }), []);
    await expectListed(query({ from: '2000-01-01T00:00:00Z', type: 'ADJUSTMENT' }), [ngnCredit!, usdCredit!]);
  });

  it.each([
    ['status', 'status=DONE'],
    ['status', 'status=successful_ish'],
    ['type', 'type=SWIM'],
    ['from', 'from=yesterday'],
    ['to', 'to=2024-13-45T00:00:00Z'],
    ['per_page', 'per_page=0'],
    ['per_page', 'per_page=101'],
    ['per_page', 'per_page=ten'],
    ['cursor', 'cursor=not-a-cursor'],
  ])('a bad %s (%s) is 422 naming the parameter', async (parameter, queryString) => {
    const body = await expectError(await api.call(owner.token, 'GET', `/transaction?${queryString}`), 422);
    expect(String(body.message)).toContain(parameter);
  });

  it('a swap publishes transaction.created on <prefix>corridor.payments.v1, keyed by the transaction', async () => {
    const [received] = await events.waitFor(
      (e) => e.event.payload.case === 'transactionCreated' && e.event.payload.value.transaction?.id === swapA.id,
    );
    expect(received).toMatchObject({
      topic: platform.paymentsTopic,
      key: swapA.id,
      event: { type: 'transaction.created', businessId: owner.businessId },
    });
    if (received?.event.payload.case !== 'transactionCreated') throw new Error('not transaction.created');
    const transaction: Transaction | undefined = received.event.payload.value.transaction;
    expect(transaction).toMatchObject({
      id: swapA.id,
      businessId: owner.businessId,
      type: TransactionType.SWAP,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'USD',
      amount: -10_000n,
      fee: BigInt(swapA.fee),
      net: BigInt(swapA.net),
      reference: referenceA,
      swapDetails: {
        fromCurrency: 'USD',
        fromAmount: 10_000n,
        toCurrency: 'NGN',
        toAmount: BigInt(swapA.swap_details?.to_amount ?? -1),
      },
    });
    // Each of the owner's swaps published once.
    const swaps = newestFirst.filter((t) => t.type === 'SWAP');
    await events.waitFor((e) => e.event.type === 'transaction.created' && swaps.some((t) => t.id === e.key), 3);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // any duplicate would be relayed by now
    const published = events.received
      .filter((e) => e.event.type === 'transaction.created' && e.event.businessId === owner.businessId)
      .map((e) => e.key);
    expect(new Set(published).size).toBe(published.length);
    expect(published).toEqual(expect.arrayContaining(ids(swaps)));
  });
});
