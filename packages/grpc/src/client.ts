import { credentials, makeGenericClientConstructor, Metadata, type CallOptions, type Client } from '@grpc/grpc-js';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { toServiceDefinition, type RequestInitOf, type ResponseOf, type UnaryMethods } from './definition.js';
import { fromServiceError } from './errors.js';

export interface CallSettings {
  metadata?: Metadata;
  /** Overrides the client's default deadline for this call. */
  timeoutMs?: number;
  /** Receives the response headers (initial metadata) the service sent, before the answer resolves. */
  onResponseMetadata?: (metadata: Metadata) => void;
}

/** A promise-based client: one async function per unary method; failures reject with DomainError. */
export type ServiceClient<S extends GenServiceMethods> = {
  [K in keyof UnaryMethods<S>]: (
    request: RequestInitOf<UnaryMethods<S>[K]>,
    settings?: CallSettings,
  ) => Promise<ResponseOf<UnaryMethods<S>[K]>>;
} & { close(): void; raw: Client };

export interface ClientOptions {
  /** host:port, or several replicas' ip:port separated by commas (balanced round-robin). */
  address: string;
  /** Deadline of every call unless the call sets its own; there is no call without one. */
  defaultTimeoutMs?: number;
}

const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

/**
 * grpc-js's target for an address: host:port as given (DNS resolves it, every record a replica), and
 * a list of replicas' ip:port as one `ipv4:` target, so one channel balances across all of them.
 */
export function grpcTarget(address: string): string {
  const addresses = address.split(',').map((part) => part.trim());
  return addresses.length === 1 ? address : `ipv4:${addresses.join(',')}`;
}

type Callback = (error: Error | null, response?: unknown) => void;
type UnaryStub = (
  request: unknown,
  metadata: Metadata,
  options: CallOptions,
  callback: Callback,
) => { on(event: 'metadata', listener: (metadata: Metadata) => void): unknown };

export function createClient<S extends GenServiceMethods>(
  service: GenService<S>,
  options: ClientOptions,
): ServiceClient<S> {
  const Constructor = makeGenericClientConstructor(toServiceDefinition(service), service.typeName);
  const raw = new Constructor(grpcTarget(options.address), credentials.createInsecure(), {
    // Reconnect quickly after a restart of the service instead of backing off for minutes.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2_000,
    // Every call to the next ready replica (grpc-js's default, pick_first, would send all to one);
    // a replica that is down is skipped while it reconnects.
    'grpc.service_config': ROUND_ROBIN,
  });
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 5_000;
  const client: Record<string, unknown> = { close: () => raw.close(), raw };
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') continue;
    const stub = (raw as unknown as Record<string, UnaryStub>)[method.localName];
    if (!stub) throw new Error(`grpc-js did not generate ${method.localName}`);
    client[method.localName] = (request: unknown, settings: CallSettings = {}) =>
      new Promise((resolve, reject) => {
        const deadline = new Date(Date.now() + (settings.timeoutMs ?? defaultTimeoutMs));
        const call = stub.call(raw, request, settings.metadata ?? new Metadata(), { deadline }, (error, response) =>
          error ? reject(fromServiceError(error)) : resolve(response),
        );
        const { onResponseMetadata } = settings;
        if (onResponseMetadata) call.on('metadata', onResponseMetadata);
      });
  }
  return client as ServiceClient<S>;
}

/** The client type of a generated service: `ClientOf<typeof IdentityService>`. */
export type ClientOf<S> = S extends GenService<infer M> ? ServiceClient<M> : never;

/** The clients of named generated services: `ClientsOf<{ wallets: typeof WalletsService }>`. */
export type ClientsOf<M> = { [K in keyof M]: ClientOf<M[K]> };

/** A client of each of `services`, under the same names, all at one target. */
export function createClients<M extends Record<string, GenService<GenServiceMethods>>>(
  services: M,
  options: ClientOptions,
): ClientsOf<M> {
  const clients = Object.entries(services).map(([name, service]) => [name, createClient(service, options)]);
  return Object.fromEntries(clients) as ClientsOf<M>;
}
