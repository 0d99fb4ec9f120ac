import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CryptoAddressSchema,
  CryptoNetworkSchema,
  type CryptoAddress,
  type CryptoNetwork,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { requireCustomer } from '../customers/customer-projection.js';
import { dateOf, eachInItsOwnTransaction, int8, sql, type Row } from '../ledger/index.js';
import { changeTransactionStatus } from '../transactions/transaction-store.js';
import { collectionFee, creditCollection, recordCollection, requireSandbox } from './collect.js';

/**
 * Crypto collections (decision 0015): stablecoin deposits to a customer's address, credited 1:1 to
 * the business's USD wallet once the network has confirmed them. The sandbox rail makes the addresses
 * and the blocks.
 */

const NETWORKS: readonly CryptoNetwork[] = [
  { asset: 'USDT', network: 'TRON', standard: 'TRC-20', decimals: 6, confirmationsRequired: 20 },
  { asset: 'USDT', network: 'ETHEREUM', standard: 'ERC-20', decimals: 6, confirmationsRequired: 12 },
  { asset: 'USDC', network: 'ETHEREUM', standard: 'ERC-20', decimals: 6, confirmationsRequired: 12 },
  { asset: 'USDC', network: 'POLYGON', standard: 'ERC-20', decimals: 6, confirmationsRequired: 32 },
  { asset: 'USDC', network: 'SOLANA', standard: 'SPL', decimals: 6, confirmationsRequired: 1 },
].map((network) => create(CryptoNetworkSchema, { ...network, settlementCurrency: 'USD' }));

export const cryptoNetworks = (): readonly CryptoNetwork[] => NETWORKS;

