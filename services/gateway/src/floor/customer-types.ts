/**
 * The two kinds of customer, as the public JSON spells them: customers' own routes, and payments'
 * identification types, which say the kinds of customer that may use each.
 */
export const CUSTOMER_TYPES = ['individual', 'business'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
