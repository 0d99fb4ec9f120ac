import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CustomerType, KybScope, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { CreateCollectionRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { Environment, newEvent, type NewEvent } from '@corridor/contracts/events';
import { createClient, DomainError, notFound, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { query, startFakeGrpcService } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { createCollection } from '../collections/collect.js';
import { createVirtualAccount } from '../collections/virtual-accounts.js';
import type { PaymentsContext } from '../context.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { customerProjection } from './customer-projection.js';
import { customerKybSource } from './customer-source.js';
import { describePayments } from '../../test/payments-database.js';

type Status4 = 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED';
const STATUS: Record<Status4, VerificationStatus> = {
  PENDING: VerificationStatus.PENDING,
  PROCESSING: VerificationStatus.PROCESSING,
  VERIFIED: VerificationStatus.VERIFIED,
  REJECTED: VerificationStatus.REJECTED,
};

/**
 * Decision 0033: when the customer projection has not seen a customer, or holds a status that would
 * refuse the request, customer-kyb's answer (a fake CustomerService over real gRPC) decides, and is
 * kept only when newer than what the projection holds; customer-kyb away is 503, never "not a customer".
 */
const startFake = () =>
  startFakeGrpcService(CustomerService, (method) => () => {
    throw new DomainError(Status.UNIMPLEMENTED, 'UNIMPLEMENTED', `${method} is not faked`);
  });

describePayments('payments: read-your-writes of customers (real PostgreSQL, fake customer-kyb)', (database) => {
  let fake: Awaited<ReturnType<typeof startFake>>;
  let context: PaymentsContext;
  const now = new Date('2026-11-29T10:00:00.000Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  const logger = createLogger('test', { level: 'silent' });
  const project = customerProjection({ logger });
  /** What customer-kyb holds, by customer id: the fake answers from it as the business that owns each. */
  const held = new Map<string, { businessId: string; status: Status4; scope: KybScope; updatedAt: Date }>();

  beforeAll(async () => {
    fake = await startFake();
    fake.answers.set('getCustomer', (request) => {
      const id = String(request.customerId);
      const customer = held.get(id);
      // As customer-kyb: another business's customer is NOT_FOUND to the caller.
      const caller = fake.calls.at(-1)?.caller.businessId;
      if (!customer || customer.businessId !== caller) throw notFound('CUSTOMER_NOT_FOUND', `no customer ${id}`);
      return {
        customer: {
          id,
          businessId: customer.businessId,
          type: CustomerType.BUSINESS,
          kybScope: customer.scope,
          verificationStatus: STATUS[customer.status],
          data: { case: 'business', value: { businessName: 'Adaeze Textiles Ltd' } },
          createdAt: timestampFromDate(now),
          updatedAt: timestampFromDate(customer.updatedAt),
        },
      };
    });
    context = testPaymentsContext(database.orm, () => now, {
      customers: customerKybSource(fake.client, { environment: 'sandbox', logger }),
    });
  });

  afterAll(async () => {
    await fake?.stop();
  });

  /** The consumer's handling of an event of corridor.customer.v1 that occurred at `occurredAt`. */
  const deliver = (businessId: string, occurredAt: Date, payload: NewEvent['payload']) =>
    database.em().transactional((tx) =>
      project(newEvent({ businessId, environment: Environment.SANDBOX, occurredAt, payload }), tx, {
        topic: 'test.corridor.customer.v1',
        partition: 0,
        offset: '0',
      }),
    );
  const created = (businessId: string, customerId: string, occurredAt: Date, status: Status4 = 'PENDING') =>
    deliver(businessId, occurredAt, {
      case: 'customerCreated',
      value: {
        customerId,
        customerType: 'business',
        kybScope: 'FULL',
        verificationStatus: status,
        displayName: 'Adaeze',
      },
    });
  const statusChanged = (businessId: string, customerId: string, occurredAt: Date, from: Status4, to: Status4) =>
    deliver(businessId, occurredAt, {
      case: 'customerStatusChanged',
      value: {
        customerId,
        customerType: 'business',
        kybScope: 'FULL',
        oldStatus: from,
        newStatus: to,
        trigger: 'review',
        displayName: '',
      },
    });

  const open = (businessId: string, customerId: string, currency = 'GBP', using = context) =>
    database.em().transactional((tx) => createVirtualAccount(tx, using, businessId, { customerId, currency }));
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'opened',
      (error: DomainError) => ({ status: error.status, reason: error.reason }),
    );
  const projection = async (customerId: string) =>
    (
      await query<{ verification_status: string; updated_at: Date }>(
        database.url,
        'select verification_status, updated_at from customer_projection where customer_id = $1',
        [customerId],
      )
    )[0];
  const accounts = (customerId: string) =>
    query<{ status: string }>(database.url, 'select status from virtual_account where customer_id = $1', [customerId]);
  const callsFor = (customerId: string) =>
    fake.calls.filter((call) => call.method === 'getCustomer' && call.request.customerId === customerId);

  /** A customer customer-kyb holds with `status` as of `updatedAt`, of a new business. */
  const heldCustomer = (status: Status4, updatedAt = at(1), scope = KybScope.FULL) => {
    const businessId = randomUUID();
    const customerId = randomUUID();
    held.set(customerId, { businessId, status, scope, updatedAt });
    return { businessId, customerId };
  };

  it('opens an account for a customer the projection has not seen yet, asking customer-kyb as the business', async () => {
    const { businessId, customerId } = heldCustomer('VERIFIED');
    const account = await open(businessId, customerId);
    expect({ currency: account.currency, name: account.accountName }).toEqual({
      currency: 'GBP',
      name: 'Adaeze Textiles Ltd',
    });
    expect(callsFor(customerId).map((call) => call.caller)).toEqual([
      expect.objectContaining({ businessId, environment: 'sandbox' }),
    ]);
    // The answer is kept (the account references the row), at customer-kyb's updated_at.
    expect(await projection(customerId)).toEqual({ verification_status: 'VERIFIED', updated_at: at(1) });
  });

  it('opens an account when the projection still holds the status before the verdict', async () => {
    const { businessId, customerId } = heldCustomer('VERIFIED', at(2));
    await created(businessId, customerId, at(0));
    await statusChanged(businessId, customerId, at(1), 'PENDING', 'PROCESSING');
    await open(businessId, customerId);
    expect((await projection(customerId))?.verification_status).toBe('VERIFIED');
  });

  it('opens in a currency the projection would refuse when customer-kyb already holds FULL KYB', async () => {
    const { businessId, customerId } = heldCustomer('VERIFIED', at(2), KybScope.FULL);
    await deliver(businessId, at(0), {
      case: 'customerCreated',
      value: {
        customerId,
        customerType: 'business',
        kybScope: 'MINIMAL',
        verificationStatus: 'VERIFIED',
        displayName: 'A',
      },
    });
    expect((await open(businessId, customerId, 'EUR')).currency).toBe('EUR');
  });

  it('asks nothing when the projection already serves the request', async () => {
    const { businessId, customerId } = heldCustomer('VERIFIED');
    await created(businessId, customerId, at(0), 'VERIFIED');
    await open(businessId, customerId);
    expect(callsFor(customerId)).toEqual([]);
  });

  it("refuses on customer-kyb's word: not a customer, another business's, or truly not verified", async () => {
    const unknown = randomUUID();
    expect(await refusal(open(randomUUID(), unknown))).toEqual({
      status: Status.INVALID_ARGUMENT,
      reason: 'CUSTOMER_NOT_FOUND',
    });
    const other = heldCustomer('VERIFIED');
    await created(other.businessId, other.customerId, at(0), 'VERIFIED');
    const stranger = randomUUID();
    expect(await refusal(open(stranger, other.customerId))).toEqual({
      status: Status.INVALID_ARGUMENT,
      reason: 'CUSTOMER_NOT_FOUND',
    });
    expect(callsFor(other.customerId).map((call) => call.caller.businessId)).toEqual([stranger]);
    const processing = heldCustomer('PROCESSING');
    expect(await refusal(open(processing.businessId, processing.customerId))).toEqual({
      status: Status.INVALID_ARGUMENT,
      reason: 'CUSTOMER_NOT_VERIFIED',
    });
  });

  it('never lets an older answer undo a newer event, nor a late event undo a newer answer', async () => {
    // customer-kyb's answer (VERIFIED at 1 s) is older than the REJECTED event the projection holds.
    const rejected = heldCustomer('VERIFIED', at(1));
    await created(rejected.businessId, rejected.customerId, at(0));
    await statusChanged(rejected.businessId, rejected.customerId, at(2), 'PROCESSING', 'REJECTED');
    expect(await refusal(open(rejected.businessId, rejected.customerId))).toEqual({
      status: Status.INVALID_ARGUMENT,
      reason: 'CUSTOMER_NOT_VERIFIED',
    });
    expect(await projection(rejected.customerId)).toEqual({ verification_status: 'REJECTED', updated_at: at(2) });

    // The answer (VERIFIED at 5 s) opened an account; events it already reflects arrive afterwards.
    const late = heldCustomer('VERIFIED', at(5));
    await open(late.businessId, late.customerId);
    await created(late.businessId, late.customerId, at(0));
    await statusChanged(late.businessId, late.customerId, at(3), 'PROCESSING', 'REJECTED');
    expect(await projection(late.customerId)).toEqual({ verification_status: 'VERIFIED', updated_at: at(5) });
    expect(await accounts(late.customerId)).toEqual([{ status: 'active' }]);
    // A verdict after the answer still applies: the account is closed (decision 0014).
    await statusChanged(late.businessId, late.customerId, at(6), 'VERIFIED', 'REJECTED');
    expect(await accounts(late.customerId)).toEqual([{ status: 'closed' }]);
  });

  it('takes a money request for a customer only customer-kyb knows yet', async () => {
    const { businessId, customerId } = heldCustomer('PENDING');
    const transaction = await database.em().transactional((tx) =>
      createCollection(
        tx,
        context,
        businessId,
        create(CreateCollectionRequestSchema, {
          customerId,
          currency: 'NGN',
          amount: 5_000_00n,
          description: 'Rent',
        }),
      ),
    );
    expect(transaction.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await projection(customerId))?.verification_status).toBe('PENDING');
  });

  it('answers 503 when customer-kyb is unreachable or too slow, never "not a customer"', async () => {
    const unreachable = testPaymentsContext(database.orm, () => now, {
      customers: customerKybSource(createClient(CustomerService, { address: '127.0.0.1:1', defaultTimeoutMs: 1_000 }), {
        environment: 'sandbox',
      }),
    });
    const away = { status: Status.UNAVAILABLE, reason: 'CUSTOMER_SERVICE_UNAVAILABLE' };
    const unseen = heldCustomer('VERIFIED');
    expect(await refusal(open(unseen.businessId, unseen.customerId, 'GBP', unreachable))).toEqual(away);
    const stale = heldCustomer('VERIFIED', at(2));
    await created(stale.businessId, stale.customerId, at(0), 'PROCESSING');
    expect(await refusal(open(stale.businessId, stale.customerId, 'GBP', unreachable))).toEqual(away);

    const slow = await startFakeGrpcService(CustomerService, () => async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return {};
    });
    try {
      const timingOut = testPaymentsContext(database.orm, () => now, {
        customers: customerKybSource(
          { getCustomer: (request, settings) => slow.client.getCustomer(request, { ...settings, timeoutMs: 100 }) },
          { environment: 'sandbox' },
        ),
      });
      expect(await refusal(open(unseen.businessId, unseen.customerId, 'GBP', timingOut))).toEqual(away);
    } finally {
      await slow.stop();
    }
  });
});
