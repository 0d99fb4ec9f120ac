import { invalidArgument } from '@corridor/grpc';

/** 422 INSUFFICIENT_FUNDS of an operation taking `amount` + `fee` from the `currency` wallet (applyTransfers' shortBalance). */
export const shortBalance = (currency: string, amount: bigint, fee: bigint) => () =>
  invalidArgument(
    `the ${currency} wallet's available balance is less than ${amount + fee} (amount ${amount} + fee ${fee}, in minor units)`,
    { amount: ['exceeds the available balance with the fee'] },
    'INSUFFICIENT_FUNDS',
  );
