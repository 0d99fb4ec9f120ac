import type { PublicRoute } from '../routes.js';
import { BANK_ROUTES } from './bank-routes.js';
import { CATALOGUE_ROUTES } from './catalogue-routes.js';
import { PAYOUT_ROUTES } from './payout-routes.js';
import { TRANSACTION_ROUTES } from './transaction-routes.js';
import { WALLET_ROUTES } from './wallet-routes.js';

export { paymentSchemaComponents } from './json-schema.js';

/** Every public route of payments: currencies, rates, fees, wallets, swaps, transactions, payouts, banks, beneficiaries. */
export const PAYMENT_ROUTES: readonly PublicRoute[] = [
  ...CATALOGUE_ROUTES,
  ...WALLET_ROUTES,
  ...TRANSACTION_ROUTES,
  ...PAYOUT_ROUTES,
  ...BANK_ROUTES,
];
