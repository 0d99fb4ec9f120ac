import type { PublicRoute } from '../../floor/route-context.js';
import { BANK_ROUTES } from './bank-routes.js';
import { CATALOGUE_ROUTES } from './catalogue-routes.js';
import { COLLECTION_ROUTES } from './collection-routes.js';
import { CRYPTO_INTERAC_ROUTES } from './crypto-interac-routes.js';
import { PAYOUT_ROUTES } from './payout-routes.js';
import { REFUND_ROUTES } from './refund-routes.js';
import { SANDBOX_ROUTES } from './sandbox-routes.js';
import { TRANSACTION_ROUTES } from './transaction-routes.js';
import { VIRTUAL_ACCOUNT_ROUTES } from './virtual-account-routes.js';
import { WALLET_ROUTES } from './wallet-routes.js';

export { paymentSchemaComponents } from './json-schema.js';

/**
 * Every public route of payments: currencies, rates, fees, wallets, swaps, transactions, payouts,
 * banks, beneficiaries, virtual accounts, collections (crypto and Interac too), refunds and the
 * sandbox simulations.
 */
export const PAYMENT_ROUTES: readonly PublicRoute[] = [
  ...CATALOGUE_ROUTES,
  ...WALLET_ROUTES,
  ...TRANSACTION_ROUTES,
  ...PAYOUT_ROUTES,
  ...BANK_ROUTES,
  ...VIRTUAL_ACCOUNT_ROUTES,
  ...COLLECTION_ROUTES,
  ...CRYPTO_INTERAC_ROUTES,
  ...REFUND_ROUTES,
  ...SANDBOX_ROUTES,
];
