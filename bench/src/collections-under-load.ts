import type { ReceivedWebhook, WebhookReceiver } from '../../packages/testing/dist/index.js';
import { verifyWebhook } from '../../packages/webhook-signature/dist/index.js';
import { COLLECTION_SCOPES, CollectionsApi } from '../../test/dist/support/collections.js';
import type { Platform } from '../../test/dist/support/platform.js';
import type { LoopRequest } from './request-loop.js';

/** £100.00 a transfer: an amount the sandbox treats as ordinary (no magic ending, decision 0014). */
export const COLLECTION_AMOUNT = 100_00;
/**
 * GBP: refunds are for EUR and GBP collections only (seed 4.4), so the refund phase refunds what the
 * collection phase collected. Each wallet is funded besides: a refund pays amount + fee from a wallet
 * credited amount - fee.
 */
export const COLLECTION_CURRENCY = 'GBP';
const FUNDING = 10_000_000_000;

/** A business receiving transfers into a verified customer's GBP account, its webhooks on the bench's receiver. */
export interface Collector {
  businessId: string;
  token: string;
  accountId: string;
  secret: string;
  /** Its collection_url's path on the receiver. */
  path: string;
}

/** The collecting businesses, their transfers and refunds as requests, and their books. */
export interface CollectionsUnderLoad {
  collectors: Collector[];
  receiver: WebhookReceiver;
  funding: number;
  feePerRefund: number;
  /** POST …/sandbox/virtual-account/{id}/incoming-transfer, round-robin over the collectors. */
  transfer(index: number): { collector: Collector; request: LoopRequest };
  /** POST /refund of a collection, its reference its own. */
  refund(collector: Collector, transactionId: string): LoopRequest;
  /** Whether the webhook is signed by the business whose path it reached. */
  signed(hook: ReceivedWebhook): boolean;
  /** Refunds not yet decided by the worker: the GBP wallets' pending balance over amount + fee. */
  unsettledRefunds(): Promise<number>;
  /** The GBP wallets against `nets` (business → sum of nets collected) less `refunds` (business → count). */
  books(nets: Map<string, number>, refunds: Map<string, number>): Promise<CollectionBooks>;
}

export interface CollectionBooks {
  ledgerCheckOk: boolean;
  violations: number;
  /** Businesses whose GBP wallet is not funding + nets - refunds × (amount + fee), or has money pending. */
  wrongWallets: string[];
  moneyConserved: boolean;
}

const SCOPES = [...COLLECTION_SCOPES, 'webhook:write'];

/**
 * A business with `rateLimits`, its receiver path as collection_url, a verified FULL customer's
 * account in `currency`, and its wallet in that currency funded with `funding` when given.
 */
export async function collector(
  platform: Platform,
  api: CollectionsApi,
  receiver: WebhookReceiver,
  index: number,
  options: { rateLimits: { per_minute: number; per_hour: number }; currency: string; funding?: number },
): Promise<Collector> {
  const business = await platform.createBusiness(`Bench Collections ${index + 1}`);
  await platform.patchBusiness(business.id, { rate_limits: options.rateLimits });
  const token = await platform.accessToken(await platform.createCredentials(business.id), SCOPES.join(' '));
  const path = `/c/${index}`;
  const webhook = await api.registerWebhook(token, {
    collection_url: receiver.url(path),
    payout_url: receiver.url(`/p/${index}`),
  });
  const customer = await api.verifiedCustomer(token, 'FULL');
  const account = await api.openWhenKnown(token, customer.id, options.currency);
  if (options.funding !== undefined) await api.fund(business.id, options.currency, options.funding);
  return { businessId: business.id, token, accountId: account.id, secret: webhook.signing_secret ?? '', path };
}

/**
 * `count` businesses, each with a webhook registration on the receiver (notification sends at most
 * 4 webhooks at once per registration, so one business would cap delivery), a verified FULL
 * customer and its GBP virtual account, and a funded GBP wallet.
 */
export async function prepareCollections(
  platform: Platform,
  receiver: WebhookReceiver,
  count: number,
  rateLimits: { per_minute: number; per_hour: number },
): Promise<CollectionsUnderLoad> {
  const api = new CollectionsApi(platform);
  const collectors = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      collector(platform, api, receiver, index, { rateLimits, currency: COLLECTION_CURRENCY, funding: FUNDING }),
    ),
  );
  const [first] = collectors;
  if (!first) throw new Error('no collecting business');
  const { total: feePerRefund } = await api.fees(first.token, 'refund', COLLECTION_CURRENCY, COLLECTION_AMOUNT);
  const byPath = new Map(collectors.map((one) => [one.path, one]));
  const body = JSON.stringify({ amount: COLLECTION_AMOUNT, sender_name: 'Bench Payer' });
  const gbp = async (businessId: string) => {
    const wallet = (await api.adminWallets(businessId)).find((one) => one.currency === COLLECTION_CURRENCY);
    if (!wallet) throw new Error(`business ${businessId} has no ${COLLECTION_CURRENCY} wallet`);
    return wallet;
  };
  return {
    collectors,
    receiver,
    funding: FUNDING,
    feePerRefund,
    transfer(index) {
      const one = collectors[index % collectors.length] ?? first;
      return {
        collector: one,
        request: {
          url: `${platform.publicUrl}/api/external/sandbox/virtual-account/${one.accountId}/incoming-transfer`,
          method: 'POST',
          headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/json' },
          body,
        },
      };
    },
    refund(one, transactionId) {
      return {
        url: `${platform.publicUrl}/api/external/refund`,
        method: 'POST',
        headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          transaction_id: transactionId,
          reason: 'bench refund',
          reference: `rf-${transactionId}`,
        }),
      };
    },
    signed(hook) {
      try {
        verifyWebhook({ secret: byPath.get(hook.path)?.secret ?? '', rawBody: hook.rawBody, headers: hook.headers });
        return true;
      } catch {
        return false;
      }
    },
    async unsettledRefunds() {
      const wallets = await Promise.all(collectors.map((one) => gbp(one.businessId)));
      return wallets.reduce((sum, wallet) => sum + wallet.pending_balance, 0) / (COLLECTION_AMOUNT + feePerRefund);
    },
    async books(nets, refunds) {
      const check = await api.checkLedger();
      const wrongWallets: string[] = [];
      for (const one of collectors) {
        const wallet = await gbp(one.businessId);
        const expected =
          FUNDING +
          (nets.get(one.businessId) ?? 0) -
          (refunds.get(one.businessId) ?? 0) * (COLLECTION_AMOUNT + feePerRefund);
        if (wallet.ledger_balance !== expected || wallet.pending_balance !== 0)
          wrongWallets.push(
            `${one.businessId}: ledger ${wallet.ledger_balance}, pending ${wallet.pending_balance}, expected ${expected}`,
          );
      }
      return {
        ledgerCheckOk: check.ok,
        violations: check.violations.length,
        wrongWallets,
        moneyConserved: wrongWallets.length === 0,
      };
    },
  };
}
