import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionDetailsSchema,
  CollectionFailureCode,
  CollectionMethod,
  CryptoAddressSchema,
  CryptoNetworkSchema,
  IdentificationTypeSchema,
  RefundSchema,
  RefundStatus,
  VirtualAccountCloseReason,
  VirtualAccountSchema,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  collectionDetailsJson,
  cryptoAddressJson,
  cryptoNetworkJson,
  identificationTypeJson,
  refundJson,
  virtualAccountJson,
} from './index.js';

/** The public JSON of issue 11's resources, as the gateway answers it and the collection webhooks send it. */

const CREATED = new Date('2026-11-21T09:00:00.000Z');
const DONE = new Date('2026-11-21T09:05:00.000Z');
const at = timestampFromDate;

const account = () =>
  create(VirtualAccountSchema, {
    id: 'va-1',
    customerId: 'cus-1',
    currency: 'GBP',
    status: VirtualAccountStatus.ACTIVE,
    accountName: 'Oliver Smith',
    accountNumber: 'GB33BUKB20201555555555',
    bankName: 'Corridor Sandbox Bank',
    bankCode: 'SBXBGB2L',
    createdAt: at(CREATED),
  });

describe('virtualAccountJson', () => {
  it('renders an open account with closed_at and close_reason null', () => {
    expect(virtualAccountJson(account())).toEqual({
      id: 'va-1',
      customer_id: 'cus-1',
      currency: 'GBP',
      status: 'active',
      account_name: 'Oliver Smith',
      account_number: 'GB33BUKB20201555555555',
      bank_name: 'Corridor Sandbox Bank',
      bank_code: 'SBXBGB2L',
      created_at: CREATED.toISOString(),
      closed_at: null,
      close_reason: null,
    });
  });

  it('renders a closed account with when and why in lowercase words', () => {
    const closed = account();
    closed.status = VirtualAccountStatus.CLOSED;
    closed.closedAt = at(DONE);
    closed.closeReason = VirtualAccountCloseReason.CUSTOMER_REJECTED;
    expect(virtualAccountJson(closed)).toMatchObject({
      status: 'closed',
      closed_at: DONE.toISOString(),
      close_reason: 'customer_rejected',
    });
  });

  it('refuses what the contract cannot show: an UNSPECIFIED status, no created_at', () => {
    const unset = account();
    unset.status = VirtualAccountStatus.UNSPECIFIED;
    expect(() => virtualAccountJson(unset)).toThrow(/status 0 has no public word/);
    const undated = account();
    undated.createdAt = undefined;
    expect(() => virtualAccountJson(undated)).toThrow(/created_at is missing/);
  });
});

describe('identificationTypeJson', () => {
  it('renders the customer types as a plain array and "" for any country', () => {
    const type = create(IdentificationTypeSchema, {
      code: 'PASSPORT',
      name: 'International passport',
      country: '',
      customerTypes: ['individual', 'business'],
    });
    expect(identificationTypeJson(type)).toEqual({
      code: 'PASSPORT',
      name: 'International passport',
      country: '',
      customer_types: ['individual', 'business'],
    });
  });
});

describe('collectionDetailsJson', () => {
  const moneyRequest = () =>
    create(CollectionDetailsSchema, {
      method: CollectionMethod.MONEY_REQUEST,
      customerId: 'cus-1',
      description: 'Order 77',
      redirectUrl: 'https://shop.example/return',
      paymentToken: 'secret-token-of-the-payer',
      expiresAt: at(DONE),
      railReference: 'SBX-MR-1',
    });

  it('renders a money request with the link it is given, never the payment token', () => {
    const rendered = collectionDetailsJson(moneyRequest(), 'https://api.example/pay/secret-token-of-the-payer');
    expect(rendered).toEqual({
      method: 'money_request',
      customer_id: 'cus-1',
      virtual_account_id: null,
      sender_name: null,
      description: 'Order 77',
      redirect_url: 'https://shop.example/return',
      payment_link: 'https://api.example/pay/secret-token-of-the-payer',
      expires_at: DONE.toISOString(),
      completed_at: null,
      failure_reason: null,
      rail_reference: 'SBX-MR-1',
      payer_email: null,
      crypto: null,
    });
    expect(Object.keys(rendered)).not.toContain('payment_token');
    expect(JSON.stringify(collectionDetailsJson(moneyRequest(), null))).not.toContain('secret-token-of-the-payer');
  });

  it.each([
    [CollectionFailureCode.ACCOUNT_CLOSED, 'account_closed'],
    [CollectionFailureCode.DECLINED_BY_PAYER, 'declined_by_payer'],
    [CollectionFailureCode.REJECTED_BY_BANK, 'rejected_by_bank'],
  ])('renders failure code %s as %s', (code, word) => {
    const details = moneyRequest();
    details.failureCode = code;
    expect(collectionDetailsJson(details, null).failure_reason).toBe(word);
  });

  it('renders a bank transfer with its account and sender', () => {
    const transfer = create(CollectionDetailsSchema, {
      method: CollectionMethod.BANK_TRANSFER,
      customerId: 'cus-1',
      virtualAccountId: 'va-1',
      senderName: 'Chidi Eze',
      completedAt: at(DONE),
      railReference: 'SBX-IN-1',
    });
    expect(collectionDetailsJson(transfer, null)).toMatchObject({
      method: 'bank_transfer',
      virtual_account_id: 'va-1',
      sender_name: 'Chidi Eze',
      payment_link: null,
      expires_at: null,
      completed_at: DONE.toISOString(),
    });
  });
});

