import { RefundStatus, RefundStatusSchema } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { PayoutStatus, PayoutStatusSchema } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { TransactionStatus, TransactionStatusSchema } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { enumNames, enumValueOf, enumWords, word } from './json-values.js';

describe('status words from the proto enums', () => {
  it.each([
    ['PayoutStatus', PayoutStatus, PayoutStatusSchema],
    ['RefundStatus', RefundStatus, RefundStatusSchema],
    ['TransactionStatus', TransactionStatus, TransactionStatusSchema],
  ] as const)(
    '%s: every value but UNSPECIFIED, in the proto’s order, each the word the JSON renders',
    (_, values, schema) => {
      const numbers = schema.values.filter((value) => value.number !== 0).map((value) => value.number);
      expect(enumWords(values)).toEqual(numbers.map((number) => word(values, number, 'status')));
      expect(enumNames(values)).toEqual(enumWords(values).map((w) => w.toUpperCase()));
      expect(enumNames(values).map((name) => enumValueOf(values, name))).toEqual(numbers);
    },
  );

  it('spells them as the tables and the JSON do', () => {
    expect(enumWords(PayoutStatus)).toEqual(['pending', 'processing', 'successful', 'failed', 'reversed']);
    expect(enumNames(TransactionStatus)).toEqual([
      'PENDING',
      'PROCESSING',
      'SUCCESSFUL',
      'FAILED',
      'EXPIRED',
      'REVERSED',
    ]);
  });

  it('knows no word the enum lacks, nor UNSPECIFIED', () => {
    expect(enumValueOf(RefundStatus, 'successful')).toBe(RefundStatus.SUCCESSFUL);
    expect(() => enumValueOf(RefundStatus, 'reversed')).toThrow(RangeError);
    expect(() => enumValueOf(RefundStatus, 'unspecified')).toThrow(RangeError);
  });
});
