import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { z } from '@corridor/config';
import {
  AccountScheme,
  AccountSchemeSchema,
  BankSchema,
  PayoutDestinationSchema,
  PayoutFailureCodeSchema,
  PayoutStatus,
  PayoutStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { bankJson, beneficiaryJson, destinationJson, payoutJson } from '@corridor/payments-json';
import {
  banks,
  beneficiary,
  BENEFICIARY_ID,
  BENEFICIARY_JSON,
  PAYOUT_JSON,
  payoutTransaction,
} from '../../../test/public/payments/payout.fixtures.js';
import { bankOf, destinationOf, payoutOf } from './payout-render.js';
import { Bank, Beneficiary, Payout, PayoutDestination } from './payout-responses.js';

/**
 * The documented schemas against @corridor/payments-json, the one renderer of payout JSON: what it
 * renders is what the OpenAPI document promises, field for field and word for word.
 */

// Compile-time half: the renderer's fields and the schema's are the same names.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const sameFields: [
  SameKeys<ReturnType<typeof payoutJson>, z.output<typeof Payout>>,
  SameKeys<ReturnType<typeof bankJson>, z.output<typeof Bank>>,
  SameKeys<ReturnType<typeof beneficiaryJson>, z.output<typeof Beneficiary>>,
  SameKeys<ReturnType<typeof destinationJson>, z.output<typeof PayoutDestination>>,
] = [true, true, true, true];

const DONE = new Date('2026-11-21T09:00:03.000Z');
const RETURNED = new Date('2026-11-21T09:00:05.000Z');
const named = <T extends { number: number }>(values: readonly T[]) => values.filter(({ number }) => number !== 0);

describe('the payout JSON schemas against @corridor/payments-json', () => {
  it('hold the same fields as the renderer', () => {
    expect(sameFields).toEqual([true, true, true, true]);
  });

  it('a pending payout renders as the contract writes it, and the schema accepts it', () => {
    const rendered = payoutJson(payoutTransaction());
    expect(rendered).toEqual(PAYOUT_JSON);
    expect(Payout.safeParse(rendered).error).toBeUndefined();
  });

  it.each(named(PayoutStatusSchema.values))('a payout with status %s renders within the schema', ({ number }) => {
    const rendered = payoutJson(
      payoutTransaction({ status: number, completedAt: timestampFromDate(DONE), beneficiaryId: BENEFICIARY_ID }),
    );
    expect(Payout.safeParse(rendered).error).toBeUndefined();
  });

  it.each(named(PayoutFailureCodeSchema.values))('a payout failed as %s renders within the schema', ({ number }) => {
    const rendered = payoutJson(
      payoutTransaction({
        status: PayoutStatus.REVERSED,
        failureCode: number,
        completedAt: timestampFromDate(DONE),
        reversedAt: timestampFromDate(RETURNED),
      }),
    );
    expect(rendered).toMatchObject({ status: 'reversed', completed_at: DONE.toISOString() });
    expect(Payout.safeParse(rendered).error).toBeUndefined();
  });

  it.each(named(AccountSchemeSchema.values))('a bank of scheme %s renders within the schema', ({ number }) => {
    const bank = create(BankSchema, { code: '058', name: 'GTBank', country: 'NG', currency: 'NGN', scheme: number });
    expect(Bank.safeParse(bankJson(bank)).error).toBeUndefined();
  });

  it('a beneficiary and a looked-up account render within their schemas, a never-used one with last_used_at null', () => {
    expect(beneficiaryJson(beneficiary())).toEqual(BENEFICIARY_JSON);
    expect(Beneficiary.safeParse(beneficiaryJson(beneficiary())).error).toBeUndefined();
    const unused = beneficiaryJson(beneficiary({ lastUsedAt: undefined }));
    expect(unused.last_used_at).toBeNull();
    expect(Beneficiary.safeParse(unused).error).toBeUndefined();
    const account = create(PayoutDestinationSchema, {
      bankCode: '040004',
      bankName: 'Monzo Bank',
      accountNumber: '12345678',
      accountName: 'Oliver Smith',
      currency: 'GBP',
    });
    expect(PayoutDestination.safeParse(destinationJson(account)).error).toBeUndefined();
  });

  it('renders the banks’ schemes in the words of the contract', () => {
    expect(banks().map((bank) => bankOf(bank).scheme)).toEqual(['nuban', 'sort_code', 'iban', 'aba']);
  });

  it('refuses to answer what the schema does not promise: an UNSPECIFIED status, a missing timestamp, no destination', () => {
    expect(() => payoutOf({ transaction: payoutTransaction({ status: PayoutStatus.UNSPECIFIED }) })).toThrow(/status/);
    expect(() => payoutOf({ transaction: payoutTransaction({ failureCode: 0 }) })).toThrow(/failure_reason/);
    const undated = payoutTransaction();
    undated.createdAt = undefined;
    expect(() => payoutOf({ transaction: undated })).toThrow(/created_at/);
    expect(() => payoutOf({ transaction: payoutTransaction({ destination: undefined }) })).toThrow(/destination/);
    const unnumbered = create(BankSchema, { code: '058', name: 'GTBank', country: 'NG', currency: 'NGN' });
    expect(unnumbered.scheme).toBe(AccountScheme.UNSPECIFIED);
    expect(() => bankOf(unnumbered)).toThrow(/scheme/);
    expect(() => destinationOf({})).toThrow(/no destination/);
    expect(() => payoutOf({})).toThrow(/no transaction/);
  });
});
