import { CollectionFailureCode, CollectionMethod } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { walletBalances } from '../ledger/index.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { collectionSpecKit, dateOf } from '../../test/collection-spec-kit.js';
import { expireDueCollections, getCollection, settleCollection } from './collect.js';
import { acceptInteracTransfer, createInteracRequest, receiveInteracTransfer } from './interac.js';
import { describePayments } from '../../test/payments-database.js';

const HOUR = 3_600_000;

describePayments('payments: Interac requests and e-Transfers in CAD (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  let kit: ReturnType<typeof collectionSpecKit>;

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now);
    kit = collectionSpecKit(database.orm, database.url, () => now);
  });

  const business = () => kit.business({ name: 'Maple Leaf Imports Inc' });
  type RequestFields = Partial<Parameters<typeof createInteracRequest>[3]> & { customerId: string };
  const interacRequest = (businessId: string, fields: RequestFields) =>
    database.em().transactional((tx) =>
      createInteracRequest(tx, context, businessId, {
        amount: 80_000n,
        payerEmail: 'accounts@payer.example.ca',
        description: 'Invoice 9',
        ...fields,
      }),
    );
  type TransferFields = Partial<Parameters<typeof receiveInteracTransfer>[3]> & { customerId: string };
  const eTransfer = (businessId: string, fields: TransferFields, on = context) =>
    database.em().transactional((tx) =>
      receiveInteracTransfer(tx, on, businessId, {
        amount: 30_000n,
        senderName: 'Jean Tremblay',
        senderEmail: 'jean.tremblay@example.ca',
        ...fields,
      }),
    );
  const accept = (businessId: string, id: string) =>
    database.em().transactional((tx) => acceptInteracTransfer(tx, context, businessId, id));
  const settle = (businessId: string, id: string, outcome: 'pay' | 'decline' | 'expire') =>
    database.em().transactional((tx) => settleCollection(tx, context, businessId, id, outcome));
  const read = (businessId: string, id: string) => getCollection(database.em(), businessId, id);
  const cad = async (businessId: string) => (await walletBalances(database.em(), businessId)).get('CAD');
  const collectionRows = (businessId: string) =>
    query(database.url, 'select id from collection where business_id = $1', [businessId]);

  describe('an Interac money request', () => {
    it('issue 11: is a PENDING CAD collection with the payer’s email; the payer pays: SUCCESSFUL, amount - 1 % credited', async () => {
      const { businessId, customerId } = await business();
      const created = await interacRequest(businessId, { customerId, reference: 'interac-9' });
      expect(created).toMatchObject({
        type: TransactionType.COLLECTION,
        status: TransactionStatus.PENDING,
        currency: 'CAD',
        amount: 80_000n,
        fee: 800n,
        net: 79_200n,
        reference: 'interac-9',
        description: 'Invoice 9',
        collectionDetails: {
          method: CollectionMethod.INTERAC_REQUEST,
          customerId,
          payerEmail: 'accounts@payer.example.ca',
          description: 'Invoice 9',
        },
      });
      // The payer pays from their bank: no payment link of Corridor's.
      expect(created.collectionDetails?.paymentToken).toBeUndefined();
      expect(created.collectionDetails?.crypto).toBeUndefined();
      expect(dateOf(created.collectionDetails?.expiresAt)).toEqual(new Date(now.getTime() + 48 * HOUR));
      expect(await read(businessId, created.id)).toEqual(created);
      expect(await cad(businessId)).toBeUndefined();

      advance(HOUR);
      const paid = await settle(businessId, created.id, 'pay');
      expect(paid).toMatchObject({
        status: TransactionStatus.SUCCESSFUL,
        collectionDetails: { method: CollectionMethod.INTERAC_REQUEST, payerEmail: 'accounts@payer.example.ca' },
      });
      expect(dateOf(paid.collectionDetails?.completedAt)).toEqual(now);
      expect(await cad(businessId)).toMatchObject({ ledger: 79_200n, pending: 0n, available: 79_200n });
      expect(await kit.moves(created.id)).toEqual([
        { phase: 'posted', amount: '79200', debit: 'settlement', credit: 'wallet' },
        { phase: 'posted', amount: '800', debit: 'settlement', credit: 'fees' },
      ]);
      expect(await kit.statusTrail(created.id)).toEqual([
        ['created', TransactionStatus.PENDING],
        ['updated', TransactionStatus.PENDING, TransactionStatus.SUCCESSFUL],
      ]);
    });

    it('issue 11: the payer declines: FAILED (DECLINED_BY_PAYER), no money moves', async () => {
      const { businessId, customerId } = await business();
      const created = await interacRequest(businessId, { customerId });
      expect(await settle(businessId, created.id, 'decline')).toMatchObject({
        status: TransactionStatus.FAILED,
        collectionDetails: { failureCode: CollectionFailureCode.DECLINED_BY_PAYER },
      });
      expect(await cad(businessId)).toBeUndefined();
      expect(await kit.moves(created.id)).toEqual([]);
    });

    it('issue 11: not paid in time it is EXPIRED by the sweep, no funds move, and paying it afterwards is 400', async () => {
      const { businessId, customerId } = await business();
      const created = await interacRequest(businessId, { customerId });
      advance(48 * HOUR - 1);
      await expireDueCollections(database.em(), context);
      expect((await read(businessId, created.id)).status).toBe(TransactionStatus.PENDING);

      advance(1);
      expect(await expireDueCollections(database.em(), context)).toBeGreaterThanOrEqual(1);
      const expired = await read(businessId, created.id);
      expect(expired.status).toBe(TransactionStatus.EXPIRED);
      expect(expired.collectionDetails?.completedAt).toBeUndefined();
      expect(await kit.statusTrail(created.id)).toEqual([
        ['created', TransactionStatus.PENDING],
        ['updated', TransactionStatus.PENDING, TransactionStatus.EXPIRED],
      ]);
      await expect(settle(businessId, created.id, 'pay')).rejects.toMatchObject({
        reason: 'COLLECTION_NOT_PENDING',
        status: Status.FAILED_PRECONDITION,
      });
      expect(await cad(businessId)).toBeUndefined();
      expect(await kit.moves(created.id)).toEqual([]);
    });

    it('issue 11: refused naming why: payer_email not an email (422 naming it), amount, another business’s customer', async () => {
      const { businessId, customerId } = await business();
      for (const payerEmail of [
        'not-an-email',
        'payer@localhost',
        'two words@example.ca',
        '',
        `${'a'.repeat(250)}@x.ca`,
      ]) {
        await expect(interacRequest(businessId, { customerId, payerEmail })).rejects.toMatchObject({
          reason: 'VALIDATION_FAILED',
          status: Status.INVALID_ARGUMENT,
          message: expect.stringContaining('payer_email'),
          fieldErrors: { payer_email: [expect.any(String)] },
        });
      }
      for (const amount of [0n, -100n]) {
        await expect(interacRequest(businessId, { customerId, amount })).rejects.toMatchObject({
          reason: 'INVALID_AMOUNT',
          status: Status.INVALID_ARGUMENT,
        });
      }
      const stranger = await business();
      for (const id of [stranger.customerId, 'not-a-uuid']) {
        await expect(interacRequest(businessId, { customerId: id })).rejects.toMatchObject({
          reason: 'CUSTOMER_NOT_FOUND',
          status: Status.INVALID_ARGUMENT,
        });
      }
      expect(await collectionRows(businessId)).toEqual([]);
    });
  });

  describe('an incoming Interac e-Transfer', () => {
    it('issue 11: arrives PENDING with its sender; the business accepts it: SUCCESSFUL, the CAD wallet credited', async () => {
      const { businessId, customerId } = await business();
      const arrived = await eTransfer(businessId, { customerId });
      expect(arrived).toMatchObject({
        type: TransactionType.COLLECTION,
        status: TransactionStatus.PENDING,
        currency: 'CAD',
        amount: 30_000n,
        fee: 300n,
        net: 29_700n,
        collectionDetails: {
          method: CollectionMethod.INTERAC_TRANSFER,
          customerId,
          senderName: 'Jean Tremblay',
          payerEmail: 'jean.tremblay@example.ca',
        },
      });
      expect(dateOf(arrived.collectionDetails?.expiresAt)).toEqual(new Date(now.getTime() + 48 * HOUR));
      expect(await cad(businessId)).toBeUndefined();
      expect(await kit.statusTrail(arrived.id)).toEqual([['created', TransactionStatus.PENDING]]);

      advance(HOUR);
      const accepted = await accept(businessId, arrived.id);
      expect(accepted).toMatchObject({
        id: arrived.id,
        status: TransactionStatus.SUCCESSFUL,
        collectionDetails: { method: CollectionMethod.INTERAC_TRANSFER, senderName: 'Jean Tremblay' },
      });
      expect(dateOf(accepted.collectionDetails?.completedAt)).toEqual(now);
      expect(await read(businessId, arrived.id)).toEqual(accepted);
      expect(await cad(businessId)).toMatchObject({ ledger: 29_700n, pending: 0n, available: 29_700n });
      expect(await kit.statusTrail(arrived.id)).toEqual([
        ['created', TransactionStatus.PENDING],
        ['updated', TransactionStatus.PENDING, TransactionStatus.SUCCESSFUL],
      ]);

      // Accepted twice: 400, and nothing more moves.
      await expect(accept(businessId, arrived.id)).rejects.toMatchObject({
        reason: 'COLLECTION_NOT_PENDING',
        status: Status.FAILED_PRECONDITION,
        message: expect.stringContaining('successful'),
      });
      expect(await cad(businessId)).toMatchObject({ ledger: 29_700n });
      expect(await kit.moves(arrived.id)).toHaveLength(2);
    });

    it('issue 11: only the business’s own e-Transfers are accepted: a money request, another business’s, an unknown id are 404', async () => {
      const { businessId, customerId } = await business();
      const request = await interacRequest(businessId, { customerId });
      const arrived = await eTransfer(businessId, { customerId });
      const notFound = { reason: 'INTERAC_TRANSFER_NOT_FOUND', status: Status.NOT_FOUND };
      for (const [owner, id] of [
        [businessId, request.id],
        [randomUUID(), arrived.id],
        [businessId, randomUUID()],
        [businessId, 'not-a-uuid'],
      ] as const) {
        await expect(accept(owner, id)).rejects.toMatchObject(notFound);
      }
      // The payer's outcomes are not the business's to play on an e-Transfer either.
      await expect(settle(businessId, arrived.id, 'pay')).rejects.toMatchObject({
        reason: 'COLLECTION_NOT_PENDING',
        status: Status.FAILED_PRECONDITION,
      });
      expect((await read(businessId, request.id)).status).toBe(TransactionStatus.PENDING);
      expect((await read(businessId, arrived.id)).status).toBe(TransactionStatus.PENDING);
      expect(await cad(businessId)).toBeUndefined();
    });

    it('issue 11: one never accepted expires (no money moves); accepting it then is 400 COLLECTION_NOT_PENDING', async () => {
      const { businessId, customerId } = await business();
      const arrived = await eTransfer(businessId, { customerId });
      advance(48 * HOUR);
      expect(await expireDueCollections(database.em(), context)).toBeGreaterThanOrEqual(1);
      expect((await read(businessId, arrived.id)).status).toBe(TransactionStatus.EXPIRED);
      expect(await kit.statusTrail(arrived.id)).toEqual([
        ['created', TransactionStatus.PENDING],
        ['updated', TransactionStatus.PENDING, TransactionStatus.EXPIRED],
      ]);
      await expect(accept(businessId, arrived.id)).rejects.toMatchObject({
        reason: 'COLLECTION_NOT_PENDING',
        status: Status.FAILED_PRECONDITION,
        message: expect.stringContaining('expired'),
      });
      expect(await cad(businessId)).toBeUndefined();
      expect(await kit.moves(arrived.id)).toEqual([]);
    });

    it('issue 11: accepted after its expiry time, before any sweep, it expires instead and moves no money', async () => {
      const { businessId, customerId } = await business();
      const arrived = await eTransfer(businessId, { customerId });
      advance(48 * HOUR + 1_000);
      expect((await accept(businessId, arrived.id)).status).toBe(TransactionStatus.EXPIRED);
      expect(await cad(businessId)).toBeUndefined();
      expect(await kit.moves(arrived.id)).toEqual([]);
    });

    it('issue 11: the sandbox refuses a bad sender_email (422 naming it), an amount, a stranger; production 403 SANDBOX_ONLY', async () => {
      const { businessId, customerId } = await business();
      for (const senderEmail of ['jean.tremblay', 'jean@', '']) {
        await expect(eTransfer(businessId, { customerId, senderEmail })).rejects.toMatchObject({
          reason: 'VALIDATION_FAILED',
          status: Status.INVALID_ARGUMENT,
          message: expect.stringContaining('sender_email'),
          fieldErrors: { sender_email: [expect.any(String)] },
        });
      }
      await expect(eTransfer(businessId, { customerId, amount: 0n })).rejects.toMatchObject({
        reason: 'INVALID_AMOUNT',
      });
      const stranger = await business();
      await expect(eTransfer(businessId, { customerId: stranger.customerId })).rejects.toMatchObject({
        reason: 'CUSTOMER_NOT_FOUND',
      });
      const production = { ...context, environment: 'production' as const };
      await expect(eTransfer(businessId, { customerId }, production)).rejects.toMatchObject({
        reason: 'SANDBOX_ONLY',
        status: Status.PERMISSION_DENIED,
      });
      expect(await collectionRows(businessId)).toEqual([]);
    });
  });
});