function requireNetwork(asset: string, network: string): CryptoNetwork {
  const found = NETWORKS.find((candidate) => candidate.asset === asset && candidate.network === network);
  if (!found) {
    const known = NETWORKS.map((candidate) => `${candidate.asset} on ${candidate.network}`).join(', ');
    throw invalidArgument(
      `${asset} on ${network} is not a crypto collection Corridor supports (${known})`,
      { network: [`must be one of the networks of ${asset || 'the asset'}: GET /collection/crypto/networks`] },
      'UNSUPPORTED_CRYPTO_NETWORK',
    );
  }
  return found;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (bytes: Buffer, length: number) =>
  Array.from({ length }, (_, index) => BASE58[(bytes[index % bytes.length] ?? 0) % 58]).join('');

/** An address shaped as the network writes them (sandbox: derived from the address id, never funded). */
function sandboxAddress(network: string, id: string): string {
  const digest = createHash('sha256').update(`corridor-sandbox:${network}:${id}`).digest();
  if (network === 'TRON') return `T${base58(digest, 33)}`;
  if (network === 'SOLANA') return base58(digest, 44);
  return `0x${digest.subarray(0, 20).toString('hex')}`;
}

function cryptoAddressOf(row: Row): CryptoAddress {
  return create(CryptoAddressSchema, {
    id: String(row.id),
    customerId: String(row.customer_id),
    asset: String(row.asset),
    network: String(row.network),
    address: String(row.address),
    createdAt: timestampFromDate(dateOf(row.created_at)),
  });
}

/**
 * POST /collection/crypto/address: the customer's deposit address for this asset and network, made
 * once (a unique index); asking again answers the same address with `existing`.
 */
export async function createCryptoAddress(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { customerId: string; asset: string; network: string },
): Promise<{ address: CryptoAddress; existing: boolean }> {
  const network = requireNetwork(request.asset, request.network);
  const customer = await requireCustomer(tx, context, businessId, request.customerId);
  const id = randomUUID();
  const [made] = await sql(
    tx,
    `insert into crypto_address (id, business_id, customer_id, asset, network, address, created_at)
     values (?, ?, ?, ?, ?, ?, ?) on conflict (customer_id, asset, network) do nothing returning *`,
    [id, businessId, customer.id, network.asset, network.network, sandboxAddress(network.network, id), context.now()],
  );
  if (made) return { address: cryptoAddressOf(made), existing: false };
  const [existing] = await sql(tx, 'select * from crypto_address where customer_id = ? and asset = ? and network = ?', [
    customer.id,
    network.asset,
    network.network,
  ]);
  if (!existing) throw new Error(`crypto address of ${customer.id} conflicted with none`);
  return { address: cryptoAddressOf(existing), existing: true };
}

/** Whole cents of a stablecoin amount in base units; the dust below a cent stays with the rail. */
const centsOf = (assetAmount: bigint, decimals: number) => assetAmount / 10n ** BigInt(decimals - 2);

/** Money on the wire is a JSON integer (DESIGN.md "Money on the wire"): no amount is more than this. */
const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Sandbox: a deposit arrives at an address. It is a COLLECTION, PROCESSING with 0 confirmations;
 * the confirmation sweep credits it once the network's count is reached.
 */
export async function receiveCryptoDeposit(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: { addressId: string; assetAmount: string },
): Promise<Transaction> {
  requireSandbox(context, 'a crypto deposit');
  const [address] = isUuid(request.addressId)
    ? await sql(tx, 'select * from crypto_address where id = ? and business_id = ?', [request.addressId, businessId])
    : [];
  if (!address) throw notFound('CRYPTO_ADDRESS_NOT_FOUND', `no crypto address ${request.addressId} for this business`);
  const network = requireNetwork(String(address.asset), String(address.network));
  const assetAmount = /^[0-9]{1,30}$/.test(request.assetAmount) ? BigInt(request.assetAmount) : 0n;
  const amount = centsOf(assetAmount, network.decimals);
  if (amount <= 0n) {
    throw invalidArgument(
      `asset_amount must be a whole number of ${network.asset} base units (${network.decimals} decimals) worth at least 0.01 USD`,
      { asset_amount: ['must be at least one cent in base units'] },
      'INVALID_AMOUNT',
    );
  }
  if (amount > MAX_CENTS) {
    throw invalidArgument(
      `asset_amount is worth ${amount} cents, more than the largest amount (${MAX_CENTS})`,
      { asset_amount: [`must be worth at most ${MAX_CENTS} cents`] },
      'INVALID_AMOUNT',
    );
  }
  const at = await context.clock.now(tx, businessId);
  const fee = await collectionFee(tx, businessId, network.settlementCurrency, amount);
  const txHash =
    network.network === 'SOLANA' ? randomBytes(32).toString('base64url') : `0x${randomBytes(32).toString('hex')}`;
  return recordCollection(tx, context, {
    id: randomUUID(),
    businessId,
    method: 'crypto_deposit',
    status: 'PROCESSING',
    customerId: String(address.customer_id),
    currency: network.settlementCurrency,
    amount,
    fee,
    railReference: txHash,
    reference: undefined,
    description: `${network.asset} deposit on ${network.network} to ${String(address.address)}`,
    at,
    columns: {
      crypto_address_id: String(address.id),
      asset: network.asset,
      network: network.network,
      address: String(address.address),
      asset_amount: assetAmount.toString(),
      tx_hash: txHash,
      confirmations: 0,
      confirmations_required: network.confirmationsRequired,
      next_confirmation_at: new Date(at.getTime() + context.cryptoBlockMs),
    },
  });
}

/**
 * The confirmation sweep: each due deposit gains the blocks mined since it arrived (one per
 * `cryptoBlockMs`); at the network's count it is credited and SUCCESSFUL, with its event. SKIP
 * LOCKED lets replicas sweep side by side; the status guard credits a deposit once. Each deposit is
 * its own transaction (eachInItsOwnTransaction: a batch in one would deadlock with requests).
 */
export async function confirmDueDeposits(em: EntityManager, context: PaymentsContext, batch = 100): Promise<number> {
  return eachInItsOwnTransaction(
    em,
    batch,
    () => {
      const due = context.clock.due('collection', 'next_confirmation_at');
      return {
        sql: `select * from collection where status = 'processing' and ${due.sql}
              order by next_confirmation_at limit 1 for update skip locked`,
        params: due.params,
      };
    },
    async (tx, deposit) => {
      const now = await context.clock.now(tx, String(deposit.business_id));
      const required = Number(deposit.confirmations_required);
      const mined = Math.floor((now.getTime() - dateOf(deposit.created_at).getTime()) / context.cryptoBlockMs);
      const confirmations = Math.min(required, mined);
      const id = String(deposit.id);
      if (confirmations < required) {
        await sql(tx, 'update collection set confirmations = ?, next_confirmation_at = ? where id = ?', [
          confirmations,
          new Date(dateOf(deposit.created_at).getTime() + (confirmations + 1) * context.cryptoBlockMs),
          id,
        ]);
        return;
      }
      await sql(
        tx,
        `update collection set status = 'successful', confirmations = ?, next_confirmation_at = null, completed_at = ?
         where id = ?`,
        [confirmations, now, id],
      );
      await changeTransactionStatus(tx, context, id, 'PROCESSING', 'SUCCESSFUL', now);
      // The wallet last (applyTransfers locks it until the commit).
      await creditCollection(tx, context, {
        id,
        businessId: String(deposit.business_id),
        currency: String(deposit.currency),
        amount: int8(deposit.amount),
        fee: int8(deposit.fee),
      });
    },
  );
}
