import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import { PayoutsService } from '@corridor/contracts/corridor/payments/v1/payouts_service_pb';
import { ReferenceDataService } from '@corridor/contracts/corridor/payments/v1/reference_data_service_pb';
import { RefundsService } from '@corridor/contracts/corridor/payments/v1/refunds_service_pb';
import { TransactionsService } from '@corridor/contracts/corridor/payments/v1/transactions_service_pb';
import { WalletsService } from '@corridor/contracts/corridor/payments/v1/wallets_service_pb';
import {
  callerMetadata,
  createClient,
  DomainError,
  startGrpcServer,
  Status,
  type RunningGrpcServer,
  type ServiceRegistration,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { randomUUID } from 'node:crypto';
import { describePayments } from '../test/payments-database.js';
import { testPaymentsContext } from '../test/test-context.js';
import { paymentsServiceRegistrations } from './payments.grpc.js';
import { SandboxRail } from './payouts/sandbox-rail.js';

const CAPABILITIES: DescService[] = [
  ReferenceDataService,
  WalletsService,
  TransactionsService,
  PayoutsService,
  CollectionsService,
  RefundsService,
];

describe('payments: the capability services (decision 0059)', () => {
  it('name each method once across them', () => {
    const names = CAPABILITIES.flatMap((service) => service.methods.map((method) => method.name));
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  });
});

describePayments('payments: every capability method served (real gRPC)', (database) => {
  const now = new Date('2026-11-29T12:00:00.000Z');
  let registrations: ServiceRegistration[];
  let server: RunningGrpcServer;

  beforeAll(async () => {
    const { orm } = database;
    const rail = new SandboxRail(() => orm.em.fork(), { settleMs: 1_000, delayMs: 10_000, reverseMs: 2_000 });
    registrations = paymentsServiceRegistrations({ orm, context: testPaymentsContext(orm, () => now), rail });
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: registrations,
      logger: createLogger('test', { level: 'silent' }),
    });
  });
  afterAll(() => server?.shutdown(0));

  const handlerOf = (service: DescService, method: DescMethod) =>
    registrations.find((registration) => registration.service.typeName === service.typeName)?.implementation[
      method.localName
    ];

  /** What a caller sees of one call with an empty request: the answer, or the error's status and reason. */
  async function outcome(service: DescService, method: DescMethod, businessId: string) {
    const client = createClient(service, { address: `127.0.0.1:${server.port}` }) as unknown as Record<
      string,
      (request: object, settings: object) => Promise<unknown>
    >;
    try {
      const answer = await client[method.localName]?.({}, { metadata: callerMetadata({ businessId }) });
      return { answer };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { status: error.status, reason: error.reason };
    } finally {
      (client as unknown as { close(): void }).close();
    }
  }

  it.each(CAPABILITIES.flatMap((service) => service.methods.map((method) => [method.name, method] as const)))(
    '%s has a handler that answers an empty request with an answer or a domain error',
    async (_name, method) => {
      expect(handlerOf(method.parent, method)).toBeInstanceOf(Function);
      // A business of its own per method, so a write the empty request lets through touches nothing else.
      const answered = await outcome(method.parent, method, randomUUID());
      expect(answered).not.toMatchObject({ status: Status.UNIMPLEMENTED });
    },
  );
});
