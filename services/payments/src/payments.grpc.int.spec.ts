import type { DescMethod, DescService } from '@bufbuild/protobuf';
import { CollectionsService } from '@corridor/contracts/corridor/payments/v1/collections_service_pb';
import { PaymentsService } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
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

/** The capability method a legacy method is served as: the one of the same name (decision 0059). */
const capabilityMethodsNamed = (name: string) =>
  CAPABILITIES.flatMap((service) => service.methods.filter((method) => method.name === name));

describe('payments: the deprecated PaymentsService is the capability services, method for method', () => {
  it.each(PaymentsService.methods.map((method) => [method.name, method] as const))(
    'PaymentsService/%s is exactly one capability method of the same name and types',
    (_name, legacy) => {
      const [capability, ...others] = capabilityMethodsNamed(legacy.name);
      expect(others).toEqual([]);
      expect(capability?.input.typeName).toBe(legacy.input.typeName);
      expect(capability?.output.typeName).toBe(legacy.output.typeName);
      expect(capability?.methodKind).toBe(legacy.methodKind);
    },
  );

  it('the capability services have no method the legacy service lacks', () => {
    const legacy = new Set(PaymentsService.methods.map((method) => method.name));
    const capability = CAPABILITIES.flatMap((service) => service.methods.map((method) => method.name));
    expect(capability.filter((name) => !legacy.has(name))).toEqual([]);
    expect(capability).toHaveLength(legacy.size);
  });
});

describePayments('payments: every legacy and capability method served by one handler (real gRPC)', (database) => {
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

  it.each(PaymentsService.methods.map((method) => [method.name, method] as const))(
    'PaymentsService/%s and its capability method are bound to the same handler and answer alike',
    async (_name, legacy) => {
      const [capability] = capabilityMethodsNamed(legacy.name);
      if (!capability) throw new Error(`no capability method ${legacy.name}`);
      const handler = handlerOf(PaymentsService, legacy);
      expect(handler).toBeInstanceOf(Function);
      expect(handlerOf(capability.parent, capability)).toBe(handler);

      // A business of its own per method: a write the empty request lets through lands alike twice.
      const businessId = randomUUID();
      const viaLegacy = await outcome(PaymentsService, legacy, businessId);
      const viaCapability = await outcome(capability.parent, capability, businessId);
      expect(viaLegacy).not.toMatchObject({ status: Status.UNIMPLEMENTED });
      expect(viaCapability).toEqual(viaLegacy);
    },
  );
});
