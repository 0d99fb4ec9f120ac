import { create } from '@bufbuild/protobuf';
import { CreateSwapRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import {
  AmountSide,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { DomainError } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { creditWallet, testPaymentsContext } from '../../test/test-context.js';
import { checkLedger, walletBalances } from '../ledger/index.js';
import { quoteRate, setMidRate } from '../reference/rates.js';
import { createSwap } from './create-swap.js';
import { describePayments } from '../../test/payments-database.js';

describePayments('payments: swapping between a business’s own wallets (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now);
    await setMidRate(database.em(), context, { baseCurrency: 'USD', quoteCurrency: 'NGN', rate: '1550' });
    await setMidRate(database.em(), context, { baseCurrency: 'GBP', quoteCurrency: 'USD', rate: '1.27' });
  });

  async function fundedBusiness(currency: string, amount: bigint): Promise<string> {
    const businessId = randomUUID();
    await creditWallet(database.orm, context, businessId, currency, amount);
    return businessId;
  }

  const swap = (businessId: string, fields: Partial<Parameters<typeof create<typeof CreateSwapRequestSchema>>[1]>) =>
    database.em().transactional((tx) =>
      createSwap(
        tx,
        context,
        businessId,
        create(CreateSwapRequestSchema, {
          fromCurrency: 'USD',
          toCurrency: 'NGN',
          amount: 10_000n,
          amountSide: AmountSide.FROM,
          ...fields,
        }),
      ),
    );
  const balances = async (businessId: string) => walletBalances(database.em(), businessId);

  it('moves exactly swap_details’ amounts: from-amount + fee out, to-amount in, at the mid-rate less the spread', async () => {
    const businessId = await fundedBusiness('USD', 100_000n);
    const transaction = await swap(businessId, { reference: 'first' });
    // 1550 less 50 bps = 1542.25; 100.00 USD → 154,225.00 NGN; fee 25 bps of 10,000 = 25 cents
    expect(transaction).toMatchObject({
      type: TransactionType.SWAP,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'USD',
      amount: -10_000n,
      fee: 25n,
      net: -10_025n,
      reference: 'first',
      swapDetails: {
        fromAmount: 10_000n,
        toAmount: 15_422_500n,
        rate: '1542.25',
        fee: 25n,
        amountSide: AmountSide.FROM,
      },
    });
    expect(transaction.refundStatus).toBeUndefined();
    const after = await balances(businessId);
    expect(after.get('USD')).toMatchObject({ ledger: 89_975n, available: 89_975n });
    expect(after.get('NGN')).toMatchObject({ ledger: 15_422_500n, available: 15_422_500n });
    const outbox = await query<{ message_key: string }>(
      database.url,
      'select message_key from outbox where message_key = $1',
      [transaction.id],
    );
    expect(outbox).toHaveLength(1);
  });

  it('amount_side "to" buys exactly the amount asked, the reverse pair derived from the one set', async () => {
    const businessId = await fundedBusiness('NGN', 10_000_000n);
    const transaction = await swap(businessId, {
      fromCurrency: 'NGN',
      toCurrency: 'USD',
      amount: 1_000n,
      amountSide: AmountSide.TO,
    });
    expect(transaction.swapDetails).toMatchObject({ toAmount: 1_000n, amountSide: AmountSide.TO });
    expect((await balances(businessId)).get('USD')?.ledger).toBe(1_000n);
    const fromAmount = transaction.swapDetails?.fromAmount ?? 0n;
    expect((await balances(businessId)).get('NGN')?.ledger).toBe(10_000_000n - fromAmount - transaction.fee);
  });

  it('a live quote fixes the rate even after the mid-rate changes; expired, another pair or another business’s quote is refused', async () => {
    const businessId = await fundedBusiness('GBP', 100_000n);
    const quote = await quoteRate(database.em(), context, businessId, { from: 'GBP', to: 'USD' });
    await setMidRate(database.em(), context, { baseCurrency: 'GBP', quoteCurrency: 'USD', rate: '2' });
    const quoted = await swap(businessId, { fromCurrency: 'GBP', toCurrency: 'USD', quoteId: quote.quoteId });
    expect(quoted.swapDetails).toMatchObject({ rate: quote.rate, quoteId: quote.quoteId });
    expect(quote.rate).toBe('1.26365');

    await expect(
      swap(businessId, { fromCurrency: 'USD', toCurrency: 'GBP', quoteId: quote.quoteId }),
    ).rejects.toMatchObject({
      reason: 'QUOTE_MISMATCH',
    });
    const stranger = await fundedBusiness('GBP', 100_000n);
    await expect(
      swap(stranger, { fromCurrency: 'GBP', toCurrency: 'USD', quoteId: quote.quoteId }),
    ).rejects.toMatchObject({
      reason: 'QUOTE_NOT_FOUND',
    });
    now = new Date(now.getTime() + 61_000);
    await expect(
      swap(businessId, { fromCurrency: 'GBP', toCurrency: 'USD', quoteId: quote.quoteId }),
    ).rejects.toMatchObject({
      reason: 'QUOTE_EXPIRED',
    });
    await setMidRate(database.em(), context, { baseCurrency: 'GBP', quoteCurrency: 'USD', rate: '1.27' });
  });

  it('refuses each bad swap with its own code and moves nothing', async () => {
    const businessId = await fundedBusiness('USD', 1_000n);
    const cases: [Parameters<typeof swap>[1], string][] = [
      [{ toCurrency: 'USD' }, 'SAME_CURRENCY'],
      [{ toCurrency: 'XYZ' }, 'UNKNOWN_CURRENCY'],
      [{ toCurrency: 'CAD' }, 'UNSUPPORTED_PAIR'],
      [{ amount: 0n }, 'INVALID_AMOUNT'],
      [{ amount: -5n }, 'INVALID_AMOUNT'],
      [{ fromCurrency: 'NGN', toCurrency: 'USD', amount: 1n }, 'INVALID_AMOUNT'],
      [{ amount: 1_000n }, 'INSUFFICIENT_FUNDS'],
    ];
    for (const [fields, reason] of cases) {
      const error = await swap(businessId, fields).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ reason });
    }
    expect((await balances(businessId)).get('USD')).toMatchObject({ ledger: 1_000n, available: 1_000n });
  });

  it('a reference is used once per business', async () => {
    const businessId = await fundedBusiness('USD', 100_000n);
    await swap(businessId, { reference: 'order-1' });
    await expect(swap(businessId, { reference: 'order-1' })).rejects.toMatchObject({
      reason: 'REFERENCE_ALREADY_USED',
    });
    expect((await balances(businessId)).get('USD')?.ledger).toBe(100_000n - 10_025n);
    await swap(await fundedBusiness('USD', 100_000n), { reference: 'order-1' });
  });

  it('200 concurrent swaps against a wallet that affords exactly 100: 100 succeed, available ends at 0', async () => {
    // Each costs 1,000 + fee 3 (25 bps of 1,000 = 2.5 → 3, half up).
    const businessId = await fundedBusiness('USD', 100n * 1_003n);
    const outcomes = await Promise.allSettled(Array.from({ length: 200 }, () => swap(businessId, { amount: 1_000n })));
    const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(succeeded).toHaveLength(100);
    expect(refused.filter((outcome) => (outcome.reason as DomainError).reason !== 'INSUFFICIENT_FUNDS')).toEqual([]);
    const after = await balances(businessId);
    expect(after.get('USD')).toMatchObject({ ledger: 0n, available: 0n, pending: 0n });
    expect(after.get('NGN')?.ledger).toBe(100n * 1_542_250n);
    expect((await checkLedger(database.em())).ok).toBe(true);
  });
});