describe('collectionDetailsJson of crypto and Interac (decision 0015)', () => {
  it('renders a crypto deposit with what arrived on chain, asset_amount as the decimal string sent', () => {
    const deposit = create(CollectionDetailsSchema, {
      method: CollectionMethod.CRYPTO_DEPOSIT,
      customerId: 'cus-1',
      railReference: '0xabc',
      crypto: {
        addressId: 'addr-1',
        asset: 'USDT',
        network: 'TRON',
        address: 'TXYZabc',
        // Past 2^53: an 18-decimal asset's amount must survive as text.
        assetAmount: '250000000000000000000',
        txHash: '0xabc',
        confirmations: 3,
        confirmationsRequired: 20,
      },
    });
    expect(collectionDetailsJson(deposit, null)).toMatchObject({
      method: 'crypto_deposit',
      payer_email: null,
      payment_link: null,
      crypto: {
        address_id: 'addr-1',
        asset: 'USDT',
        network: 'TRON',
        address: 'TXYZabc',
        asset_amount: '250000000000000000000',
        tx_hash: '0xabc',
        confirmations: 3,
        confirmations_required: 20,
      },
    });
  });

  it.each([
    [CollectionMethod.INTERAC_REQUEST, 'interac_request'],
    [CollectionMethod.INTERAC_TRANSFER, 'interac_transfer'],
  ])('renders Interac method %s as %s with the payer’s email and crypto null', (method, word) => {
    const interac = create(CollectionDetailsSchema, {
      method,
      customerId: 'cus-1',
      payerEmail: 'accounts@payer.example.ca',
      expiresAt: at(DONE),
    });
    expect(collectionDetailsJson(interac, null)).toMatchObject({
      method: word,
      payer_email: 'accounts@payer.example.ca',
      crypto: null,
    });
  });
});

describe('cryptoNetworkJson and cryptoAddressJson', () => {
  it('renders a network with its standard, decimals, confirmations and settlement currency', () => {
    const network = create(CryptoNetworkSchema, {
      asset: 'USDC',
      network: 'SOLANA',
      standard: 'SPL',
      decimals: 6,
      confirmationsRequired: 1,
      settlementCurrency: 'USD',
    });
    expect(cryptoNetworkJson(network)).toEqual({
      asset: 'USDC',
      network: 'SOLANA',
      standard: 'SPL',
      decimals: 6,
      confirmations_required: 1,
      settlement_currency: 'USD',
    });
  });

  it('renders an address, and refuses one without created_at', () => {
    const address = create(CryptoAddressSchema, {
      id: 'addr-1',
      customerId: 'cus-1',
      asset: 'USDT',
      network: 'ETHEREUM',
      address: '0x52908400098527886e0f7030069857d2e4169ee7',
      createdAt: at(CREATED),
    });
    expect(cryptoAddressJson(address)).toEqual({
      id: 'addr-1',
      customer_id: 'cus-1',
      asset: 'USDT',
      network: 'ETHEREUM',
      address: '0x52908400098527886e0f7030069857d2e4169ee7',
      created_at: CREATED.toISOString(),
    });
    address.createdAt = undefined;
    expect(() => cryptoAddressJson(address)).toThrow(/created_at is missing/);
  });
});

describe('refundJson', () => {
  const processing = () =>
    create(RefundSchema, {
      id: 'rf-1',
      transactionId: 'col-1',
      status: RefundStatus.PROCESSING,
      amount: 15_000n,
      currency: 'EUR',
      createdAt: at(CREATED),
      updatedAt: at(CREATED),
    });

  it('renders a processing refund, absent optionals as null', () => {
    expect(refundJson(processing())).toEqual({
      id: 'rf-1',
      transaction_id: 'col-1',
      status: 'processing',
      amount: 15_000,
      currency: 'EUR',
      reason: null,
      reference: null,
      failure_reason: null,
      created_at: CREATED.toISOString(),
      updated_at: CREATED.toISOString(),
      completed_at: null,
    });
  });

  it('renders a failed refund with the bank’s reason', () => {
    const failed = processing();
    failed.status = RefundStatus.FAILED;
    failed.failureReason = 'account closed';
    failed.completedAt = at(DONE);
    expect(refundJson(failed)).toMatchObject({
      status: 'failed',
      failure_reason: 'account closed',
      completed_at: DONE.toISOString(),
    });
  });

  it('refuses an amount JSON cannot carry exactly', () => {
    const huge = processing();
    huge.amount = 2n ** 53n;
    expect(() => refundJson(huge)).toThrow(/beyond the exact range/);
  });
});
