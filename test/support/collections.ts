import { createHash, X509Certificate } from 'node:crypto';
import { eventually, MachineClock, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import {
  businessBody,
  jsonOf,
  ownerBody,
  PDF_BYTES,
  PNG_BYTES,
  type CustomerJson,
  type UploadJson,
} from './customers.js';
import { PaymentsApi, type TransactionJson } from './payments.js';
import { nuban } from './payouts.js';
import type { WebhookJson } from './webhooks.js';

/** What a collections journey asks of one token: its customers, their accounts, money in and refunds. */
export const COLLECTION_SCOPES = [
  'customer:read',
  'customer:write',
  'file:upload',
  'virtual-account:read',
  'virtual-account:create',
  'virtual-account:close',
  'collection:create',
  'refund:create',
  'refund:read',
  'transaction:read',
  'wallet:read',
  'fees:read',
] as const;

/** payments' environment for the collection suites: money requests expire in 4 s, swept every 200 ms. */
export const COLLECTION_TIMINGS = {
  COLLECTION_EXPIRY_MS: '4000',
  COLLECTION_SWEEP_INTERVAL_MS: '200',
  SANDBOX_RAIL_SETTLE_MS: '300',
} as const;

export interface VirtualAccountJson {
  id: string;
  customer_id: string;
  currency: string;
  status: 'active' | 'closed';
  account_name: string;
  account_number: string;
  bank_name: string;
  bank_code: string;
  created_at: string;
  closed_at: string | null;
  close_reason: null | 'requested' | 'customer_rejected';
}

export interface CollectionDetailsJson {
  method: 'bank_transfer' | 'money_request';
  customer_id: string;
  virtual_account_id: string | null;
  sender_name: string | null;
  description: string | null;
  redirect_url: string | null;
  payment_link: string | null;
  expires_at: string | null;
  completed_at: string | null;
  failure_reason: null | 'account_closed' | 'declined_by_payer' | 'rejected_by_bank';
  rail_reference: string;
}

export interface RefundJson {
  id: string;
  transaction_id: string;
  status: 'processing' | 'successful' | 'failed';
  amount: number;
  currency: string;
  reason: string | null;
  reference: string | null;
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** A transaction with what issue 11 adds; `refund` only on a single read by a token with refund:read. */
export interface CollectionTransactionJson extends TransactionJson {
  collection_details: CollectionDetailsJson | null;
  refund_details: RefundJson | null;
  refund?: RefundJson | null;
}

/** The `{event, data}` of a collection webhook (facts: decisions 0010, 0014; seed 6.3). */
export interface CollectionWebhookBody {
  event: 'collection.successful' | 'collection.failed' | 'collection.expired';
  data: {
    transaction_id: string;
    business_id: string;
    transaction_status: 'SUCCESSFUL' | 'FAILED' | 'EXPIRED';
    message: string;
    method: CollectionDetailsJson['method'];
    customer_id: string;
    virtual_account_id: string | null;
    sender_name: string | null;
    description: string | null;
    reference: string | null;
    amount: number;
    fee: number;
    net: number;
    currency: string;
    failure_reason: string | null;
    created_at: string;
    completed_at: string | null;
    expired_at: string | null;
  };
}

/** The `{event, data}` of a refund webhook: `refund_initiated`, then `refund` (seed 3.5, 6.3). */
export interface RefundWebhookBody {
  event: 'refund_initiated' | 'refund';
  data: {
    refund_id: string;
    transaction_id: string;
    business_id: string;
    reference: string | null;
    reason: string | null;
    type: 'refund_initiated' | 'refund';
    status: RefundJson['status'];
    amount: number;
    currency: string;
    failure_reason: string | null;
    created_at: string;
    completed_at: string | null;
  };
}

/** A collection webhook about this transaction (undefined for any other body). */
export function collectionHookOf(request: ReceivedWebhook, transactionId: string): CollectionWebhookBody | undefined {
  const body = request.json as Partial<CollectionWebhookBody> | undefined;
  return body?.event?.startsWith('collection.') && body.data?.transaction_id === transactionId
    ? (body as CollectionWebhookBody)
    : undefined;
}

/** A refund webhook about this refund (undefined for any other body). */
export function refundHookOf(request: ReceivedWebhook, refundId: string): RefundWebhookBody | undefined {
  const body = request.json as Partial<RefundWebhookBody> | undefined;
  return (body?.event === 'refund_initiated' || body?.event === 'refund') && body.data?.refund_id === refundId
    ? (body as RefundWebhookBody)
    : undefined;
}

// --- crypto collections and Interac (issue 11, decision 0015) -------------------------------------

/** What a crypto and Interac journey asks of one token, besides its customers. */
export const CRYPTO_INTERAC_SCOPES = [
  'customer:read',
  'customer:write',
  'collection:create',
  'collection:crypto:create',
  'collection:interac:create',
  'collection:interac:accept',
  'transaction:read',
  'wallet:read',
] as const;

export interface CryptoNetworkJson {
  asset: string;
  network: string;
  standard: string;
  decimals: number;
  confirmations_required: number;
  settlement_currency: string;
}

export interface CryptoAddressJson {
  id: string;
  customer_id: string;
  asset: string;
  network: string;
  address: string;
  created_at: string;
}

/** `collection_details.crypto` of a crypto deposit (and of its webhook's data). */
export interface CryptoDepositJson {
  address_id: string;
  asset: string;
  network: string;
  address: string;
  asset_amount: string;
  tx_hash: string;
  confirmations: number;
  confirmations_required: number;
}

/** The methods and fields decision 0015 adds to `collection_details`. */
export interface MoneyInDetailsJson extends Omit<CollectionDetailsJson, 'method'> {
  method: CollectionDetailsJson['method'] | 'crypto_deposit' | 'interac_request' | 'interac_transfer';
  payer_email: string | null;
  crypto: CryptoDepositJson | null;
}

/** A collection transaction with decision 0015's details. */
export interface MoneyInTransactionJson extends Omit<CollectionTransactionJson, 'collection_details'> {
  collection_details: MoneyInDetailsJson | null;
}

/** A collection webhook's `{event, data}` with decision 0015's fields. */
export interface MoneyInWebhookBody extends Omit<CollectionWebhookBody, 'data'> {
  data: Omit<CollectionWebhookBody['data'], 'method'> & {
    method: MoneyInDetailsJson['method'];
    payer_email: string | null;
    crypto: CryptoDepositJson | null;
  };
}

/** A 10-digit NUBAN whose check digit holds for the bank (computed in payouts.ts, apart from payments). */
export const nubanIsValid = (bankCode: string, accountNumber: string) =>
  /^\d{10}$/.test(accountNumber) && nuban(bankCode, accountNumber.slice(0, 9)) === accountNumber;

/** ISO 13616: the country and check digits moved to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanIsValid(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  return BigInt(digits) % 97n === 1n;
}

/**
 * Chromium's flag trusting only the test CA's server key (its SPKI hash): the payer's browser reaches
 * the business's HTTPS redirect_url on 127.0.0.1 without ignoring every certificate error.
 */
export function trustedKeyFlag(certificates: TestCertificates): string {
  const spki = new X509Certificate(certificates.certPem).publicKey.export({ type: 'spki', format: 'der' });
  return `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`;
}

/** A 422 while payments' customer projection has not caught up with customer-kyb's events. */
const PROJECTION_LAGS = ['CUSTOMER_NOT_FOUND', 'CUSTOMER_NOT_VERIFIED'];

/**
 * The collection routes (issue 11) and the customers they need, through a platform's gateway. Every
 * helper throws instead of using jest's expect: the collections bench runs them outside jest.
 */
export class CollectionsApi extends PaymentsApi {
  // --- customers (customer-kyb) -------------------------------------------------------------------

  /** A business customer, MINIMAL (the business must be allow-listed) or FULL with one owner, verified. */
  async verifiedCustomer(token: string, scope: 'MINIMAL' | 'FULL'): Promise<CustomerJson> {
    return this.verify(await this.submittedCustomer(token, scope));
  }

  /** A business customer with every file and document it needs, submitted: under review. */
  async submittedCustomer(
    token: string,
    scope: 'MINIMAL' | 'FULL',
    extra: Record<string, unknown> = {},
  ): Promise<CustomerJson> {
    const body = scope === 'FULL' ? { kyb_scope: 'FULL', owners: [ownerBody()] } : { kyb_scope: 'MINIMAL' };
    const created = await this.createCustomer(token, businessBody({ ...body, ...extra }));
    await this.attachOwnerFiles(token, created);
    await this.registerDocument(token, created.id);
    return this.submit(token, created.id);
  }

  /** seed 4.2 then 3.1: a VERIFIED MINIMAL customer upgraded to FULL (one owner), submitted and verified again. */
  async upgradeAndVerify(token: string, customerId: string): Promise<CustomerJson> {
    const upgraded = await this.customerData<CustomerJson>(
      token,
      'POST',
      `/customer/${customerId}/upgrade-kyb-scope`,
      { owners: [ownerBody()] },
      200,
    );
    await this.attachOwnerFiles(token, upgraded);
    return this.verify(await this.submit(token, customerId));
  }

  async createCustomer(token: string, body: Record<string, unknown>): Promise<CustomerJson> {
    return this.customerData(token, 'POST', '/customer', body, 201);
  }

  async submit(token: string, customerId: string): Promise<CustomerJson> {
    return this.customerData(token, 'POST', `/customer/${customerId}/submit`, undefined, 200);
  }

  /** The back office approves everything under review with the verdict VERIFIED (decision 0008). */
  async verify(customer: CustomerJson): Promise<CustomerJson> {
    const approve = (items: { id: string; status: string }[]) =>
      items.filter((item) => item.status === 'PROCESSING').map((item) => ({ id: item.id, status: 'APPROVED' }));
    const answer = await this.admin<{ data?: CustomerJson } & Partial<CustomerJson>>(
      'POST',
      `/admin/customers/${customer.id}/review`,
      { owners: approve(customer.owners), documents: approve(customer.documents), verdict: 'VERIFIED' },
      200,
      'review',
    );
    const verified = (answer.data ?? answer) as CustomerJson;
    if (verified.verification_status !== 'VERIFIED') throw new Error(`review left ${customer.id} unverified`);
    return verified;
  }

  private async customerData<T>(token: string, method: string, path: string, body: unknown, status: number) {
    return this.data<T>(await this.call(token, method, path, body), status, `${method} ${path}`);
  }

  /** presigned URL → PUT the bytes → the file id. */
  private async upload(token: string, presignPath: string, body: Record<string, unknown>, bytes: Buffer) {
    const upload = await this.customerData<UploadJson>(
      token,
      'POST',
      presignPath,
      { ...body, content_length: bytes.length },
      201,
    );
    const stored = await fetch(upload.upload_url, { method: upload.method, headers: upload.headers, body: bytes });
    if (stored.status !== 200) throw new Error(`upload to storage: ${stored.status} ${await stored.text()}`);
    return upload.file_id;
  }

  private async registerDocument(token: string, customerId: string): Promise<void> {
    const path = `/customer/${customerId}/document`;
    const fileId = await this.upload(token, `${path}/presigned-url`, { content_type: 'application/pdf' }, PDF_BYTES);
    await this.customerData(token, 'POST', path, { type: 'CERTIFICATE_OF_INCORPORATION', file_id: fileId }, 201);
  }

  /** Each owner's passport front (ownerBody's owners hold passports: one slot). */
  private async attachOwnerFiles(token: string, customer: CustomerJson): Promise<void> {
    for (const owner of customer.owners) {
      const path = `/customer/${customer.id}/owner/${owner.id}`;
      const slot = 'id_document_front';
      const fileId = await this.upload(
        token,
        `${path}/file/presigned-url`,
        { slot, content_type: 'image/png' },
        PNG_BYTES,
      );
      await this.customerData(token, 'POST', `${path}/files`, { slot, file_id: fileId }, 200);
    }
  }

  /** POST /webhook (201): the registration with its signing secret. */
  async registerWebhook(token: string, urls: Record<string, string>): Promise<WebhookJson> {
    return this.data(await this.call(token, 'POST', '/webhook', urls), 201, 'register webhook');
  }

  // --- virtual accounts -------------------------------------------------------------------------

  virtualAccountResponse(token: string, customerId: string, currency: string): Promise<Response> {
    return this.call(token, 'POST', '/virtual-account', { customer_id: customerId, currency });
  }

  async openVirtualAccount(token: string, customerId: string, currency: string): Promise<VirtualAccountJson> {
    return this.data(await this.virtualAccountResponse(token, customerId, currency), 201, `open ${currency} account`);
  }

  /**
   * Opens an account once payments' projection knows the customer as verified: customer-kyb's events
   * reach it through Kafka, so a verdict just given may still answer `lagging` codes for a moment.
   */
  async openWhenKnown(
    token: string,
    customerId: string,
    currency: string,
    lagging: readonly string[] = PROJECTION_LAGS,
    timeoutMs = 15_000,
  ): Promise<VirtualAccountJson> {
    return this.untilNot(lagging, () => this.virtualAccountResponse(token, customerId, currency), timeoutMs);
  }

  async virtualAccount(token: string, id: string): Promise<VirtualAccountJson> {
    return this.data(await this.call(token, 'GET', `/virtual-account/${id}`), 200, `virtual account ${id}`);
  }

  async virtualAccounts(token: string, query = ''): Promise<{ data: VirtualAccountJson[] }> {
    return jsonOf(await this.call(token, 'GET', `/virtual-account${query ? `?${query}` : ''}`), 200, 'accounts');
  }

  async closeVirtualAccount(token: string, id: string): Promise<VirtualAccountJson> {
    return this.data(await this.call(token, 'POST', `/virtual-account/${id}/close`), 200, `close ${id}`);
  }

  // --- money in -----------------------------------------------------------------------------------

  incomingTransferResponse(token: string, accountId: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', `/sandbox/virtual-account/${accountId}/incoming-transfer`, body);
  }

  /** Sandbox: a bank transfer arrives in the account (201: the collection, SUCCESSFUL or FAILED). */
  async incomingTransfer(
    token: string,
    accountId: string,
    body: { amount: number; sender_name: string },
  ): Promise<CollectionTransactionJson> {
    return this.data(await this.incomingTransferResponse(token, accountId, body), 201, 'incoming transfer');
  }

  collectionResponse(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/collection', body);
  }

  /** POST /collection (201): a PENDING money request with its payment link. */
  async moneyRequest(token: string, body: Record<string, unknown>): Promise<CollectionTransactionJson> {
    return this.data(await this.collectionResponse(token, body), 201, 'money request');
  }

  /** A money request once payments' projection knows the customer (it needs no verification). */
  async moneyRequestWhenKnown(token: string, body: Record<string, unknown>): Promise<CollectionTransactionJson> {
    return this.untilNot(['CUSTOMER_NOT_FOUND'], () => this.collectionResponse(token, body), 15_000);
  }

  async collection(token: string, id: string): Promise<CollectionTransactionJson> {
    return this.data(await this.call(token, 'GET', `/collection/${id}`), 200, `collection ${id}`);
  }

  // --- refunds --------------------------------------------------------------------------------------

  refundResponse(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/refund', body);
  }

  /** POST /refund: 201 for a new refund, 200 for the one this reference already names. */
  async refund(token: string, body: Record<string, unknown>, status: 200 | 201 = 201): Promise<RefundJson> {
    return this.data(await this.refundResponse(token, body), status, 'refund');
  }

  async getRefund(token: string, id: string): Promise<RefundJson> {
    return this.data(await this.call(token, 'GET', `/refund/${id}`), 200, `refund ${id}`);
  }

  /** GET /transaction/{id} with what issue 11 adds (and `refund` when the token has refund:read). */
  async collectionTransaction(token: string, id: string): Promise<CollectionTransactionJson> {
    return this.data(await this.call(token, 'GET', `/transaction/${id}`), 200, `transaction ${id}`);
  }

  /** Polls GET /transaction/{id} until `accept` holds; the last one read. */
  async transactionWhen(
    token: string,
    id: string,
    accept: (transaction: CollectionTransactionJson) => boolean,
    timeoutMs = 30_000,
  ): Promise<CollectionTransactionJson> {
    return eventually(
      async () => {
        const transaction = await this.collectionTransaction(token, id);
        if (!accept(transaction)) throw new Error(`transaction ${id} is not there yet: ${JSON.stringify(transaction)}`);
        return transaction;
      },
      timeoutMs,
      200,
    );
  }

  // --- crypto collections and Interac (decision 0015) -----------------------------------------------

  async cryptoNetworks(token: string): Promise<CryptoNetworkJson[]> {
    return this.data(await this.call(token, 'GET', '/collection/crypto/networks'), 200, 'crypto networks');
  }

  cryptoAddressResponse(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/collection/crypto/address', body);
  }

  /** POST /collection/crypto/address: 201 for a new address, 200 for the one the customer already has. */
  async cryptoAddress(
    token: string,
    body: { customer_id: string; asset: string; network: string },
    status: 200 | 201 = 201,
  ): Promise<CryptoAddressJson> {
    return this.data(await this.cryptoAddressResponse(token, body), status, `${body.asset} address`);
  }

  /** A new deposit address once payments' projection knows the customer. */
  async cryptoAddressWhenKnown(
    token: string,
    body: { customer_id: string; asset: string; network: string },
  ): Promise<CryptoAddressJson> {
    return this.untilNot(['CUSTOMER_NOT_FOUND'], () => this.cryptoAddressResponse(token, body), 15_000);
  }

  cryptoDepositResponse(token: string, addressId: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', `/sandbox/collection/crypto/address/${addressId}/deposit`, body);
  }

  /** Sandbox: a deposit arrives at the address (201: the collection, PROCESSING). */
  async cryptoDeposit(token: string, addressId: string, assetAmount: string): Promise<MoneyInTransactionJson> {
    const response = await this.cryptoDepositResponse(token, addressId, { asset_amount: assetAmount });
    return this.data(response, 201, 'crypto deposit');
  }

  interacRequestResponse(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/collection/interac', body);
  }

  /** POST /collection/interac (201: PENDING) once payments' projection knows the customer. */
  async interacRequestWhenKnown(token: string, body: Record<string, unknown>): Promise<MoneyInTransactionJson> {
    return this.untilNot(['CUSTOMER_NOT_FOUND'], () => this.interacRequestResponse(token, body), 15_000);
  }

  interacIncomingResponse(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/sandbox/collection/interac/incoming', body);
  }

  /** Sandbox: an e-Transfer arrives for the business (201: PENDING), once the customer is known. */
  async interacIncomingWhenKnown(token: string, body: Record<string, unknown>): Promise<MoneyInTransactionJson> {
    return this.untilNot(['CUSTOMER_NOT_FOUND'], () => this.interacIncomingResponse(token, body), 15_000);
  }

  acceptInteracResponse(token: string, id: string): Promise<Response> {
    return this.call(token, 'POST', `/collection/interac/${id}/accept`);
  }

  /** POST /collection/interac/{id}/accept (200: SUCCESSFUL). */
  async acceptInterac(token: string, id: string): Promise<MoneyInTransactionJson> {
    return this.data(await this.acceptInteracResponse(token, id), 200, `accept ${id}`);
  }

  /** GET /transaction/{id} of a collection, typed with decision 0015's details. */
  async moneyInTransaction(token: string, id: string): Promise<MoneyInTransactionJson> {
    return this.data(await this.call(token, 'GET', `/transaction/${id}`), 200, `transaction ${id}`);
  }

  /** Repeats a 201 call while it answers 422 with one of `codes`; any other answer ends it. */
  private async untilNot<T>(codes: readonly string[], call: () => Promise<Response>, timeoutMs: number): Promise<T> {
    const clock = new MachineClock();
    for (;;) {
      const response = await call();
      const text = await response.text();
      if (response.status === 201) return (JSON.parse(text) as { data: T }).data;
      const code = response.status === 422 ? (JSON.parse(text) as { code?: string }).code : undefined;
      if (!code || !codes.includes(code) || clock.passed(timeoutMs))
        throw new Error(`expected 201, got ${response.status} ${text}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
