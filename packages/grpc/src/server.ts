import {
  Metadata,
  Server,
  ServerCredentials,
  status as Status,
  type handleUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import type { Logger } from '@corridor/logging';
import { metrics } from '@opentelemetry/api';
import { toServiceDefinition, type RequestOf, type ResponseInitOf, type UnaryMethods } from './definition.js';
import { DomainError, invalidArgument, toServiceError } from './errors.js';
import { failureKind } from './failure.js';
import { readCaller, type CallerContext } from './metadata.js';

export interface CallContext {
  caller: CallerContext;
  metadata: Metadata;
  /** Aborted when the client cancels or its deadline passes. */
  signal: AbortSignal;
  /**
   * Response headers (initial metadata) sent with a successful answer, e.g. `idempotent-replayed`;
   * the client reads them with `CallSettings.onResponseMetadata`.
   */
  responseMetadata: Metadata;
}

/** A service implementation: one async function per unary method of the generated service. */
export type ServiceImplementation<S extends GenServiceMethods> = {
  [K in keyof UnaryMethods<S>]: (
    request: RequestOf<UnaryMethods<S>[K]>,
    context: CallContext,
  ) => Promise<ResponseInitOf<UnaryMethods<S>[K]>>;
};

export interface ServiceRegistration {
  service: GenService<GenServiceMethods>;
  implementation: Record<string, (request: never, context: CallContext) => Promise<unknown>>;
}

/** Pairs a generated service with its implementation, checked against each other at compile time. */
export function registration<S extends GenServiceMethods>(
  service: GenService<S>,
  implementation: ServiceImplementation<S>,
): ServiceRegistration {
  return { service, implementation } as unknown as ServiceRegistration;
}

const REFUSED_VALUE = invalidArgument(
  'a value in the request cannot be stored: it holds a character, or a size, the database refuses',
  { '(body)': ['holds a character, or a size, the database refuses'] },
);

// A no-op until the service's telemetry registers a meter provider (its Prometheus endpoint).
const internalErrors = metrics
  .getMeter('@corridor/grpc')
  .createCounter('corridor_grpc_internal_errors', { description: 'Calls answered INTERNAL (a defect), by method' });

function unaryHandler(
  name: string,
  method: (request: never, context: CallContext) => Promise<unknown>,
  logger: Logger,
): handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const controller = new AbortController();
    call.on('cancelled', () => controller.abort());
    const context: CallContext = {
      caller: readCaller(call.metadata),
      metadata: call.metadata,
      signal: controller.signal,
      responseMetadata: new Metadata(),
    };
    method(call.request as never, context).then(
      (response) => {
        if (Object.keys(context.responseMetadata.getMap()).length > 0) call.sendMetadata(context.responseMetadata);
        callback(null, response);
      },
      (error: unknown) => {
        if (error instanceof DomainError) {
          callback(toServiceError(error));
          return;
        }
        // Unexpected: answered by what it says of its cause (issue 18), logged whole, its insides never sent.
        const kind = failureKind(error);
        if (kind === 'unavailable') {
          logger.warn({ err: error, method: name }, 'a dependency is unavailable');
          callback({ code: Status.UNAVAILABLE, details: 'a dependency is unavailable; retry shortly' });
          return;
        }
        if (kind === 'refused-value') {
          // The caller's input, but validation should have refused it first: a defect to fix too.
          logger.error({ err: error, method: name }, 'the database refused a value that validation let through');
          callback(toServiceError(REFUSED_VALUE));
          return;
        }
        logger.error({ err: error, method: name }, 'unhandled error in gRPC method');
        internalErrors.add(1, { 'rpc.method': name });
        callback({ code: Status.INTERNAL, details: 'internal error' });
      },
    );
  };
}

export interface GrpcServerOptions {
  /** host:port; port 0 picks a free one. */
  address: string;
  services: ServiceRegistration[];
  logger: Logger;
}

export interface RunningGrpcServer {
  server: Server;
  port: number;
  /** Stops accepting calls, lets running calls finish for up to graceMs, then forces. */
  shutdown(graceMs?: number): Promise<void>;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new Server();
  for (const { service, implementation } of options.services) {
    const handlers: UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(implementation)) {
      handlers[name] = unaryHandler(`${service.typeName}/${name}`, method, options.logger);
    }
    server.addService(toServiceDefinition(service), handlers);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.address, ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    ),
  );
  return {
    server,
    port,
    shutdown: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
